// Device malloc/free: each thread allocates n ints, fills and sums them, frees them.
// A NULL from malloc (the heap is exhausted: --heap) is printed and counted as -1.
#include <cstdio>
__global__ void heap(int *out, int n)
{
  int t = threadIdx.x;
  int *p = (int *)malloc(n * sizeof(int));
  if (!p) {
    printf("thread %d: malloc(%d) returned NULL\n", t, (int)(n * sizeof(int)));
    out[t] = -1;
    return;
  }
  for (int i = 0; i < n; i++)
    p[i] = t + i;
  int s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];
  free(p);
  out[t] = s;
}
