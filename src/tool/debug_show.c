/*
 * debug_show.c - what `ptxi debug` prints of a stopped launch: where a warp stands (PTX and
 * source line), the warps and what each waits on, the threads, the live mbarriers with
 * their waiters and the copies in flight toward them, the copies, the CTA barriers, and the
 * call frames.
 */
#include "debug_priv.h"

#include <string.h>

#include "hopper/async.h"
#include "hopper/mbarrier.h"
#include "report/rules.h"
#include "report/srcloc.h"
#include "run/memory.h"
#include "run/operand.h"

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

/* "producer.ptx:52" (and " (kernel.cu:18)" where the module has .loc) */
static void place(struct dbg *d, const struct dinsn *di, struct strbuf *b)
{
	sb_printf(b, "%s:%u", base_name(d->file->path), dbg_line(d, di));
	const struct ir_loc *loc = di && di->ir ? di->ir->loc : NULL;
	if (!loc)
		return;
	const struct ir_module *m = d->P->m;
	for (uint32_t i = 0; i < m->nfiles; i++)
		if (m->files[i].index == loc->file) {
			sb_printf(b, " (%s:%u)", base_name(m->files[i].path), loc->line);
			return;
		}
}

void show_source_line(struct dbg *d, uint32_t line)
{
	const char *t = d->file->text, *end = t + d->file->len;
	for (uint32_t l = 1; l < line && t < end; t++)
		if (*t == '\n')
			l++;
	size_t n = strcspn(t, "\n");
	fprintf(d->out, "%u\t%.*s\n", line, (int)n, t);
}

void show_where(struct dbg *d, struct warp *w, struct group *g, const struct dinsn *di)
{
	struct strbuf b = {0};
	describe_lanes(w, g ? g->mask : d->last_mask, &b);
	sb_printf(&b, ") at ");
	place(d, di, &b);
	const struct dfunc *fn = g ? g->frame->fn : srcloc_func_of(d->P, di);
	fprintf(d->out, "CTA (%u,%u,%u) warp %u (%s in %s\n", w->cta->ctaid[0], w->cta->ctaid[1],
		w->cta->ctaid[2], w->id, b.s, fn ? fn->name : "?");
	sb_free(&b);
	show_source_line(d, dbg_line(d, di));
}

void show_mbar_name(struct dbg *d, const struct cta *c, uint32_t off, struct strbuf *b)
{
	uint32_t within = 0;
	const struct ir_sym *s = srcloc_shared_var(d->L->kernel, off, &within);
	if (s && within < ir_sym_bytes(s)) {
		srcloc_var(s, within, 8, b);
		sb_printf(b, " ");
	}
	sb_printf(b, "(shared 0x%x", off);
	if (d->cl && d->cl->nctas > 1)
		sb_printf(b, " of CTA (%u,%u,%u)", c->ctaid[0], c->ctaid[1], c->ctaid[2]);
	sb_printf(b, ")");
}

/* What a group waits on, or that it runs. */
void show_wait(struct dbg *d, struct warp *w, struct group *g, struct strbuf *b)
{
	struct cta *c = w->cta;
	switch (g->state) {
	case G_READY:
		sb_printf(b, "ready");
		break;
	case G_BAR: {
		const struct barstate *bs = &c->bar[g->wait_id];
		sb_printf(b, "waits at barrier %u (%u of %u threads arrived)", g->wait_id,
			  bs->arrived, bs->expected ? bs->expected : c->live_threads);
		break;
	}
	case G_CLUSTER_BAR:
		sb_printf(b, "waits at barrier.cluster (%u of %u threads arrived)",
			  c->cluster->cbar_arrived, c->cluster->live_threads);
		break;
	case G_MBAR: {
		const struct dinsn *di = dbg_insn(g);
		sb_printf(b, "waits on mbarrier ");
		show_mbar_name(d, g->wait_mbar->cta, g->wait_mbar->off, b);
		if (di->flags & DF_PARITY) {
			uint32_t l = (uint32_t)__builtin_ctz(g->mask);
			sb_printf(b, " for parity %llu",
				  (unsigned long long)(op_read(d->L, w, g->frame, &di->s[1], l) & 1));
		}
		sb_printf(b, ", now phase %llu", (unsigned long long)g->wait_mbar->phase);
		break;
	}
	case G_WARPSYNC:
		sb_printf(b, "waits for lanes 0x%08x of its warp", g->wait_id & ~g->mask);
		break;
	case G_ASYNC:
		sb_printf(b, "waits for its asynchronous copies");
		break;
	case G_WGMMA:
		sb_printf(b, "waits for its warpgroup at wgmma.mma_async");
		break;
	case G_DONE:
		sb_printf(b, "exited");
		break;
	}
}

