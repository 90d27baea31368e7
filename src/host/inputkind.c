/*
 * inputkind.c - a file given where PTX is wanted that is something else gets one line
 * naming what it is and the command to run, not pages of syntax errors: CUDA C++ source
 * (nvcc -ptx), an ELF host program or object (ptxi exec, or cuobjdump -ptx), a cubin
 * (ELF of machine EM_CUDA: machine code, no PTX to run), a fatbin (magic 0xba55ed50; its
 * PTX is compressed: cuobjdump -ptx extracts it).
 */
#include "inputkind.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define EM_CUDA 190             /* ELF e_machine of NVIDIA GPU code (cubin)               */
#define FATBIN_MAGIC 0xba55ed50u

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);
	return n >= k && !strcmp(s + n - k, tail);
}

/* CUDA C++ rather than PTX: by its name, or by __global__ in a file with no PTX directive. */
static bool is_cuda_source(const struct src_file *f, const char *path)
{
	if (ends_with(path, ".cu") || ends_with(path, ".cuh"))
		return true;
	const char *t = f->text, *end = f->text + f->len;
	return memmem(t, f->len, "__global__", 10) && !memmem(t, (size_t)(end - t), ".version", 8) &&
	       !memmem(t, (size_t)(end - t), ".entry", 6);
}

/* "k" of "dir/k.cu": the name for the suggested output. */
static void stem(const char *path, char *out, size_t n)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *dot = strrchr(base, '.');
	snprintf(out, n, "%.*s", dot && dot > base ? (int)(dot - base) : (int)strlen(base), base);
}

bool inputkind_explain(const struct src_file *f, const char *path, char *msg, size_t n)
{
	const unsigned char *b = (const unsigned char *)f->text;
	char s[256];
	stem(path, s, sizeof s);
	if (f->len >= 20 && !memcmp(b, "\177ELF", 4)) {
		unsigned machine = b[5] == 2 ? (unsigned)b[18] << 8 | b[19] : (unsigned)b[19] << 8 | b[18];
		if (machine == EM_CUDA)
			snprintf(msg, n, "'%s' is a cubin (GPU machine code), not PTX: ptxi runs PTX; "
				 "make it from the source with 'nvcc -arch=sm_90a -ptx -lineinfo %s.cu "
				 "-o %s.ptx'", path, s, s);
		else
			snprintf(msg, n, "'%s' is a host program or object (ELF), not PTX: run the "
				 "program with its kernels in ptxi as 'ptxi exec %s [ARGS]', or extract "
				 "its PTX with 'cuobjdump -ptx %s > %s.ptx'", path, path, path, s);
		return true;
	}
	uint32_t magic = f->len >= 4 ? (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
					       (uint32_t)b[3] << 24 : 0;
	if (magic == FATBIN_MAGIC) {
		snprintf(msg, n, "'%s' is a fatbin, not PTX: extract the PTX it holds (compressed) "
			 "with 'cuobjdump -ptx %s > %s.ptx', or make PTX from the source with "
			 "'nvcc -arch=sm_90a -ptx -lineinfo %s.cu -o %s.ptx'", path, path, s, s, s);
		return true;
	}
	if (is_cuda_source(f, path)) {
		snprintf(msg, n, "'%s' is CUDA C++ source, not PTX: make PTX with 'nvcc -arch=sm_90a "
			 "-ptx -lineinfo %s -o %s.ptx', then run 'ptxi run %s.ptx'", path, path, s, s);
		return true;
	}
	return false;
}
