/*
 * modinfo.c - `ptxi info`: what a user needs to launch a module's kernels. Each kernel,
 * demangled; its parameters with type, size and alignment; what it requires of the launch
 * (.reqntid, .maxntid, cluster shape); the module's static shared memory; and a `ptxi run`
 * command line to start from, one --arg per parameter in the form its type suggests.
 */
#include "modinfo.h"

#include <stdlib.h>
#include <string.h>

#include "support/arena.h"
#include "support/demangle.h"
#include "hopper/tmap.h"
#include "paramuse.h"
#include "report/srcloc.h"
#include "run/prog.h"

static bool is_kernel(const struct ir_func *f)
{
	return f->is_entry && f->has_body;
}

/* Triton (3.3 on) appends two pointers to every kernel: the global scratch buffer and the
 * profiler's. They are the last two parameters, .u64 .ptr, of an unmangled kernel. */
static const char *triton_hidden(const struct ir_func *f, uint32_t i)
{
	if (f->nparams < 2 || i + 2 < f->nparams || demangle_is_mangled(f->sym->name))
		return NULL;
	for (uint32_t k = f->nparams - 2; k < f->nparams; k++)
		if (!f->params[k]->is_ptr_param || ir_sym_bytes(f->params[k]) != 8)
			return NULL;
	return i + 2 == f->nparams ? "Triton's hidden global-scratch pointer"
				   : "Triton's hidden profile-scratch pointer";
}

static bool looks_like_tmap(const struct ir_sym *p)
{
	return p->is_array && ir_sym_bytes(p) == TMAP_BYTES && ir_sym_align(p) >= 64;
}

/* The --arg a parameter's type suggests. */
static void arg_template(const struct ir_func *f, uint32_t i, struct strbuf *b)
{
	const struct ir_sym *p = f->params[i];
	uint64_t size = ir_sym_bytes(p);
	if (triton_hidden(f, i)) {
		sb_printf(b, "buf:0");
	} else if (looks_like_tmap(p)) {
		sb_printf(b, "tmap:buf=K,type=T,dims=D0xD1,strides=S1,box=B0xB1");
	} else if (p->is_array || p->vec > 1 || size > 8) {
		sb_printf(b, "bytes:%llu", (unsigned long long)size);
	} else if (p->is_ptr_param || size == 8) {
		sb_printf(b, p->type == MOD_F64 ? "f64:0" : "buf:BYTES");
	} else if (p->type == MOD_F32) {
		sb_printf(b, "f32:0");
	} else {
		bool sgn = p->type == MOD_S8 || p->type == MOD_S16 || p->type == MOD_S32;
		sb_printf(b, "%c%llu:0", sgn ? 's' : 'u', (unsigned long long)size * 8);
	}
}

/* A parameter's type as `ptxi info` shows it: ".u32", ".u64 .ptr", ".b8[128]", ".v2.f32". */
static void param_type(const struct ir_sym *p, char *type, size_t size)
{
	if (p->is_array)
		snprintf(type, size, "%s[%llu]", ir_mod_name(p->type), (unsigned long long)p->nelem);
	else if (p->vec > 1)
		snprintf(type, size, ".v%d%s", p->vec, ir_mod_name(p->type));
	else
		snprintf(type, size, "%s%s", ir_mod_name(p->type), p->is_ptr_param ? " .ptr" : "");
}

/* What a parameter may be besides its type, or NULL. */
static const char *param_note(const struct ir_func *f, uint32_t i)
{
	const char *note = triton_hidden(f, i);
	return note || !looks_like_tmap(f->params[i]) ? note : "a CUtensorMap (__grid_constant__)?";
}

static void param_line(const struct ir_module *m, const struct ir_func *f, uint32_t i,
		       FILE *out)
{
	const struct ir_sym *p = f->params[i];
	char type[64];
	param_type(p, type, sizeof type);
	fprintf(out, "    %-3u %-40s %-14s %6llu bytes, align %llu", i, p->name, type,
		(unsigned long long)ir_sym_bytes(p), (unsigned long long)ir_sym_align(p));
	const char *note = param_note(f, i);
	if (note)
		fprintf(out, "  (%s)", note);
	if (demangle_is_mangled(f->sym->name)) { /* nvcc's name: say the source's */
		struct strbuf b = {0};
		srcloc_param(m, f, i, &b);
		const char *s = b.s ? strchr(b.s + strlen("parameter "), ' ') : NULL;
		if (s)
			fprintf(out, "  =%s", s);
		sb_free(&b);
	}
	fputc('\n', out);
}

static void dims(FILE *out, const char *label, const uint32_t d[3], bool *first)
{
	if (!d[0])
		return;
	fprintf(out, "%s%s %u,%u,%u", *first ? "" : "; ", label, d[0], d[1] ? d[1] : 1,
		d[2] ? d[2] : 1);
	*first = false;
}

static void requirements(const struct ir_func *f, FILE *out)
{
	const struct ir_perf *p = &f->perf;
	bool first = true;
	fprintf(out, "  requires: ");
	dims(out, ".reqntid", p->reqntid, &first);
	dims(out, ".maxntid", p->maxntid, &first);
	dims(out, ".reqnctapercluster", p->reqnctapercluster, &first);
	if (p->maxclusterrank) {
		fprintf(out, "%s.maxclusterrank %u", first ? "" : "; ", p->maxclusterrank);
		first = false;
	}
	if (p->explicitcluster) {
		fprintf(out, "%s.explicitcluster", first ? "" : "; ");
		first = false;
	}
	fprintf(out, "%s\n", first ? "nothing beyond the sm_90 limits" : "");
}