void show_info_warps(struct dbg *d)
{
	fprintf(d->out, "  CTA      warp  lanes       pc    where                        state\n");
	for (uint32_t r = 0; r < d->cl->nctas; r++) {
		struct cta *c = &d->cl->ctas[r];
		for (uint32_t i = 0; i < c->nwarps; i++) {
			struct warp *w = &c->warps[i];
			char cta[32];
			snprintf(cta, sizeof cta, "(%u,%u,%u)", c->ctaid[0], c->ctaid[1], c->ctaid[2]);
			bool any = false;
			for (struct group *g = w->groups; g; g = g->next) {
				if (g->state == G_DONE)
					continue;
				struct strbuf where = {0}, st = {0};
				place(d, dbg_insn(g), &where);
				show_wait(d, w, g, &st);
				bool sel = w == d->w && (g->mask >> d->lane & 1);
				fprintf(d->out, "%c %-8s %-5u 0x%08x  %-5u %-28s %s\n", sel ? '*' : ' ',
					cta, w->id, g->mask, g->pc, where.s, st.s);
				sb_free(&where);
				sb_free(&st);
				any = true;
			}
			if (!any)
				fprintf(d->out, "%c %-8s %-5u 0x%08x  %-5s %-28s exited\n",
					w == d->w ? '*' : ' ', cta, w->id, 0u, "-", "-");
		}
	}
}

void show_info_threads(struct dbg *d)
{
	struct cta *c = d->w->cta;
	const struct launch_config *k = &d->L->cfg;
	fprintf(d->out, "  threads of CTA (%u,%u,%u)   warp  pc    where                        state\n",
		c->ctaid[0], c->ctaid[1], c->ctaid[2]);
	for (uint32_t i = 0; i < c->nwarps; i++) {
		struct warp *w = &c->warps[i];
		for (struct group *g = w->groups; g; g = g->next) {
			if (g->state == G_DONE)
				continue;
			struct strbuf who = {0}, where = {0}, st = {0};
			describe_lanes(w, g->mask, &who);
			place(d, dbg_insn(g), &where);
			show_wait(d, w, g, &st);
			bool sel = w == d->w && (g->mask >> d->lane & 1);
			fprintf(d->out, "%c %-26s %-5u %-5u %-28s %s\n", sel ? '*' : ' ', who.s, w->id,
				g->pc, where.s, st.s);
			sb_free(&who);
			sb_free(&where);
			sb_free(&st);
		}
		uint32_t gone = w->valid & ~w->live;
		if (gone) {
			struct strbuf who = {0};
			describe_lanes(w, gone, &who);
			fprintf(d->out, "  %-26s %-5u %-5s %-28s exited\n", who.s, w->id, "-", "-");
			sb_free(&who);
		}
	}
	(void)k;
}

/* The mbarriers of the running cluster that live now. */
static bool live_here(struct dbg *d, const struct mbar *mb)
{
	if (!mb->valid)
		return false;
	for (uint32_t r = 0; r < d->cl->nctas; r++)
		if (mb->cta == &d->cl->ctas[r])
			return mbar_lookup(&d->cl->ctas[r], mb->off) == mb;
	return false;
}

static void copy_line(struct dbg *d, const struct async_view *v, const char *indent)
{
	struct strbuf who = {0};
	describe_lanes(v->w, 1u << v->lane, &who);
	fprintf(d->out, "%s%s by CTA (%u,%u,%u) %s at line %u", indent,
		ir_op_name((enum ir_op)v->insn->op), v->w->cta->ctaid[0], v->w->cta->ctaid[1],
		v->w->cta->ctaid[2], who.s, dbg_line(d, v->insn));
	sb_free(&who);
	if (v->arrive)
		fprintf(d->out, ": an arrive-on");
	else
		fprintf(d->out, ": %u bytes to %s 0x%llx", v->size,
			v->dspace == MS_GLOBAL ? "global" : "shared", (unsigned long long)v->daddr);
	if (v->tx)
		fprintf(d->out, ", complete-tx %u", v->tx);
	fprintf(d->out, "; lands at step %llu (now %llu)\n", (unsigned long long)v->due,
		(unsigned long long)d->L->steps);
}

