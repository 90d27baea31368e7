#include <stdio.h>
#include <stdint.h>
#include "run/mufu.h"
int main(int c, char**v){ FILE*f=fopen(v[1],"rb"); uint32_t r[3]; long n[7]={0},bad[7]={0};
 while(fread(r,4,3,f)==3){ uint32_t a=r[1],g; switch(r[0]){case 0:g=ptx_lg2_approx_f32(a,1);break;case 1:g=ptx_lg2_approx_f32(a,0);break;case 2:case 4:g=ptx_sin_approx_f32(a);break;case 3:case 5:g=ptx_cos_approx_f32(a);break;default:g=ptx_tanh_approx_f32(a);}
  n[r[0]]++; if(g!=r[2]&&bad[r[0]]++<5) printf("op%u a=%08x want %08x got %08x\n",r[0],a,r[2],g);}
 for(int i=0;i<7;i++) printf("op%d %ld cases %ld bad\n",i,n[i],bad[i]); }
