// Divergence, calls, recursion and local arrays. 1 block of 64 threads; out[k*64 + tid].
#include "common.h"
__device__ __noinline__ unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ unsigned ack(unsigned m, unsigned n) {
  if (m == 0) return n + 1;
  if (n == 0) return ack(m - 1, 1);
  return ack(m - 1, ack(m, n - 1));
}
__device__ __noinline__ unsigned mix(unsigned a, unsigned b, unsigned *side) {
  *side ^= a * 31u + b; return (a << 5) ^ (b >> 3) ^ (a * b);
}
__device__ __noinline__ void sort_local(unsigned *p, int n) {   // insertion sort on a local array
  for (int i = 1; i < n; i++) { unsigned x = p[i]; int j = i - 1; while (j >= 0 && p[j] > x) { p[j + 1] = p[j]; j--; } p[j + 1] = x; }
}
KERNEL divergence(unsigned *out, const unsigned char *in) {
  unsigned t = threadIdx.x, l = t & 31, z = ZERO(in);
  unsigned v = in[t] + z;
  unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0, r7 = 0;
  // nested if/else by lane
  if (l & 1) { if (l & 2) r0 = v * 3; else { if (l > 20) r0 = v + 100; else r0 = v ^ 0xff; } }
  else if (l % 3 == 0) r0 = v << 2; else r0 = ~v;
  // lane-dependent trip count: Collatz steps
  { unsigned x = v + 1, steps = 0; while (x != 1) { x = (x & 1) ? 3 * x + 1 : x / 2; steps++; } r1 = steps; }
  // nested loops with break/continue
  for (unsigned i = 0; i < l; i++) { if (i % 3 == 2) continue; for (unsigned j = 0; j < i; j++) { if (j * i > v) break; r2 += j ^ i; } }
  // switch (dense enough for a jump table)
  switch (v % 11) {
    case 0: r3 = 10; break; case 1: r3 = v * 7; break; case 2: r3 = v - 3; /* fallthrough */
    case 3: r3 += 0x333; break; case 4: r3 = fib(5); break; case 5: r3 = 0x55; break;
    case 6: r3 = v >> 1; break; case 7: r3 = 0x77 ^ v; break; case 8: r3 = 8888; break;
    default: r3 = 0xdead;
  }
  // recursion
  r4 = fib(l % 16);
  r5 = ack(l % 3, l % 4);
  // local array indexed dynamically
  unsigned arr[24];
  for (int i = 0; i < 24; i++) arr[i] = in[(t * 5 + i * 11) & 255] + z;
  unsigned side = 0;
  for (int i = 0; i < 8; i++) side += arr[(v + i * 7) % 24];
  r6 = mix(arr[v % 24], arr[(v >> 3) % 24], &side);
  sort_local(arr, 5 + (l % 20));
  r7 = arr[0] | (arr[4] << 8) | (arr[(l % 20) + 4] << 16) | (side << 24);
  unsigned r8 = 0;
  // early return of some lanes (after stores of the first results)
  out[0 * 64 + t] = r0; out[1 * 64 + t] = r1; out[2 * 64 + t] = r2; out[3 * 64 + t] = r3;
  out[4 * 64 + t] = r4; out[5 * 64 + t] = r5; out[6 * 64 + t] = r6; out[7 * 64 + t] = r7;
  if ((v % 4) == 1) return;
  __syncwarp(__activemask());
  for (unsigned k = v & 7; k < 12; k += 1 + (l & 1)) r8 = r8 * 3 + k;
  out[8 * 64 + t] = r8 + 1;
}
