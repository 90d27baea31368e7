#!/usr/bin/env bash
# What two cores can give, before --jobs: the launch of each bench kernel (--jobs 1,
# --no-race, --stats' seconds, least of RUNS runs) on CPU A alone, on CPU B alone, and on
# each while the same run loops on the other (a twin). If a core is slower, or slows down
# when its neighbour works (shared caches, the host's turbo and vector-unit frequency
# limits), no program's two threads gain 2x. The last column is that bound: the work two
# threads side by side do in the time one thread alone on A takes, A/(A beside B) +
# A/(B beside A).
# usage: [RUNS=10] bench/cores.sh [PATH/TO/ptxi] [A B] [KERNEL...]   (default CPUs 0 1)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ptxi=${1:-$here/../build/ptxi}; [ $# -gt 0 ] && shift
a=${1:-0}; [ $# -gt 0 ] && shift
b=${1:-1}; [ $# -gt 0 ] && shift
kernels=${*:-hash_int poly_f32 collatz reduce_smem}
runs=${RUNS:-10}
tmp=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT

args() { # the bench's launch of kernel $1
  local arg=u32:7; [ "$1" = poly_f32 ] && arg=f32:0.5
  echo "$here/kernels.ptx --kernel $1 --grid 128 --block 256 --arg buf:131072 --arg $arg"
}
# least launch seconds of $runs runs of kernel $2 on CPU $1
launch() {
  local t best=""
  for k in $(seq "$runs"); do
    # shellcheck disable=SC2046
    t=$(taskset -c "$1" "$ptxi" run $(args "$2") --no-race --stats 2>&1 >/dev/null |
        sed -n 's/.*thread-instructions, \([0-9.]*\) s .*/\1/p')
    [ -n "$t" ] || { echo "cores: $2: ptxi failed" >&2; exit 1; }
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
  done
  echo "$best"
}
printf '%-12s %9s %9s %14s %14s %7s\n' kernel "CPU $a" "CPU $b" "$a beside $b" "$b beside $a" bound
for name in $kernels; do
  ta=$(launch "$a" "$name"); tb=$(launch "$b" "$name")
  # shellcheck disable=SC2046
  (while :; do taskset -c "$b" "$ptxi" run $(args "$name") --no-race >/dev/null 2>&1; done) &
  twin=$!; sa=$(launch "$a" "$name"); kill "$twin"; wait "$twin" 2>/dev/null || true
  # shellcheck disable=SC2046
  (while :; do taskset -c "$a" "$ptxi" run $(args "$name") --no-race >/dev/null 2>&1; done) &
  twin=$!; sb=$(launch "$b" "$name"); kill "$twin"; wait "$twin" 2>/dev/null || true
  awk -v k="$name" -v ta="$ta" -v tb="$tb" -v sa="$sa" -v sb="$sb" 'BEGIN {
    printf "%-12s %9.4f %9.4f %14.4f %14.4f %6.2fx\n", k, ta, tb, sa, sb, ta / sa + ta / sb }'
done
