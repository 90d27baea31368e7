/*
 * test_check.c - unit tests of the static checker (src/check*.c): each test parses a small
 * kernel built around one instruction and asserts the first error or warning text, so the
 * message wording ("names the feature and what it needs") is pinned here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/arena.h"
#include "check/check.h"
#include "front/checks.h"
#include "support/diag.h"
#include "front/ir.h"

#include "helpers.h"

/* Parse and check one instruction in a kernel; returns check_module's error count
 * (-1 if the front end already failed). */
static int run(struct diag_capture *cap, const char *version, const char *target, const char *insn)
{
	static char text[4096];
	snprintf(text, sizeof text,
		 ".version %s\n.target %s\n.address_size 64\n"
		 ".global .align 16 .b8 gbuf[1024];\n"
		 ".visible .entry k()\n{\n"
		 "\t.reg .pred %%p<4>;\n\t.reg .b16 %%rs<4>;\n\t.reg .b32 %%r<8>;\n"
		 "\t.reg .b64 %%rd<8>;\n\t.reg .f32 %%f<4>;\n"
		 "\t.shared .align 8 .b64 bar;\n\t.shared .align 16 .b8 sbuf[1024];\n"
		 "\t%s\n\tret;\n}\n", version, target, insn);
	memset(cap, 0, sizeof *cap);
	struct diag d = {.sink = capture_sink, .ctx = cap};
	struct src_file f;
	src_file_from_string(&f, "t.ptx", text);
	struct arena *a = arena_create();
	struct ir_module *m = ir_parse(a, &d, &f, NULL);
	int n = m->nerrors ? -1 : check_module(m);
	arena_destroy(a);
	free(f.line_starts);
	return n;
}

#define OK(v, t, insn)                                                                        \
	do {                                                                                  \
		struct diag_capture c_;                                                            \
		int n_ = run(&c_, v, t, insn);                                                \
		if (n_ != 0)                                                                  \
			fail_msg("%s: unexpected error: %s", insn, c_.first_err);             \
	} while (0)

/* The first error must contain `want`. */
#define ERR(v, t, insn, want)                                                                 \
	do {                                                                                  \
		struct diag_capture c_;                                                            \
		int n_ = run(&c_, v, t, insn);                                                \
		if (n_ <= 0 || !strstr(c_.first_err, want))                                   \
			fail_msg("%s: expected error '%s', got (%d) '%s'", insn, want, n_,       \
				 c_.first_err);                                               \
	} while (0)

#define WARN(v, t, insn, want)                                                                \
	do {                                                                                  \
		struct diag_capture c_;                                                            \
		int n_ = run(&c_, v, t, insn);                                                \
		if (n_ != 0 || !strstr(c_.first_warn, want))                                  \
			fail_msg("%s: expected only warning '%s', got (%d) '%s' / '%s'", insn,   \
				 want, n_, c_.first_err, c_.first_warn);                       \
	} while (0)

static void test_check_version_gate_names_feature(void **state)
{
	(void)state;
	ERR("8.0", "sm_90", "mbarrier.arrive_drop.relaxed.cta.shared.b64 %rd1, [bar];",
	    "'.relaxed' on mbarrier.arrive_drop needs PTX ISA 8.6 (module is 8.0)");
	ERR("7.0", "sm_80", "mbarrier.init.shared::cta.b64 [bar], 1;",
	    "'.shared::cta' on mbarrier.init needs PTX ISA 7.8 (module is 7.0)");
	ERR("7.8", "sm_80", "mbarrier.try_wait.shared.b64 %p1, [bar], %rd2;",
	    "mbarrier.try_wait needs sm_90 or newer (target is sm_80)");
	ERR("8.0", "sm_80", "mbarrier.arrive.release.cluster.shared.b64 %rd1, [bar];",
	    "'.cluster' on mbarrier.arrive needs sm_90 or newer (target is sm_80)");
	OK("8.0", "sm_80", "mbarrier.arrive.release.cta.shared.b64 %rd1, [bar];");
	OK("8.6", "sm_90", "mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [bar], 1;");
}

/* Instructions ptxi reads but does not model pass the check (a note says so), whatever
 * shape, layout or dimension words they carry. */
static void test_check_unmodelled_accepted(void **state)
{
	(void)state;
	OK("8.0", "sm_90a", "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r1, %r2, %r3, %r4}, "
			     "[sbuf];");
	OK("8.0", "sm_90a", "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
			     "complete_tx::bytes [sbuf], [%rd1, {%r1, %r2}], [bar];");
	ERR("8.0", "sm_90a", "ld.global.u32 %r1, [%rd1, 4];",
	    "operand 2 of ld must be an address in brackets");
	ERR("8.0", "sm_90", "call k;", "'k' is a kernel (.entry): call needs a .func");
}

/* Warpgroup instructions (check_wgmma.c): gates, forms, operand counts and kinds. */
static void test_check_wgmma(void **state)
{
	(void)state;
	const char *mma = "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, "
			  "%rd1, %rd2, %p1, 1, -1, 0, 1;";
	OK("8.0", "sm_90a", mma);
	ERR("8.0", "sm_90", mma, "wgmma.mma_async needs target sm_90a (target is sm_90)");
	ERR("7.8", "sm_80", "wgmma.fence.sync.aligned;",
	    "wgmma.fence needs PTX ISA 8.0 (module is 7.8)");
	ERR("8.0", "sm_80", "setmaxnreg.inc.sync.aligned.u32 240;",
	    "setmaxnreg needs target sm_90a (target is sm_80)");
	OK("8.0", "sm_90a", "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%f0, %f1, %f2, "
			     "%f3}, {%r1, %r2, %r3, %r4}, %rd2, %p1, 1, 1, 1;");
	OK("8.4", "sm_90a", "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.u8 {%r0, %r1, %r2, %r3}, "
			     "%rd1, %rd2, 1;");
	ERR("8.0", "sm_90a", "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2}, "
			      "%rd1, %rd2, %p1, 1, 1, 0, 0;",
	    "the accumulator of .m64n8k16.f32 is a vector of 4 registers");
	ERR("8.0", "sm_90a", "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%f0, %f1, %f2, "
			      "%f3}, %rd1, %rd2, %p1, 1, 1, 0, 0;",
	    "wgmma.mma_async.f32.tf32 with A in shared memory takes 6 operands (has 8)");
	ERR("8.0", "sm_90a", "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, "
			      "%f3}, %rd1, %rd2, %p1, 2, 1, 0, 0;",
	    "imm-scale-a of wgmma.mma_async must be -1 or 1 (is 2)");
	ERR("8.0", "sm_90a", "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, "
			      "%f3}, %r1, %rd2, %p1, 1, 1, 0, 0;",
	    "the A descriptor is a 64-bit register or constant");
	ERR("8.0", "sm_90a", "wgmma.mma_async.sync.aligned.m64n12k16.f32.f16.f16 {%f0, %f1, %f2, "
			      "%f3}, %rd1, %rd2, %p1, 1, 1, 0, 0;", "no shape .m64n12k16");
	OK("8.0", "sm_90a", "wgmma.commit_group.sync.aligned;");
	OK("8.0", "sm_90a", "wgmma.wait_group.sync.aligned 1;");
	ERR("8.0", "sm_90a", "wgmma.wait_group.sync.aligned %r1;",
	    "the group count of wgmma.wait_group must be an integer constant");
	ERR("8.0", "sm_90a", "wgmma.commit_group.sync.aligned 1;",
	    "wgmma.commit_group takes no operands");
	OK("8.0", "sm_90a", "setmaxnreg.inc.sync.aligned.u32 240;");
	ERR("8.0", "sm_90a", "setmaxnreg.inc.sync.aligned.u32 20;",
	    "the register count of setmaxnreg must be from 24 to 256 (is 20)");
	ERR("8.0", "sm_90a", "setmaxnreg.dec.sync.aligned.u32 100;",
	    "the register count of setmaxnreg must be a multiple of 8 (is 100)");
	ERR("8.0", "sm_90a", "setmaxnreg.sync.aligned.u32 96;", "setmaxnreg needs .inc or .dec");
	/* the count's range ends, both kept (ptxas 13.0 takes 24 and 256, rejects 16 and 264) */
	OK("8.0", "sm_90a", "setmaxnreg.dec.sync.aligned.u32 24;");
	OK("8.0", "sm_90a", "setmaxnreg.inc.sync.aligned.u32 256;");
	ERR("8.0", "sm_90a", "setmaxnreg.dec.sync.aligned.u32 16;",
	    "the register count of setmaxnreg must be from 24 to 256 (is 16)");
	ERR("8.0", "sm_90a", "setmaxnreg.inc.sync.aligned.u32 264;",
	    "the register count of setmaxnreg must be from 24 to 256 (is 264)");
	/* the sparse form: PTX ISA 8.2, then checked as ptxas checks it */
	ERR("8.0", "sm_90a", "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%f0, %f1, %f2, "
			     "%f3}, %rd1, %rd2, %r1, 0, %p1, 1, 1, 0, 0;",
	    "wgmma.mma_async.sp needs PTX ISA 8.2 (module is 8.0)");
	OK("8.2", "sm_90a", "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%f0, %f1, %f2, "
			    "%f3}, %rd1, %rd2, %r1, 0, %p1, 1, 1, 0, 0;");
}

