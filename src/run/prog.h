/*
 * prog.h - the decoded program: what load.c makes of a checked IR module. Functions
 * (struct dfunc) hold instructions (struct dinsn) whose operands (struct dop) are resolved
 * register slots, immediates, addresses and targets, so the run loop never touches a
 * string. Read-only while a launch runs.
 */
#ifndef PTXI_PROG_H
#define PTXI_PROG_H

#include <stdbool.h>
#include <stdint.h>

#include "front/ir.h"

/* The decoded form of an ALU instruction: what exec_alu.h picks a kernel for and runs over
 * lane arrays (the value convention is exec_alu.h's). */
#define LANES 32

/* Decoded modifier flags an ALU instruction may carry. */
enum {
	ALU_SAT = 1u << 0,      /* .sat                                                  */
	ALU_FTZ = 1u << 1,      /* .ftz                                                  */
	ALU_HI = 1u << 2,       /* mul.hi / mad.hi / mul24.hi                            */
	ALU_LO = 1u << 3,       /* .lo                                                   */
	ALU_WIDE = 1u << 4,     /* .wide                                                 */
	ALU_CC = 1u << 5,       /* .cc: write the carry-out lane array                  */
	ALU_APPROX = 1u << 6,   /* .approx                                               */
	ALU_FULL = 1u << 7,     /* .full (div.full.f32)                                  */
	ALU_RELU = 1u << 8,     /* .relu                                                 */
	ALU_NAN = 1u << 9,      /* min/max .NaN                                          */
	ALU_XORSIGN = 1u << 10, /* min/max .xorsign.abs                                  */
	ALU_SHIFTAMT = 1u << 11,/* bfind.shiftamt                                        */
	ALU_CLAMP = 1u << 12,   /* shf.clamp, bmsk.clamp, szext.clamp                    */
	ALU_LEFT = 1u << 13,    /* shf.l                                                 */
	ALU_SATFINITE = 1u << 14,
	ALU_OOB = 1u << 15,
};

struct alu_insn;

/* Operands: d (destination), d2 (second destination: setp's |q), a, b, c, e (sources in
 * written order after the destinations), cc (carry lane array of the warp, read by
 * addc/subc/madc, written by .cc forms). Arrays the instruction does not use may be NULL. */
struct alu_args {
	uint64_t *d, *d2;
	const uint64_t *a, *b, *c, *e;
	uint64_t *cc;
};

typedef void alu_fn(const struct alu_insn *ai, const struct alu_args *x, uint32_t mask);

struct alu_insn {
	enum ir_op op;
	enum ir_mod type;   /* the instruction type: destination type for cvt/set/slct      */
	enum ir_mod type2;  /* cvt/set/slct: source type; dp4a/dp2a: b's type; else NONE   */
	enum ir_mod rnd;    /* MK_ROUND modifier or NONE                                   */
	enum ir_mod cmp;    /* setp/set comparison (MOD_EQ ... MOD_LO/HI/LS/HS ...)         */
	enum ir_mod boolop; /* setp/set combining op: MOD_AND/OR/XOR or NONE               */
	enum ir_mod mode;   /* prmt mode (MOD_F4E ...), testp class (MOD_FINITE..), else NONE */
	uint32_t flags;     /* ALU_* bits                                                  */
	int nsrc;           /* number of source operands written                           */
	alu_fn *fn;         /* chosen by alu_prepare                                       */
};

/* A function's address as a value (mov of a function name, initializers): base + index. */
#define FUNC_ADDR_BASE 0xF00000000000ull

enum sreg {
#define SREG(name, spelling, shape, size) SREG_##name,
#include "front/sreg.def"
#undef SREG
	SREG__COUNT
};

