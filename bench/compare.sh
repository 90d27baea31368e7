#!/usr/bin/env bash
# Two (or more) ptxi builds on the kernels of kernels.ptx, 128x256 threads, --no-race, run in
# turn ROUNDS times each (so a busy machine slows them alike): CPU time of the process
# (perf stat task-clock), least and median over the rounds, and the least launch time per
# warp-instruction, the launch being the process less its fixed cost (start, parse, the
# 128 KiB buffer written out: the same command on one warp, --grid 1 --block 32).
# Every build's results must be the same words.
#   usage: bench/compare.sh ROUNDS PTXI-A PTXI-B [...] [-- KERNEL...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:?usage: compare.sh ROUNDS PTXI-A PTXI-B [...] [-- KERNEL...]}; shift
bins=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do bins+=("$1"); shift; done
[ $# -gt 0 ] && shift
kernels=${*:-hash_int poly_f32 collatz reduce_smem}
command -v perf >/dev/null || { echo "compare: needs perf (linux-perf)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# cpu_ms PTXI KERNEL ARG GRID BLOCK OUT: one run's task-clock in ms; its stdout goes to OUT
cpu_ms() {
  perf stat -x, -e task-clock -o "$tmp/stat" "$1" run "$here/kernels.ptx" --kernel "$2" \
    --grid "$4" --block "$5" --arg buf:131072 --arg "$3" --dump 0 --no-race > "$6" 2>/dev/null
  awk -F, '/task-clock/ {print $1}' "$tmp/stat"
}

printf '%-12s %-40s %9s %9s %9s %12s\n' kernel ptxi "min ms" "median" "fixed ms" ns/warp-instr
for k in $kernels; do
  case $k in poly_f32) arg=f32:0.5 ;; *) arg=u32:7 ;; esac
  wi=$("${bins[0]}" run "$here/kernels.ptx" --kernel "$k" --grid 128 --block 256 \
         --arg buf:131072 --arg "$arg" --dump 0 --no-race --stats 2>&1 >/dev/null |
       sed -n 's/^ptxi: stats: \([0-9]*\) warp-instructions.*/\1/p')
  for i in $(seq "$rounds"); do
    for j in "${!bins[@]}"; do
      cpu_ms "${bins[$j]}" "$k" "$arg" 128 256 "$tmp/out$j" >> "$tmp/t$j"
      cpu_ms "${bins[$j]}" "$k" "$arg" 1 32 /dev/null >> "$tmp/f$j"
      if ! cmp -s "$tmp/out0" "$tmp/out$j"; then
        echo "compare: $k: ${bins[$j]} gives other results than ${bins[0]}" >&2; exit 1
      fi
    done
  done
  for j in "${!bins[@]}"; do
    sort -n "$tmp/t$j" > "$tmp/ts"; sort -n "$tmp/f$j" > "$tmp/fs"
    awk -v k="$k" -v b="${bins[$j]}" -v wi="$wi" -v n="$rounds" '
      NR == FNR { t[FNR] = $1; next } FNR == 1 { f = $1 }
      END { printf "%-12s %-40s %9.1f %9.1f %9.1f %12.1f\n", k, b, t[1], t[int((n + 1) / 2)],
            f, (t[1] - f) * 1e6 / wi }' "$tmp/ts" "$tmp/fs"
    rm -f "$tmp/t$j" "$tmp/f$j"
  done
done