/* The sparse mma forms are refused at every use, whatever their words. */
/* The sparse forms are checked as ptxas checks them (a note says ptxi does not run them). */
static void test_check_sparse_checked(void **state)
{
	(void)state;
	OK("8.0", "sm_90", "mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f0, %f1, %f2, "
			   "%f3}, {%r1, %r2, %r3, %r4}, {%r1, %r2, %r3, %r4}, {%f0, %f1, %f2, %f3}, "
			   "%r1, 0x0;");
	OK("8.5", "sm_90", "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 "
			   "{%f0, %f1, %f2, %f3}, {%r1, %r2, %r3, %r4}, {%r1, %r2, %r3, %r4}, "
			   "{%f0, %f1, %f2, %f3}, %r1, 0x0;");
	ERR("8.0", "sm_90", "mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f0, %f1, %f2, "
			    "%f3}, {%r1, %r2}, {%r1, %r2, %r3, %r4}, {%f0, %f1, %f2, %f3}, %r1, 0x0;",
	    "A of mma.sp .m16n8k32.f16 is a vector of 4 32-bit integer registers");
	ERR("8.7", "sm_90a", "wgmma.mma_async.sp.sync.aligned.m64n8k64.s32.s8.s8 {%r0, %r1, %r2, "
			     "%r3}, %rd1, %rd2, %r1, 1, 1;",
	    "the sparsity selector of wgmma.mma_async must be from 0 to 0 (is 1)");
}

static void test_check_target_needs_version(void **state)
{
	(void)state;
	ERR("7.1", "sm_90", "ret;", "target sm_90 needs PTX ISA 7.8 (module is 7.1)");
	ERR("7.8", "sm_90a", "ret;", "target sm_90a needs PTX ISA 8.0 (module is 7.8)");
	ERR("9.1", "sm_90", "ret;", "PTX ISA 9.1 is not supported");
	OK("7.1", "sm_86", "ret;");
}

static void test_check_qualifiers(void **state)
{
	(void)state;
	ERR("9.0", "sm_90", "mbarrier.try_wait.shared::cluster.b64 %p1, [bar], %rd2;",
	    "'.shared::cluster' is not a valid state space for mbarrier.try_wait");
	ERR("9.0", "sm_90", "mbarrier.arrive.release.shared.b64 %rd1, [bar];",
	    "'.release' requires a scope ('.cta' or '.cluster')");
	ERR("9.0", "sm_90", "mbarrier.arrive.cta.shared.b64 %rd1, [bar];",
	    "'.cta' requires a memory order");
	ERR("9.0", "sm_90", "mbarrier.arrive.acquire.cta.shared.b64 %rd1, [bar];",
	    "'.acquire' is not allowed on mbarrier.arrive");
	ERR("9.0", "sm_90", "mbarrier.arrive.shared.expect_tx.b64 %rd1, [bar], 16;",
	    "'.expect_tx' must come right after 'mbarrier.arrive'");
	OK("9.0", "sm_90", "mbarrier.arrive.shared.noComplete.b64 %rd1, [bar], 1;");
	ERR("9.0", "sm_90", "mbarrier.init.shared.b32 [bar], 1;",
	    "'.b32' is not a valid type for mbarrier.init");
	ERR("9.0", "sm_90", "mbarrier.init.shared [bar], 1;",
	    "mbarrier.init needs an instruction type");
	ERR("9.0", "sm_90", "mbarrier.arrive.release.release.cta.shared.b64 %rd1, [bar];",
	    "duplicate '.release'");
	ERR("9.0", "sm_90", "mbarrier.arrive.release.cta.cluster.shared.b64 %rd1, [bar];",
	    "'.cluster' cannot be combined with '.cta'");
}

