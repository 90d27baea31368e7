#!/usr/bin/env bash
# The data-race detector's cost: each kernel with the detector (the default) and with
# --no-race, best of 3 wall-clock seconds and peak resident memory, and the ratio.
#   hash_int      kernels.ptx, 128x256 threads: integer ALU, one global store per thread
#   smem_stencil  race_kernels.ptx, 128x256: neighbours through shared memory, 64 rounds
#   mbar_ring     race_kernels.ptx, 64x128: a producer warp and three consumer warps over a
#                 two-stage full/empty mbarrier ring, 128 tiles
#   copy_ring     race_kernels.ptx, 64x128: the same ring filled by cp.async.bulk copies
# usage: bench/race.sh [PATH/TO/ptxi]   (the outputs with and without must be equal)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ptxi=${1:-$here/../build/ptxi}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
run() { # FILE ARGS... -> "seconds KB" of the best of 3
  local best="" kb=""
  for i in 1 2 3; do
    /usr/bin/time -f "%e %M" -o "$tmp/time" "$ptxi" run "$@" > "$tmp/out" 2>/dev/null
    read -r s m < "$tmp/time"
    if [ -z "$best" ] || awk "BEGIN{exit !($s < $best)}"; then best=$s; kb=$m; fi
  done
  echo "$best $kb"
}
for k in "kernels.ptx hash_int --grid 128 --block 256 --arg buf:131072 --arg u32:7" \
         "race_kernels.ptx smem_stencil --grid 128 --block 256 --arg buf:131072" \
         "race_kernels.ptx mbar_ring --grid 64 --block 128 --arg buf:32768" \
         "race_kernels.ptx copy_ring --grid 64 --block 128 --arg buf:32768 --arg buf:16384"; do
  set -- $k
  file=$here/$1 name=$2; shift 2
  run "$file" --kernel "$name" "$@" --dump 0 > "$tmp/on.t"; cp "$tmp/out" "$tmp/on"
  run "$file" --kernel "$name" "$@" --dump 0 --no-race > "$tmp/off.t"
  cmp -s "$tmp/on" "$tmp/out" || { echo "race.sh: $name: outputs differ" >&2; exit 1; }
  read -r on onkb < "$tmp/on.t"; read -r off offkb < "$tmp/off.t"
  awk -v n="$name" -v a="$on" -v b="$off" -v ka="$onkb" -v kb="$offkb" 'BEGIN {
    printf "%-13s detector %.2f s %6d KB   --no-race %.2f s %6d KB   ratio %.2fx\n",
           n, a, ka, b, kb, (b > 0 ? a / b : 0) }'
done
