/*
 * run_corpus.c - the differential tests against ptxas (meson tests "ptxas_corpus" and
 * "ptxas_hopper"). Rebuilds every one-instruction kernel of corpus.tsv (labelled once by ptxas
 * 13.0, see gen.py; with --hopper the Hopper-era forms of ../ptxas_hopper/gen.py, in their
 * own kernel), parses and checks it, and compares ptxi's verdict (error iff at least one error
 * diagnostic) with ptxas's. Prints the agreement rate (with --hopper per family, the first
 * column); fails below --min PERCENT, or with --no-false-reject on any form ptxas accepts
 * that ptxi rejects.
 *   run_corpus [--hopper] [--no-false-reject] [--min P] [-v] [--grep TEXT] corpus.tsv
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/arena.h"
#include "check/check.h"
#include "support/diag.h"
#include "front/ir.h"

#include "helpers.h"

/* Must match TEMPLATE in gen.py. */
static const char template_head[] =
	".version %s\n"
	".target %s\n"
	".address_size 64\n"
	".global .align 16 .b8 gbuf[1024];\n"
	".visible .entry k()\n"
	"{\n"
	"\t.reg .pred %%p<4>;\n"
	"\t.reg .b16 %%rs<4>;\n"
	"\t.reg .b32 %%r<8>;\n"
	"\t.reg .b64 %%rd<8>;\n"
	"\t.reg .u32 %%u<4>;\n"
	"\t.reg .f32 %%f<4>; .reg .f64 %%fd<4>; .reg .f16 %%h<4>; .reg .f16x2 %%hx<4>; "
	".reg .s32 %%s<4>; .reg .s64 %%sd<4>; .reg .u16 %%us<4>; .reg .u64 %%ud<4>;\n"
	"\t.shared .align 8 .b64 bar;\n"
	"\t.shared .align 16 .b8 sbuf[1024];\n"
	"\t.local .align 8 .b8 lbuf[64];\n"
	"\t%s\n"
	"$L1:\n"
	"\tret;\n"
	"}\n";

/* Must match HEAD and TAIL in ../ptxas_hopper/gen.py (the instruction is line 14). */
static const char hopper_head[] =
	".version %s\n"
	".target %s\n"
	".address_size 64\n"
	".visible .entry k(.param .u64 p0, .param .align 64 .b8 tmap[128])\n"
	"{\n"
	"  .reg .pred %%p<8>;\n"
	"  .reg .b16 %%h<16>;\n"
	"  .reg .b32 %%r<208>;\n"
	"  .reg .b64 %%rd<32>;\n"
	"  .reg .f32 %%f<136>;\n"
	"  .reg .f64 %%fd<16>;\n"
	"  .shared .align 8 .b64 bar[4];\n"
	"  .shared .align 128 .b8 smem[4096];\n"
	"  %s\n"
	"  ret;\n"
	"}\n"
	".global .align 128 .b8 gmap[128];\n";

/* Cases and agreements of one family (--hopper). */
struct fam {
	char name[48];
	unsigned total, agree, fp, fn;
};

static struct fam *family(struct fam *fs, unsigned *n, unsigned cap, const char *name)
{
	for (unsigned i = 0; i < *n; i++)
		if (strcmp(fs[i].name, name) == 0)
			return &fs[i];
	if (*n == cap)
		return &fs[cap - 1];
	struct fam *f = &fs[(*n)++];
	snprintf(f->name, sizeof f->name, "%s", name);
	return f;
}

/* Split a line on tabs in place; returns the number of fields. */
static int split(char *line, char **f, int max)
{
	int n = 0;
	f[n++] = line;
	for (char *s = line; *s && n < max; s++)
		if (*s == '\t') {
			*s = '\0';
			f[n++] = s + 1;
		}
	return n;
}

