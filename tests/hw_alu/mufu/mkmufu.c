/*
 * mkmufu.c - packs the H100's MUFU results measured by meas.cu (raw u32 words, one per input,
 * consecutive inputs) into the table blob that src/run/mufu.c reads (format described there).
 * usage: mkmufu OUT.bin ID:RAWFILE ...        (build: cc -O2 -o mkmufu mkmufu.c)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tab { uint32_t id, n, width; int32_t offset; uint32_t nexc; uint32_t *bases; uint64_t *codes; uint32_t *exc; };

int main(int argc, char **argv)
{
	int nt = argc - 2;
	struct tab *t = calloc(nt, sizeof *t);
	for (int k = 0; k < nt; k++) {
		char path[512];
		unsigned id;
		sscanf(argv[k + 2], "%u:%511s", &id, path);
		FILE *f = fopen(path, "rb");
		if (!f) { perror(path); return 1; }
		fseek(f, 0, SEEK_END);
		uint32_t n = ftell(f) / 4;
		fseek(f, 0, SEEK_SET);
		uint32_t *v = malloc(4 * (size_t)n);
		if (fread(v, 4, n, f) != n) return 1;
		fclose(f);
		/* pick the code width (1..12 bits) and offset that cost the fewest bytes (exceptions: 8 each) */
		enum { R = 4096 };
		long *h = calloc(2 * R + 1, sizeof *h);
		for (uint32_t i = 1; i < n; i++) {
			int64_t d = (int64_t)v[i] - v[i - 1];
			if (d >= -R && d <= R) h[d + R]++;
		}
		long *cum = calloc(2 * R + 2, sizeof *cum); /* cum[j] = sum h[0..j-1] */
		for (int j = 0; j <= 2 * R; j++) cum[j + 1] = cum[j] + h[j];
		int best_w = 2, best_o = -4; long best_e = -1, bcost = -1;
		for (int w = 1; w <= 12; w++)
			for (int o = -R; o + (1 << w) - 1 <= R; o++) {
				long in = cum[o + (1 << w) + R] - cum[o + R];
				long e = (long)(n - 1) - in;
				long cost = (long)w * n / 8 + 8 * e;
				if (best_e < 0 || cost < bcost) { best_w = w; best_o = o; best_e = e; bcost = cost; }
			}
		free(h);
		free(cum);
		struct tab *T = &t[k];
		T->id = id; T->n = n; T->width = best_w; T->offset = best_o;
		uint32_t nb = (n + 63) / 64;
		T->bases = calloc(nb, 4);
		T->codes = calloc((size_t)nb * best_w, 8);
		T->exc = malloc(8 * (size_t)(best_e + 1));
		for (uint32_t i = 0; i < n; i++) {
			uint32_t b = i / 64, r = i % 64;
			if (r == 0) { T->bases[b] = v[i]; continue; }
			int64_t d = (int64_t)v[i] - v[i - 1] - best_o;
			int64_t c = d < 0 ? 0 : d > (1 << best_w) - 1 ? (1 << best_w) - 1 : d;
			if (c != d) { T->exc[2 * T->nexc] = i; T->exc[2 * T->nexc + 1] = (uint32_t)(int32_t)(d - c); T->nexc++; }
			for (uint32_t p = 0; p < (uint32_t)best_w; p++)
				if (c >> p & 1) T->codes[(size_t)b * best_w + p] |= 1ull << r;
		}
		fprintf(stderr, "table %u: %u entries, %u-bit codes, offset %d, %u exceptions\n", id, n, best_w, best_o, T->nexc);
		free(v);
	}
	FILE *o = fopen(argv[1], "wb");
	uint32_t hdr[2] = {0x4655464du /* "MUFU" */, (uint32_t)nt};
	fwrite(hdr, 4, 2, o);
	uint32_t off = 8 + 32 * nt;
	for (int k = 0; k < nt; k++) {
		struct tab *T = &t[k];
		uint32_t nb = (T->n + 63) / 64;
		uint32_t ob = off, oc = ob + 4 * nb, oe = oc + 8 * nb * T->width;
		off = oe + 8 * T->nexc;
		uint32_t d[8] = {T->id, T->n, T->width, (uint32_t)T->offset, T->nexc, ob, oc, oe};
		fwrite(d, 4, 8, o);
	}
	for (int k = 0; k < nt; k++) {
		struct tab *T = &t[k];
		uint32_t nb = (T->n + 63) / 64;
		fwrite(T->bases, 4, nb, o);
		fwrite(T->codes, 8, (size_t)nb * T->width, o);
		fwrite(T->exc, 8, T->nexc, o);
	}
	fclose(o);
	return 0;
}
