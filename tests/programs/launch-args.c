/* launch-args: like gpu-launch, but with ptxi-style parameters, for kernels whose parameter
 * lists are not (out, in) (the Triton samples).
 * usage: launch-args FILE.ptx KERNEL GRID BLOCK DUMP_INDEX ARG...
 *   ARG: buf:BYTES (zero-filled), file:PATH, u32:V, s32:V, u64:V ; DUMP_INDEX: arg printed as u32 words */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#define CK(x) do { CUresult e_ = (x); if (e_ != CUDA_SUCCESS) { const char *s_ = 0; \
  cuGetErrorString(e_, &s_); printf("CUDA_ERROR %s: %s\n", #x, s_ ? s_ : "?"); exit(4); } } while (0)
static void dims(const char *s, unsigned d[3]) { d[0] = d[1] = d[2] = 1; sscanf(s, "%u,%u,%u", &d[0], &d[1], &d[2]); }
static char *slurp(const char *p, long *n) {
  FILE *f = fopen(p, "rb"); if (!f) { perror(p); exit(2); }
  fseek(f, 0, SEEK_END); *n = ftell(f); fseek(f, 0, SEEK_SET);
  char *b = calloc(1, *n + 1); if (fread(b, 1, *n, f) != (size_t)*n) exit(2); fclose(f); return b;
}
int main(int argc, char **argv) {
  if (argc < 6) { fprintf(stderr, "usage\n"); return 2; }
  long n; char *src = slurp(argv[1], &n);
  unsigned g[3], b[3]; dims(argv[3], g); dims(argv[4], b);
  int dump = atoi(argv[5]);
  CUdevice dev; CUcontext ctx; CUmodule mod; CUfunction fn;
  CK(cuInit(0)); CK(cuDeviceGet(&dev, 0)); CK(cuCtxCreate(&ctx, NULL, 0, dev));
  char log[8192] = {0};
  CUjit_option opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *vals[2] = {log, (void *)(size_t)sizeof log};
  if (cuModuleLoadDataEx(&mod, src, 2, opts, vals) != CUDA_SUCCESS) { printf("LOAD_ERROR %s\n", log); return 4; }
  CK(cuModuleGetFunction(&fn, mod, argv[2]));
  int na = argc - 6; void *params[32]; unsigned long long store[32]; CUdeviceptr ptr[32]; size_t sz[32];
  for (int i = 0; i < na; i++) {
    const char *a = argv[6 + i]; ptr[i] = 0; sz[i] = 0;
    if (!strncmp(a, "buf:", 4)) { sz[i] = strtoul(a + 4, 0, 0); CK(cuMemAlloc(&ptr[i], sz[i] + 16)); CK(cuMemsetD8(ptr[i], 0, sz[i] + 16)); store[i] = ptr[i]; }
    else if (!strncmp(a, "file:", 5)) { long fn_; char *d = slurp(a + 5, &fn_); sz[i] = fn_; CK(cuMemAlloc(&ptr[i], sz[i] + 16)); CK(cuMemsetD8(ptr[i], 0, sz[i] + 16)); CK(cuMemcpyHtoD(ptr[i], d, sz[i])); store[i] = ptr[i]; }
    else if (!strncmp(a, "u64:", 4)) store[i] = strtoull(a + 4, 0, 0);
    else store[i] = (unsigned)strtol(a + 4, 0, 0);   /* u32: s32: */
    params[i] = &store[i];
  }
  CK(cuLaunchKernel(fn, g[0], g[1], g[2], b[0], b[1], b[2], 0, 0, params, NULL));
  CUresult r = cuCtxSynchronize(); if (r != CUDA_SUCCESS) { const char *es = 0; cuGetErrorString(r, &es); printf("KERNEL_ERROR %s\n", es); return 5; }
  unsigned *h = malloc(sz[dump] + 4); CK(cuMemcpyDtoH(h, ptr[dump], sz[dump]));
  for (size_t i = 0; i < sz[dump] / 4; i++) printf("%08x\n", h[i]);
  return 0;
}
