/*
 * fatbin.c - finding the PTX in an nvcc fat binary. Layout, as nvcc 13 writes it (measured
 * on binaries built here with every --compress-mode):
 *   wrapper (.nvFatBinSegment): u32 magic 0x466243b1, u32 version, u64 address of the fat
 *                               binary, u64 (unused here)
 *   fat binary (.nv_fatbin):    u32 magic 0xba55ed50, u16 version, u16 header size,
 *                               u64 bytes of entries; then the entries back to back
 *   entry:   +0 u16 kind (1 PTX, 2 ELF with SASS), +4 u32 header size, +8 u64 payload
 *            bytes (padded), +0x10 u32 compressed bytes, +0x1c u32 architecture (90),
 *            +0x28 u64 flags, +0x38 u64 uncompressed bytes; the payload follows the header
 *   flags:   0x2000 LZ4 block, 0x8000 zstd frame (nvcc's default), 0x100000 arch-specific
 *            (sm_90a / compute_90a)
 * A PTX payload is the module's text, perhaps followed by NULs.
 */
#include "fatbin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define KIND_PTX 1
#define KIND_ELF 2
#define FLAG_LZ4 0x2000u
#define FLAG_ZSTD 0x8000u
#define FLAG_ARCH_SPECIFIC 0x100000u
#define MAX_PTX (1ull << 31) /* the largest text ptxi reads (src_file: 2 GiB) */

static uint64_t rd(const uint8_t *p, unsigned bytes)
{
	uint64_t v = 0;
	memcpy(&v, p, bytes); /* little-endian, as the files are */
	return v;
}

bool fatbin_is(const void *image)
{
	uint32_t magic = (uint32_t)rd(image, 4);
	return magic == FATBIN_WRAPPER_MAGIC || magic == FATBIN_MAGIC;
}

bool fatbin_lz4(const uint8_t *in, size_t n, uint8_t *out, size_t out_len)
{
	size_t i = 0, o = 0;
	while (i < n) {
		unsigned token = in[i++];
		size_t lit = token >> 4;
		if (lit == 15) {
			unsigned b;
			do {
				if (i >= n)
					return false;
				b = in[i++];
				lit += b;
			} while (b == 255);
		}
		if (lit > n - i || lit > out_len - o)
			return false;
		memcpy(out + o, in + i, lit);
		i += lit;
		o += lit;
		if (i == n) /* the last sequence has literals only */
			break;
		if (n - i < 2)
			return false;
		size_t off = (size_t)in[i] | (size_t)in[i + 1] << 8;
		i += 2;
		size_t match = (token & 15) + 4;
		if ((token & 15) == 15) {
			unsigned b;
			do {
				if (i >= n)
					return false;
				b = in[i++];
				match += b;
			} while (b == 255);
		}
		if (off == 0 || off > o || match > out_len - o)
			return false;
		for (size_t k = 0; k < match; k++, o++) /* may overlap its own output */
			out[o] = out[o - off];
	}
	return o == out_len;
}

struct entry {
	const uint8_t *payload;
	uint64_t payload_bytes, packed, unpacked, flags;
	unsigned kind, arch;
};

/* The entry's text, unpacked: 0, or -1 with why. */
static int entry_text(const struct entry *e, char **text, size_t *len, char *why, size_t whylen)
{
	bool lz4 = e->flags & FLAG_LZ4, zstd = e->flags & FLAG_ZSTD;
	uint64_t n = lz4 || zstd ? e->unpacked : e->payload_bytes;
	if ((lz4 || zstd) && (e->packed > e->payload_bytes || !n)) {
		snprintf(why, whylen, "a compressed PTX entry has inconsistent sizes");
		return -1;
	}
	if (n > MAX_PTX) {
		snprintf(why, whylen, "a PTX entry of %llu bytes is larger than ptxi reads",
			 (unsigned long long)n);
		return -1;
	}
	char *t = malloc(n + 1);
	if (!t) {
		snprintf(why, whylen, "out of memory for %llu bytes of PTX", (unsigned long long)n);
		return -1;
	}
	bool ok = true;
	if (lz4)
		ok = fatbin_lz4(e->payload, e->packed, (uint8_t *)t, n);
	else if (zstd)
		ok = ZSTD_decompress(t, n, e->payload, e->packed) == n;
	else
		memcpy(t, e->payload, n);
	if (!ok) {
		free(t);
		snprintf(why, whylen, "a %s-compressed PTX entry does not decompress",
			 lz4 ? "LZ4" : "zstd");
		return -1;
	}
	t[n] = '\0';
	*text = t;
	*len = strlen(t);
	return 0;
}

