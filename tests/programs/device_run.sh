#!/usr/bin/env bash
# Copy of the device driver used for the H100 runs (from a scratch folder holding gpu-launch.c,
# launch-args.c, ptx/ from build.sh, kernels.txt, triton/ and repro/); results landed in $OUT.
# Device driver: builds the launchers, runs every kernel twice (determinism check), the Triton kernels, into $OUT/all.txt
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt 2>&1
nvcc -O2 -o gpu-launch gpu-launch.c -lcuda && nvcc -O2 -o launch-args launch-args.c -lcuda || { echo BUILD FAIL; exit 1; }
o=$OUT/all.txt; : > $o
tail -n +2 kernels.txt | while read n k g b c w ib; do
  for rep in 1 2; do
    echo "== $n $rep" >> $o
    timeout 30 ./gpu-launch ptx/$n.ptx $k $g $b $c $w $ib 0 >> $o 2>&1; echo "rc $?" >> $o
  done
done
for rep in 1 2; do
echo "== triton_gelu $rep" >> $o
timeout 30 ./launch-args triton/triton_gelu.ptx triton_gelu_kernel_0d1d2de 1 128 1 file:triton/gelu_in.bin buf:4096 u32:1000 >> $o 2>&1; echo "rc $?" >> $o
echo "== triton_softmax $rep" >> $o
timeout 30 ./launch-args triton/triton_softmax.ptx triton_softmax_kernel_0d1d234 16 128 1 file:triton/softmax_in.bin buf:256 u32:4 u32:4 u32:3 >> $o 2>&1; echo "rc $?" >> $o
done
grep -c . $o; grep -A2 -E '^(CUDA_ERROR|LOAD_ERROR|KERNEL_ERROR|HANG)' $o | head; grep '^rc' $o | sort | uniq -c