int main(int argc, char **argv)
{
	double min = 0;
	int verbose = 0, hopper = 0, no_fp = 0;
	static struct fam fams[64];
	unsigned nfams = 0;
	const char *path = NULL, *grep = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--min") == 0 && i + 1 < argc)
			min = atof(argv[++i]);
		else if (strcmp(argv[i], "--hopper") == 0)
			hopper = 1;
		else if (strcmp(argv[i], "--no-false-reject") == 0)
			no_fp = 1;
		else if (strcmp(argv[i], "-v") == 0)
			verbose = 1;
		else if (strcmp(argv[i], "--grep") == 0 && i + 1 < argc)
			grep = argv[++i];
		else
			path = argv[i];
	}
	if (!path) {
		fprintf(stderr, "usage: run_corpus [--hopper] [--no-false-reject] [--min P] [-v] "
			"[--grep TEXT] corpus.tsv\n");
		return 2;
	}
	FILE *fp = fopen(path, "r");
	if (!fp) {
		perror(path);
		return 2;
	}
	static char line[8192], text[16384];
	unsigned total = 0, agree = 0, ok_ok = 0, err_err = 0, fp_err = 0, fn_err = 0, warned = 0;
	while (fgets(line, sizeof line, fp)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		line[strcspn(line, "\r\n")] = '\0';
		char *f[6];
		if (split(line, f, 6) < 5)
			continue;
		const char *version = f[1], *target = f[2], *verdict = f[3], *insn = f[4];
		const char *msg = f[5] ? f[5] : "";
		if (grep && !strstr(insn, grep))
			continue;
		snprintf(text, sizeof text, hopper ? hopper_head : template_head, version, target,
			 insn);
		struct src_file file;
		src_file_from_string(&file, "case.ptx", text);
		struct diag_capture cap = {0};
		struct diag d = {.sink = capture_sink, .ctx = &cap};
		struct arena *a = arena_create();
		struct ir_module *m = ir_parse(a, &d, &file, NULL);
		if (m->nerrors == 0)
			check_module(m);
		bool ptxi_err = cap.nerr > 0, ptxas_err = strcmp(verdict, "error") == 0;
		total++;
		struct fam *fa = family(fams, &nfams, 64, hopper ? f[0] : "all");
		fa->total++;
		fa->agree += ptxi_err == ptxas_err;
		fa->fp += ptxi_err && !ptxas_err;
		fa->fn += !ptxi_err && ptxas_err;
		if (cap.nwarn)
			warned++;
		if (ptxi_err == ptxas_err) {
			agree++;
			if (ptxi_err)
				err_err++;
			else
				ok_ok++;
		} else {
			if (ptxi_err)
				fp_err++;
			else
				fn_err++;
			if (verbose)
				printf("MISMATCH %s %s %s | ptxas: %s | ptxi: %s\n", version, target, insn,
				       ptxas_err ? msg : "ok", ptxi_err ? cap.first_err : "ok");
		}
		arena_destroy(a);
		free(file.line_starts);
	}
	fclose(fp);
	double rate = total ? 100.0 * agree / total : 0;
	for (unsigned i = 0; hopper && i < nfams; i++)
		printf("  %-36s %5u/%-5u (%6.2f%%): ptxi-only errors %u, ptxas-only errors %u\n",
		       fams[i].name, fams[i].agree, fams[i].total,
		       100.0 * fams[i].agree / fams[i].total, fams[i].fp, fams[i].fn);
	printf("ptxas agreement: %u/%u cases (%.2f%%): both ok %u, both error %u; "
	       "ptxi-only errors %u, ptxas-only errors %u; %u cases with ptxi warnings\n",
	       agree, total, rate, ok_ok, err_err, fp_err, fn_err, warned);
	if (rate + 1e-9 < min) {
		printf("FAIL: agreement below %.2f%%\n", min);
		return 1;
	}
	if (no_fp && fp_err) {
		printf("FAIL: %u forms ptxas accepts are rejected\n", fp_err);
		return 1;
	}
	return 0;
}
