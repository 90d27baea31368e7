#!/usr/bin/env bash
# The data-race detector with --jobs: each program of tests/jobs_race/ races (or does not)
# on global memory across CTAs, one CTA a cluster. Run as its "// run:" line says, with
# --jobs 1 its stdout and stderr together must be exactly NAME.expect, and with --jobs 2
# and 4 (text), 2 (JSON) and 3 (SARIF) exactly what --jobs 1 gives. Prints
# "jobs-race: N runs same, M differ" and fails if any differ.
set -u
ptxi=${1:?usage: jobs_race.sh PTXI DIR}
ptxi=$(cd "$(dirname "$ptxi")" && pwd)/$(basename "$ptxi")
dir=${2:?usage: jobs_race.sh PTXI DIR}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
same=0; differ=0
run() { # file args jobs extra -> $tmp/out
  (cd "$dir" && eval "\"$ptxi\" run \"$1\" $2 --jobs $3 $4" > "$tmp/out" 2>&1 < /dev/null
   echo "exit $?" >> "$tmp/out")
}
check() { # what file
  if cmp -s "$2" "$tmp/out"; then same=$((same + 1)); return; fi
  differ=$((differ + 1))
  echo "DIFFERS ($1)"; diff "$2" "$tmp/out" | head -10
}
for f in "$dir"/*.ptx; do
  base=$(basename "$f" .ptx)
  args=$(sed -n 's|^// run: *||p' "$f" | head -1)
  run "$base.ptx" "$args" 1 ""
  check "$base --jobs 1" "$dir/$base.expect"
  for j in 2 4; do
    run "$base.ptx" "$args" $j ""
    check "$base --jobs $j" "$dir/$base.expect"
  done
  for d in "json 2" "sarif 3"; do
    set -- $d
    run "$base.ptx" "$args" 1 "--diagnostics $1"; cp "$tmp/out" "$tmp/one"
    run "$base.ptx" "$args" "$2" "--diagnostics $1"
    check "$base --diagnostics $1 --jobs $2" "$tmp/one"
  done
done
echo "jobs-race: $same runs same, $differ differ"
[ "$differ" = 0 ]
