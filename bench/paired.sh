#!/usr/bin/env bash
# Paired comparison of two ptxi builds (binaries, or git revisions built here) on the
# kernels of kernels.ptx, --no-race, GRID x 256 threads: each round runs A and B back to
# back (in alternating order, so drift and a busy machine weigh on both alike) and takes the
# launch's own seconds (--stats, in-process: no start-up, parse or output), plus the same
# loop compiled natively (native.c, gcc -O2, timed in-process too). Per kernel: the median of
# each and its spread (least - most), the per-round ratio B/A (median, quartiles, least -
# most), and each build's ratio to native (medians). Every run's results must be the same
# words as the native loop's.
# With -c, instead: instructions counted by callgrind (valgrind), one run each, the process
# less the same command on one warp - deterministic, for a machine too busy for timing.
#   usage: bench/paired.sh [-n ROUNDS] [-g GRID] [-c] A B [KERNEL...]
#   A, B: a ptxi binary, or a git revision of this repository (its tree exported with git
#   archive and built with meson --buildtype=release; needs meson, ninja and the build
#   dependencies)
#   e.g.  bench/paired.sh -n 15 main build/ptxi         bench/paired.sh HEAD~3 HEAD collatz
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rounds=11 grid=128 count=
while getopts n:g:c o; do
  case $o in n) rounds=$OPTARG ;; g) grid=$OPTARG ;; c) count=1 ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { echo "usage: bench/paired.sh [-n ROUNDS] [-g GRID] [-c] A B [KERNEL...]" >&2; exit 2; }
a=$1 b=$2; shift 2
kernels=${*:-hash_int poly_f32 collatz reduce_smem}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# binary SPEC NAME: the path of a ptxi binary for SPEC (a file, or a revision built here)
binary() {
  if [ -f "$1" ]; then (cd "$(dirname "$1")" && echo "$PWD/$(basename "$1")"); return; fi
  local rev
  rev=$(git -C "$here" rev-parse --verify --quiet "$1^{commit}") ||
    { echo "paired: '$1' is neither a file nor a git revision" >&2; exit 2; }
  echo "paired: building $1 ($rev)" >&2
  mkdir "$tmp/src-$2"
  git -C "$(git -C "$here" rev-parse --show-toplevel)" archive "$rev" | tar -x -C "$tmp/src-$2"
  meson setup "$tmp/build-$2" "$tmp/src-$2" --buildtype=release > "$tmp/setup-$2.log" 2>&1 &&
    ninja -C "$tmp/build-$2" ptxi > "$tmp/ninja-$2.log" 2>&1 ||
    { echo "paired: building $1 failed:" >&2; tail -n 20 "$tmp/setup-$2.log" "$tmp/ninja-$2.log" >&2; exit 1; }
  echo "$tmp/build-$2/ptxi"
}
pa=$(binary "$a" a)
pb=$(binary "$b" b)
gcc -O2 -o "$tmp/native" "$here/native.c" -lm
n=$((grid * 256))

# launch PTXI KERNEL ARG: the launch's seconds (--stats); its results go to $tmp/out
launch() {
  "$1" run "$here/kernels.ptx" --kernel "$2" --grid "$grid" --block 256 \
    --arg "buf:$((n * 4))" --arg "$3" --dump 0 --no-race --stats > "$tmp/out" 2> "$tmp/err" ||
    { echo "paired: $1 failed on $2:" >&2; cat "$tmp/err" >&2; exit 1; }
  cmp -s "$tmp/out" "$tmp/want" ||
    { echo "paired: $2: $1 gives other results than the native loop" >&2; exit 1; }
  sed -n 's/.*instructions, \([0-9.]*\) s .*/\1/p' "$tmp/err"
}

# instr PTXI KERNEL ARG GRID BLOCK: instructions of the whole process (callgrind's Ir)
instr() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" run "$here/kernels.ptx" \
    --kernel "$2" --grid "$4" --block "$5" --arg "buf:$((n * 4))" --arg "$3" --dump 0 \
    --no-race 2>&1 > /dev/null | sed -n 's/.*refs: *//p' | tr -d ,
}

