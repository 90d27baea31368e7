#!/bin/sh
# regen.sh - regenerate the nvcc corpus (tests/corpus/*.ptx) from tests/corpus/src/*.cu.
# Needs CUDA 13 (nvcc). The .ptx files are committed test data; run this after editing a .cu.
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
ARCH=${ARCH:-sm_90}
for cu in src/*.cu; do
	base=$(basename "$cu" .cu)
	case $base in
	debug)
		"$NVCC" -arch=$ARCH -ptx -G "$cu" -o nvcc_${base}_G.ptx
		"$NVCC" -arch=$ARCH -ptx -lineinfo "$cu" -o nvcc_${base}_lineinfo.ptx
		;;
	tma_wgmma) # tensor-map copies and wgmma: instructions ptxi reads but does not model
		"$NVCC" -arch=sm_90a -std=c++17 -ptx "$cu" -o nvcc_${base}_sm90a.ptx
		;;
	ptx_wrappers|cluster)
		"$NVCC" -arch=$ARCH -std=c++17 -ptx "$cu" -o nvcc_${base}.ptx
		"$NVCC" -arch=sm_90a -std=c++17 -ptx -lineinfo "$cu" -o nvcc_${base}_sm90a.ptx
		;;
	*)
		"$NVCC" -arch=$ARCH -std=c++17 -ptx "$cu" -o nvcc_${base}.ptx
		;;
	esac
done
