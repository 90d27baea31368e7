#!/usr/bin/env bash
# --jobs: the bench kernels of kernels.ptx (128 CTAs of 256 threads, one CTA a cluster) with
# --jobs 1 and --jobs N (default 2), --no-race: wall-clock and CPU seconds a run (best of 3
# rounds of 10), the speed-up in wall-clock time, and the results compared word for word.
# usage: bench/jobs.sh [PATH/TO/ptxi] [N] [KERNEL...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ptxi=${1:-$here/../build/ptxi}; [ $# -gt 0 ] && shift
n=${1:-2}; [ $# -gt 0 ] && shift
kernels=${*:-hash_int poly_f32 collatz reduce_smem}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# best of 3 rounds of 10 runs: "wall cpu" seconds a run of ptxi with --jobs $2 (the
# kernels take tens of milliseconds: one run is below the timer's resolution), its output
# in $tmp/out.$2
best() {
  local name=$1 j=$2 arg=u32:7 b="" c=""
  [ "$name" = poly_f32 ] && arg=f32:0.5
  for i in 1 2 3; do
    /usr/bin/time -f "%e %U %S" -o "$tmp/t" bash -c 'for k in 1 2 3 4 5 6 7 8 9 10; do
      "$0" run "$1" --kernel "$2" --grid 128 --block 256 --arg buf:131072 --arg "$3" \
        --dump 0 --no-race --jobs "$4" > "$5" || exit 1; done' \
      "$ptxi" "$here/kernels.ptx" "$name" "$arg" "$j" "$tmp/out.$j"
    read -r w u s < "$tmp/t"
    if [ -z "$b" ] || awk "BEGIN{exit !($w < $b)}"; then
      b=$w; c=$(awk "BEGIN{print $u + $s}"); fi
  done
  awk -v w="$b" -v c="$c" 'BEGIN{print w / 10, c / 10}'
}
printf '%-12s %9s %9s %9s %9s %8s\n' kernel "wall 1" "cpu 1" "wall $n" "cpu $n" speed-up
for name in $kernels; do
  read -r w1 c1 <<< "$(best "$name" 1)"
  read -r wn cn <<< "$(best "$name" "$n")"
  if ! cmp -s "$tmp/out.1" "$tmp/out.$n"; then
    echo "jobs: $name: --jobs $n's results differ from --jobs 1's" >&2; exit 1
  fi
  awk -v k="$name" -v w1="$w1" -v c1="$c1" -v wn="$wn" -v cn="$cn" 'BEGIN {
    printf "%-12s %9.3f %9.3f %9.3f %9.3f %7.2fx\n", k, w1, c1, wn, cn, w1 / wn }'
done
