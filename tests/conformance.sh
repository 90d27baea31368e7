#!/usr/bin/env bash
# Runs the H100 conformance cases listed in tests/conformance-pass.txt (the ratchet: the
# cases that must pass today; it only grows). Skips (exit 77) when ../shared/conformance
# is not there, so the project's own tests stand alone.
set -u
ptxi=${1:?usage: conformance.sh PATH/TO/ptxi}
ptxi=$(cd "$(dirname "$ptxi")" && pwd)/$(basename "$ptxi")
here=$(cd "$(dirname "$0")" && pwd)
runner=${PTXI_CONFORMANCE:-$here/../../shared/conformance/run.sh}
if [ ! -x "$runner" ]; then
  echo "conformance: $runner not found; skipped"
  exit 77
fi
names=$(grep -v '^#' "$here/conformance-pass.txt" | tr '\n' ' ')
"$runner" "$ptxi" "$(dirname "$runner")/cases" $names
