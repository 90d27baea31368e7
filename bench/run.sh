#!/usr/bin/env bash
# Benchmarks: ptxi on the kernels of kernels.ptx (128x256 threads), in thread-instructions
# per second, and as a ratio to the same loops compiled natively with gcc -O2.
# usage: bench/run.sh [PATH/TO/ptxi]   (check that results agree with the native loops)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ptxi=${1:-$here/../build/ptxi}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
gcc -O2 -o "$tmp/native" "$here/native.c" -lm
for k in "hash_int u32:7 7" "poly_f32 f32:0.5 0.5"; do
  set -- $k
  name=$1 arg=$2 narg=$3
  best=""
  for i in 1 2 3; do
    "$ptxi" run "$here/kernels.ptx" --kernel "$name" --grid 128 --block 256 --arg buf:131072 \
      --arg "$arg" --dump 0 --stats > "$tmp/out" 2> "$tmp/err"
    s=$(sed -n 's/.*instructions, \([0-9.]*\) s .*/\1/p' "$tmp/err")
    ti=$(sed -n 's/.*warp-instructions, \([0-9]*\) thread-instructions.*/\1/p' "$tmp/err")
    if [ -z "$best" ] || awk "BEGIN{exit !($s < $best)}"; then best=$s; fi
  done
  "$tmp/native" "$name" 32768 "$narg" 20 > "$tmp/native_out"
  ns=$(head -1 "$tmp/native_out")
  if [ "$(sed -n 2,5p "$tmp/native_out")" != "$(head -4 "$tmp/out")" ]; then
    echo "bench: $name: ptxi's results differ from the native loop's" >&2; exit 1
  fi
  awk -v n="$name" -v s="$best" -v ti="$ti" -v ns="$ns" 'BEGIN {
    printf "%-9s %10d thread-instructions  ptxi %.3f s = %6.1f M thread-instr/s  native %.5f s  ratio %.0fx\n",
           n, ti, s, ti / s / 1e6, ns, s / ns }'
done
