#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
static uint32_t *ld(const char *n, size_t *cnt){char p[256];snprintf(p,256,"raw/%s.u32",n);FILE*f=fopen(p,"rb");fseek(f,0,2);size_t b=ftell(f);fseek(f,0,0);uint32_t*v=malloc(b);fread(v,1,b,f);fclose(f);if(cnt)*cnt=b/4;return v;}
static float F(uint32_t b){float f;memcpy(&f,&b,4);return f;} static uint32_t B(float f){uint32_t b;memcpy(&b,&f,4);return b;}
static float rz(double p){float t=(float)p; if(fabs((double)t)>fabs(p)) t=nextafterf(t,0.0f); return t;}
uint32_t *T1,*T05;
static uint32_t lg2m(uint32_t x){
  uint32_t e=(x>>23)&255; if((x&0x7fffffff)>0x7f800000) return 0x7fffffff;
  if(e==0) return 0xff800000; if(x>>31) return 0x7fffffff; if(e==255) return 0x7f800000;
  int E=(int)e-127; uint32_t m=x&0x7fffff;
  if(E>=0) return B(rz((double)E+F(T1[m])));
  return B(-rz((double)(-E-1)-(double)F(T05[m])));
}
int main(){
  T1=ld("lg2_1",0);T05=ld("lg2_05",0);
  FILE*f=fopen("val.bin","rb"); uint32_t r[3]; long n[7]={0},bad[7]={0};
  while(fread(r,4,3,f)==3){ int op=r[0]; if(op>1) continue; uint32_t a=r[1],want=r[2],got;
    if(op==0) got=lg2m(a); else { if(((a>>23)&255)==0 && (a&0x7fffff)) { got=B(F(lg2m(B(F(a)*16777216.0f)))+-24.0f);} else got=lg2m(a);} 
    n[op]++; if(got!=want){ if(bad[op]++<10) printf("op%d a=%08x want %08x got %08x (%.9g vs %.9g)\n",op,a,want,got,F(want),F(got)); } }
  printf("lg2 ftz %ld/%ld bad, lg2 %ld/%ld bad\n",bad[0],n[0],bad[1],n[1]);
}