static void test_check_operands(void **state)
{
	(void)state;
	ERR("9.0", "sm_90", "mbarrier.arrive.noComplete.shared.b64 %rd1, [bar];",
	    "mbarrier.arrive.noComplete requires a count operand");
	ERR("9.0", "sm_90", "mbarrier.arrive.release.cluster.shared::cluster.b64 %rd1, [bar];",
	    "the destination must be '_'");
	ERR("7.0", "sm_80", "mbarrier.arrive.shared.b64 _, [bar];",
	    "the sink '_' as destination of mbarrier.arrive needs PTX ISA 7.1");
	OK("7.0", "sm_80", "mbarrier.arrive_drop.shared.b64 _, [bar];");
	ERR("8.0", "sm_80", "mbarrier.arrive.shared.b64 %rd1, [bar], 2;",
	    "a count operand on mbarrier.arrive without '.noComplete' needs sm_90");
	ERR("9.0", "sm_90", "mbarrier.test_wait.shared.b64 _, [bar], %rd2;",
	    "operand 1 of mbarrier.test_wait must be a predicate register");
	/* the state operand is 64-bit; with .parity a 32-bit parity takes its place */
	ERR("9.0", "sm_90", "mbarrier.test_wait.shared.b64 %p1, [bar], %r2;",
	    "operand 3 of mbarrier.test_wait must be a 64-bit integer register or a constant");
	ERR("9.0", "sm_90", "mbarrier.try_wait.shared.b64 %p1, [bar], %r2, %r3;",
	    "operand 3 of mbarrier.try_wait must be a 64-bit integer register or a constant");
	OK("9.0", "sm_90", "mbarrier.try_wait.parity.shared.b64 %p1, [bar], %r2, %r3;");
	ERR("9.0", "sm_90", "mbarrier.arrive.shared.b64 %rd1, [bar], %rd2;",
	    "operand 3 of mbarrier.arrive must be a 32-bit integer register or a constant");
	ERR("9.0", "sm_90", "mbarrier.init.shared.b64 [gbuf], 1;", "must be in shared memory");
	ERR("9.0", "sm_90", "mbarrier.init.b64 [%r1], 1;", "needs a 64-bit register");
	OK("9.0", "sm_90", "mbarrier.init.shared.b64 [%r1], 1;");
	ERR("9.0", "sm_90", "mbarrier.inval.shared.b64 [bar], 1;",
	    "mbarrier.inval takes 1 operand (has 2)");
	ERR("9.0", "sm_90", "elect.sync %rd1|%p1, 0xffffffff;", "operand 1 of elect.sync");
	OK("9.0", "sm_90", "elect.sync _|%p1, 0xffffffff;");
	ERR("9.0", "sm_90", "mapa.shared::cluster.u32 %r1, gbuf, %r3;", "operand 2 of mapa");
}

static void test_check_literals(void **state)
{
	(void)state;
	ERR("9.0", "sm_90", "mbarrier.arrive.shared.b64 %rd1, [bar], 0;",
	    "mbarrier.arrive count must be positive (is 0)");
	ERR("9.0", "sm_90", "mbarrier.test_wait.parity.shared.b64 %p1, [bar], 2;",
	    "phaseParity must be 0 or 1 (is 2)");
	ERR("9.0", "sm_90",
	    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
	    "[sbuf], [gbuf], 20, [bar];",
	    "cp.async.bulk size 20 is not a multiple of 16");
	/* ptxas accepts these: the checker only warns. */
	WARN("9.0", "sm_90", "mbarrier.init.shared.b64 [bar], 0;",
	     "mbarrier.init count 0 is outside [1, 2^20-1]");
	WARN("9.0", "sm_90", "mbarrier.arrive.shared.b64 %rd1, [bar], 1048576;",
	     "exceeds the limit 2^20-1");
}

static void test_check_bulk_and_fences(void **state)
{
	(void)state;
	ERR("9.0", "sm_90", "cp.async.bulk.shared::cluster.global [sbuf], [gbuf], 256, [bar];",
	    "cp.async.bulk needs a completion mechanism");
	ERR("8.0", "sm_90",
	    "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [sbuf], [gbuf], 16, "
	    "[bar];", "cp.async.bulk to '.shared::cta' needs PTX ISA 8.6");
	ERR("9.0", "sm_90",
	    "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes"
	    ".multicast::cluster [sbuf], [sbuf], 16, [bar], %rs1;", "'.multicast::cluster' needs");
	OK("9.0", "sm_90a",
	   "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
	   " [sbuf], [gbuf], 256, [bar], %rs1;");
	WARN("9.0", "sm_90",
	     "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
	     ".multicast::cluster [sbuf], [gbuf], 256, [bar], %rs1;", "meant for sm_90a");
	OK("8.0", "sm_90", "fence.mbarrier_init.release.cluster;");
	ERR("8.0", "sm_90", "fence.mbarrier_init.release.cta;",
	    "fence.mbarrier_init must be written fence.mbarrier_init.release.cluster");
	ERR("8.0", "sm_90", "fence.proxy.async.shared;", "fence.proxy.async takes .global");
	OK("8.0", "sm_90", "fence.proxy.async.shared::cta;");
	WARN("8.0", "sm_90", "fence.release.cluster;", "needs PTX ISA 8.6 according to the manual");
	ERR("9.0", "sm_90", "barrier.cluster.wait.relaxed;",
	    "'.relaxed' is not allowed on barrier.cluster.wait");
	ERR("8.0", "sm_90", "barrier.cluster.arrive 0;", "barrier.cluster.arrive takes 0 operands");
}

static void test_check_async_stores(void **state)
{
	(void)state;
#define STA "st.async.shared::cluster.mbarrier::complete_tx::bytes"
#define REDA "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes"
	OK("8.1", "sm_90", STA ".u32 [%r1], %r2, [%r3];");
	OK("8.1", "sm_90", STA ".v4.f32 [%r1], {%f1, %f2, %f3, 0f3F800000}, [%r3];");
	OK("8.1", "sm_90",
	   "st.async.mbarrier::complete_tx::bytes.v2.b64 [%rd1], {%rd2, 7}, [%rd3];");
	OK("8.1", "sm_90", REDA ".max.s32 [%r1], -5, [%r3];");
	ERR("8.0", "sm_90", STA ".u32 [%r1], %r2, [%r3];", "st.async needs PTX ISA 8.1");
	ERR("8.1", "sm_89", REDA ".add.u32 [%r1], %r2, [%r3];", "red.async needs sm_90");
	ERR("8.1", "sm_90", "st.async.shared::cluster.u32 [%r1], %r2, [%r3];",
	    "st.async needs the completion mechanism '.mbarrier::complete_tx::bytes'");
	ERR("8.1", "sm_90", "st.async.weak.cluster.mbarrier::complete_tx::bytes.u32 [%r1], %r2, "
	    "[%r3];", "'.weak' cannot be combined with '.cluster' on st.async");
	ERR("8.1", "sm_90", STA ".v4.b64 [%r1], {%rd1, %rd2, %rd3, %rd4}, [%r3];",
	    "'.v4.b64' on st.async stores more than 16 bytes");
	ERR("8.1", "sm_90", STA ".u32 [%r1], %rd2, [%r3];",
	    "st.async.u32 cannot store a .b64 register");
	ERR("8.1", "sm_90", STA ".u32 [%r1], %r2, %r3;",
	    "operand 3 of st.async must be an address");
	ERR("8.1", "sm_90", STA ".b16 [%r1], %rs2, [%r3];",
	    "'.b16' is not a valid type for st.async");
	ERR("8.1", "sm_90", "red.async.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r1], "
	    "%r2, [%r3];", "red.async needs the memory order and scope '.relaxed.cluster'");
	ERR("8.1", "sm_90", REDA ".inc.s32 [%r1], %r2, [%r3];",
	    "red.async.inc does not take '.s32'");
	ERR("8.1", "sm_90", REDA ".add.f32 [%r1], %f2, [%r3];", "'.f32' is not a valid type");
	/* ptxas takes these; the manual does not */
	WARN("8.1", "sm_90", "st.async.u32 [%r1], %r2;", "without an mbarrier operand");
	WARN("8.1", "sm_90", "st.async.shared::cta.mbarrier::complete_tx::bytes.u32 [%r1], %r2, "
	     "[%r3];", "the manual allows only '.shared::cluster'");
	WARN("8.1", "sm_90", STA ".v2.u32 [%r1], %r2, [%r3];",
	     "stores 2 values, but the operand has 1");
#undef STA
#undef REDA
}

