/*
 * fuzz_run.c - libFuzzer harness: parse, check and, when the module is clean, launch its
 * first kernel on a small grid (2 CTAs of 64 threads) with a step limit (5,000 warp-
 * instructions: rule reports under --keep-going are slow under the sanitizers) and 64 MiB.
 * Pointer-sized parameters get 256-byte buffers, other scalars zero; kernels with array
 * parameters are only checked. Every outcome is a status, never a crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptxi/ptxi.h"

#define MAX_FUZZ_ARGS 16

static void quiet(void *ctx, int level, const char *text)
{
	(void)ctx;
	(void)level;
	(void)text;
}

static void launch_first_kernel(ptxi_module *m)
{
	size_t sizes[MAX_FUZZ_ARGS];
	unsigned ptr_size = 0;
	int n = ptxi_kernel_params(m, NULL, sizes, MAX_FUZZ_ARGS, &ptr_size);
	if (n < 0 || n > MAX_FUZZ_ARGS)
		return;
	struct ptxi_arg args[MAX_FUZZ_ARGS];
	memset(args, 0, sizeof args);
	for (int i = 0; i < n; i++) {
		if (sizes[i] == ptr_size) {
			args[i].kind = PTXI_ARG_BUFFER;
			args[i].bytes = 256;
		} else if (sizes[i] == 1 || sizes[i] == 2 || sizes[i] == 4 || sizes[i] == 8) {
			args[i].kind = PTXI_ARG_SCALAR;
			args[i].size = (unsigned)sizes[i];
		} else {
			return;
		}
	}
	struct ptxi_config cfg = {
		.grid = {2, 1, 1}, .block = {64, 1, 1}, .cluster = {1, 1, 1},
		.max_steps = 5000, .max_memory = 64u << 20, .keep_going = true,
	};
	ptxi_launch(m, &cfg, args, (unsigned)n, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	ptxi_module *m = ptxi_module_load_string("fuzz.ptx", text, quiet, NULL);
	if (m && ptxi_module_errors(m) == 0)
		launch_first_kernel(m);
	ptxi_module_free(m);
	free(text);
	return 0;
}