if [ -n "$count" ]; then
  command -v valgrind > /dev/null || { echo "paired: -c needs valgrind" >&2; exit 1; }
  echo "A = $a ($pa)"
  echo "B = $b ($pb)"
  echo "instructions of the launch (callgrind: the process less the same on one warp), --grid $grid"
  printf '%-12s %16s %16s %9s\n' kernel "A" "B" "B/A"
  for k in $kernels; do
    case $k in poly_f32) arg=f32:0.5 ;; *) arg=u32:7 ;; esac
    ia=$(( $(instr "$pa" "$k" "$arg" "$grid" 256) - $(instr "$pa" "$k" "$arg" 1 32) ))
    ib=$(( $(instr "$pb" "$k" "$arg" "$grid" 256) - $(instr "$pb" "$k" "$arg" 1 32) ))
    awk -v k="$k" -v a="$ia" -v b="$ib" 'BEGIN { printf "%-12s %16d %16d %8.3fx\n", k, a, b, b / a }'
  done
  exit 0
fi

# stats FILE: "median least most q1 q3" of the numbers in FILE
stats() {
  sort -g "$1" | awk '{ v[NR] = $1 }
    function q(p,   i, f) { i = 1 + p * (NR - 1); f = int(i); return v[f] + (i - f) * (v[f + 1 > NR ? NR : f + 1] - v[f]) }
    END { printf "%.6g %.6g %.6g %.6g %.6g\n", q(0.5), v[1], v[NR], q(0.25), q(0.75) }'
}

echo "A = $a ($pa)"
echo "B = $b ($pb)"
echo "$rounds paired rounds, --grid $grid --block 256 --no-race; launch ms from --stats (median, least-most)"
printf '%-12s %22s %22s %10s %15s %13s %9s %9s\n' kernel "A ms" "B ms" "B/A" "B/A quartiles" \
  "B/A range" "A/native" "B/native"
for k in $kernels; do
  case $k in poly_f32) arg=f32:0.5 narg=0.5 ;; *) arg=u32:7 narg=7 ;; esac
  "$tmp/native" "$k" "$n" "$narg" 20 > "$tmp/native_out"
  tail -n +2 "$tmp/native_out" > "$tmp/want"
  : > "$tmp/ta"; : > "$tmp/tb"; : > "$tmp/tr"; : > "$tmp/tn"
  for i in $(seq "$rounds"); do
    if [ $((i % 2)) = 1 ]; then ta=$(launch "$pa" "$k" "$arg"); tb=$(launch "$pb" "$k" "$arg")
    else tb=$(launch "$pb" "$k" "$arg"); ta=$(launch "$pa" "$k" "$arg"); fi
    "$tmp/native" "$k" "$n" "$narg" 5 | head -1 >> "$tmp/tn"
    echo "$ta" >> "$tmp/ta"; echo "$tb" >> "$tmp/tb"
    awk -v x="$ta" -v y="$tb" 'BEGIN { if (x > 0) printf "%.6f\n", y / x }' >> "$tmp/tr"
  done
  read -r ma la ha _ _ < <(stats "$tmp/ta")
  read -r mb lb hb _ _ < <(stats "$tmp/tb")
  read -r mn _ _ _ _ < <(stats "$tmp/tn")
  if [ -s "$tmp/tr" ]; then read -r mr lr hr q1 q3 < <(stats "$tmp/tr"); else mr=0 lr=0 hr=0 q1=0 q3=0; fi
  awk -v k="$k" -v ma="$ma" -v la="$la" -v ha="$ha" -v mb="$mb" -v lb="$lb" -v hb="$hb" \
      -v mr="$mr" -v lr="$lr" -v hr="$hr" -v q1="$q1" -v q3="$q3" -v mn="$mn" 'BEGIN {
    printf "%-12s %7.1f (%5.1f-%5.1f) %7.1f (%5.1f-%5.1f) %9.3fx %6.3f-%6.3fx %5.2f-%5.2fx %8.1fx %8.1fx\n",
      k, ma * 1e3, la * 1e3, ha * 1e3, mb * 1e3, lb * 1e3, hb * 1e3, mr, q1, q3, lr, hr,
      ma / mn, mb / mn }'
done
echo "(the launch times have --stats' resolution of 1 ms: raise -g for short kernels)"
