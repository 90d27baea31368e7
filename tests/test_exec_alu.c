/*
 * test_exec_alu.c - the ALU (exec_int.c, exec_fp.c, exec_cvt.c) against vectors an H100
 * computed (tests/hw_alu/alu_cases.txt, made by tests/hw_alu/gen.py, and approx_cases.txt, made
 * by tests/hw_alu/mufu/): bit for bit for exact instructions and for the .approx ones ptxi models
 * (rcp/sqrt/rsqrt/ex2/lg2/sin/cos.approx.f32, tanh.approx.f32, div.approx/full.f32), within a
 * measured bound for the other .approx ones; plus hand-checked unit cases.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "run/exec_alu.h"
#include "helpers.h"

#ifndef PTXI_SOURCE_ROOT
#define PTXI_SOURCE_ROOT "."
#endif

/* ---- instruction names -> struct alu_insn ---------------------------------------------- */


/* Decode "setp.lt.and.s32" the way the loader does; nsrc sources. Returns false if a word
 * is unknown. */
static bool insn_from_name(const char *name, int nsrc, struct alu_insn *ai)
{
	return alu_from_name(name, nsrc, ai);
}

/* ---- the H100 vectors -------------------------------------------------------------------- */

struct hwcase {
	uint64_t in[5];  /* sources, then carry-in */
	uint64_t d, aux;
};

struct hwspec {
	char name[64];
	char dcl, aux; /* aux: '-', 'q', 'c' */
	char scl[16];
	int nsrc;
	bool cin;
	int n;
	struct hwcase *c;
};

static struct hwspec *specs;
static int nspecs;

static int load_file(const char *name);

/* alu_cases.txt (corner cases, gen.py) and approx_cases.txt (random inputs for the .approx
 * f32 instructions, tests/hw_alu/mufu/) */
static int load_vectors(void **state)
{
	(void)state;
	return load_file("alu_cases.txt") || load_file("approx_cases.txt") ? -1 : 0;
}

static int load_file(const char *name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/tests/hw_alu/%s", PTXI_SOURCE_ROOT, name);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char line[512];
	int cap = 0;
	struct hwspec *cur = NULL;
	while (fgets(line, sizeof line, f)) {
		if (line[0] == '#')
			continue;
		if (line[0] == 'S') {
			if (nspecs == cap) {
				cap = cap ? cap * 2 : 256;
				specs = realloc(specs, (size_t)cap * sizeof *specs);
			}
			cur = &specs[nspecs++];
			memset(cur, 0, sizeof *cur);
			char aux[8], scl[16];
			int n;
			if (sscanf(line, "S %63s %c %7s %15s %d", cur->name, &cur->dcl, aux, scl, &n) != 5)
				return -1;
			cur->aux = aux[0] == 'c' ? 'c' : aux[0];
			size_t L = strlen(scl);
			cur->cin = L && scl[L - 1] == 'C';
			if (cur->cin)
				scl[--L] = 0;
			if (!strcmp(scl, "-"))
				scl[0] = 0;
			snprintf(cur->scl, sizeof cur->scl, "%s", scl);
			cur->nsrc = (int)strlen(cur->scl);
			cur->c = calloc((size_t)n, sizeof *cur->c);
			continue;
		}
		if (!cur)
			return -1;
		struct hwcase *c = &cur->c[cur->n++];
		char *p = line;
		int nin = cur->nsrc + (cur->cin ? 1 : 0);
		for (int i = 0; i < nin; i++)
			c->in[i] = strtoull(p, &p, 16);
		while (*p == ' ' || *p == ':')
			p++;
		c->d = strtoull(p, &p, 16);
		c->aux = strtoull(p, &p, 16);
	}
	fclose(f);
	return 0;
}

static int free_vectors(void **state)
{
	(void)state;
	for (int i = 0; i < nspecs; i++)
		free(specs[i].c);
	free(specs);
	return 0;
}

static uint64_t dmask(char cl)
{
	switch (cl) {
	case 'h': return 0xffff;
	case 'r': return 0xffffffff;
	case 'p': return 1;
	default: return ~0ull;
	}
}

/*
 * Where the H100 disagrees with the manual, ptxi follows the manual (DESIGN.md, point 7):
 * set with a .f32 destination gives 1.0f for true (ISA 9.7.4.9); the H100 writes 0x00000001.
 */
