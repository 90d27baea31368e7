#!/usr/bin/env bash
# Runs tests/hw_b128/b128_probe.ptx on ptxi and compares its 60 words with the H100's
# (b128_probe.h100), except words 25-28 (result 6: see the probe's comment).
# usage: check.sh PTXI
set -u
ptxi=$(realpath "${1:?usage: check.sh PTXI}")
dir=$(cd "$(dirname "$0")" && pwd)
args=$(sed -n 's|^// run: *||p' "$dir/b128_probe.ptx")
cd "$dir" || exit 1
out=$(eval "\"$ptxi\" run b128_probe.ptx $args") || { echo "FAIL: ptxi exited $?"; exit 1; }
skip='25,28d'
if diff <(sed "$skip" <<<"$out") <(sed "$skip" b128_probe.h100); then
  echo "b128 probe: 56 words equal the H100's"
else
  echo "FAIL: ptxi differs from the H100 (< ptxi, > H100)"; exit 1
fi