/* Address spaces an operand or access resolves to. */
enum mspace {
	MS_NONE,
	MS_GENERIC,
	MS_GLOBAL,
	MS_SHARED_CTA,      /* executing CTA's shared memory (offset)                        */
	MS_SHARED_CLUSTER,  /* any CTA of the cluster (cluster-encoded address)              */
	MS_LOCAL,
	MS_PARAM_KERNEL,    /* kernel parameters (read-only, shared by all threads)          */
	MS_PARAM_FRAME,     /* .func parameters and .param variables of a body (per thread)  */
	MS_CONST,
};

enum dop_kind {
	DOP_NONE,
	DOP_REG,        /* slot                                                           */
	DOP_IMM,        /* imm: 32 copies of the value                                     */
	DOP_SREG,       /* special register sreg.comp                                      */
	DOP_ADDR,       /* [reg + off] or [off] in `space` (off includes a symbol's address) */
	DOP_SYMADDR,    /* address of a variable as a value: off in `space` (+frame local base) */
	DOP_VEC,        /* {elems}                                                          */
	DOP_SINK,
	DOP_FUNC,       /* a function, as a call target or an address                       */
};

struct dop {
	uint8_t kind;
	uint8_t space;      /* DOP_ADDR / DOP_SYMADDR: enum mspace of the symbol, or MS_NONE  */
	uint8_t sreg, comp;
	bool neg;           /* !p                                                             */
	bool has_reg;       /* DOP_ADDR: base is a register                                   */
	uint8_t nelem;      /* DOP_VEC                                                        */
	uint8_t reg_size;   /* DOP_REG: declared size in bytes (for ld/st of vectors)          */
	uint32_t slot;      /* DOP_REG slot / DOP_ADDR base register slot                     */
	int64_t off;
	const uint64_t *imm;
	struct dop *elems;
	struct dfunc *func;
	const struct ir_sym *sym; /* the variable named, for messages                          */
};

/* Flags of an instruction: decoded from modifiers, but DF_ALU_DIRECT (the loader's). */
enum {
	DF_UNI = 1u << 0,
	DF_NOCOMPLETE = 1u << 1,
	DF_EXPECT_TX = 1u << 2,
	DF_PARITY = 1u << 3,
	DF_NOINC = 1u << 4,
	DF_MULTICAST = 1u << 5,
	DF_BULK_GROUP = 1u << 6,
	DF_READ = 1u << 7,
	DF_TO = 1u << 8,
	DF_ALIGNED = 1u << 9,
	DF_COMPLETE_TX = 1u << 10,
	DF_CACHE_HINT = 1u << 11,
	DF_MBARRIER_INIT = 1u << 12,
	DF_PROXY = 1u << 13,
	DF_WIDE = 1u << 14,
	DF_ARRIVE = 1u << 15,
	DF_WAIT = 1u << 16,
	DF_LAUNCH_DEPENDENTS = 1u << 17,
	DF_CLUSTER_SPACE = 1u << 18, /* .shared::cluster written                                  */
	DF_DST_GLOBAL = 1u << 19,
	DF_SRC_SHARED = 1u << 20,
	DF_CTA_SPACE = 1u << 21,     /* .shared::cta written (not plain .shared)                 */
	DF_VEC_DUP = 1u << 22,       /* a vector destination names one register twice           */
	DF_EVICT_FIRST2 = 1u << 23,  /* createpolicy: the secondary priority is .L2::evict_first */
	DF_IGNORE_SRC = 1u << 24,    /* cp.async's fourth operand is the ignore-src predicate   */
	DF_TENSORMAP = 1u << 25,     /* fence.proxy.tensormap::generic (not an async-proxy fence) */
	DF_IM2COL = 1u << 26,        /* a tensor copy in im2col mode                             */
	DF_ALU_DIRECT = 1u << 27,    /* an ALU instruction on registers and immediates: `aref`    */
	DF_EXEC_DIRECT = 1u << 28,   /* a handler the direct path calls itself (interp.c)         */
	DF_EXEC_ALIGNED = 1u << 29,  /* ... that waits for the warp's lanes (converge_needed)     */
	DF_WRITES = 1u << 30,        /* may write memory or make output (spin.c's quiet stretch)  */
};

