#!/usr/bin/env bash
# Out of memory while building a module is an error with exit status 2, not exit(4) from
# inside the library: an 8 MB module needs about 70 MB of IR to run, more than the 100 MB
# address-space limit leaves once the program is mapped. Skipped (77) in sanitizer builds,
# whose shadow memory cannot live under such a limit. usage: oom.sh PTXI BENCH-DIR
set -u
ptxi=$1; bench=$2
if ldd "$ptxi" 2>/dev/null | grep -q libasan; then echo "oom: skipped under ASan"; exit 77; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 "$bench/gen_big_ptx.py" 8 "$tmp/big.ptx" || exit 1
(ulimit -v 100000; "$ptxi" check "$tmp/big.ptx" > /dev/null 2>&1); rc=$?
[ "$rc" = 0 ] || { echo "oom: ptxi check of the 8 MB module failed under the limit ($rc)"; exit 1; }
(ulimit -v 100000; "$ptxi" run "$tmp/big.ptx" --block 1 > /dev/null 2> "$tmp/err"); rc=$?
if [ "$rc" != 2 ] || ! grep -q -F "ptxi: error: out of memory reading the module" "$tmp/err"; then
  echo "oom: exit $rc, expected 2 and 'out of memory reading the module'"; cat "$tmp/err"; exit 1
fi
echo "oom: passed"
