#!/usr/bin/env bash
# The data-race detector's cost as instruction counts: each kernel of race.sh (its sizes)
# run once under `valgrind --tool=callgrind` with the detector (the default) and once with
# --no-race; the whole process's instructions (Ir) and their ratio. Deterministic, so it
# means something on a loaded machine where wall-clock times do not. The outputs of both
# runs must be equal, and the detector must report nothing (every kernel is race-free).
#   reduce_smem, hash_int (kernels.ptx), smem_stencil, mbar_ring, copy_ring, tma_ring
#   (race_kernels.ptx), grid_sync (grid_sync.ptx, cooperative), wgmma (wgmma.ptx; REPS=2000 reps by default),
#   matmul (matmul.ptx: the naive product, 128x128 on 8x8 CTAs of 16x16), mm_tiled (the
#   tiled product, 128x128) and saxpy (256 K floats, 64x256)
# JOBS=N adds --jobs N to both runs (unset: ptxi's default, one worker per CPU): the detector
# on a --jobs worker logs its global accesses, or judges them at once when its cluster is
# the oldest not shown; --jobs 1 judges them on one thread.
# usage: [REPS=2000] [JOBS=N] bench/race_cost.sh [PATH/TO/ptxi] [KERNEL...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ptxi=${1:-$here/../build/ptxi}; [ $# -gt 0 ] && shift
kernels=${*:-reduce_smem hash_int smem_stencil mbar_ring copy_ring tma_ring grid_sync wgmma matmul mm_tiled saxpy}
reps=${REPS:-2000}
jobs=${JOBS:+--jobs $JOBS}
command -v valgrind > /dev/null || { echo "race_cost.sh: needs valgrind (callgrind)" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
args() {
  case $1 in
    reduce_smem|hash_int) echo "kernels.ptx --kernel $1 --grid 128 --block 256 --arg buf:131072 --arg u32:7" ;;
    smem_stencil) echo "race_kernels.ptx --kernel $1 --grid 128 --block 256 --arg buf:131072" ;;
    mbar_ring) echo "race_kernels.ptx --kernel $1 --grid 64 --block 128 --arg buf:32768" ;;
    copy_ring) echo "race_kernels.ptx --kernel $1 --grid 64 --block 128 --arg buf:32768 --arg buf:16384" ;;
    tma_ring) echo "race_kernels.ptx --kernel $1 --grid 64 --block 128 --arg buf:32768 --arg buf:131072:iota:u32 --arg tmap:buf=1,type=f32,dims=64x512,strides=256,box=64x16" ;;
    grid_sync) echo "grid_sync.ptx --cooperative --grid 132 --block 256 --arg buf:135168 --arg buf:135168" ;;
    matmul) echo "matmul.ptx --kernel mm --grid 8,8 --block 16,16 --arg buf:65536 --arg buf:65536 --arg buf:65536 --arg u32:128" ;;
    mm_tiled) echo "matmul.ptx --kernel mm_tiled --grid 8,8 --block 16,16 --arg buf:65536 --arg buf:65536:iota:f32 --arg buf:65536:iota:f32 --arg u32:128" ;;
    saxpy) echo "matmul.ptx --kernel saxpy --grid 64 --block 256 --arg buf:1048576:iota:f32 --arg buf:1048576:iota:f32 --arg f32:2 --arg u32:262144" ;;
    wgmma) echo "wgmma.ptx --block 128 --arg buf:512 --arg u32:$reps" ;;
    *) echo "race_cost.sh: no kernel $1" >&2; exit 2 ;;
  esac
}
# instructions of "ptxi run ARGS... --dump 0"; stdout kept in $tmp/out, stderr in $tmp/err
count() {
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$ptxi" run "$@" --dump 0 $jobs \
    > "$tmp/out" 2> "$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  awk '/^(summary|totals):/ {print $2; exit}' "$tmp/cg"
}
printf '%-13s %15s %15s %6s\n' kernel detector no-race ratio
for name in $kernels; do
  read -r -a a <<< "$(args "$name")"
  a[0]=$here/${a[0]}
  on=$(count "${a[@]}"); cp "$tmp/out" "$tmp/want"
  grep -v '^==' "$tmp/err" | grep -q . && { echo "race_cost.sh: $name: the detector reported:" >&2; grep -v '^==' "$tmp/err" >&2; exit 1; }
  off=$(count "${a[@]}" --no-race)
  cmp -s "$tmp/want" "$tmp/out" || { echo "race_cost.sh: $name: --no-race output differs" >&2; exit 1; }
  printf '%-13s %15s %15s %5.2fx\n' "$name" "$on" "$off" "$(awk -v a="$on" -v b="$off" 'BEGIN{print a / b}')"
done