/* Where the operands' lane arrays of a DF_ALU_DIRECT instruction lie (d, d2, then the
 * sources a, b, c, e): at + (the frame's register base & rel), that is a register's offset
 * in the frame (rel all ones) or an immediate's array (rel 0), or 0 for an operand it has
 * not. Integers, so the dispatch loop forms the addresses without a branch. */
struct alu_ref {
	uintptr_t at[6], rel[6];
};

struct mma_form;
struct jit_seg_ctx;

struct launch;
struct warp;
struct group;
struct dinsn;

/* What a handler did with its group. Only the dispatch loop (interp.c) steps the pc. */
enum step {
	STEP_NEXT,   /* done: the loop moves the group to the next instruction              */
	STEP_JUMPED, /* the group is at the branch target the handler set                  */
	STEP_PARKED, /* back to the scheduler: the group waits where it is, exited, stopped
		      * the launch, or entered or left a frame or split (so it picks again) */
};

/* An instruction's handler (the HANDLER column of ops.def, declared in exec.h). */
typedef enum step exec_fn(struct launch *L, struct warp *w, struct group *g,
			  const struct dinsn *di, uint32_t mask);

struct dinsn {
	exec_fn *exec;          /* the handler, picked once at load                          */
	uint16_t op;            /* enum ir_op                                                */
	uint8_t nsrc;
	bool guard_neg;
	int32_t guard;          /* predicate slot, or -1                                     */
	uint8_t type, type2;    /* enum ir_mod (MK_TYPE)                                     */
	uint8_t space;          /* enum mspace of the access / object                        */
	uint8_t space2;         /* second space (cp.async source, cvta window)               */
	uint8_t sem, scope;     /* enum ir_mod                                               */
	uint8_t vec;            /* 1, 2, 4                                                   */
	uint8_t fam;            /* enum ir_family, cached for the dispatch loop              */
	uint8_t mode;           /* op-specific (atom op, shfl/vote mode, ...) as enum ir_mod  */
	uint8_t smem;           /* ld/st's warp-wide shared form (smem.h), or 0                */
	uint32_t flags;         /* DF_*                                                      */
	struct dop d, d2;
	struct dop s[5];
	struct alu_insn alu;    /* FAM_ALU                                                   */
	struct alu_ref aref;    /* DF_ALU_DIRECT                                             */
	const struct wg_insn *wg; /* FAM_WGMMA (wgmma.h)                                     */
	uint32_t target;        /* branch target index                                       */
	struct dfunc *callee;
	const struct mma_form *mma; /* FAM_MMA: shape, types, layouts (exec_mma.c)               */
	const struct ir_insn *ir;
	const char *unsup;      /* a form ptxi cannot run: why (exec_unsupported)            */
	/* the native tier's block entered here (jit.h): jit_len instructions to its end, this
	 * is its boundary jit_at; or NULL */
	void (*jit)(uint64_t *regs, uint32_t gmask, uint32_t to);
	uint16_t jit_len, jit_at;
	/* seg is set and the instruction before is a bar.sync, or this is a kernel's first
	 * instruction (interp.c's seg_entry): the CTA sweep's hop asks this one line of the
	 * next warp's instruction (in the padding) */
	bool seg_bar;
	/* the block as a loop's body (jit.h's jit_loop_fn), jit_keep its saved slots; jit_keep
	 * alone: a loop's body not compiled as the loop (run pass by pass); both NULL: no loop */
	uint32_t (*jit_loop)(uint64_t *regs, uint32_t gmask, uint32_t cap, uint64_t *save);
	const uint32_t *jit_keep;
	/* the native tier's segment code entered here (jit_seg.h's jit_seg_fn), or NULL */
	const void *seg;
};