/* Entry `want` preferred to `have` for sm_90? */
static bool better(const struct entry *want, const struct entry *have)
{
	if (!have)
		return true;
	if (want->arch != have->arch)
		return want->arch > have->arch;
	return (want->flags & FLAG_ARCH_SPECIFIC) && !(have->flags & FLAG_ARCH_SPECIFIC);
}

int fatbin_ptx(const void *image, size_t max, char **text, size_t *len, char *why,
	       size_t whylen)
{
	const uint8_t *p = image;
	if (max < 16) {
		snprintf(why, whylen, "the fat binary is truncated");
		return -1;
	}
	if (rd(p, 4) == FATBIN_WRAPPER_MAGIC) {
		p = (const uint8_t *)(uintptr_t)rd(p + 8, 8);
		max = SIZE_MAX;
		if (!p) {
			snprintf(why, whylen, "the fat binary wrapper holds no fat binary");
			return -1;
		}
	}
	if (rd(p, 4) != FATBIN_MAGIC) {
		snprintf(why, whylen, "not an nvcc fat binary (magic 0x%08llx)",
			 (unsigned long long)rd(p, 4));
		return -1;
	}
	uint64_t hdr = rd(p + 6, 2), total = rd(p + 8, 8);
	if (hdr < 16 || total > max - hdr || hdr > max) {
		snprintf(why, whylen, "the fat binary is truncated (%llu bytes of entries)",
			 (unsigned long long)total);
		return -1;
	}
	struct entry best_e, *best = NULL;
	unsigned sass_arch = 0, newer_arch = 0;
	bool sass_a = false;
	for (uint64_t off = hdr; off < hdr + total;) {
		const uint8_t *e = p + off;
		uint64_t left = hdr + total - off, ehdr = left >= 16 ? rd(e + 4, 4) : 0;
		if (ehdr < 0x30 || ehdr > left || rd(e + 8, 8) > left - ehdr) {
			snprintf(why, whylen, "fat binary entry at byte %llu is malformed",
				 (unsigned long long)off);
			return -1;
		}
		struct entry x = {e + ehdr, rd(e + 8, 8), rd(e + 0x10, 4), ehdr >= 0x40 ? rd(e + 0x38, 8) : 0,
				  rd(e + 0x28, 8), (unsigned)rd(e, 2), (unsigned)rd(e + 0x1c, 4)};
		off += ehdr + x.payload_bytes;
		if (x.kind == KIND_ELF && x.arch >= sass_arch) {
			sass_a = x.arch > sass_arch ? false : sass_a;
			sass_arch = x.arch;
			sass_a |= (x.flags & FLAG_ARCH_SPECIFIC) != 0;
		}
		if (x.kind != KIND_PTX)
			continue;
		if (x.arch > 90) {
			newer_arch = x.arch > newer_arch ? x.arch : newer_arch;
			continue;
		}
		if (better(&x, best)) {
			best_e = x;
			best = &best_e;
		}
	}
	if (best)
		return entry_text(best, text, len, why, whylen);
	if (newer_arch)
		snprintf(why, whylen, "the program holds PTX for compute_%u only; ptxi models an "
			 "sm_90 GPU: rebuild with -gencode arch=compute_90a,code=compute_90a added",
			 newer_arch);
	else if (sass_arch)
		snprintf(why, whylen, "the program holds SASS (sm_%u%s) and no PTX, and ptxi runs "
			 "PTX: rebuild with -gencode arch=compute_90a,code=compute_90a added (or "
			 "-arch=sm_90a, which embeds both)", sass_arch, sass_a ? "a" : "");
	else
		snprintf(why, whylen, "the fat binary holds no PTX: rebuild with -gencode "
			 "arch=compute_90a,code=compute_90a added");
	return -1;
}