static bool manual_over_hw(const char *name)
{
	return !strncmp(name, "set.", 4) && strstr(name, ".f32.") &&
	       strstr(name, ".f32.") == strrchr(name, '.') - 4;
}

/* .approx instructions ptxi models bit for bit (src/run/mufu.c): checked like exact ones */
static bool is_mufu_exact(const char *name)
{
	static const char *const ex[] = {"rcp.approx.f32", "rcp.approx.ftz.f32", "sqrt.approx.f32",
		"sqrt.approx.ftz.f32", "rsqrt.approx.f32", "rsqrt.approx.ftz.f32", "ex2.approx.f32",
		"ex2.approx.ftz.f32", "div.approx.f32", "div.approx.ftz.f32", "div.full.f32",
		"div.full.ftz.f32", "lg2.approx.f32", "lg2.approx.ftz.f32", "sin.approx.f32",
		"sin.approx.ftz.f32", "cos.approx.f32", "cos.approx.ftz.f32", "tanh.approx.f32"};
	for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++)
		if (!strcmp(name, ex[i]))
			return true;
	return false;
}

static bool is_approx(const char *name)
{
	return (strstr(name, ".approx") || strstr(name, "div.full")) && !is_mufu_exact(name);
}

/* Run one spec's cases through the ALU, 32 lanes at a time; mask all or every other lane. */
static void run_spec(const struct alu_insn *ai, const struct hwspec *s, int base, int n,
		     uint32_t mask, uint64_t *d, uint64_t *d2, uint64_t *cc)
{
	uint64_t src[4][LANES];
	memset(src, 0, sizeof src);
	for (int l = 0; l < n; l++) {
		for (int i = 0; i < s->nsrc; i++)
			src[i][l] = s->c[base + l].in[i];
		cc[l] = s->cin ? s->c[base + l].in[s->nsrc] : 0;
	}
	struct alu_args x = {d, s->aux == 'q' ? d2 : NULL, src[0], src[1], src[2], src[3], cc};
	if (s->nsrc < 4)
		x.e = NULL;
	if (s->nsrc < 3)
		x.c = NULL;
	if (s->nsrc < 2)
		x.b = NULL;
	ai->fn(ai, &x, mask);
}

/* Distance in units in the last place between two values of the result format. */
static double ulp_diff(const char *name, char dcl, uint64_t a, uint64_t b)
{
	if (a == b)
		return 0;
	double x, y;
	int mbits;
	if (dcl == 'l') {
		memcpy(&x, &a, 8);
		memcpy(&y, &b, 8);
		mbits = 52;
	} else if (dcl == 'r' && !strstr(name, "x2")) {
		float fx, fy;
		uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
		memcpy(&fx, &ua, 4);
		memcpy(&fy, &ub, 4);
		x = fx;
		y = fy;
		mbits = 23;
	} else {
		/* half formats: compare each 16-bit element by integer distance of the ordered
		 * magnitude (same sign) */
		double m = 0;
		for (int i = 0; i < (dcl == 'r' ? 2 : 1); i++) {
			int ea = (int)((a >> (16 * i)) & 0xffff), eb = (int)((b >> (16 * i)) & 0xffff);
			int oa = ea & 0x8000 ? -(ea & 0x7fff) : ea, ob = eb & 0x8000 ? -(eb & 0x7fff) : eb;
			double dd = fabs((double)(oa - ob));
			m = dd > m ? dd : m;
		}
		return m;
	}
	if (isnan(x) && isnan(y))
		return 0;
	if (isnan(x) || isnan(y) || isinf(x) || isinf(y))
		return INFINITY;
	double mag = fmax(fabs(x), fabs(y));
	int e;
	frexp(mag, &e);
	double ulp = ldexp(1.0, e - 1 - mbits);
	if (mbits == 23 && ulp < 0x1p-149)
		ulp = 0x1p-149;
	return fabs(x - y) / ulp;
}

/* Absolute-error bound (as a fraction) accepted for an .approx result beyond its ulp bound:
 * sin/cos are specified by absolute error (2^-20.5 in [-pi, pi]) and lg2 near 1 likewise. */
