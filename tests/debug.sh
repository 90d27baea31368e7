#!/usr/bin/env bash
# ptxi debug in batch: each tests/debug/NAME.cmd runs as its first line says ("# ptxi debug
# ARGS", from the project root) with --batch NAME.cmd, and what it prints (stdout and stderr
# together, as a session shows them) and its exit status must equal NAME.out exactly. With
# UPDATE=1 it writes what the sessions print into the .out files instead (then read the diff).
set -u
ptxi=${1:?usage: debug.sh PTXI SOURCE_ROOT}; root=${2:?}
ptxi=$(cd "$(dirname "$ptxi")" && pwd)/$(basename "$ptxi")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$root" || exit 2
fail=0 n=0
for cmd in tests/debug/*.cmd; do
  args=$(head -1 "$cmd" | sed -n 's/^# ptxi debug //p')
  [ -n "$args" ] || { echo "FAIL: $cmd: no '# ptxi debug ARGS' first line"; fail=1; continue; }
  out=${cmd%.cmd}.out
  eval "timeout 60 \"\$ptxi\" debug $args --batch \"\$cmd\"" > "$tmp/got" 2>&1 < /dev/null
  echo "(exit status $?)" >> "$tmp/got"
  n=$((n + 1))
  if [ "${UPDATE:-}" = 1 ]; then
    cp "$tmp/got" "$out"
  elif ! diff -u "$out" "$tmp/got" > "$tmp/diff" 2>&1; then
    echo "FAIL: $cmd"; head -40 "$tmp/diff"; fail=1
  fi
done
echo "debug: $n sessions, $([ $fail = 0 ] && echo all as expected || echo some differ)"
exit $fail
