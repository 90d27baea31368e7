#!/usr/bin/env bash
# Library code never ends the process: no exit(), abort() or assert() outside the ptxi
# program (src/tool/cli.c). Out of memory and bad input come back as statuses.
# usage: no-exit.sh SRC-DIR
set -u
hits=$(grep -n -E '(^|[^_a-z])(exit|abort|_Exit|quick_exit)\s*\(|(^|[^_a-zA-Z])assert\s*\(' \
       "$1"/*/*.c "$1"/*/*.h | grep -v '^[^:]*/cli\.c:')
if [ -n "$hits" ]; then echo "library code that ends the process:"; echo "$hits"; exit 1; fi
echo "no-exit: passed"