static void run_template(const struct ir_func *f, const char *path, FILE *out)
{
	const struct ir_perf *p = &f->perf;
	const uint32_t *blk = p->reqntid[0] ? p->reqntid : p->maxntid[0] ? p->maxntid : NULL;
	const uint32_t *cl = p->reqnctapercluster;
	fprintf(out, "  run: ptxi run %s --kernel %s --grid %u --block ", path, f->sym->name,
		cl[0] ? cl[0] * (cl[1] ? cl[1] : 1) * (cl[2] ? cl[2] : 1) : 1);
	if (blk)
		fprintf(out, "%u,%u,%u", blk[0], blk[1] ? blk[1] : 1, blk[2] ? blk[2] : 1);
	else
		fprintf(out, "128");
	if (cl[0])
		fprintf(out, " --cluster %u,%u,%u", cl[0], cl[1] ? cl[1] : 1, cl[2] ? cl[2] : 1);
	struct strbuf b = {0};
	for (uint32_t i = 0; i < f->nparams; i++) {
		b.len = 0;
		arg_template(f, i, &b);
		fprintf(out, " --arg %s", b.s ? b.s : "");
	}
	sb_free(&b);
	fputc('\n', out);
}

/* The static shared memory a CTA of kernel f holds (shared_layout.h). */
static uint32_t static_shared(const struct dprog *P, const struct ir_func *f)
{
	for (uint32_t i = 0; P && i < P->nfuncs; i++)
		if (P->funcs[i].ir == f)
			return P->funcs[i].shared_static;
	return 0;
}

static void kernel_info(const struct ir_module *m, const struct dprog *P, const struct ir_func *f,
			const char *path, FILE *out)
{
	char *d = demangle_alloc(f->sym->name);
	fprintf(out, "kernel %s", d ? d : f->sym->name);
	if (d)
		fprintf(out, "   (PTX name %s)", f->sym->name);
	fputc('\n', out);
	free(d);
	uint64_t total = 0;
	for (uint32_t i = 0; i < f->nparams; i++)
		ir_place(&total, f->params[i]);
	fprintf(out, "  parameters: %u (%llu bytes)\n", f->nparams, (unsigned long long)total);
	for (uint32_t i = 0; i < f->nparams; i++)
		param_line(m, f, i, out);
	fprintf(out, "  static shared memory: %u bytes (more with --shared BYTES)\n",
		static_shared(P, f));
	paramuse_write(f, out);
	requirements(f, out);
	run_template(f, path, out);
}

void modinfo_write(const struct ir_module *m, const struct dprog *P, const char *path, FILE *out)
{
	unsigned n = 0;
	for (const struct ir_func *f = m->funcs; f; f = f->next)
		if (is_kernel(f)) {
			if (n++)
				fputc('\n', out);
			kernel_info(m, P, f, path, out);
		}
	if (!n)
		fprintf(out, "no kernels (.entry with a body) in %s\n", path);
}

unsigned modinfo_kernels(const struct ir_module *m)
{
	unsigned n = 0;
	for (const struct ir_func *f = m->funcs; f; f = f->next)
		n += is_kernel(f);
	return n;
}

static const char *keep_str(struct arena *a, const char *s)
{
	return s ? arena_strndup(a, s, strlen(s)) : NULL;
}

bool modinfo_describe(const struct ir_module *m, struct arena *a, const struct dprog *P,
		      unsigned k, struct ptxi_kernel_info *out, struct ptxi_param_info *params,
		      unsigned max)
{
	const struct ir_func *f = m->funcs;
	for (unsigned n = 0; f; f = f->next)
		if (is_kernel(f) && n++ == k)
			break;
	if (!f)
		return false;
	char *d = demangle_alloc(f->sym->name);
	const struct ir_perf *p = &f->perf;
	*out = (struct ptxi_kernel_info){.name = f->sym->name, .demangled = keep_str(a, d),
		.nparams = f->nparams, .maxclusterrank = p->maxclusterrank,
		.explicitcluster = p->explicitcluster, .static_shared = static_shared(P, f)};
	free(d);
	for (int i = 0; i < 3; i++) {
		out->reqntid[i] = p->reqntid[i];
		out->maxntid[i] = p->maxntid[i];
		out->reqnctapercluster[i] = p->reqnctapercluster[i];
	}
	struct strbuf b = {0};
	for (uint32_t i = 0; params && i < f->nparams && i < max; i++) {
		const struct ir_sym *s = f->params[i];
		char type[64];
		param_type(s, type, sizeof type);
		b.len = 0;
		arg_template(f, i, &b);
		params[i] = (struct ptxi_param_info){.name = s->name, .type = keep_str(a, type),
			.size = ir_sym_bytes(s), .align = ir_sym_align(s),
			.pointer = s->is_ptr_param || triton_hidden(f, i), .note = param_note(f, i),
			.spec = keep_str(a, b.s ? b.s : "")};
	}
	sb_free(&b);
	return true;
}