static double approx_abs_bound(const char *name, uint64_t in)
{
	if (strstr(name, "sin.") || strstr(name, "cos.")) {
		/* the H100 reduces the argument in f32: the phase error grows with |x| */
		float x;
		uint32_t u = (uint32_t)in;
		memcpy(&x, &u, 4);
		double ax = fabs((double)x);
		return ax > 4 ? (isfinite(ax) ? ax * 0x1p-22 : 2) : 0x1p-19;
	}
	if (strstr(name, "lg2."))
		return 0x1p-21;
	return 0;
}

static double approx_ulp_bound(const char *name)
{
	if (strstr(name, "tanh."))
		return strstr(name, "f32") ? 2048 : 2;  /* 2^-10.987 relative for f32 */
	if (strstr(name, "ftz.f64"))
		return 0x1p33;                          /* ~20-bit results, low word zero */
	if (strstr(name, ".f64"))
		return 1;
	if (strstr(name, "bf16") || strstr(name, "f16"))
		return 1;
	if (strstr(name, "sin.") || strstr(name, "cos."))
		return 2;
	if (strstr(name, "ex2."))
		return 2;
	if (strstr(name, "div."))
		return 2;
	return 1;
}

static double abs_err(char dcl, uint64_t a, uint64_t b)
{
	if (dcl != 'r')
		return INFINITY;
	float fx, fy;
	uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
	memcpy(&fx, &ua, 4);
	memcpy(&fy, &ub, 4);
	if (isnan(fx) || isnan(fy) || isinf(fx) || isinf(fy))
		return INFINITY;
	return fabs((double)fx - fy);
}

static void test_hw_vectors(void **state)
{
	(void)state;
	assert_true(nspecs > 0);
	int bad_specs = 0, unsupported = 0;
	long ncases = 0, exact = 0, approx_cases = 0, approx_exact = 0, mufu_cases = 0;
	for (int si = 0; si < nspecs; si++) {
		struct hwspec *s = &specs[si];
		struct alu_insn ai;
		const char *why = NULL;
		if (!insn_from_name(s->name, s->nsrc, &ai)) {
			printf("  cannot decode %s\n", s->name);
			bad_specs++;
			continue;
		}
		if (alu_prepare(&ai, &why) != 0) {
			printf("  unsupported: %s (%s)\n", s->name, why);
			unsupported++;
			continue;
		}
		bool approx = is_approx(s->name);
		if (manual_over_hw(s->name)) {
			printf("  skipped (manual over hardware): %s\n", s->name);
			continue;
		}
		int nbad = 0;
		double maxulp = 0;
		for (int pass = 0; pass < 2; pass++) {
			for (int base = 0; base < s->n; base += LANES) {
				int n = s->n - base < LANES ? s->n - base : LANES;
				uint32_t mask = n == LANES ? 0xffffffffu : (1u << n) - 1;
				if (pass == 1)
					mask &= 0x55555555u;
				uint64_t d[LANES], d2[LANES], cc[LANES];
				for (int l = 0; l < LANES; l++)
					d[l] = d2[l] = 0xdeadbeefcafef00dull;
				run_spec(&ai, s, base, n, mask, d, d2, cc);
				for (int l = 0; l < LANES; l++) {
					if (!((mask >> l) & 1)) {
						if (d[l] != 0xdeadbeefcafef00dull) {
							printf("  %s: lane %d written outside the mask\n", s->name, l);
							nbad++;
						}
						continue;
					}
					if (pass == 1)
						continue;
					const struct hwcase *c = &s->c[base + l];
					uint64_t m = dmask(s->dcl);
					bool ok_d = ((d[l] ^ c->d) & m) == 0;
					bool ok_aux = s->aux == '-' ||
						      (s->aux == 'q' ? (d2[l] & 1) == c->aux
								     : (cc[l] & 1) == c->aux);
					ncases++;
					if (approx) {
						approx_cases++;
						double u = ulp_diff(s->name, s->dcl, d[l] & m, c->d & m);
						if (u == 0)
							approx_exact++;
						if (u > maxulp && isfinite(u))
							maxulp = u;
						bool ok = u <= approx_ulp_bound(s->name) ||
							  abs_err(s->dcl, d[l], c->d) <= approx_abs_bound(s->name, c->in[0]);
						if (!ok) {
							if (nbad < 3)
								printf("  %s: in %llx %llx: got %llx, H100 %llx (%g ulp)\n",
								       s->name, (unsigned long long)c->in[0],
								       (unsigned long long)c->in[1],
								       (unsigned long long)(d[l] & m),
								       (unsigned long long)(c->d & m), u);
							nbad++;
						}
						continue;
					}
					if (is_mufu_exact(s->name))
						mufu_cases++;
					if (ok_d && ok_aux) {
						exact++;
						continue;
					}
					if (nbad < 3)
						printf("  %s: in %llx %llx %llx %llx: got %llx/%llx, H100 %llx/%llx\n",
						       s->name, (unsigned long long)c->in[0],
						       (unsigned long long)c->in[1], (unsigned long long)c->in[2],
						       (unsigned long long)c->in[3],
						       (unsigned long long)(d[l] & m),
						       (unsigned long long)(s->aux == 'q' ? d2[l] : cc[l]),
						       (unsigned long long)(c->d & m), (unsigned long long)c->aux);
					nbad++;
				}
			}
		}
		if (approx && getenv("PTXI_ALU_ULP"))
			printf("  approx %-28s max %.1f ulp\n", s->name, maxulp);
		if (nbad)
			bad_specs++;
	}
	printf("hw vectors: %d specs, %ld cases, %ld exact matches (%ld of them MUFU-modelled approx); "
	       "other approx: %ld cases, %ld exact; %d specs failing, %d unsupported\n",
	       nspecs, ncases, exact, mufu_cases, approx_cases, approx_exact, bad_specs, unsupported);
	assert_int_equal(bad_specs, 0);
	assert_int_equal(unsupported, 0);
}

