#!/usr/bin/env bash
# --jobs: every program under the directories given, run as its "// run:" lines say (those
# with a --grid of more than one CTA) with --no-race (tests/jobs_race.sh checks the detector) and
# --jobs 1, then --jobs 2, must give the same stdout, stderr and exit status: their output
# does not depend on the schedule, so clusters run on two threads must show exactly what one
# thread shows. A run with diagnostics is also compared with --diagnostics json and sarif
# (reports as data, replayed in cluster order). The note that says a launch keeps one
# thread (--trace, ...) is left out of the comparison; such runs are counted. A program
# whose output does depend on the schedule says why in a "// jobs-schedule-dependent:" line
# and is left out (docs/jobs.md lists what can differ).
# Prints "jobs: N runs same (K on one thread, S left out), M differ" and fails if any differ.
set -u
ptxi=${1:?usage: jobs.sh PTXI DIR...}
ptxi=$(cd "$(dirname "$ptxi")" && pwd)/$(basename "$ptxi")
shift
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
same=0; differ=0; one=0; out=0

# Run `base` (in f's directory) with `args` at --jobs 1 and 2; count and show a difference.
compare() {
  local f=$1 base=$2 args=$3 what=$4 j
  for j in 1 2; do
    (cd "$(dirname "$f")" &&
      eval "\"$ptxi\" run \"$base\" $args --no-race --jobs $j" > "$tmp/out$j" \
        2> "$tmp/err$j.raw" < /dev/null; echo $? > "$tmp/rc$j")
    grep -v '^ptxi: note: --jobs [0-9]*: ' "$tmp/err$j.raw" > "$tmp/err$j"
  done
  if cmp -s "$tmp/out1" "$tmp/out2" && cmp -s "$tmp/err1" "$tmp/err2" &&
     cmp -s "$tmp/rc1" "$tmp/rc2"; then
    same=$((same + 1))
    return 0
  fi
  differ=$((differ + 1))
  echo "DIFFERS ($what): $f ($args): status $(cat "$tmp/rc1") / $(cat "$tmp/rc2")"
  diff "$tmp/out1" "$tmp/out2" | head -6
  diff "$tmp/err1" "$tmp/err2" | head -10
  return 1
}
for dir in "$@"; do
  while IFS= read -r f; do
    base=$(basename "$f")
    runs=$(sed -n 's|^// run: *||p' "$f")
    [ -z "$runs" ] && continue
    if grep -q '^// jobs-schedule-dependent:' "$f"; then out=$((out + 1)); continue; fi
    while IFS= read -r args; do
      # one CTA, one cluster: --jobs has nothing to share out
      [[ "$args" =~ --grid[=\ ]+([0-9,]+) ]] || continue
      [[ "${BASH_REMATCH[1]}" =~ ^1(,1)*$ ]] && continue
      compare "$f" "$base" "$args" text || continue
      if grep -q "^ptxi: note: --jobs [0-9]*: " "$tmp/err2.raw"; then
        one=$((one + 1)); echo "one thread: $f ($args)"; continue
      fi
      [ -s "$tmp/err1" ] || continue
      compare "$f" "$base" "$args --diagnostics json" json &&
        compare "$f" "$base" "$args --diagnostics sarif" sarif
    done <<< "$runs"
  done < <(find "$dir" -name '*.ptx' | sort)
done
echo "jobs: $same runs same ($one on one thread, $out left out), $differ differ"
[ "$differ" = 0 ]
