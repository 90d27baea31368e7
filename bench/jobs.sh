#!/usr/bin/env bash
# --jobs: the bench kernels of kernels.ptx (128 CTAs of 256 threads, one CTA a cluster) with
# --jobs 1 and --jobs N (default 2), --no-race. For each: the wall-clock and CPU seconds of a
# whole run (best of ROUNDS rounds of 10 runs), the launch's own seconds (--stats, least of
# all runs: start-up, parsing and the --dump output run on one thread), the speed-ups, and the
# results compared word for word. Rounds of --jobs 1 and --jobs N alternate, so that a
# machine whose speed drifts treats both alike.
# usage: [ROUNDS=3] bench/jobs.sh [PATH/TO/ptxi] [N] [KERNEL...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ptxi=${1:-$here/../build/ptxi}; [ $# -gt 0 ] && shift
n=${1:-2}; [ $# -gt 0 ] && shift
kernels=${*:-hash_int poly_f32 collatz reduce_smem}
rounds=${ROUNDS:-3}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# One round of 10 runs of kernel $1 with --jobs $2: appends "wall cpu" seconds a run to
# $tmp/round.$2 and each run's launch seconds to $tmp/launch.$2; output in $tmp/out.$2.
round() {
  local name=$1 j=$2 arg=u32:7
  [ "$name" = poly_f32 ] && arg=f32:0.5
  # bash's own time (TIMEFORMAT: wall, user, system): no /usr/bin/time needed
  { TIMEFORMAT='%R %U %S'; time ( for k in 1 2 3 4 5 6 7 8 9 10; do
      "$ptxi" run "$here/kernels.ptx" --kernel "$name" --grid 128 --block 256 \
        --arg buf:131072 --arg "$arg" --dump 0 --no-race --stats --jobs "$j" \
        > "$tmp/out.$j" 2> "$tmp/err" || exit 1
      sed -n 's/.*thread-instructions, \([0-9.]*\) s .*/\1/p' "$tmp/err" >> "$tmp/launch.$j"
    done ); } 2> "$tmp/t" || { cat "$tmp/err" >&2; return 1; }
  awk '{print $1 / 10, ($2 + $3) / 10}' "$tmp/t" >> "$tmp/round.$j"
}
least() { sort -g "$1" | head -1; }

printf '%-12s %8s %8s %8s %8s %8s | %9s %9s %8s\n' kernel "wall 1" "cpu 1" "wall $n" \
  "cpu $n" speed-up "launch 1" "launch $n" speed-up
for name in $kernels; do
  rm -f "$tmp"/round.* "$tmp"/launch.*
  for r in $(seq "$rounds"); do
    round "$name" 1 && round "$name" "$n" || { echo "jobs: $name: ptxi failed" >&2; exit 1; }
  done
  if ! cmp -s "$tmp/out.1" "$tmp/out.$n"; then
    echo "jobs: $name: --jobs $n's results differ from --jobs 1's" >&2; exit 1
  fi
  read -r w1 c1 < <(sort -g "$tmp/round.1" | head -1)
  read -r wn cn < <(sort -g "$tmp/round.$n" | head -1)
  l1=$(least "$tmp/launch.1"); ln=$(least "$tmp/launch.$n")
  awk -v k="$name" -v w1="$w1" -v c1="$c1" -v wn="$wn" -v cn="$cn" -v l1="$l1" -v ln="$ln" \
    'BEGIN { printf "%-12s %8.3f %8.3f %8.3f %8.3f %7.2fx | %9.3f %9.3f %7.2fx\n",
             k, w1, c1, wn, cn, w1 / wn, l1, ln, l1 / ln }'
done
