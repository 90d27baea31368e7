#!/usr/bin/env bash
# Benchmarks: ptxi on the kernels of kernels.ptx (128x256 threads) in thread- and
# warp-instructions per second (best of 3), as a ratio to the same loops compiled natively
# with gcc -O2 (native.c, whose every result word must equal ptxi's), and ptxi's peak memory.
#   hash_int     integer hash loop            poly_f32     float FMA loop
#   collatz      data-dependent loop, heavy divergence and reconvergence
#   reduce_smem  32 shared-memory tree reductions per block with bar.sync, partial warps
# usage: bench/run.sh [PATH/TO/ptxi] [KERNEL...]   (PTXI_BENCH_FLAGS: extra ptxi run options)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ptxi=${1:-$here/../build/ptxi}; [ $# -gt 0 ] && shift
kernels=${*:-hash_int poly_f32 collatz reduce_smem}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
gcc -O2 -o "$tmp/native" "$here/native.c" -lm
printf '%-12s %12s %11s %8s %10s %10s %8s %9s %6s %7s\n' kernel thread-instr warp-instr \
  "ptxi s" "M thr-i/s" "M wrp-i/s" "ns/wrp-i" "native s" ratio "peak MB"
for name in $kernels; do
  case $name in
    poly_f32) arg=f32:0.5 narg=0.5 ;;
    *) arg=u32:7 narg=7 ;;
  esac
  best=""
  for i in 1 2 3; do
    /usr/bin/time -f %M -o "$tmp/mem" "$ptxi" run "$here/kernels.ptx" --kernel "$name" \
      --grid 128 --block 256 --arg buf:131072 --arg "$arg" --dump 0 --stats \
      ${PTXI_BENCH_FLAGS:-} > "$tmp/out" 2> "$tmp/err"
    s=$(sed -n 's/.*instructions, \([0-9.]*\) s .*/\1/p' "$tmp/err")
    if [ -z "$best" ] || awk "BEGIN{exit !($s < $best)}"; then best=$s; fi
  done
  ti=$(sed -n 's/.*warp-instructions, \([0-9]*\) thread-instructions.*/\1/p' "$tmp/err")
  wi=$(sed -n 's/^ptxi: stats: \([0-9]*\) warp-instructions.*/\1/p' "$tmp/err")
  "$tmp/native" "$name" 32768 "$narg" 20 > "$tmp/native_out"
  ns=$(head -1 "$tmp/native_out")
  if ! tail -n +2 "$tmp/native_out" | cmp -s - "$tmp/out"; then
    echo "bench: $name: ptxi's results differ from the native loop's" >&2; exit 1
  fi
  awk -v n="$name" -v s="$best" -v ti="$ti" -v wi="$wi" -v ns="$ns" -v kb="$(cat "$tmp/mem")" 'BEGIN {
    printf "%-12s %12d %11d %8.3f %10.1f %10.2f %8.1f %9.5f %5.1fx %7.1f\n",
           n, ti, wi, s, ti / s / 1e6, wi / s / 1e6, s / wi * 1e9, ns, s / ns, kb / 1024 }'
done
