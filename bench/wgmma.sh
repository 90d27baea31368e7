#!/usr/bin/env bash
# wgmma benchmark: one warpgroup runs REPS x wgmma.mma_async.m64n256k16.f32.f16.f16
# (wgmma.ptx), in multiply-adds per second of CPU time (best of 3), with --no-race and with
# the data-race detector; every thread's first D register must come out as 16 x REPS exactly.
# usage: bench/wgmma.sh [PATH/TO/ptxi] [REPS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ptxi=${1:-$here/../build/ptxi}
reps=${2:-200}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
want=$(python3 -c "import struct; print('%08x' % struct.unpack('<I', struct.pack('<f', 16.0 * $reps))[0])")
# best of 3 CPU seconds of a run with extra options $1
measure() {
  best=""
  for i in 1 2 3; do
    /usr/bin/time -f '%U %S' -o "$tmp/time" "$ptxi" run "$here/wgmma.ptx" --block 128 \
      --arg buf:512 --arg "u32:$reps" --dump 0 $1 > "$tmp/out"
    if [ "$(sort -u "$tmp/out")" != "$want" ]; then
      echo "bench: wgmma: D is not 16 x $reps = 0x$want everywhere" >&2; exit 1
    fi
    s=$(awk '{print $1 + $2}' "$tmp/time")
    if [ -z "$best" ] || awk "BEGIN{exit !($s < $best)}"; then best=$s; fi
  done
  echo "$best"
}
# the tensor-core path alone (--no-race), then with the data-race detector on (the default:
# it checks every 16-byte piece a wgmma reads, at its issue and its completion)
for opt in --no-race ""; do
  s=$(measure "$opt")
  awk -v s="$s" -v r="$reps" -v o="${opt:-race detector on}" 'BEGIN {
    macs = r * 64 * 256 * 16
    printf "wgmma m64n256k16 f16->f32 (%s): %d x %d multiply-adds in %.3f s CPU = %.1f M multiply-adds/s\n",
           o, r, 64 * 256 * 16, s, macs / s / 1e6 }'
done
