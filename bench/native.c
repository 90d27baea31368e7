/*
 * native.c - the benchmark loops of kernels.cu as plain C, for the ptxi/native ratio and as
 * a reference for ptxi's results.
 * usage: native hash_int|poly_f32|collatz|reduce_smem THREADS ARG REPEAT
 * Prints the elapsed seconds per repetition, then every result word in hex.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ITERS 256

static void hash_int(uint32_t *out, uint32_t n, uint32_t seed)
{
	for (uint32_t t = 0; t < n; t++) {
		uint32_t x = t ^ seed, y = t * 0x9E3779B9u;
		for (int i = 0; i < ITERS; i++) {
			x = x * 2654435761u + (uint32_t)i;
			x ^= x >> 13;
			y += x ^ (y << 3);
			x = (x << 5) | (x >> 27);
		}
		out[t] = x ^ y;
	}
}

static void poly_f32(float *out, uint32_t n, float a)
{
	for (uint32_t t = 0; t < n; t++) {
		float x = (float)t * 1e-4f, acc = 0.0f;
		for (int i = 0; i < ITERS; i++) {
			/* nvcc contracts both lines into fma.rn.f32: mirror it */
			acc = fmaf(acc, x, a);
			x = fmaf(x, 0.999f, 1e-3f);
			acc = fmaf(acc, 0.5f, x);
		}
		out[t] = acc;
	}
}

static void collatz(uint32_t *out, uint32_t n, uint32_t seed)
{
	for (uint32_t t = 0; t < n; t++) {
		uint64_t v = (uint64_t)(t ^ seed) + 1;
		uint32_t steps = 0;
		while (v != 1 && steps < 1000) {
			v = (v & 1) ? 3 * v + 1 : v >> 1;
			steps++;
		}
		out[t] = steps;
	}
}

/* 256-thread blocks: REDUCE_REPS tree reductions of s[tid] = global id * (seed + r). */
#define REDUCE_REPS 32
static void reduce_smem(uint32_t *out, uint32_t n, uint32_t seed)
{
	uint32_t s[256];
	for (uint32_t b = 0; b < n / 256; b++) {
		uint32_t total = 0;
		for (uint32_t r = 0; r < REDUCE_REPS; r++) {
			for (uint32_t t = 0; t < 256; t++)
				s[t] = (b * 256 + t) * (seed + r);
			for (uint32_t stride = 128; stride > 0; stride >>= 1)
				for (uint32_t t = 0; t < stride; t++)
					s[t] += s[t + stride];
			total += s[0];
		}
		out[b * 256] = total;
		for (uint32_t t = 1; t < 256; t++)
			out[b * 256 + t] = t;
	}
}

int main(int argc, char **argv)
{
	if (argc < 5)
		return 2;
	uint32_t n = (uint32_t)strtoul(argv[2], NULL, 0);
	int rep = atoi(argv[4]);
	uint32_t *out = calloc(n, 4);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int r = 0; r < rep; r++) {
		uint32_t arg = (uint32_t)strtoul(argv[3], NULL, 0);
		if (strcmp(argv[1], "hash_int") == 0)
			hash_int(out, n, arg);
		else if (strcmp(argv[1], "collatz") == 0)
			collatz(out, n, arg);
		else if (strcmp(argv[1], "reduce_smem") == 0)
			reduce_smem(out, n, arg);
		else
			poly_f32((float *)out, n, strtof(argv[3], NULL));
		__asm__ volatile("" ::"r"(out) : "memory");
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	printf("%.6f\n", s / rep);
	for (uint32_t i = 0; i < n; i++)
		printf("%08x\n", out[i]);
	free(out);
	return 0;
}