static void test_check_bulk_reduce_and_prefetch(void **state)
{
	(void)state;
#define RC "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes"
#define RG "cp.reduce.async.bulk.global.shared::cta.bulk_group"
#define PF "cp.async.bulk.prefetch.L2.global"
	OK("8.0", "sm_90", RC ".add.u64 [%r1], [sbuf], 256, [bar];");
	OK("8.0", "sm_90", RG ".L2::cache_hint.add.noftz.bf16 [%rd1], [sbuf], %r2, %rd2;");
	OK("8.0", "sm_90", "cp.reduce.async.bulk.add.u32.global.shared::cta.bulk_group "
	   "[gbuf], [sbuf], 16;");
	ERR("7.8", "sm_90", RG ".add.u32 [gbuf], [sbuf], 16;", "cp.reduce.async.bulk needs PTX "
	    "ISA 8.0");
	ERR("8.0", "sm_89", RG ".add.u32 [gbuf], [sbuf], 16;", "cp.reduce.async.bulk needs sm_90");
	ERR("8.0", "sm_90", RG ".u32 [gbuf], [sbuf], 16;",
	    "cp.reduce.async.bulk needs a reduction operation (such as '.add')");
	ERR("8.0", "sm_90", RG ".add [gbuf], [sbuf], 16;",
	    "cp.reduce.async.bulk needs an instruction type (such as '.u32')");
	ERR("8.0", "sm_90", RC ".and.b64 [sbuf], [sbuf], 16, [bar];",
	    "cp.reduce.async.bulk.shared::cluster.and does not take '.b64'");
	ERR("8.0", "sm_90", RG ".min.f32 [gbuf], [sbuf], 16;",
	    "cp.reduce.async.bulk.global.min does not take '.f32'");
	ERR("8.0", "sm_90", RG ".exch.b32 [gbuf], [sbuf], 16;",
	    "'.exch' is not allowed on cp.reduce.async.bulk");
	ERR("8.0", "sm_90", RG ".add.f16 [gbuf], [sbuf], 16;",
	    "cp.reduce.async.bulk.add.f16 needs '.noftz'");
	ERR("8.0", "sm_90", RG ".add.noftz.f32 [gbuf], [sbuf], 16;",
	    "'.noftz' goes only with .add.f16 or .add.bf16 on cp.reduce.async.bulk");
	ERR("8.0", "sm_90", "cp.reduce.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
	    ".add.u32 [sbuf], [gbuf], 16, [bar];",
	    "cp.reduce.async.bulk cannot copy from '.global' to '.shared::cluster'");
	ERR("8.0", "sm_90", "cp.reduce.async.bulk.global.shared::cta.mbarrier::complete_tx::bytes"
	    ".add.u32 [gbuf], [sbuf], 16, [bar];", "'.mbarrier::complete_tx::bytes' is not the "
	    "completion mechanism of cp.reduce.async.bulk.global.shared::cta");
	ERR("8.0", "sm_90", RC ".multicast::cluster.add.u32 [sbuf], [sbuf], 16, [bar], %rs1;",
	    "'.multicast::cluster' is not allowed on cp.reduce.async.bulk");
	ERR("8.0", "sm_90", RC ".L2::cache_hint.add.u32 [sbuf], [sbuf], 16, [bar], %rd1;",
	    "'.L2::cache_hint' is not allowed on cp.reduce.async.bulk.shared::cluster.shared::cta");
	ERR("8.0", "sm_90", RC ".add.u32 [sbuf], [sbuf], 24, [bar];",
	    "cp.reduce.async.bulk size 24 is not a multiple of 16");
	ERR("8.0", "sm_90", RC ".add.u32 [sbuf], [sbuf], 16;",
	    "this form of cp.reduce.async.bulk takes 4 operands (has 3)");
	ERR("8.0", "sm_90", RG ".add.u32 [sbuf], [sbuf], 16;",
	    "operand 1 of cp.reduce.async.bulk must be in global memory");
	ERR("8.0", "sm_90", RC ".add.u32 [sbuf], [sbuf], 16, %r1;",
	    "operand 4 of cp.reduce.async.bulk must be an address in brackets");
	WARN("8.0", "sm_90", RC ".add.u32 [sbuf], [sbuf], 16, %rd1;",
	     "the mbarrier operand of cp.reduce.async.bulk should be written in brackets");
	OK("8.0", "sm_90", PF " [gbuf], 256;");
	OK("8.0", "sm_90", "cp.async.bulk.prefetch.global.L2.L2::cache_hint [%r1], %r2, %rd3;");
	ERR("8.0", "sm_90", "cp.async.bulk.prefetch.global [gbuf], 256;",
	    "cp.async.bulk.prefetch needs the cache level '.L2'");
	ERR("8.0", "sm_90", "cp.async.bulk.prefetch.L2 [gbuf], 256;",
	    "cp.async.bulk.prefetch needs the state space '.global'");
	ERR("8.0", "sm_90", "cp.async.bulk.prefetch.L2.shared::cta [sbuf], 256;",
	    "'.shared::cta' is not a valid state space for cp.async.bulk.prefetch");
	ERR("8.0", "sm_90", PF " [gbuf], 256, %rd1;",
	    "cp.async.bulk.prefetch takes 2 operands (has 3)");
	ERR("8.0", "sm_90", PF ".L2::cache_hint [gbuf], 256;",
	    "cp.async.bulk.prefetch.L2::cache_hint takes 3 operands (has 2)");
	ERR("8.0", "sm_90", PF " [gbuf], 20;", "cp.async.bulk.prefetch size 20 is not a multiple "
	    "of 16");
	ERR("8.0", "sm_90", PF " [sbuf], 256;", "operand 1 of cp.async.bulk.prefetch must be in "
	    "global memory");
	ERR("8.0", "sm_90", PF " [gbuf], %rd1;", "operand 2 of cp.async.bulk.prefetch must be a "
	    "32-bit integer register or a constant");
	ERR("8.0", "sm_90", "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
	    "[sbuf], [gbuf], 16, %r1;", "operand 4 of cp.async.bulk must be an address in brackets");
#undef RC
#undef RG
#undef PF
}

