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
# what cannot start a session: exit status 2 and the message on stderr
usage_error() {
  local want=$1; shift
  "$ptxi" debug "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null; local rc=$?
  [ $rc = 2 ] || { echo "FAIL: ptxi debug $*: exit $rc, expected 2"; fail=1; }
  [ ! -s "$tmp/out" ] || { echo "FAIL: ptxi debug $*: stdout: $(cat "$tmp/out")"; fail=1; }
  [ "$(cat "$tmp/err")" = "$want" ] || { echo "FAIL: ptxi debug $*: $(cat "$tmp/err")"; fail=1; }
}
ring="ptx_samples/mbarrier/producer_consumer.ptx --block 64"
usage_error "ptxi: error: -ex needs a value (see 'ptxi debug --help')" $ring --arg buf:64 -ex
usage_error "ptxi: error: cannot read --batch 'no/such.cmd'" $ring --arg buf:64 --batch no/such.cmd
usage_error "ptxi: error: debug runs one schedule and writes text: no --explore, --diagnostics, --dump, --out or --timeline (see 'ptxi --help')" \
  $ring --arg buf:64 --explore 3
usage_error "ptxi: error: kernel 'producer_consumer' takes 1 parameter; 0 --arg given" $ring
echo "debug: $n sessions, $([ $fail = 0 ] && echo all as expected || echo some differ)"
exit $fail
