#!/usr/bin/env bash
# Compiles every program under tests/programs/src to PTX: build.sh OUTDIR
set -eu
here=$(cd "$(dirname "$0")" && pwd); out=${1:?usage: build.sh OUTDIR}; mkdir -p "$out"
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
for f in "$here"/src/*.cu; do
  n=$(basename "$f" .cu)
  "$nvcc" -arch=sm_90 -ptx "$f" -o "$out/$n.ptx"
done
