#!/bin/sh
# parse_speed.sh - measure the PTX front end's parse speed (MB/s) on a large generated module.
# usage: bench/parse_speed.sh [SIZE_MB] [--lineinfo]
# Builds tests/corpus_check.c against the front end with -O2 (release flags, no sanitizers)
# into $BUILD (default /tmp/ptxi-parse-bench), generates SIZE_MB (default 100) of nvcc-style
# PTX with bench/gen_big_ptx.py, and parses it three times, each in a fresh process ("cold":
# every IR byte lands on a page the kernel must fault in first), then four times in one
# process that keeps freed memory ("warm": the parser's own speed).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
size=${1:-100}
shift 2>/dev/null || true
B=${BUILD:-/tmp/ptxi-parse-bench}
mkdir -p "$B"
# Machines without re2c/bison can use lexer.c/parser.c generated beforehand in $B.
if command -v re2c >/dev/null && command -v bison >/dev/null; then
	re2c --no-generation-date -W -o "$B/lexer.c" "$root/grammar/ptx.re"
	bison -Wall --defines="$B/parser.h" -o "$B/parser.c" "$root/grammar/ptx.y"
fi
${CC:-cc} -std=c11 -O2 -DNDEBUG -D_GNU_SOURCE -I"$root/src" -I"$B" \
	"$B/lexer.c" "$B/parser.c" "$root/src/ir.c" "$root/src/arena.c" "$root/src/diag.c" \
	"$root/tests/corpus_check.c" -o "$B/corpus_check" -lpthread -lm
ptx="$B/big_${size}mb$*.ptx"
[ -f "$ptx" ] || python3 "$root/bench/gen_big_ptx.py" "$size" "$ptx" "$@"
echo "cold (fresh process each time):"
for i in 1 2 3; do
	"$B/corpus_check" --time "$ptx"
done
echo "warm (memory reused; runs 2-4 show the parser without page faults):"
"$B/corpus_check" --time --warm --repeat 4 "$ptx" | grep 'run '
free_mb=$(awk '/MemAvailable/ {print int($2/1024)}' /proc/meminfo 2>/dev/null || echo 0)
echo "host: $(nproc) CPUs, ${free_mb} MB available"
