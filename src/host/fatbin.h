/*
 * fatbin.h - the PTX of an nvcc fat binary (fatbin.c): the wrapper nvcc's host stubs give
 * __cudaRegisterFatBinary, or a fat binary itself (cuModuleLoadData), with entries stored
 * plain, LZ4- or zstd-compressed. ptxi runs PTX only: SASS is never read.
 */
#ifndef PTXI_FATBIN_H
#define PTXI_FATBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FATBIN_WRAPPER_MAGIC 0x466243b1u /* __fatDeviceText: magic, version, data, ... */
#define FATBIN_MAGIC 0xba55ed50u         /* the fat binary's own header                */

/* Whether `image` starts with either magic. */
bool fatbin_is(const void *image);

/* The best PTX of the fat binary at `image` (or of the wrapper there) for sm_90: the
 * newest compute_9x at most 90, the arch-specific one (compute_90a) first. Returns 0 with
 * *text (malloc'd, NUL-terminated) and *len; -1 with the reason in `why` (no PTX, only
 * SASS, a newer architecture only, corrupt or unreadable). `max` bounds the bytes read
 * (SIZE_MAX when the caller does not know: the header's sizes are then trusted). */
int fatbin_ptx(const void *image, size_t max, char **text, size_t *len, char *why,
	       size_t whylen);

/* Decompress an LZ4 block (no frame) of `n` bytes into exactly `out_len` bytes; false if it
 * is malformed or does not fill them exactly. */
bool fatbin_lz4(const uint8_t *in, size_t n, uint8_t *out, size_t out_len);

#endif
