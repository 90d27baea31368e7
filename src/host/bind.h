/*
 * bind.h - what a launch is given before it starts (bind.c): kernel arguments in the
 * parameter block, module variables set as cudaMemcpyToSymbol would, and the addresses
 * module variables hold.
 */
#ifndef PTXI_BIND_H
#define PTXI_BIND_H

#include "ptxi/ptxi.h"

#include "run/launch.h"

/* Where each argument's buffer landed (0: not a buffer), for tensor maps and --dump. */
struct bind_bufs {
	uint64_t *addr;
	size_t *size;
	const struct ptxi_set *named; /* the named buffers (--buffer), allocated by bind_args */
	unsigned nnamed;
	uint64_t *named_addr;
};

/* Write `args` into L's parameter block (allocated here, L->kparams), allocating every
 * buffer they name (arguments, struct fields). Returns PTXI_OK, or PTXI_INVALID after
 * reporting to d. */
int bind_args(struct diag *d, struct launch *L, const struct ptxi_arg *args, unsigned nargs,
	      struct bind_bufs *bufs);

/* Set module variables (after bind_args: a tensor map's buf=K is kernel argument K).
 * gbase is the module's .global block, `bank` its .const bank for this launch. */
int bind_sets(struct diag *d, struct launch *L, const struct ptxi_set *sets, unsigned nsets,
	      const struct ptxi_arg *args, unsigned nargs, const struct bind_bufs *bufs,
	      uint8_t *bank);

/* Module variables initialised with addresses of others get them (into .global and the
 * launch's .const bank). */
void bind_relocs(struct launch *L, uint64_t gbase, uint8_t *bank);

/* A module-scope .global or .const variable by name, or NULL. */
const struct ir_sym *bind_find_var(const struct ir_module *m, const char *name);

/* A failed allocation of `bytes` for `what`: past --max-memory, or out of host memory. */
int bind_memory_error(struct diag *d, const struct memory *mem, uint64_t bytes, const char *what);
/* Free what bind_args allocated in L (the parameter block). */
void bind_free(struct launch *L);

#endif
