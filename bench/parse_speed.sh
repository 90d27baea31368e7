#!/bin/sh
# parse_speed.sh - the front end's speed: MB/s of `ptxi check` (lexer, parser, IR, static
# checks) on a large generated module, each run a fresh process, as a user runs it.
# usage: bench/parse_speed.sh [path/to/ptxi] [SIZE_MB] [--lineinfo]
# The module (bench/gen_big_ptx.py: nvcc-style kernels, deterministic) is cached in $BENCH_DIR
# (default /tmp/ptxi-bench). Prints each run, then the best and the median; with GNU time
# installed, also the peak resident memory. When the build has tests/corpus_check, it also
# times the parse that keeps the whole IR (what `ptxi run` builds before it loads a kernel).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
ptxi=${1:-$root/build/ptxi}
size=${2:-100}
shift 2 2>/dev/null || shift $# 2>/dev/null || true
dir=${BENCH_DIR:-/tmp/ptxi-bench}
mkdir -p "$dir"
ptx="$dir/big_${size}mb$(echo "$*" | tr -d ' -').ptx"
[ -f "$ptx" ] || python3 "$root/bench/gen_big_ptx.py" "$size" "$ptx" "$@"
bytes=$(wc -c < "$ptx")
runs=${RUNS:-5}

# seconds of one run of "$@" (wall clock)
seconds() {
	s=$(date +%s.%N)
	"$@" > /dev/null
	e=$(date +%s.%N)
	echo "$e - $s" | bc
}

echo "ptxi check $ptx ($bytes bytes), $runs fresh runs:"
times=""
for i in $(seq "$runs"); do
	t=$(seconds "$ptxi" check "$ptx")
	echo "  run $i: $t s = $(echo "scale=1; $bytes / 1000000 / $t" | bc) MB/s"
	times="$times $t"
done
sorted=$(echo "$times" | tr ' ' '\n' | grep . | sort -n)
best=$(echo "$sorted" | head -n 1)
median=$(echo "$sorted" | sed -n "$(( (runs + 1) / 2 ))p")
echo "best:   $(echo "scale=1; $bytes / 1000000 / $best" | bc) MB/s"
echo "median: $(echo "scale=1; $bytes / 1000000 / $median" | bc) MB/s"
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f "peak resident memory: %M KB" "$ptxi" check "$ptx"
fi
cc=$(dirname "$ptxi")/tests/corpus_check
if [ -x "$cc" ]; then
	echo "parse keeping the whole IR (tests/corpus_check --time):"
	"$cc" --time "$ptx" | sed 's/^/  /'
fi
echo "host: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
