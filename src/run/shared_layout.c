/*
 * shared_layout.c - each kernel's .shared layout as the loader keeps it: check/shared_plan.c
 * lays the module out (the computation `ptxi check` measures against ptxas's limit), and
 * here each dfunc takes its view: the variables its code reaches, their offsets, its static
 * size and where its dynamic shared memory starts.
 */
#include "shared_layout.h"

#include <stdio.h>
#include <stdlib.h>

#include "check/shared_plan.h"
#include "support/diag.h"

static int too_big(const struct dprog *P, struct diag *d, const struct dfunc *k,
		   const struct ir_sym *s)
{
	char b[48];
	uint64_t size = ir_sym_bytes(s);
	if (size == UINT64_MAX)
		snprintf(b, sizeof b, "2^64 bytes or more");
	else
		snprintf(b, sizeof b, "%llu bytes", (unsigned long long)size);
	diag_report(d, DIAG_ERROR, P->m->file, s->span, "shared variable '%s' (%s) takes the "
		    "static shared memory of kernel '%s' past the %u bytes of an sm_90 CTA", s->name,
		    b, k->name, SHARED_LAYOUT_MAX);
	return 1;
}

/* df's view of the plan, copied into the program's arena. */
static void keep_view(struct dprog *P, const struct shared_plan *sp, struct dfunc *df,
		      const struct shared_view *v)
{
	uint32_t n = v->nheld;
	df->nshared = n;
	df->shared_syms = arena_alloc(P->arena, sizeof *df->shared_syms * (n ? n : 1));
	df->shared_addrs = arena_alloc(P->arena, sizeof *df->shared_addrs * (n ? n : 1));
	for (uint32_t i = 0; i < n; i++) {
		uint64_t addr;
		shared_plan_held(sp, df->ir, i, &df->shared_syms[i], &addr);
		df->shared_addrs[i] = (uint32_t)addr;
	}
	df->shared_static = (uint32_t)v->bytes;
	df->shared_dyn_off = (uint32_t)v->dyn_off;
}

int shared_layout_plan(struct dprog *P, struct diag *d)
{
	struct shared_plan *sp = shared_plan_new();
	bool ok = sp != NULL;
	for (uint32_t i = 0; ok && i < P->nfuncs; i++)
		if (P->funcs[i].ir->has_body)
			ok = shared_plan_note(sp, P->funcs[i].ir);
	if (!ok || !shared_plan_solve(sp, P->m)) {
		shared_plan_free(sp);
		diag_report(d, DIAG_ERROR, P->m->file, (struct src_span){0, 0},
			    "out of memory laying out shared memory");
		return 1;
	}
	int errors = 0;
	for (uint32_t i = 0; i < P->nfuncs; i++) { /* each kernel past the CTA is reported */
		const struct shared_view *v = shared_plan_view(sp, P->funcs[i].ir);
		if (v && P->funcs[i].ir->is_entry && v->used > SHARED_LAYOUT_MAX)
			errors += too_big(P, d, &P->funcs[i],
					  shared_plan_past(sp, P->funcs[i].ir, SHARED_LAYOUT_MAX));
	}
	for (uint32_t i = 0; !errors && i < P->nfuncs; i++) {
		const struct shared_view *v = shared_plan_view(sp, P->funcs[i].ir);
		if (v)
			keep_view(P, sp, &P->funcs[i], v);
	}
	shared_plan_free(sp);
	return errors;
}

void shared_layout_apply(const struct dfunc *df)
{
	for (uint32_t i = 0; i < df->nshared; i++)
		((struct ir_sym *)df->shared_syms[i])->addr = df->shared_addrs[i];
}

bool shared_layout_addr(const struct dfunc *k, const struct ir_sym *s, uint64_t *addr)
{
	for (uint32_t i = 0; k && i < k->nshared; i++)
		if (k->shared_syms[i] == s) {
			*addr = k->shared_addrs[i];
			return true;
		}
	return false;
}
