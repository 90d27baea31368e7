#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
static uint32_t *ld(const char *n, size_t *cnt){char p[256];snprintf(p,256,"raw/%s.u32",n);FILE*f=fopen(p,"rb");fseek(f,0,2);size_t b=ftell(f);fseek(f,0,0);uint32_t*v=malloc(b);fread(v,1,b,f);fclose(f);if(cnt)*cnt=b/4;return v;}
static float F(uint32_t b){float f;memcpy(&f,&b,4);return f;}
static float rz(double p){float t=(float)p; if(fabs((double)t)>fabs(p)) t=nextafterf(t,0.0f); return t;}
#define N (1u<<25)
uint32_t *S,*C; uint8_t *hs,*hc;
static void fill(const char*nm,uint32_t base,uint32_t *T,uint8_t*h){ size_t n; uint32_t*v=ld(nm,&n); long conf=0;
  for(size_t i=0;i<n;i++){ double t=rz((double)F(base+i)*(double)F(0x3e22f983)); double fr=t-floor(t); uint32_t p=(uint32_t)floor(fr*N);
    if(h[p] && T[p]!=v[i]) conf++; T[p]=v[i]; h[p]=1; } printf("%s conflicts %ld\n",nm,conf); free(v);}
int main(){ S=calloc(N,4);C=calloc(N,4);hs=calloc(N,1);hc=calloc(N,1);
  const char* sn[]={"sinh","sin1","sin2","sin4","sin8"}; const char* cn[]={"cosh","cos1","cos2","cos4","cos8"}; uint32_t base[]={0x3f000000,0x3f800000,0x40000000,0x40800000,0x41000000};
  for(int s=0;s<5;s++){fill(sn[s],base[s],S,hs);fill(cn[s],base[s],C,hc);}
  long ns=0,nc=0; for(uint32_t p=0;p<N;p++){ns+=hs[p];nc+=hc[p];} printf("have %ld sin %ld cos cells\n",ns,nc);
  // candidate relations
  #define TEST(name, cond, A, ha, pa, Bv, hb, pb, neg) { long ok=0,bad=0; for(uint32_t p=0;p<N;p++){ if(!(cond)) continue; uint32_t q=(pb)&(N-1), pp=(pa)&(N-1); if(!ha[pp]||!hb[q]) continue; uint32_t x=A[pp], y=Bv[q]^((neg)?0x80000000u:0); if(x==y) ok++; else {bad++;} } printf("%-40s ok %ld bad %ld\n",name,ok,bad);}
  uint32_t Q=1u<<23, H=1u<<24;
  TEST("sin(p+H) = -sin(p)", p<H, S,hs,p, S,hs,p+H, 1)
  TEST("sin(H-p) = sin(p) q0", p>0&&p<Q, S,hs,p, S,hs,H-p, 0)
  TEST("sin(H-1-p) = sin(p) q0", p<Q, S,hs,p, S,hs,H-1-p, 0)
  TEST("cos(p) = sin(Q-p)", p>0&&p<Q, C,hc,p, S,hs,Q-p, 0)
  TEST("cos(p) = sin(Q-1-p)", p<Q, C,hc,p, S,hs,Q-1-p, 0)
  TEST("cos(p) = sin(p+Q)", 1, C,hc,p, S,hs,p+Q, 0)
  TEST("cos(p+H) = -cos(p)", p<H, C,hc,p, C,hc,p+H, 1)
  TEST("cos(N-p) = cos(p)", p>0, C,hc,p, C,hc,N-p, 0)
  TEST("cos(N-1-p) = cos(p)", 1, C,hc,p, C,hc,N-1-p, 0)
  TEST("sin(N-p) = -sin(p)", p>0, S,hs,p, S,hs,N-p, 1)
  TEST("sin(N-1-p) = -sin(p)", 1, S,hs,p, S,hs,N-1-p, 1)
  FILE*f=fopen("sc.bin","wb"); fwrite(S,4,N,f);fwrite(C,4,N,f);fwrite(hs,1,N,f);fwrite(hc,1,N,f);fclose(f);
  for(uint32_t p=0;p<8;p++) printf("p=%u S %08x(%d) C %08x(%d)  pQ S %08x C %08x\n",p,S[p],hs[p],C[p],hc[p],S[Q+p],C[Q+p]);
}
