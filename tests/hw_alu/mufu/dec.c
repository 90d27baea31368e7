#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
/* dec.c - decodes meas.cu's second-difference streams: xz -dc s1.d2.xz | dec NAME:COUNT ... -> raw/NAME.u32 */
int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    char name[64]; unsigned n; sscanf(argv[i], "%[^:]:%u", name, &n);
    uint32_t *v = malloc(4 * (size_t)n); int64_t p1 = 0, p2 = 0;
    for (unsigned k = 0; k < n; k++) {
      int c = getchar(); int64_t d = (int8_t)c;
      if (d == -128) { int32_t w; fread(&w, 4, 1, stdin); d = w; }
      int64_t x = d + 2 * p1 - p2; p2 = p1; p1 = x; v[k] = (uint32_t)x;
    }
    char p[128]; snprintf(p, sizeof p, "raw/%s.u32", name);
    FILE *f = fopen(p, "wb"); fwrite(v, 4, n, f); fclose(f); free(v);
  }
  if (getchar() != EOF) fprintf(stderr, "trailing data!\n");
  return 0;
}