static void test_check_createpolicy(void **state)
{
	(void)state;
#define FR "createpolicy.fractional.L2::evict_last"
	OK("7.4", "sm_80", FR ".b64 %rd1, 1.0;");
	OK("7.4", "sm_80", FR ".L2::evict_unchanged.b64 %rd1, 0.5;");
	OK("7.4", "sm_80", "createpolicy.fractional.L2::evict_first.L2::evict_first.b64 %rd1;");
	OK("7.4", "sm_80", FR ".b64 %rd1, %f1;");
	OK("7.4", "sm_80", FR ".b64 %rd1, 0d3FF0000000000001;"); /* 1.0 as an f32 */
	OK("7.4", "sm_80", "createpolicy.range.L2::evict_last.L2::evict_first.b64 %rd1, [%rd2], "
	   "0x100000, 0x200000;");
	OK("7.4", "sm_80", "createpolicy.range.L2::evict_last.b64 %rd1, [sbuf], %r1, %r2;");
	OK("7.4", "sm_80", "createpolicy.cvt.L2.b64 %rd1, %rd2;");
	ERR("7.3", "sm_80", FR ".b64 %rd1, 1.0;", "createpolicy.fractional needs PTX ISA 7.4");
	ERR("7.4", "sm_75", "createpolicy.cvt.L2.b64 %rd1, %rd2;", "createpolicy.cvt needs sm_80");
	ERR("7.4", "sm_80", "createpolicy.fractional.b64 %rd1, 0.5;",
	    "createpolicy.fractional needs an eviction priority (such as '.L2::evict_last')");
	ERR("7.4", "sm_80", FR ".L2::evict_normal.b64 %rd1, 0.5;", "'.L2::evict_normal' cannot "
	    "be the secondary eviction priority of createpolicy.fractional");
	ERR("7.4", "sm_80", FR ".L2::evict_first.L2::evict_first.b64 %rd1, 0.5;",
	    "createpolicy.fractional takes at most two eviction priorities");
	ERR("7.4", "sm_80", FR ".b32 %r1, 0.5;", "'.b32' is not a valid type for "
	    "createpolicy.fractional");
	ERR("7.4", "sm_80", FR " %rd1, 0.5;", "createpolicy.fractional needs an instruction type");
	ERR("7.4", "sm_80", FR ".b64 %rd1, 0.0;",
	    "the fraction of createpolicy.fractional must be in (0.0, 1.0] (is 0)");
	ERR("7.4", "sm_80", FR ".b64 %rd1, 1.0000001;", "must be in (0.0, 1.0]");
	ERR("7.4", "sm_80", FR ".b64 %rd1, 1;", "the fraction of createpolicy.fractional must be an "
	    ".f32 or .b32 register, or a floating-point constant");
	ERR("7.4", "sm_80", FR ".b64 _, 0.5;", "operand 1 of createpolicy.fractional must be a "
	    "64-bit integer register");
	ERR("7.4", "sm_80", "createpolicy.fractional.global.L2::evict_last.b64 %rd1, 0.5;",
	    "'.global' is not a valid state space for createpolicy.fractional");
	ERR("7.4", "sm_80", "createpolicy.range.global.L2::evict_last.b64 %rd1, [sbuf], 1, 2;",
	    "operand 2 of createpolicy.range must be in global memory");
	ERR("7.4", "sm_80", "createpolicy.range.L2::evict_last.b64 %rd1, [%rd2], 2048, 1024;",
	    "the primary-size of createpolicy.range (2048) exceeds its total-size (1024)");
	ERR("7.4", "sm_80", "createpolicy.range.L2::evict_last.b64 %rd1, [%rd2], %r1;",
	    "createpolicy.range takes 4 operands (has 3)");
	ERR("7.4", "sm_80", "createpolicy.cvt.b64 %rd1, %rd2;",
	    "createpolicy.cvt needs the cache level '.L2'");
	ERR("7.4", "sm_80", "createpolicy.cvt.L2.b64 %rd1, %r2;",
	    "operand 2 of createpolicy.cvt must be a 64-bit integer register or a constant");
#undef FR
}

static void test_check_special_registers(void **state)
{
	(void)state;
	ERR("7.0", "sm_80", "mov.u32 %r1, %cluster_ctarank;",
	    "'%cluster_ctarank' needs PTX ISA 7.8 (module is 7.0)");
	ERR("9.0", "sm_90", "mov.u32 %r1, %clusterid;", "is a vector");
	ERR("9.0", "sm_90", "mov.u64 %rd1, %cluster_ctarank;", "32 bits wide");
	ERR("9.0", "sm_90", "add.u32 %r1, %cluster_ctarank, 1;", "cannot be an operand of add");
	OK("9.0", "sm_90", "mov.pred %p1, %is_explicit_cluster;");
	OK("9.0", "sm_90", "mov.u32 %r1, %cluster_nctaid.w;");
}

/* Ordinary instructions: type, modifiers and operand widths (CK_ALU/CK_AMOD/CK_NEED rows). */
static void test_check_typed_alu(void **state)
{
	(void)state;
	OK("8.0", "sm_80", "add.s32 %r1, %r2, %r3;");
	OK("8.0", "sm_80", "add.f32 %f1, %r2, %f3;");          /* .b32 fits .f32 */
	OK("8.0", "sm_80", "add.rn.ftz.sat.f32 %f1, %f2, 0f3F800000;");
	OK("8.0", "sm_80", "mul.wide.u32 %rd1, %r2, %r3;");
	OK("8.0", "sm_80", "and.b32 %r1, %r2, 0xff;");
	ERR("8.0", "sm_80", "add.u32 %r1, %rd2, %r3;",
	    "operand 2 of add.u32 is a 64-bit register; expected 32 bits");
	ERR("8.0", "sm_80", "add.f32 %f1, %f2, 1;",
	    "operand 3 of add.f32 is an integer constant; expected a floating-point constant");
	ERR("8.0", "sm_80", "add.s32 %r1, %r2, 0f3F800000;",
	    "operand 3 of add.s32 is a floating-point constant");
	ERR("8.0", "sm_80", "add %r1, %r2, %r3;", "add needs an instruction type");
	ERR("8.0", "sm_80", "add.rn.s32 %r1, %r2, %r3;", "add.s32 takes no rounding modifier ('.rn')");
	ERR("8.0", "sm_80", "add.sat.u32 %r1, %r2, %r3;", "'.sat' does not apply to add.u32");
	ERR("8.0", "sm_80", "add.s32 _, %r2, %r3;", "add.s32 cannot discard its result");
	ERR("8.0", "sm_80", "add.s32 %r1, %r2;", "add.s32 takes 3 operands (has 2)");
	ERR("8.0", "sm_80", "mul.s32 %r1, %r2, %r3;", "mul.s32 requires '.lo', '.hi' or '.wide'");
	ERR("8.0", "sm_80", "mul.wide.u32 %r1, %r2, %r3;",
	    "operand 1 of mul.wide.u32 is a 32-bit register; expected 64 bits");
	ERR("8.0", "sm_80", "div.f32 %f1, %f2, %f3;",
	    "div.f32 requires '.rn', '.rz', '.rm', '.rp', '.approx' or '.full'");
	ERR("8.0", "sm_80", "fma.f32 %f1, %f2, %f3, %f3;",
	    "fma.f32 requires a rounding modifier ('.rn', '.rz', '.rm' or '.rp')");
	ERR("8.0", "sm_80", "xor.b32 %r1, %r2, %rd3;", "operand 3 of xor.b32 is a 64-bit register");
	ERR("8.0", "sm_80", "selp.u32 %r1, %r2, %r3, %r4;",
	    "operand 4 of selp.u32 is a .b32 register; expected a predicate register");
	ERR("7.0", "sm_80", "add.bf16 %rs1, %rs2, %rs3;", "add.bf16 needs PTX ISA 7.8");
}

