/*
 * fuzz_run.c - libFuzzer harness: parse, check and, when the module is clean, launch its
 * first kernel on a small grid (2 CTAs of 64 threads) with a step limit (5,000 warp-
 * instructions: rule reports under --keep-going are slow under the sanitizers) and 64 MiB.
 * Pointer-sized parameters get 256-byte buffers, other scalars zero, array parameters
 * (structs by value) zero bytes, except that a 128-byte one is a tensor map over the first
 * buffer when there is one (an 8x8 f32 tile). PTXI_FUZZ_JOBS=N in the environment runs the
 * two CTAs' clusters on N threads (--jobs, with the race detector off: it keeps one thread).
 * Every outcome is a status, never a crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptxi/ptxi.h"

#define MAX_FUZZ_ARGS 16
#define TMAP_SPEC_FMT "buf=%d,type=f32,dims=8x8,strides=32,box=8x4"

static void quiet(void *ctx, int level, const char *text)
{
	(void)ctx;
	(void)level;
	(void)text;
}

/* A tensor map over buffer argument `buf` (an 8x8 f32 tile of its 256 bytes), else zeros. */
static void tensor_map_or_bytes(struct ptxi_arg *a, int buf)
{
	char spec[64];
	snprintf(spec, sizeof spec, TMAP_SPEC_FMT, buf);
	unsigned karg;
	uint64_t off;
	if (buf >= 0 && ptxi_tmap_parse(spec, &a->tmap, &karg, &off, NULL, 0) == PTXI_OK) {
		a->kind = PTXI_ARG_TMAP;
		a->tmap_buf = karg;
		a->tmap_off = off;
	}
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
	int first_buf = -1;
	for (int i = 0; i < n; i++) {
		if (sizes[i] == ptr_size) {
			args[i].kind = PTXI_ARG_BUFFER;
			args[i].bytes = 256;
			if (first_buf < 0)
				first_buf = i;
		} else if (sizes[i] == 1 || sizes[i] == 2 || sizes[i] == 4 || sizes[i] == 8) {
			args[i].kind = PTXI_ARG_SCALAR;
			args[i].size = (unsigned)sizes[i];
		} else {
			args[i].kind = PTXI_ARG_BYTES;
			args[i].bytes = sizes[i];
		}
	}
	for (int i = 0; i < n; i++)
		if (args[i].kind == PTXI_ARG_BYTES && sizes[i] == 128)
			tensor_map_or_bytes(&args[i], first_buf);
	const char *jobs = getenv("PTXI_FUZZ_JOBS");
	struct ptxi_config cfg = {
		.grid = {2, 1, 1}, .block = {64, 1, 1}, .cluster = {1, 1, 1},
		.max_steps = 5000, .max_memory = 64u << 20, .keep_going = true,
		.jobs = jobs ? (unsigned)atoi(jobs) : 1, .no_race = jobs != NULL,
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
