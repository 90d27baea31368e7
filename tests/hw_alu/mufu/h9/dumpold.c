#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
unsigned char *ptxi_mufu_blob_p;
#define ptxi_mufu_blob ptxi_mufu_blob_p
static inline uint32_t rd32(const unsigned char *p){return (uint32_t)p[0]|(uint32_t)p[1]<<8|(uint32_t)p[2]<<16|(uint32_t)p[3]<<24;}
static inline uint64_t rd64(const unsigned char *p){return rd32(p)|(uint64_t)rd32(p+4)<<32;}
int main(){ FILE*f=fopen("old.bin","rb"); fseek(f,0,2); long n=ftell(f); fseek(f,0,0); unsigned char*b=malloc(n); fread(b,1,n,f); fclose(f);
 const char*nm[]={"rcp","rsq","sqrt","ex2p","ex2n"};
 for(int id=0;id<5;id++){ const unsigned char*d=b+8+32*id; uint32_t N=rd32(d+4),W=rd32(d+8); int32_t off=(int32_t)rd32(d+12); uint32_t ne=rd32(d+16); const unsigned char*bs=b+rd32(d+20),*cs=b+rd32(d+24),*ex=b+rd32(d+28);
  uint32_t*v=malloc(4*(size_t)N); uint32_t e=0;
  for(uint32_t i=0;i<N;i++){ uint32_t blk=i>>6,r=i&63; if(!r){v[i]=rd32(bs+4*blk);continue;} uint32_t c=0; for(uint32_t p=0;p<W;p++) c|=(uint32_t)(rd64(cs+8*((size_t)blk*W+p))>>r&1)<<p;
   uint32_t x=v[i-1]+c+(uint32_t)off; while(e<ne&&rd32(ex+8*(size_t)e)==i){x+=rd32(ex+8*(size_t)e+4);e++;} v[i]=x; }
  char p[64]; snprintf(p,64,"raw/%s.u32",nm[id]); f=fopen(p,"wb"); fwrite(v,4,N,f); fclose(f); printf("%s %u entries w%u\n",nm[id],N,W); }
}
