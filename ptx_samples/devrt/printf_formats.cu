// Every printf conversion nvcc passes through vprintf's argument buffer.
#include <cstdio>
__global__ void printf_formats(const char *name, float f, double d, long long big)
{
  int t = threadIdx.x;
  printf("thread %d of %u: %s\n", t, blockDim.x, name);
  printf("int [%d] [%5i] [%-5d] [%05d] [%+d] [% d] [%u] [%o] [%#x] [%X] [%hd] [%hhu]\n",
         -t - 1, t, t, t, t, t, 4000000000u, 8, 255, 0xabcu, 70000, 300);
  printf("long [%ld] [%lld] [%llx] [%lu]\n", big, -big, big, (unsigned long)big);
  printf("float [%f] [%.2f] [%10.3e] [%E] [%g] [%G] [%a] [%8.1f] [%-8.1f|]\n",
         f, f, d, d, d, 1e-10, 1.0, f, f);
  printf("char [%c%c] str [%s] [%.3s] [%8s] [%-8s] width* [%*d] prec* [%.*f] [%%]\n",
         'o', 'k', name, name, "ab", "cd", 6, t, 3, d);
  printf("null [%s]\n", (const char *)0);
}