struct dfunc {
	const struct ir_func *ir;
	const char *name;
	struct dinsn *code;
	uint32_t ncode;
	uint32_t nslots;        /* register slots; each is LANES uint64_t                     */
	uint32_t local_size;    /* bytes of .local variables per thread in one frame          */
	uint32_t param_size;    /* bytes per thread: formal + return params + body .param vars */
	uint32_t kparam_size;   /* kernels: bytes of the parameter block                      */
	uint32_t *param_off;    /* offsets of formal params (kernel block or frame area)      */
	uint32_t *ret_off;      /* offsets of return params                                   */
	bool jit_done;          /* the native tier compiled its blocks (jit.h)                */
	/* its segment code (jit_seg.h's jit_seg_fn), or NULL */
	uint32_t (*seg_fn)(struct jit_seg_ctx *c, const void *at);
	/* shared memory (shared_layout.h): a kernel's CTA holds its static .shared variables in
	 * shared_static bytes (as ptxas -v counts them), its dynamic shared memory from
	 * shared_dyn_off; shared_syms[i] at shared_addrs[i] are the variables it holds (for a
	 * .func: those its code names) */
	uint32_t shared_static;
	uint32_t shared_dyn_off;
	uint32_t nshared;
	const struct ir_sym **shared_syms;
	uint32_t *shared_addrs;
	/* the slots a reused frame clears (regdef.c): nclear runs, clear[2k] the first slot of
	 * run k, clear[2k + 1] its length; clear_known false: every slot */
	bool clear_known;
	uint32_t nclear;
	uint32_t *clear;
};

/* The reserved shared memory the driver gives every CTA (1 KiB on the H200:
 * cudaDevAttrReservedSharedMemoryPerBlock), of which cooperative groups use the first 288
 * bytes (%reserved_smem_offset_end). The H200 puts it at shared offset 0 and the kernel's
 * variables from 1024; ptxi keeps the variables at 0 and puts it after the dynamic shared
 * memory, at a 128-byte boundary (docs/hardware-vs-manual.md). */
#define RESERVED_SMEM 1024u
#define RESERVED_SMEM_USED 288u

/* The bytes a CTA of kernel k has for its own variables with `dyn` bytes of dynamic shared
 * memory; where the reserved region starts after them. */
static inline uint32_t cta_user_smem(const struct dfunc *k, uint32_t dyn)
{
	return dyn ? k->shared_dyn_off + dyn : k->shared_static;
}
static inline uint32_t cta_reserved_begin(uint32_t user)
{
	return (user + 127u) & ~127u;
}

struct dprog {
	struct ir_module *m;
	struct arena *arena;
	struct dfunc *funcs;
	uint32_t nfuncs;
	uint8_t *const_bytes;       /* the .const bank                                        */
	uint32_t const_size;
	uint8_t *global_init;       /* initial bytes of module .global variables              */
	uint32_t global_size;       /* laid out from offset 0 of the module's global block    */
	/* symbol-address initializers in .global/.const to patch once addresses are known   */
	/* an address written into an initializer element of `size` bytes at `at` */
	struct reloc { uint8_t in_const; uint32_t at; const struct ir_sym *sym; int64_t add;
		       bool generic; uint8_t size; } *relocs;
	uint32_t nrelocs;
	bool async_reads_global;    /* a bulk copy reads global memory (its source, or a
				     * cp.reduce.async.bulk's destination): ordinary global
				     * stores are tracked for rule async-proxy-fence          */
	bool reserved_smem;         /* code reads a %reserved_smem_offset register: each CTA
				     * gets the RESERVED_SMEM bytes after its own            */
	bool tensor_copies;         /* tensor copies or tensor-map writes: ordinary global
				     * stores are tracked for rule tensormap-proxy-fence      */
	bool reads_grid_ws;         /* %envreg1 or %envreg2 is read: the grid-sync workspace
				     * of cooperative_groups' this_grid() (a trap names it)   */
	void *jit;                  /* the native tier's code (jit.c), or NULL                */
};

#endif
