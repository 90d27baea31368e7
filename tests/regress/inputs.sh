#!/usr/bin/env bash
# Inputs that are not regular files: every read is capped or refused with a clear message
# and exit status 2 (ptxi used to read /dev/zero without end and took a directory given to
# --arg file: as an empty buffer). usage: inputs.sh PTXI DIR-OF-THIS-SCRIPT
set -u
ptxi=$1; here=$2; fail=0
expect() { # STATUS MESSAGE COMMAND...
  local want=$1 msg=$2; shift 2
  "$@" > /dev/null 2> "$tmp"; local rc=$?
  if [ "$rc" != "$want" ] || ! grep -q -F -- "$msg" "$tmp"; then
    echo "FAIL: $* -> exit $rc, expected $want and '$msg'"; sed 's/^/    /' "$tmp"; fail=1
  fi
}
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
k=$here/max-memory.ptx
expect 2 "ptxi: error: cannot read '/dev/zero': larger than the 1024 MiB ptxi reads (64 MiB from a pipe or device)" \
  "$ptxi" check /dev/zero
expect 2 "ptxi: error: cannot read '$here': Is a directory" "$ptxi" check "$here"
expect 2 "ptxi: error: cannot read '/dev/zero': larger than a file: argument may be (16 GiB; 64 MiB from a pipe or device)" \
  "$ptxi" run "$k" --arg file:/dev/zero
expect 2 "ptxi: error: cannot read '$here': Is a directory" "$ptxi" run "$k" --arg "file:$here"
[ "$fail" = 0 ] && echo "inputs: all passed"
exit $fail
