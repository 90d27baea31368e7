/*
 * shared_layout.h - each kernel's .shared layout, as ptxas makes it (check/shared_plan.h
 * says how): a CTA of a kernel holds the .shared variables the kernel reaches and its
 * dynamic shared memory after them; other kernels' variables take none of its bytes.
 */
#ifndef PTXI_SHARED_LAYOUT_H
#define PTXI_SHARED_LAYOUT_H

#include <stdint.h>

#include "prog.h"

/* The sm_90 CTA's shared memory: 227 KiB (232448 bytes). */
#define SHARED_LAYOUT_MAX (227u * 1024u)

/* Lay out every kernel's shared memory and each function's view of it (dfunc.shared_*).
 * A kernel whose static .shared variables pass SHARED_LAYOUT_MAX is reported on `d`, at
 * the variable that passes it. Returns the number of errors reported. */
int shared_layout_plan(struct dprog *P, struct diag *d);

/* Give the .shared variables df's code names their offsets in df's layout (ir_sym.addr),
 * which the decoder reads while it decodes df. */
void shared_layout_apply(const struct dfunc *df);

/* The offset of variable s in kernel k's shared memory; false when k's CTAs do not hold
 * s (no code of k names it). */
bool shared_layout_addr(const struct dfunc *k, const struct ir_sym *s, uint64_t *addr);

#endif