/* ---- hand-checked unit cases --------------------------------------------------------------- */

/* Run `name` on one lane with sources a, b, c (cc-in ccin); returns d, stores aux. */
static uint64_t run1(const char *name, int nsrc, uint64_t a, uint64_t b, uint64_t c, uint64_t *aux)
{
	struct alu_insn ai;
	const char *why;
	assert_true(insn_from_name(name, nsrc, &ai));
	assert_int_equal(alu_prepare(&ai, &why), 0);
	uint64_t A[LANES] = {a}, B[LANES] = {b}, C[LANES] = {c}, E[LANES] = {0};
	uint64_t D[LANES] = {0}, D2[LANES] = {0}, CC[LANES] = {0};
	if (aux)
		CC[0] = *aux;
	struct alu_args x = {D, D2, A, B, C, E, CC};
	ai.fn(&ai, &x, 1);
	if (aux)
		*aux = (ai.op == OP_SETP) ? D2[0] : CC[0];
	return D[0];
}

static void test_int_corners(void **state)
{
	(void)state;
	assert_int_equal(run1("add.s32", 2, 0x7fffffff, 1, 0, NULL), 0x80000000u);
	assert_int_equal(run1("add.sat.s32", 2, 0x7fffffff, 1, 0, NULL), 0x7fffffffu);
	assert_int_equal(run1("sub.sat.s32", 2, 0x80000000u, 1, 0, NULL), 0x80000000u);
	assert_int_equal(run1("div.s32", 2, 0x80000000u, 0xffffffffu, 0, NULL), 0x80000000u);
	assert_int_equal(run1("rem.s32", 2, 0x80000000u, 0xffffffffu, 0, NULL), 0);
	assert_int_equal(run1("div.u32", 2, 5, 0, 0, NULL), 0xffffffffu);
	assert_int_equal(run1("rem.u32", 2, 5, 0, 0, NULL), 0xffffffffu);
	assert_int_equal(run1("abs.s32", 1, 0x80000000u, 0, 0, NULL), 0x80000000u);
	assert_int_equal(run1("neg.s32", 1, 0x80000000u, 0, 0, NULL), 0x80000000u);
	assert_int_equal(run1("shl.b32", 2, 1, 32, 0, NULL), 0);
	assert_int_equal(run1("shr.s32", 2, 0x80000000u, 100, 0, NULL), 0xffffffffu);
	assert_int_equal(run1("shr.u64", 2, ~0ull, 64, 0, NULL), 0);
	assert_int_equal(run1("mul.wide.s32", 2, 0xffffffffu, 0xffffffffu, 0, NULL), 1);
	assert_int_equal(run1("mul.hi.u64", 2, ~0ull, ~0ull, 0, NULL), 0xfffffffffffffffeull);
	assert_int_equal(run1("mul.lo.s32", 2, 0xffffffffu, 0xffffffffu, 0, NULL), 1);
	assert_int_equal(run1("bfe.s32", 3, 0x80, 4, 4, NULL), 0xfffffff8u);
	assert_int_equal(run1("bfe.u32", 3, 0xabcd, 4, 8, NULL), 0xbc);
	assert_int_equal(run1("bfind.u32", 1, 0, 0, 0, NULL), 0xffffffffu);
	assert_int_equal(run1("bfind.s32", 1, 0xffffffffu, 0, 0, NULL), 0xffffffffu);
	assert_int_equal(run1("clz.b64", 1, 1, 0, 0, NULL), 63);
	assert_int_equal(run1("brev.b32", 1, 1, 0, 0, NULL), 0x80000000u);
	assert_int_equal(run1("prmt.b32", 3, 0x03020100, 0x07060504, 0x0123, NULL), 0x00010203u);
	uint64_t cc = 0;
	assert_int_equal(run1("add.cc.u32", 2, 0xffffffffu, 1, 0, &cc), 0);
	assert_int_equal(cc, 1);
	cc = 0; /* sub.cc: the flag is NOT borrow */
	assert_int_equal(run1("sub.cc.u32", 2, 0, 1, 0, &cc), 0xffffffffu);
	assert_int_equal(cc, 0);
	cc = 0; /* subc with flag 0 subtracts one more */
	assert_int_equal(run1("subc.u32", 2, 5, 2, 0, &cc), 2);
	uint64_t q = 0;
	assert_int_equal(run1("setp.lt.s32", 2, 0xffffffffu, 0, 0, &q), 1);
	assert_int_equal(q, 0);
	assert_int_equal(run1("setp.lo.u32", 2, 0xffffffffu, 0, 0, NULL), 0);
	assert_int_equal(run1("selp.b32", 3, 7, 9, 0, NULL), 9);
	assert_int_equal(run1("cvt.s64.s32", 1, 0xfffffffeu, 0, 0, NULL), 0xfffffffffffffffeull);
	assert_int_equal(run1("cvt.u32.u64", 1, 0x123456789ull, 0, 0, NULL), 0x23456789u);
	assert_int_equal(run1("cvt.sat.u8.s32", 1, 0xffffffffu, 0, 0, NULL), 0);
	assert_int_equal(run1("cvt.sat.s8.s32", 1, 300, 0, 0, NULL), 127);
}

