/*
 * native.c - the benchmark loops of kernels.cu as plain C, for the ptxi/native ratio and as
 * a reference for ptxi's results. usage: native hash_int|poly_f32 THREADS ARG REPEAT
 * Prints the elapsed seconds per repetition, then the first 4 result words in hex.
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
		if (strcmp(argv[1], "hash_int") == 0)
			hash_int(out, n, (uint32_t)strtoul(argv[3], NULL, 0) + (uint32_t)r * 0);
		else
			poly_f32((float *)out, n, strtof(argv[3], NULL));
		__asm__ volatile("" ::"r"(out) : "memory");
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	printf("%.6f\n", s / rep);
	for (int i = 0; i < 4; i++)
		printf("%08x\n", out[i]);
	free(out);
	return 0;
}
