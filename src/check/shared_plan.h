/*
 * shared_plan.h - each kernel's static .shared memory laid out as ptxas lays it out, from the
 * IR alone: what `ptxi check` holds against ptxas's 48 KiB limit and what the loader places
 * (run/shared_layout.c), one computation for both.
 *
 * A kernel holds the .shared variables its code names, directly or in any function it calls
 * (transitively; a name in code that never runs counts too), and every .shared variable
 * declared inside those functions' bodies, named or not; nothing of other kernels. Measured
 * with ptxas -v (CUDA 13, sm_90):
 *  - naming a variable only by its address (mov r, var) counts; each is placed at its
 *    alignment, in the order shared_plan.c's "the size ptxas reports" gives;
 *  - in a module that declares any .extern .shared array, every kernel's static size is
 *    rounded up to the largest .extern alignment, at least 16; dynamic memory starts there.
 * The loader decodes a .func once, so a variable a .func names takes one offset in every
 * kernel that calls it: those come first, each after the ones that share a kernel with it,
 * then the kernel's others in declaration order; kernels that reach a .func naming an
 * .extern array share one dynamic offset, the largest of theirs. Without .func variables
 * (nvcc's usual output) both layouts are the same; with them, the loader's may take a few
 * bytes of padding more or less than ptxas counts.
 *
 * Bodies are noted one at a time while they exist (`ptxi check` frees each after its
 * checks); the layout is solved once the module is read.
 */
#ifndef PTXI_SHARED_PLAN_H
#define PTXI_SHARED_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "front/ir.h"

/* ptxas's limit on a kernel's static shared memory (all targets): 48 KiB. */
#define SHARED_PLAN_STATIC_MAX 0xc000u

struct shared_plan;

/* NULL when out of memory. */
struct shared_plan *shared_plan_new(void);
void shared_plan_free(struct shared_plan *sp);

/* Note what f's body names: its .shared variables, the functions it calls. Call while the
 * body exists, in the module's order, once per body. false: out of memory. */
bool shared_plan_note(struct shared_plan *sp, const struct ir_func *f);

/* Lay out every noted kernel of m (m's variables all declared). false: out of memory. */
bool shared_plan_solve(struct shared_plan *sp, const struct ir_module *m);

/* What a noted function holds once solved; f not noted: NULL. */
struct shared_view {
	uint64_t used;    /* a kernel: the end of its last variable (saturated)      */
	uint64_t bytes;   /* a kernel: its static size as the loader places it       */
	uint64_t dyn_off; /* where .extern arrays start (a .func: its kernels' one)  */
	uint64_t ptxas_bytes; /* a kernel: its static size as ptxas -v counts it     */
	uint32_t nheld;   /* the variables its code may reach                        */
};
const struct shared_view *shared_plan_view(const struct shared_plan *sp, const struct ir_func *f);

/* f's i-th held variable (i < nheld) and its offset (an .extern: dyn_off). A variable of a
 * body that was freed after its note has a dangling sym: read it only while bodies live. */
void shared_plan_held(const struct shared_plan *sp, const struct ir_func *f, uint32_t i,
		      const struct ir_sym **sym, uint64_t *addr);

/* The variable of kernel f at which its static memory first passes `limit` bytes (its
 * module or live body variables only), or NULL. */
const struct ir_sym *shared_plan_past(const struct shared_plan *sp, const struct ir_func *f,
				      uint64_t limit);

#endif