static uint64_t fb(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static uint64_t db(double v)
{
	uint64_t u;
	memcpy(&u, &v, 8);
	return u;
}

static void test_fp_corners(void **state)
{
	(void)state;
	/* rounding modes: 1 + 2^-24 is a tie at f32 */
	assert_int_equal(run1("add.rn.f32", 2, fb(1.0f), fb(0x1p-24f), 0, NULL), fb(1.0f));
	assert_int_equal(run1("add.rp.f32", 2, fb(1.0f), fb(0x1p-24f), 0, NULL), fb(1.0f + 0x1p-23f));
	assert_int_equal(run1("add.rm.f32", 2, fb(-1.0f), fb(-0x1p-24f), 0, NULL), fb(-1.0f - 0x1p-23f));
	assert_int_equal(run1("add.rz.f32", 2, fb(1.0f), fb(0x1.8p-24f), 0, NULL), fb(1.0f));
	/* fused: (1+2^-12)^2 - (1 + 2^-11) = 2^-24 exactly */
	float a = 1.0f + 0x1p-12f;
	assert_int_equal(run1("fma.rn.f32", 3, fb(a), fb(a), fb(-(1.0f + 0x1p-11f)), NULL), fb(0x1p-24f));
	/* NaN results are canonical */
	assert_int_equal(run1("add.f32", 2, fb(INFINITY), fb(-INFINITY), 0, NULL), 0x7fffffffu);
	assert_int_equal(run1("mul.f32", 2, 0x7fc12345u, fb(1.0f), 0, NULL), 0x7fffffffu);
	/* min/max: NaN only if both, -0 < +0 */
	assert_int_equal(run1("min.f32", 2, 0x7fc00000u, fb(2.0f), 0, NULL), fb(2.0f));
	assert_int_equal(run1("min.f32", 2, fb(0.0f), fb(-0.0f), 0, NULL), fb(-0.0f));
	assert_int_equal(run1("max.f32", 2, fb(-0.0f), fb(0.0f), 0, NULL), fb(0.0f));
	assert_int_equal(run1("max.NaN.f32", 2, 0x7fc00000u, fb(2.0f), 0, NULL), 0x7fffffffu);
	/* ftz and sat */
	assert_int_equal(run1("add.ftz.f32", 2, 1, 0, 0, NULL), 0);
	assert_int_equal(run1("add.sat.f32", 2, fb(0.75f), fb(0.5f), 0, NULL), fb(1.0f));
	assert_int_equal(run1("add.sat.f32", 2, fb(-0.75f), fb(0.5f), 0, NULL), 0);
	/* f64 directed rounding */
	assert_int_equal(run1("div.rz.f64", 2, db(1.0), db(3.0), 0, NULL), db(1.0 / 3.0));
	assert_int_equal(run1("div.rp.f64", 2, db(1.0), db(3.0), 0, NULL), db(1.0 / 3.0) + 1);
	assert_int_equal(run1("sqrt.rn.f64", 1, db(2.0), 0, 0, NULL), db(sqrt(2.0)));
	/* half precision */
	assert_int_equal(run1("add.rn.f16", 2, 0x3c00, 0x3c00, 0, NULL), 0x4000);
	assert_int_equal(run1("mul.rn.bf16x2", 2, 0x40003f80, 0x40004000, 0, NULL), 0x40804000);
	assert_int_equal(run1("fma.rn.relu.f16", 3, 0x3c00, 0xbc00, 0xb800, NULL), 0);
	/* testp, setp unordered */
	assert_int_equal(run1("testp.subnormal.f32", 1, 1, 0, 0, NULL), 1);
	assert_int_equal(run1("setp.ltu.f32", 2, 0x7fc00000u, fb(1.0f), 0, NULL), 1);
	assert_int_equal(run1("setp.lt.f32", 2, 0x7fc00000u, fb(1.0f), 0, NULL), 0);
}

static void test_cvt_corners(void **state)
{
	(void)state;
	assert_int_equal(run1("cvt.rni.s32.f32", 1, fb(2.5f), 0, 0, NULL), 2);
	assert_int_equal(run1("cvt.rni.s32.f32", 1, fb(-3.5f), 0, 0, NULL), 0xfffffffcu);
	assert_int_equal(run1("cvt.rzi.s32.f32", 1, 0x7fc00000u, 0, 0, NULL), 0);
	assert_int_equal(run1("cvt.rzi.s32.f32", 1, fb(3e9f), 0, 0, NULL), 0x7fffffffu);
	assert_int_equal(run1("cvt.rzi.u32.f32", 1, fb(-1.0f), 0, 0, NULL), 0);
	assert_int_equal(run1("cvt.rmi.s64.f64", 1, db(-0.5), 0, 0, NULL), ~0ull);
	assert_int_equal(run1("cvt.rpi.u8.f32", 1, fb(254.01f), 0, 0, NULL), 255);
	/* exact single rounding: 1 + 2^-24 + 2^-60 must round up (double rounding would not) */
	assert_int_equal(run1("cvt.rn.f32.f64", 1, db(1.0 + 0x1p-24 + 0x1p-52), 0, 0, NULL),
			 fb(1.0f + 0x1p-23f));
	assert_int_equal(run1("cvt.rn.f16.f32", 1, fb(65520.0f), 0, 0, NULL), 0x7c00);
	assert_int_equal(run1("cvt.rz.f16.f32", 1, fb(65520.0f), 0, 0, NULL), 0x7bff);
	assert_int_equal(run1("cvt.rn.f16.f32", 1, fb(0x1p-25f), 0, 0, NULL), 0);
	assert_int_equal(run1("cvt.rn.f16.f32", 1, fb(0x1.8p-25f), 0, 0, NULL), 1);
	assert_int_equal(run1("cvt.f32.f16", 1, 0x0001, 0, 0, NULL), fb(0x1p-24f));
	assert_int_equal(run1("cvt.rn.bf16.f32", 1, 0x3f808000u, 0, 0, NULL), 0x3f80);
	assert_int_equal(run1("cvt.rn.bf16.f32", 1, 0x3f818000u, 0, 0, NULL), 0x3f82);
	assert_int_equal(run1("cvt.rn.f16x2.f32", 2, fb(1.0f), fb(2.0f), 0, NULL), 0x3c004000u);
	assert_int_equal(run1("cvt.rni.f32.f32", 1, fb(-0.4f), 0, 0, NULL), fb(-0.0f));
	assert_int_equal(run1("cvt.rn.f32.s64", 1, 0x7fffffffffffffffull, 0, 0, NULL), fb(0x1p63f));
	assert_int_equal(run1("cvt.rz.f32.u32", 1, 0xffffffffu, 0, 0, NULL), fb(0x1.fffffep31f));
	assert_int_equal(run1("cvt.rn.satfinite.e4m3x2.f32", 2, fb(1000.0f), fb(-0.0f), 0, NULL),
			 0x7e80);
}

/* A W-bit integer instruction reads the low W bits of its operands only and writes its
 * result zero-extended, whatever the registers hold above (exec_int.c computes some of them
 * on the whole 64-bit lanes and cuts the result): the same bits with junk above as without,
 * on a full warp, a half (vector code that keeps the masked lanes) and a few lanes. */
static void test_low_bits_only(void **state)
{
	(void)state;
	static const struct { const char *name; int nsrc; } ops[] = {
		{"add.s32", 2}, {"sub.u32", 2}, {"mul.lo.s32", 2}, {"mad.lo.u32", 3},
		{"and.b32", 2}, {"or.b32", 2}, {"xor.b32", 2}, {"not.b32", 1}, {"neg.s32", 1},
		{"shl.b32", 2}, {"shr.u32", 2}, {"shr.s32", 2}, {"add.u16", 2}, {"mul.lo.s16", 2},
		{"mad.lo.s16", 3}, {"xor.b16", 2}, {"shl.b16", 2}, {"shr.u16", 2}, {"neg.s16", 1},
	};
	static const uint32_t masks[] = {0xffffffffu, 0x5555ffffu, 0x80000013u};
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		struct alu_insn ai;
		const char *why;
		assert_true(insn_from_name(ops[i].name, ops[i].nsrc, &ai));
		assert_int_equal(alu_prepare(&ai, &why), 0);
		uint64_t wm = strstr(ops[i].name, "16") ? 0xffff : 0xffffffffu;
		bool shift = strncmp(ops[i].name, "sh", 2) == 0; /* the amount is .u32 */
		for (size_t k = 0; k < sizeof masks / sizeof masks[0]; k++) {
			uint64_t in[3][LANES], clean[3][LANES], d[LANES], dc[LANES], cc[LANES] = {0};
			for (int l = 0; l < LANES; l++) {
				for (int j = 0; j < 3; j++) {
					seed = seed * 6364136223846793005ull + 1442695040888963407ull;
					in[j][l] = seed;
					/* shift amounts stay small sometimes, so shifts do shift */
					if (j == 1 && l % 3)
						in[j][l] = (seed & ~0xffffffffull) | (seed >> 59);
					clean[j][l] = in[j][l] & (shift && j == 1 ? 0xffffffffu : wm);
				}
				d[l] = dc[l] = 0xdeadbeefcafef00dull;
			}
			struct alu_args x = {d, NULL, in[0], in[1], in[2], NULL, cc};
			struct alu_args xc = {dc, NULL, clean[0], clean[1], clean[2], NULL, cc};
			ai.fn(&ai, &x, masks[k]);
			ai.fn(&ai, &xc, masks[k]);
			for (int l = 0; l < LANES; l++) {
				if (d[l] != dc[l] || ((masks[k] >> l & 1) && (d[l] & ~wm)))
					fail_msg("%s, mask %08x, lane %d: %llx with junk above, %llx without",
						 ops[i].name, masks[k], l, (unsigned long long)d[l],
						 (unsigned long long)dc[l]);
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_int_corners),
		cmocka_unit_test(test_fp_corners),
		cmocka_unit_test(test_cvt_corners),
		cmocka_unit_test(test_low_bits_only),
		cmocka_unit_test(test_hw_vectors),
	};
	return cmocka_run_group_tests(tests, load_vectors, free_vectors);
}
