/*
 * env.h - modules and launches over device memory that outlives a launch, for the CUDA
 * runtime and driver ptxi provides (src/host/cudart, src/host/cuda): implemented in ptxi.c
 * beside ptxi_launch, which makes a memory of its own for each launch instead.
 */
#ifndef PTXI_ENV_H
#define PTXI_ENV_H

#include "ptxi/ptxi.h"

#include "run/memory.h"
#include "support/diag.h"

/* A module placed in device memory `mem`: its .global block allocated there (addresses fixed
 * at load), its .const bank, initialised and with the addresses variables take. */
struct env_module {
	ptxi_module *m;
	struct memory *mem;
	uint64_t gbase;         /* 0: the module has no .global variables                   */
	uint8_t *const_bank;    /* const_size bytes, cudaMemcpyToSymbol writes them          */
	uint32_t const_size;
};

/* Load m (parsed without errors) into mem. Returns PTXI_OK, or PTXI_INVALID after a report
 * through the module's sink. */
int env_module_load(struct env_module *em, ptxi_module *m, struct memory *mem);
void env_module_free(struct env_module *em);

/* Module variable `name` (.global or .const): its device address (.global) or offset in
 * the const bank (*is_const), and size. False if there is none. */
bool env_symbol(const struct env_module *em, const char *name, uint64_t *addr, uint64_t *size,
		bool *is_const);

/* Whether em has a kernel of exactly this PTX name (cuModuleGetFunction). */
bool env_has_kernel(const struct env_module *em, const char *name);

/* Launch `cfg->kernel` (its PTX name) of em with each parameter's bytes at params[i] (CUDA's
 * void **args); device printf goes to `print` and failed asserts' messages to `asserts`, *errors gets the errors reported. The
 * status of ptxi_launch. */
int env_launch(struct env_module *em, const struct ptxi_config *cfg, void *const *params,
	       FILE *print, FILE *asserts, unsigned *errors);

/* Kernel `name` of em: each parameter's size in bytes into len[] (at most max of them).
 * Returns the number of parameters, or -1 for no such kernel (or more than max). */
int env_kernel_params(const struct env_module *em, const char *name, uint32_t *len, uint32_t max);

/* The shared memory a CTA of em's kernel `name` (its PTX name) has with `dyn` bytes of
 * dynamic shared memory; with none, its static shared memory (cudaFuncAttributes'
 * sharedSizeBytes). */
uint64_t env_cta_shared(const struct env_module *em, const char *name, uint32_t dyn);

/* Diagnostics of m (its launches too) go to `fn` as data instead of text (NULL: text). */
void env_module_record(ptxi_module *m, diag_record_fn *fn, void *ctx);

#endif