void show_info_mbarriers(struct dbg *d)
{
	struct launch *L = d->L;
	bool any = false;
	for (uint32_t i = 0; i < L->mbars.n; i++) {
		const struct mbar *mb = L->mbars.obj[i];
		if (!mb || !live_here(d, mb))
			continue;
		any = true;
		struct strbuf b = {0};
		sb_printf(&b, "mbarrier ");
		show_mbar_name(d, mb->cta, mb->off, &b);
		sb_printf(&b, ": phase %llu (parity %llu), pending %lld of %lld arrivals, tx-count "
			  "%lld", (unsigned long long)mb->phase, (unsigned long long)(mb->phase & 1),
			  (long long)mb->pending, (long long)mb->expected, (long long)mb->tx);
		if (mb->cp_hold)
			sb_printf(&b, ", %u cp.async arrive-on%s to land", mb->cp_hold,
				  mb->cp_hold == 1 ? "" : "s");
		fprintf(d->out, "%s\n", b.s);
		sb_free(&b);
		bool waiters = false;
		for (uint32_t r = 0; r < d->cl->nctas; r++)
			for (uint32_t k = 0; k < d->cl->ctas[r].nwarps; k++) {
				struct warp *w = &d->cl->ctas[r].warps[k];
				for (struct group *g = w->groups; g; g = g->next) {
					if (g->state != G_MBAR || g->wait_mbar != mb)
						continue;
					struct strbuf who = {0}, st = {0};
					describe_threads(L, w, g->mask, &who);
					show_wait(d, w, g, &st);
					fprintf(d->out, "  waiting: warp %u, %s at line %u%s\n", w->id, who.s,
						dbg_line(d, dbg_insn(g)),
						strstr(st.s, " for parity") ? strstr(st.s, " for parity")
									    : "");
					sb_free(&who);
					sb_free(&st);
					waiters = true;
				}
			}
		if (!waiters)
			fprintf(d->out, "  waiting: none\n");
		struct async_view v;
		for (uint32_t e = 0; async_view(L, e, &v); e++)
			if ((v.mbar_ranks >> mb->cta->rank & 1) && v.mbar_off == mb->off &&
			    v.w->cta->cluster == mb->cta->cluster)
				copy_line(d, &v, "  in flight: ");
	}
	if (!any)
		fprintf(d->out, "No live mbarriers.\n");
}

void show_info_copies(struct dbg *d)
{
	struct async_view v;
	uint32_t e = 0;
	for (; async_view(d->L, e, &v); e++) {
		copy_line(d, &v, "");
		if (v.mbar_ranks) {
			struct strbuf b = {0};
			const struct cta *c = &v.w->cta->cluster->ctas[__builtin_ctz(v.mbar_ranks)];
			show_mbar_name(d, c, v.mbar_off, &b);
			fprintf(d->out, "  toward mbarrier %s\n", b.s);
			sb_free(&b);
		}
	}
	if (!e)
		fprintf(d->out, "No asynchronous copies in flight.\n");
}

void show_info_barriers(struct dbg *d)
{
	struct cta *c = d->w->cta;
	bool any = false;
	for (uint32_t b = 0; b < 16; b++) {
		const struct barstate *bs = &c->bar[b];
		uint32_t waiting = 0;
		for (uint32_t i = 0; i < c->nwarps; i++)
			for (struct group *g = c->warps[i].groups; g; g = g->next)
				if (g->state == G_BAR && g->wait_id == b)
					waiting += popcount32(g->mask);
		if (!bs->arrived && !waiting)
			continue;
		any = true;
		fprintf(d->out, "barrier %u of CTA (%u,%u,%u): %u of %u threads arrived, %u waiting\n",
			b, c->ctaid[0], c->ctaid[1], c->ctaid[2], bs->arrived,
			bs->expected ? bs->expected : c->live_threads, waiting);
		for (uint32_t i = 0; i < c->nwarps; i++)
			for (struct group *g = c->warps[i].groups; g; g = g->next)
				if (g->state == G_BAR && g->wait_id == b) {
					struct strbuf who = {0};
					describe_lanes(&c->warps[i], g->mask, &who);
					fprintf(d->out, "  waiting: warp %u, %s at line %u\n", c->warps[i].id,
						who.s, dbg_line(d, dbg_insn(g)));
					sb_free(&who);
				}
	}
	if (d->cl->nctas > 1)
		fprintf(d->out, "barrier.cluster: phase %u, %u of %u threads arrived\n",
			d->cl->cbar_phase, d->cl->cbar_arrived, d->cl->live_threads);
	else if (!any)
		fprintf(d->out, "No CTA barrier has arrivals in CTA (%u,%u,%u).\n", c->ctaid[0],
			c->ctaid[1], c->ctaid[2]);
}

void show_backtrace(struct dbg *d)
{
	struct group *g = dbg_group_of(d->w, d->lane);
	if (!g) {
		fprintf(d->out, "thread %u has exited\n", d->w->id * LANES + d->lane);
		return;
	}
	const struct dinsn *di = dbg_insn(g);
	uint32_t n = 0;
	for (const struct frame *f = g->frame; f; f = f->caller, n++) {
		struct strbuf b = {0};
		place(d, di, &b);
		fprintf(d->out, "#%u  %s at %s\n", n, f->fn->name, b.s);
		sb_free(&b);
		di = f->call;
	}
}