static void test_check_memory_qualifiers(void **state)
{
	(void)state;
	ERR("9.0", "sm_90", "ld.relaxed.global.u32 %r1, [%rd2];",
	    "'.relaxed' on ld requires a scope");
	ERR("9.0", "sm_90", "ld.volatile.gpu.global.u32 %r1, [%rd2];",
	    "scope '.gpu' on ld needs '.relaxed' or '.acquire'");
	ERR("9.0", "sm_90", "st.nc.global.u32 [%rd2], %r1;", "'.nc' is not a valid qualifier for st");
	ERR("9.0", "sm_90", "ld.relaxed.cta.nc.global.u32 %r1, [%rd2];",
	    "'.nc' cannot be combined with '.relaxed'");
	ERR("9.0", "sm_90", "ld.global.L2::cache_hint.u32 %r1, [%rd2];",
	    "ld.L2::cache_hint takes 3 operands");
	ERR("9.0", "sm_90", "ld.global.u32 %r1, [%rd2], %rd3;",
	    "a cache-policy operand needs '.L2::cache_hint'");
	ERR("9.0", "sm_90", "st.const.u32 [%rd2], %r1;", "st cannot write '.const' memory");
	ERR("9.0", "sm_90", "ld.global.L2::evict_first.u32 %r1, [%rd2];", "needs a 256-bit vector");
	ERR("9.0", "sm_90", "ld.shared.b128 %rd1, [sbuf];", "must be a .b128 register");
	/* .b128 (ptxas 13.0): no vectors of it; its atomics need sm_90; constants are taken */
	ERR("9.0", "sm_90", ".reg .b128 %q<2>; ld.global.v2.b128 {%q0, %q1}, [gbuf];",
	    "ld.v2.b128 moves 32 bytes; at most 16");
	ERR("9.0", "sm_80", ".reg .b128 %q<3>; atom.global.cas.b128 %q0, [gbuf], %q1, %q2;",
	    "atom with type .b128 needs sm_90 or newer");
	ERR("9.0", "sm_90", ".reg .b128 %q<2>; mov.b128 %q0, {%rd1, %r1, %r2};",
	    "the elements of a mov.b128 vector must have one width (64 and 32 bits)");
	ERR("9.0", "sm_90", ".reg .b128 %q<2>; mov.b64 %rd1, %q0;",
	    "operand 2 of mov.b64 is a 128-bit register; expected 64 bits");
	OK("9.0", "sm_90", ".reg .b128 %q<3>; atom.global.cas.b128 %q0, [gbuf], 0, %q2;");
	OK("9.0", "sm_90", ".reg .b128 %q<2>; mov.b128 %q0, {%rd1, %rd2}; mov.b128 %q1, %q0; "
	   "mov.b128 {%r1, %r2, %r3, _}, %q1; mov.b128 %q1, 5;");
	OK("8.3", "sm_80", ".reg .b128 %q<2>; ld.global.u32 %q0, [gbuf]; st.shared.b128 [sbuf], %q0;");
	ERR("8.0", "sm_86", "ld.acquire.cluster.global.u32 %r1, [%rd2];",
	    "'.cluster' on ld needs sm_90 or newer");
	OK("9.0", "sm_90", "ld.global.L2::cache_hint.u32 %r1, [%rd2], %rd3;");
	OK("7.0", "sm_80", "ld.acquire.gpu.global.u32 %r1, [%rd2];");
	OK("9.0", "sm_90", "ld.global.nc.L1::evict_last.u32 %r1, [%rd2];");
	OK("9.0", "sm_90", "st.release.cluster.shared::cluster.u32 [%r2], %r1;");
	/* cp.async */
	ERR("9.0", "sm_90", "cp.async.shared.global [sbuf], [gbuf], 16;",
	    "cp.async needs '.ca' or '.cg'");
	ERR("9.0", "sm_90", "cp.async.ca.global.shared [gbuf], [sbuf], 16;",
	    "cp.async copies from .global to .shared");
	ERR("9.0", "sm_90", "cp.async.ca.shared.global [gbuf], [sbuf], 16;",
	    "the destination of cp.async must be in .shared");
	ERR("9.0", "sm_90", "cp.async.cg.shared.global [sbuf], [gbuf], 16, 20;",
	    "src-size 20 is outside [0, cp-size 16]");
	ERR("9.0", "sm_90", "cp.async.cg.shared.global [sbuf], [gbuf], %r1;",
	    "cp-size of cp.async must be a constant");
	OK("9.0", "sm_90", "cp.async.ca.shared.global [sbuf], [gbuf], 16, %r1;");
	OK("9.0", "sm_90", "cp.async.cg.shared.global.L2::cache_hint [sbuf], [gbuf], 16, %rd1;");
}
static void test_check_warp_and_barriers(void **state)
{
	(void)state;
	ERR("9.0", "sm_90", "shfl.sync.b32 %r1, %r2, 1, 31, 0xffffffff;",
	    "shfl.sync.b32 requires '.up', '.down', '.bfly' or '.idx'");
	ERR("9.0", "sm_90", "shfl.sync.idx.b32 _, %r2, 0, 31, 0xffffffff;", "cannot discard");
	ERR("9.0", "sm_90", "vote.sync.ballot.pred %p1, %p2, 0xffffffff;",
	    "'.pred' is not a valid type for vote.sync.ballot");
	ERR("9.0", "sm_90", "match.any.sync.b32 %r1|%p1, %r2, 0xffffffff;",
	    "writes one destination");
	ERR("9.0", "sm_90", "redux.sync.min.f32 %f1, %f2, 0xffffffff;", "needs sm_100");
	ERR("9.0", "sm_90", "activemask %r1;", "activemask needs an instruction type");
	OK("9.0", "sm_90", "shfl.sync.up.b32 %r1|%p1, %r2, 1, 0, 0xffffffff;");
	OK("9.0", "sm_90", "shfl.sync.bfly.b32 %f1, %f2, 1, 31, -1;");
	OK("9.0", "sm_90", "match.all.sync.b64 %r1|%p1, %rd2, 0xffffffff;");
	OK("9.0", "sm_90", "vote.sync.any.pred %p1, !%p2, %r3;");
	ERR("9.0", "sm_90", "bar.sync 16;", "barrier number 16 of bar.sync is outside [0, 15]");
	ERR("9.0", "sm_90", "bar.sync 0, 33;", "positive multiple of the warp size");
	ERR("9.0", "sm_90", "bar.sync.aligned 0;", "'.aligned' is not valid on bar.sync");
	ERR("9.0", "sm_90", "bar.arrive 1;", "bar.arrive takes 2 operands");
	ERR("9.0", "sm_90", "bar.red.popc.b32 %r1, 0, %p1;", "bar.red.popc needs '.u32'");
	OK("9.0", "sm_90", "barrier.sync.aligned 0, 64;");
	OK("9.0", "sm_90", "bar.red.or.pred %p1, 0, 64, %p2;");
	ERR("9.0", "sm_90", "cvta.u64 %rd1, %rd2;", "cvta needs a state space");
	ERR("9.0", "sm_90", "cvta.to.shared.s64 %rd1, %rd2;", "cvta takes '.u64'");
	ERR("9.0", "sm_90", "cvta.global.u64 %rd1, sbuf;", "does not match cvta.global");
	ERR("9.0", "sm_90", "isspacep.shared.u64 %p1, %rd2;", "isspacep takes no type");
	ERR("9.0", "sm_90", "red.global.exch.b32 [%rd2], %r3;", "red has no '.exch'");
	ERR("9.0", "sm_90", "atom.local.add.u32 %r1, [%rd2], %r3;", "not '.local'");
	ERR("9.0", "sm_90", "atom.global.add.u32 %r1, [%rd2], %rd3;", "is a 64-bit register");
	ERR("9.0", "sm_90", "shf.l.b32 %r1, %r2, %r3, %r4;", "requires '.clamp' or '.wrap'");
	ERR("9.0", "sm_90", "exit.uni;", "'.uni' is not valid on exit");
	ERR("9.0", "sm_90", "@%r1 ret;", "the guard of ret must be a predicate register");
	OK("9.0", "sm_90", "ret.uni;");
	OK("9.0", "sm_90", "nanosleep.u32 %r1;");
}
static void test_check_setp_cvt_mov(void **state)
{
	(void)state;
	OK("8.0", "sm_80", "setp.lt.u32 %p1|%p2, %r1, %r2;");
	OK("8.0", "sm_80", "setp.ne.and.s32 %p1, %r1, %r2, !%p2;");
	ERR("8.0", "sm_80", "setp.s32 %p1, %r1, %r2;", "setp.s32 requires a comparison");
	ERR("8.0", "sm_80", "setp.lo.s32 %p1, %r1, %r2;", "'.lo' does not apply to setp.s32");
	ERR("8.0", "sm_80", "setp.eq.s32 %r1, %r1, %r2;",
	    "operand 1 of setp.s32 is a .b32 register; expected a predicate register");
	OK("8.0", "sm_80", "cvt.rn.f32.s32 %f1, %r2;");
	OK("8.0", "sm_80", "cvt.u32.u16 %r1, %rs1;");
	OK("8.0", "sm_80", "cvt.u64.u32 %rd1, %r1;");
	OK("8.0", "sm_80", "cvt.sat.f32.f32 %f1, %f2;");
	ERR("8.0", "sm_80", "cvt.f32.s32 %f1, %r2;",
	    "cvt.f32.s32 requires a rounding modifier ('.rn', '.rz', '.rm' or '.rp')");
	ERR("8.0", "sm_80", "cvt.s32.f32 %r1, %f2;",
	    "cvt.s32.f32 requires a rounding modifier ('.rni', '.rzi', '.rmi' or '.rpi')");
	ERR("8.0", "sm_80", "cvt.rn.u32.u16 %r1, %rs1;", "cvt.u32.u16 takes no rounding modifier");
	OK("8.0", "sm_80", "mov.u64 %rd1, sbuf;");
	OK("8.0", "sm_80", "mov.b64 %rd1, {%r1, %r2};");
	ERR("8.0", "sm_80", "mov.u32 %r1, %rd2;", "operand 2 of mov.u32 is a 64-bit register");
	ERR("8.0", "sm_80", "bra %r1;", "the target of bra must be a label");
	ERR("8.0", "sm_80", "ld.global.u32 %r1, [sbuf];", "'sbuf' is in .shared memory, not .global");
	ERR("8.0", "sm_80", "cp.async.cg.shared.global [sbuf], [gbuf], 8;",
	    "cp.async.cg copies 16 bytes");
	ERR("8.0", "sm_80", "cvta.to.shared.u32 %r1, %r2;",
	    "32-bit address conversion is not supported");
}

