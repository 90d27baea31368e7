#!/usr/bin/env bash
# Runs every H100 probe of tests/hw_tc/probes/ (gen.py) on ptxi and compares its words with
# the H100's (NAME.h100, the output of ../shared/tools/gpu-launch.c for the same PTX): one
# line per probe that differs, then "probes: N passed, M failed"; fails if any failed.
# usage: probes.sh PTXI [NAME...]
set -u
ptxi=${1:?usage: probes.sh PTXI [NAME...]}
shift
dir=$(cd "$(dirname "$0")/probes" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ $# = 0 ]; then set -- $(cd "$dir" && ls *.h100 | sed 's/\.h100$//'); fi
pass=0; fail=0
for name in "$@"; do
  # $(sed -n 's|^// run: *||p' PROBE) read by bash's builtins: a sed per probe cost more
  # than ptxi's run of it on a loaded machine
  mapfile -t lines < "$dir/$name.ptx"
  runs=()
  for l in "${lines[@]}"; do
    [[ $l == "// run:"* ]] && { l=${l#// run:}; runs+=("${l#"${l%%[! ]*}"}"); }
  done
  printf -v args '%s\n' "${runs[@]}"
  while [[ $args == *$'\n' ]]; do args=${args%$'\n'}; done
  eval "\"$ptxi\" run \"$dir/$name.ptx\" $args" > "$tmp/out" 2> "$tmp/err"; rc=$?
  if [ $rc = 0 ] && cmp -s "$tmp/out" "$dir/$name.h100"; then pass=$((pass + 1)); continue; fi
  fail=$((fail + 1))
  if [ $rc != 0 ]; then echo "FAIL $name: exit $rc: $(head -c 300 "$tmp/err")"
  else echo "FAIL $name: $(diff "$tmp/out" "$dir/$name.h100" | grep -c '^>') words differ"; fi
done
echo "probes: $pass passed, $fail failed"
[ "$fail" = 0 ]
