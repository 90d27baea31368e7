#!/usr/bin/env python3
"""
gen.py - H100 vectors for ptxi's packed 16-bit integer and SIMD video instructions
(add/min/max .u16x2/.s16x2, vadd2 ... vset4; exec_int.c), read by tests/test_exec_simd.c.

  gen.py cu OUT.cu FORMS.txt     write the CUDA program and the list of instruction forms

The program (build: nvcc -O2 -arch=sm_90 -o simd_hw OUT.cu) writes DIR/inputs.bin (N cases of
three little-endian u32: a, b, c) and DIR/results.bin (for each form in FORMS.txt order, N u32
results d of `form d, a, b[, c];`) when run as `simd_hw DIR`. One thread per case.
"""
import sys

def forms():
    f = []
    for op in ('add', 'min', 'max'):
        for t in ('u16x2', 's16x2'):
            f.append((f'{op}.{t}', 2))
    f.append(('min.relu.s16x2', 2))
    f.append(('max.relu.s16x2', 2))
    tys = [(d, a, b) for d in ('u32', 's32') for a in ('u32', 's32') for b in ('u32', 's32')]
    for n in ('2', '4'):
        for op in ('vadd', 'vsub', 'vavrg', 'vabsdiff', 'vmin', 'vmax'):
            for d, a, b in tys:
                for sfx in ('', '.sat', '.add'):
                    f.append((f'{op}{n}.{d}.{a}.{b}{sfx}', 3))
        for a in ('u32', 's32'):
            for b in ('u32', 's32'):
                for cmp in ('eq', 'ne', 'lt', 'le', 'gt', 'ge'):
                    for sfx in ('', '.add'):
                        f.append((f'vset{n}.{a}.{b}.{cmp}{sfx}', 3))
    return f

N = 2048

CU = r'''
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <cuda_runtime.h>
#define N %(N)d
#define NF %(NF)d
__global__ void simd(const unsigned *in, unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  unsigned a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2], d;
%(BODY)s
}
static uint32_t rs = 0x9e3779b9u;
static uint32_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 17; rs ^= rs << 5; return rs; }
static const uint32_t E[16] = {0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x7fff8000u,
  0x80007fffu, 0x7f7f7f7fu, 0x80808080u, 0xff00ff00u, 0x00ff00ffu, 0x01ff7f80u, 0x807f01feu,
  0xfffe0002u, 0x0001ffffu, 0x80018001u};
static const uint8_t EB[8] = {0, 1, 0x7f, 0x80, 0xfe, 0xff, 0x81, 0x7e};
static uint32_t edgy(void) {
  uint32_t v = 0;
  for (int k = 0; k < 4; k++) v |= (uint32_t)((rnd() & 1) ? EB[rnd() & 7] : (rnd() & 0xff)) << (8 * k);
  return v;
}
int main(int argc, char **argv) {
  if (argc < 2) return 2;
  static unsigned h_in[3 * N], h_out[NF * N];
  for (int i = 0; i < N; i++) {
    uint32_t a, b, c;
    if (i < 256) { a = E[i %% 16]; b = E[i / 16]; c = (i & 1) ? E[(i * 7) %% 16] : rnd(); }
    else if (i < 1024) { a = edgy(); b = edgy(); c = (i & 3) ? rnd() : edgy(); }
    else { a = rnd(); b = rnd(); c = rnd(); }
    h_in[3 * i] = a; h_in[3 * i + 1] = b; h_in[3 * i + 2] = c;
  }
  unsigned *d_in, *d_out;
  cudaMalloc(&d_in, sizeof h_in); cudaMalloc(&d_out, sizeof h_out);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  cudaMemset(d_out, 0, sizeof h_out);
  simd<<<N / 128, 128>>>(d_in, d_out);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("CUDA error %%s\n", cudaGetErrorString(e)); return 1; }
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  char p[4096];
  snprintf(p, sizeof p, "%%s/inputs.bin", argv[1]);
  FILE *f = fopen(p, "wb"); fwrite(h_in, 4, 3 * N, f); fclose(f);
  snprintf(p, sizeof p, "%%s/results.bin", argv[1]);
  f = fopen(p, "wb"); fwrite(h_out, 4, (size_t)NF * N, f); fclose(f);
  printf("ok %%d forms x %%d cases\n", NF, N);
  return 0;
}
'''

def main():
    if len(sys.argv) != 4 or sys.argv[1] != 'cu':
        print(__doc__)
        return 2
    fl = forms()
    body = []
    for j, (name, ns) in enumerate(fl):
        ops = '%1, %2' if ns == 2 else '%1, %2, %3'
        ins = '"r"(a), "r"(b)' if ns == 2 else '"r"(a), "r"(b), "r"(c)'
        body.append(f'  asm volatile("{name} %0, {ops};" : "=r"(d) : {ins}); out[{j} * N + i] = d;')
    with open(sys.argv[2], 'w') as f:
        f.write(CU % {'N': N, 'NF': len(fl), 'BODY': '\n'.join(body)})
    with open(sys.argv[3], 'w') as f:
        f.write('# forms, in results.bin order: name nsrc (tests/hw_simd/gen.py)\n')
        for name, ns in fl:
            f.write(f'{name} {ns}\n')
    return 0

if __name__ == '__main__':
    sys.exit(main())
