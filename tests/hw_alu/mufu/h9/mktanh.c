#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
static uint64_t vi(FILE*f){uint64_t v=0;int s=0,c;do{c=fgetc(f);v|=(uint64_t)(c&127)<<s;s+=7;}while(c&128);return v;}
static const int KB[11]={6,6,6,5,5,4,4,4,3,2,3}; /* binades 119..129 */
int main(){ FILE*f=fopen("t.rle","rb"); static uint32_t pos[11][1u<<23], neg[11][1u<<23]; uint32_t *h=malloc(4u<<23);
  for(int k=0;k<512;k++){ uint32_t base=(uint32_t)vi(f); uint64_t nch=vi(f); uint32_t bb=(base>>23)&255; int ss=base>>31; if(!nch){ if(bb>=130 && bb!=255 && (ss==0 || bb<=135)) vi(f); continue;} uint32_t v=(uint32_t)vi(f); uint32_t i=0;
    for(uint64_t c=0;c<nch;c++){ uint32_t d=(uint32_t)vi(f); uint64_t z=vi(f); int64_t dv= (z&1)? -(int64_t)((z+1)/2) : (int64_t)(z/2); for(uint32_t j=0;j<d;j++) h[i+j]=v; i+=d; v=(uint32_t)((int64_t)v+dv);} for(;i<(1u<<23);i++) h[i]=v;
    uint32_t b=(base>>23)&255; int sg=base>>31; if(nch>=(1u<<16) && nch<(1u<<21)) {} 
    if(b<119||b>129){ if(!sg) printf("dumped binade %u sign %d nch %llu (outside 119..129)\n",b,sg,(unsigned long long)nch); continue;}
    memcpy(sg?neg[b-119]:pos[b-119],h,4u<<23);}
  long bad=0, asym=0; FILE*o=fopen("raw/tanh.u32","wb"); long tot=0;
  for(int b=0;b<11;b++){ for(uint32_t i=0;i<(1u<<23);i++){ if(pos[b][i]!=pos[b][i>>KB[b]<<KB[b]]) bad++; if(neg[b][i]!=(pos[b][i]^0x80000000u)) asym++; }
    for(uint32_t j=0;j<(1u<<(23-KB[b]));j++) fwrite(&pos[b][j<<KB[b]],4,1,o); tot+=1u<<(23-KB[b]); }
  fclose(o); printf("block violations %ld, asym %ld, entries %ld\n",bad,asym,tot);
}
