#!/usr/bin/env bash
# Copy of the device driver used for the H100 runs (from a scratch folder holding gpu-launch.c,
# launch-args.c, ptx/ from build.sh, kernels.txt, triton/ and repro/); results landed in $OUT.
cd "$(dirname "$0")"
nvcc -O2 -o gpu-launch gpu-launch.c -lcuda && nvcc -O2 -o launch-args launch-args.c -lcuda || { echo BUILD FAIL; exit 1; }
o=$OUT/all2.txt; : > $o
for rep in 1 2; do
  echo "== warp_ops $rep" >> $o; timeout 30 ./gpu-launch ptx/warp_ops.ptx warp_ops 1 64 1 1728 8192 0 >> $o 2>&1; echo "rc $?" >> $o
  echo "== div_full $rep" >> $o; timeout 30 ./gpu-launch ptx/div_full.ptx div_full 1 256 1 1280 8192 0 >> $o 2>&1; echo "rc $?" >> $o
  for f in approx simd; do
    args=$(sed -n 's|^// run: ||p' repro/$f.ptx | sed 's/--arg //g; s/--dump 0//')
    echo "== repro_$f $rep" >> $o; timeout 30 ./launch-args repro/$f.ptx $f 1 1 0 $args >> $o 2>&1; echo "rc $?" >> $o
  done
  echo "== repro_cvta_mapa $rep" >> $o; timeout 30 ./gpu-launch repro/cvta_mapa.ptx cvta_mapa 2 1 2 2 16 0 >> $o 2>&1; echo "rc $?" >> $o
done
grep -c . $o; grep -E '^(CUDA_ERROR|LOAD_ERROR|KERNEL_ERROR|HANG)' $o | head; grep '^rc' $o | sort | uniq -c
