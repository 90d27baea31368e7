#!/bin/sh
# parse_speed.sh - measure the PTX front end's parse speed (MB/s) on a large generated module.
# usage: bench/parse_speed.sh [SIZE_MB] [--lineinfo]
# Builds tests/corpus_check.c against the front end with -O2 (release flags, no sanitizers)
# into $BUILD (default /tmp/ptxi-parse-bench), generates SIZE_MB (default 100) of nvcc-style
# PTX with bench/gen_big_ptx.py, and parses it three times, each in a fresh process.
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
for i in 1 2 3; do
	"$B/corpus_check" --time "$ptx"
done