static void keep_text(void *ctx, enum diag_level level, const char *text)
{
	(void)level;
	snprintf(ctx, 4096, "%s", text);
}

/* Every check has a distinct lower-case name and a section; messages end in "[name]", at the
 * check's level, and a message too long for the buffer is cut before its name, never
 * through it. */
static void test_check_names(void **state)
{
	(void)state;
	for (int k = 0; k < CHECK__COUNT; k++) {
		const struct check_info *ci = check_info(k);
		assert_true(ci->name[0] && strspn(ci->name, "abcdefghijklmnopqrstuvwxyz0123456789-") ==
						   strlen(ci->name));
		assert_true(ci->section[0] && ci->text[0]);
		assert_int_equal(check_find(ci->name), k);
		for (int j = 0; j < k; j++)
			assert_string_not_equal(check_info(j)->name, ci->name);
	}
	assert_int_equal(check_find("OPERAND-TYPE"), CHECK_OPND_TYPE);
	assert_int_equal(check_find("operand"), -1);
	ERR("8.0", "sm_90", "mbarrier.arrive_drop.relaxed.cta.shared.b64 %rd1, [bar];",
	    "'.relaxed' on mbarrier.arrive_drop needs PTX ISA 8.6 (module is 8.0) [ptx-version]");
	ERR("8.0", "sm_90", "add.u32 %r1, %r2, %rd1;",
	    "operand 3 of add.u32 is a 64-bit register; expected 32 bits [operand-type]");
	WARN("8.0", "sm_90", "mbarrier.init.shared::cta.b64 [bar], 0;",
	     "mbarrier.init count 0 is outside [1, 2^20-1] (undefined behaviour; ptxas accepts "
	     "it) [mbarrier-count-constant]");

	static char text[4096];
	struct diag d = {.sink = keep_text, .ctx = text};
	char big[2000];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	assert_int_equal(check_report(&d, NULL, CHECK_SYNTAX, (struct src_span){0, 0}, "%s", big),
			 1);
	assert_non_null(strstr(text, "xxx [syntax]\n"));
	assert_int_equal(check_report(&d, NULL, CHECK_MANUAL_FORM, (struct src_span){0, 0}, "w"), 0);
	assert_string_equal(text, "ptxi: warning: w [manual-form]\n");
}

