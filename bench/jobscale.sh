#!/usr/bin/env bash
# What --jobs 2 gains over --jobs 1, measured so that the host's vCPUs and the other work on
# the machine do not decide it (issue 25). For each kernel, with the detector (the default)
# and with --no-race: the launch's seconds (--stats; least of RUNS runs) at --jobs 1 pinned
# to CPU A, at --jobs 1 pinned to CPU B, and at --jobs 2 on both, the three interleaved; the
# CPU seconds (user + system, median) of --jobs 1 on A and of --jobs 2. Then the speed-up
# over the faster single CPU, and the efficiency: the launch time two workers would take if
# they cost each other nothing, 1 / (1/A + 1/B), over the time they took (1.00: no loss).
# Every run is made SCHED_FIFO (chrt) where that is allowed, so that the machine's other
# processes do not hold either worker off its CPU: on the shared development VM they did,
# and a worker held off for a few milliseconds holds the launch (the clusters are shown in
# order). The two vCPUs there run at speeds that differ by up to 1.7x and change within
# minutes, differently for memory-heavy and ALU-heavy code: compare --jobs 2 with the two
# single-CPU times of the same minute, never with a figure from another minute.
# usage: [RUNS=7] bench/jobscale.sh [PATH/TO/ptxi] [A B] [KERNEL...]   (default CPUs 0 1)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ptxi=${1:-$here/../build/ptxi}; [ $# -gt 0 ] && shift
a=${1:-0}; [ $# -gt 0 ] && shift
b=${1:-1}; [ $# -gt 0 ] && shift
kernels=${*:-reduce_smem256 reduce_smem1024 hash_int smem_stencil mbar_ring copy_ring}
runs=${RUNS:-7}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fifo=""
chrt -f 50 true 2>/dev/null && fifo="chrt -f 50"
args() {
  case $1 in
    reduce_smem256) echo "kernels.ptx --kernel reduce_smem --grid 256 --block 256 --arg buf:262144 --arg u32:7" ;;
    reduce_smem1024) echo "kernels.ptx --kernel reduce_smem --grid 1024 --block 256 --arg buf:1048576 --arg u32:7" ;;
    hash_int) echo "kernels.ptx --kernel $1 --grid 1024 --block 256 --arg buf:1048576 --arg u32:7" ;;
    smem_stencil) echo "race_kernels.ptx --kernel $1 --grid 128 --block 256 --arg buf:131072" ;;
    mbar_ring) echo "race_kernels.ptx --kernel $1 --grid 64 --block 128 --arg buf:32768" ;;
    copy_ring) echo "race_kernels.ptx --kernel $1 --grid 64 --block 128 --arg buf:32768 --arg buf:16384" ;;
    *) echo "jobscale.sh: no kernel $1" >&2; exit 2 ;;
  esac
}
# One run of kernel $1 with extra options $2 under `taskset -c $3`: appends "launch cpu" to
# $tmp/$4 (the launch's seconds from --stats; user + system seconds of the process).
one() {
  local t
  # shellcheck disable=SC2046
  t=$( { TIMEFORMAT='%3U %3S'; time $fifo taskset -c "$3" "$ptxi" run "$here"/$(args "$1") $2 \
         --dump 0 --stats > "$tmp/out.$4" 2> "$tmp/err"; } 2>&1 ) ||
    { cat "$tmp/err" >&2; echo "jobscale: $1 failed" >&2; exit 1; }
  echo "$(sed -n 's/.*thread-instructions, \([0-9.]*\) s .*/\1/p' "$tmp/err") $t" |
    awk '{print $1, $2 + $3}' >> "$tmp/$4"
}
least() { sort -g -k1,1 "$1" | head -1 | cut -d' ' -f1; }
median() { cut -d' ' -f2 "$1" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
printf '%-16s %-8s %8s %8s %8s %8s %7s %8s %8s\n' kernel detector "1 on $a" "1 on $b" 2 \
  speed-up effic "cpu 1" "cpu 2"
for name in $kernels; do
  for race in "" --no-race; do
    rm -f "$tmp"/one.* "$tmp"/out.*
    for r in $(seq "$runs"); do
      one "$name" "$race --jobs 1" "$a" one.a
      one "$name" "$race --jobs 1" "$b" one.b
      one "$name" "$race --jobs 2" "$a,$b" one.2
    done
    if ! cmp -s "$tmp/out.one.a" "$tmp/out.one.2"; then
      echo "jobscale: $name: --jobs 2's output differs from --jobs 1's" >&2; exit 1
    fi
    awk -v k="$name" -v d="${race:-on}" -v x="$(least "$tmp/one.a")" \
        -v y="$(least "$tmp/one.b")" -v z="$(least "$tmp/one.2")" \
        -v c1="$(median "$tmp/one.a")" -v c2="$(median "$tmp/one.2")" 'BEGIN {
      f = x < y ? x : y; bound = 1 / (1 / x + 1 / y)
      printf "%-16s %-8s %8.4f %8.4f %8.4f %7.2fx %7.2f %8.3f %8.3f\n", k, d, x, y, z, f / z,
             bound / z, c1, c2 }'
  done
done
