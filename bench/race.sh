#!/usr/bin/env bash
# The data-race detector's cost and the --jobs scaling, side by side, in one run: each kernel
# with the detector (the default) and with --no-race (best of ROUNDS wall-clock seconds, and
# the ratio), then with --jobs 1, 2, 4 and 8 (the detector on; best of ROUNDS wall-clock
# seconds, and the speed-up over --jobs 1). The outputs of every run of a kernel must be equal.
#   reduce_smem   kernels.ptx, 128x256: 32 shared-memory tree reductions per block, bar.sync
#   reduce_smem256  the same on 256 CTAs (issue 25: --jobs 2 against --jobs 1, detector on)
#   hash_int      kernels.ptx, 128x256: integer ALU, one global store per thread
#   smem_stencil  race_kernels.ptx, 128x256: neighbours through shared memory, 64 rounds
#   mbar_ring     race_kernels.ptx, 64x128: a producer warp and three consumer warps over a
#                 two-stage full/empty mbarrier ring, 128 tiles
#   copy_ring     race_kernels.ptx, 64x128: the same ring filled by cp.async.bulk copies
#   tma_ring      race_kernels.ptx, 64x128: a ring of 4 KiB stages filled by TMA tensor
#                 copies (each box's global reads: 32 MiB per run, 8 M granules)
#   grid_sync     grid_sync.ptx (grid_sync.cu), a cooperative launch of 132x256: 8 grid syncs
#                 (cooperative_groups: thread 0 of each CTA spins on an ld.acquire.gpu), each
#                 thread reading a word of the next CTA (one thread: no --jobs)
#   wgmma         wgmma.ptx, one warpgroup, 2,000 x wgmma m64n256k16 (one CTA: no --jobs)
#   matmul        matmul.ptx (matmul.cu), 256x256 on 16x16 CTAs of 16x16: the naive product,
#                 each word of A and B read by 256 threads of 16 CTAs, unordered (issue 25)
#   mm_tiled      matmul.ptx, the tiled product (16x16 tiles through shared memory), 256x256
#   saxpy         matmul.ptx, y = 2x + y over 1 M floats, 64x256, a grid-stride loop
# usage: [ROUNDS=3] [JOBS="1 2 4 8"] bench/race.sh [PATH/TO/ptxi] [KERNEL...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ptxi=${1:-$here/../build/ptxi}; [ $# -gt 0 ] && shift
kernels=${*:-reduce_smem hash_int smem_stencil mbar_ring copy_ring tma_ring grid_sync wgmma matmul mm_tiled saxpy}
rounds=${ROUNDS:-3}
jobs=${JOBS:-1 2 4 8}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
args() {
  case $1 in
    reduce_smem|hash_int) echo "kernels.ptx --kernel $1 --grid 128 --block 256 --arg buf:131072 --arg u32:7" ;;
    reduce_smem256) echo "kernels.ptx --kernel reduce_smem --grid 256 --block 256 --arg buf:262144 --arg u32:7" ;;
    smem_stencil) echo "race_kernels.ptx --kernel $1 --grid 128 --block 256 --arg buf:131072" ;;
    mbar_ring) echo "race_kernels.ptx --kernel $1 --grid 64 --block 128 --arg buf:32768" ;;
    copy_ring) echo "race_kernels.ptx --kernel $1 --grid 64 --block 128 --arg buf:32768 --arg buf:16384" ;;
    tma_ring) echo "race_kernels.ptx --kernel $1 --grid 64 --block 128 --arg buf:32768 --arg buf:131072:iota:u32 --arg tmap:buf=1,type=f32,dims=64x512,strides=256,box=64x16" ;;
    grid_sync) echo "grid_sync.ptx --cooperative --grid 132 --block 256 --arg buf:135168 --arg buf:135168" ;;
    matmul) echo "matmul.ptx --kernel mm --grid 16,16 --block 16,16 --arg buf:262144 --arg buf:262144 --arg buf:262144 --arg u32:256" ;;
    mm_tiled) echo "matmul.ptx --kernel mm_tiled --grid 16,16 --block 16,16 --arg buf:262144 --arg buf:262144:iota:f32 --arg buf:262144:iota:f32 --arg u32:256" ;;
    saxpy) echo "matmul.ptx --kernel saxpy --grid 64 --block 256 --arg buf:4194304:iota:f32 --arg buf:4194304:iota:f32 --arg f32:2 --arg u32:1048576" ;;
    wgmma) echo "wgmma.ptx --block 128 --arg buf:512 --arg u32:2000" ;;
    *) echo "race.sh: no kernel $1" >&2; exit 2 ;;
  esac
}
# best of $rounds wall-clock seconds of "ptxi run ARGS..."; the output kept in $tmp/out
best() {
  local b="" s
  for i in $(seq "$rounds"); do
    # (bash's time to the millisecond: /usr/bin/time's 10 ms hid the short kernels' ratios)
    s=$( { TIMEFORMAT=%3R; time "$ptxi" run "$@" > "$tmp/out" 2> /dev/null || true; } 2>&1 )
    if [ -z "$b" ] || awk "BEGIN{exit !($s < $b)}"; then b=$s; fi
  done
  echo "$b"
}
printf '%-13s %9s %9s %6s' kernel detector no-race ratio
for j in $jobs; do printf ' %13s' "--jobs $j"; done
echo
for name in $kernels; do
  read -r -a a <<< "$(args "$name")"
  a[0]=$here/${a[0]}
  on=$(best "${a[@]}" --dump 0); cp "$tmp/out" "$tmp/want"
  off=$(best "${a[@]}" --dump 0 --no-race)
  cmp -s "$tmp/want" "$tmp/out" || { echo "race.sh: $name: --no-race output differs" >&2; exit 1; }
  printf '%-13s %8.3fs %8.3fs %5.2fx' "$name" "$on" "$off" "$(awk -v a="$on" -v b="$off" 'BEGIN{print (b > 0 ? a / b : 0)}')"
  one=""
  for j in $jobs; do
    if [ "$name" = wgmma ] || [ "$name" = grid_sync ]; then printf ' %13s' -; continue; fi
    s=$(best "${a[@]}" --dump 0 --jobs "$j")
    cmp -s "$tmp/want" "$tmp/out" || { echo "race.sh: $name: --jobs $j output differs" >&2; exit 1; }
    [ -z "$one" ] && one=$s
    printf ' %7.3fs %4.2fx' "$s" "$(awk -v a="$one" -v b="$s" 'BEGIN{print (b > 0 ? a / b : 0)}')"
  done
  echo
done