/* Tensor copies (check_tensor.c), pinned against ptxas 13.0's verdicts. */
static void test_check_tensor_copies(void **state)
{
	(void)state;
#define TL "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
#define TS "cp.async.bulk.tensor.3d.global.shared::cta"
#define TR "cp.reduce.async.bulk.tensor.2d.global.shared::cta"
#define TP "cp.async.bulk.prefetch.tensor"
	OK("8.0", "sm_90", TL ".multicast::cluster.L2::cache_hint [sbuf], [%rd1, {%r1, 4}], [bar], "
	   "%rs1, %rd2;");
	OK("8.0", "sm_90", "cp.async.bulk.tensor.tile.2d.mbarrier::complete_tx::bytes.shared::cluster"
	   ".global %rd3, [%r1, {%r1, %r2}], [bar+8];");
	OK("8.0", "sm_90a", TS ".im2col_no_offs.bulk_group [%rd1, {%r1, %r2, %r3}], [sbuf];");
	OK("8.0", "sm_90a", TR ".bulk_group.xor [gbuf, {%r1, %r2}], [sbuf];");
	OK("8.0", "sm_90", TP ".3d.global.L2.im2col.L2::cache_hint [%rd1, {%r1, %r2, %r3}], {7}, "
	   "%rd2;");
	OK("8.7", "sm_100a", "cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4"
	   ".mbarrier::complete_tx::bytes.cta_group::2 [sbuf], [%rd1, {%r1, %r2, %r3, %r4, %r5}], "
	   "[bar];");
	ERR("7.8", "sm_90", TL " [sbuf], [%rd1, {%r1, %r2}], [bar];",
	    "cp.async.bulk.tensor needs PTX ISA 8.0");
	ERR("8.5", "sm_90", "cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes "
	    "[sbuf], [%rd1, {%r1, %r2}], [bar];",
	    "cp.async.bulk.tensor to '.shared::cta' needs PTX ISA 8.6");
	ERR("8.0", "sm_90", "cp.async.bulk.tensor.shared::cluster.global.mbarrier::complete_tx::bytes "
	    "[sbuf], [%rd1, {%r1, %r2}], [bar];",
	    "cp.async.bulk.tensor needs a dimension count ('.1d' .. '.5d')");
	ERR("8.0", "sm_90", TL ".3d [sbuf], [%rd1, {%r1, %r2}], [bar];",
	    "cp.async.bulk.tensor takes one dimension ('.1d' .. '.5d') ('.2d' and '.3d')");
	ERR("8.0", "sm_90", TL ".b32 [sbuf], [%rd1, {%r1, %r2}], [bar];",
	    "cp.async.bulk.tensor takes no type ('.b32')");
	ERR("8.0", "sm_90", TS ".tile [%rd1, {%r1, %r2, %r3}], [sbuf];",
	    "cp.async.bulk.tensor to global memory completes through '.bulk_group'");
	ERR("8.0", "sm_90", TS ".im2col.bulk_group [%rd1, {%r1, %r2, %r3}], [sbuf];",
	    "cp.async.bulk.tensor (a store) does not take '.im2col'");
	ERR("8.6", "sm_90", "cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"
	    ".multicast::cluster [sbuf], [%rd1, {%r1, %r2}], [bar], %rs1;",
	    "'.multicast::cluster' needs the '.shared::cluster' destination");
	ERR("8.0", "sm_90", "cp.async.bulk.tensor.2d.shared::cluster.global.im2col"
	    ".mbarrier::complete_tx::bytes [sbuf], [%rd1, {%r1, %r2}], [bar];",
	    "'.2d' cannot be combined with '.im2col' (it needs 3 to 5 dimensions)");
	ERR("8.0", "sm_90", TL " [sbuf], [%rd1, {%r1, %r2, %r3}], [bar];",
	    "cp.async.bulk.tensor takes 2 coordinates here (has 3)");
	ERR("8.0", "sm_90", TL " [sbuf], [%rd1, {%rd1, %rd2}], [bar];",
	    "a coordinate of cp.async.bulk.tensor must be a 32-bit integer register or a constant");
	ERR("8.0", "sm_90", "cp.async.bulk.tensor.4d.shared::cluster.global.im2col"
	    ".mbarrier::complete_tx::bytes [sbuf], [%rd1, {%r1, %r2, %r3, %r4}], [bar], {%rs1};",
	    "'.im2col' on cp.async.bulk.tensor takes a vector of 2 im2col offsets");
	ERR("8.0", "sm_90", TL ".multicast::cluster [sbuf], [%rd1, {%r1, %r2}], [bar], %r1;",
	    "the ctaMask of cp.async.bulk.tensor must be a 16-bit integer register or a constant");
	ERR("8.0", "sm_90", TL ".L2::cache_hint [sbuf], [%rd1, {%r1, %r2}], [bar];",
	    "cp.async.bulk.tensor takes 4 operands here (has 3)");
	ERR("8.0", "sm_90", TL " [sbuf], [gbuf, {%r1, %r2}], [gbuf];",
	    "operand 3 of cp.async.bulk.tensor must be in shared memory ('gbuf' is .global)");
	ERR("8.0", "sm_90", TL " [sbuf], [sbuf, {%r1, %r2}], [bar];",
	    "the tensor map of cp.async.bulk.tensor must be in global memory ('sbuf' is .shared)");
	ERR("8.0", "sm_90", TR ".tile.bulk_group [%rd1, {%r1, %r2}], [sbuf];",
	    "cp.reduce.async.bulk.tensor needs a reduction operation");
	ERR("8.0", "sm_90", TR ".add.min.bulk_group [%rd1, {%r1, %r2}], [sbuf];",
	    "cp.reduce.async.bulk.tensor takes one reduction operation ('.add' and '.min')");
	ERR("8.0", "sm_90", TR ".exch.bulk_group [%rd1, {%r1, %r2}], [sbuf];",
	    "cp.reduce.async.bulk.tensor does not take '.exch'");
	ERR("8.0", "sm_90", "cp.reduce.async.bulk.tensor.2d.shared::cluster.shared::cta.add"
	    ".mbarrier::complete_tx::bytes [sbuf], [%rd1, {%r1, %r2}], [bar];",
	    "cp.reduce.async.bulk.tensor reduces .global.shared::cta (destination, source)");
	ERR("8.0", "sm_90", TP ".2d.global.tile [%rd1, {%r1, %r2}];",
	    "cp.async.bulk.prefetch.tensor needs the cache level '.L2'");
	ERR("8.0", "sm_90", TP ".2d.L1.global [%rd1, {%r1, %r2}];",
	    "cp.async.bulk.prefetch.tensor does not take '.L1'");
	ERR("8.7", "sm_90a", TP ".2d.L2.global.tile::gather4 [%rd1, {%r1, %r2, %r3, %r4, %r5}];",
	    "'.tile::gather4' on cp.async.bulk.prefetch.tensor needs sm_100a");
	ERR("8.7", "sm_100", TL ".cta_group::1 [sbuf], [%rd1, {%r1, %r2}], [bar];",
	    "'.cta_group::1' on cp.async.bulk.tensor needs sm_100a");
	ERR("8.7", "sm_100a", "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group.cta_group::2 "
	    "[%rd1, {%r1, %r2}], [sbuf];", "'.cta_group::2' is only for a load into shared memory");
#undef TL
#undef TS
#undef TR
#undef TP
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_names),
		cmocka_unit_test(test_check_version_gate_names_feature),
		cmocka_unit_test(test_check_unmodelled_accepted),
		cmocka_unit_test(test_check_sparse_checked),
		cmocka_unit_test(test_check_wgmma),
		cmocka_unit_test(test_check_target_needs_version),
		cmocka_unit_test(test_check_qualifiers),
		cmocka_unit_test(test_check_operands),
		cmocka_unit_test(test_check_literals),
		cmocka_unit_test(test_check_bulk_and_fences),
		cmocka_unit_test(test_check_async_stores),
		cmocka_unit_test(test_check_bulk_reduce_and_prefetch),
		cmocka_unit_test(test_check_tensor_copies),
		cmocka_unit_test(test_check_createpolicy),
		cmocka_unit_test(test_check_special_registers),
		cmocka_unit_test(test_check_typed_alu),
		cmocka_unit_test(test_check_setp_cvt_mov),
		cmocka_unit_test(test_check_memory_qualifiers),
		cmocka_unit_test(test_check_warp_and_barriers),
	};
	return cmocka_run_group_tests_name("check", tests, NULL, NULL);
}
