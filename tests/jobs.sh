#!/usr/bin/env bash
# --jobs: every program under the directories given, run as its "// run:" lines say (those
# with a --grid of more than one CTA) with --no-race (tests/jobs_race.sh checks the detector) and
# --jobs 1, then --jobs 2, must give the same stdout, stderr and exit status: their output
# does not depend on the schedule, so clusters run on two threads must show exactly what one
# thread shows. A run with diagnostics is also compared with --diagnostics json and sarif
# (reports as data, replayed in cluster order). Left out of the comparison: the note that
# says a launch keeps one thread (--trace, ...; such runs are counted), and the seconds and
# rate that end a --stats line (the clock's; its counts are compared), and --stats' peak
# memory (one cluster's or those alive side by side: docs/jobs.md). A program whose
# output does depend on the schedule says why in a "// jobs-schedule-dependent:" line and
# is left out (docs/jobs.md lists what can differ).
# Prints "jobs: N runs same (K on one thread, S left out), M differ" and fails if any differ.
set -u
ptxi=${1:?usage: jobs.sh PTXI DIR...}
ptxi=$(cd "$(dirname "$ptxi")" && pwd)/$(basename "$ptxi")
shift
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
here=$PWD
same=0; differ=0; one=0; out=0
# The comments and stderr are read with bash's builtins: a comparison starts ptxi twice and
# cmp once, nothing else (a process costs more than most runs on a loaded machine).
note='^ptxi: note: --jobs [0-9]*: '
# --stats's counts are compared; the seconds and the rate after them are the clock's
timing='^(ptxi: stats: .* thread-instructions), [0-9.]+ s \([0-9.]+ M thread-instructions/s\)$'
# --stats' peak memory: the clusters alive at once, which --jobs 2's timing decides
peak='^ptxi: stats: peak memory '

# Run `base` (in f's directory) with `args` at --jobs 1 and 2; count and show a difference.
# err1 and err2 hold the stderr lines but the notes, raw2 all of --jobs 2's.
compare() {
  local f=$1 base=$2 args=$3 what=$4 j l rc=() kept joined=()
  for j in 1 2; do
    cd "${f%/*}"
    eval "\"$ptxi\" run \"$base\" $args --no-race --jobs $j" > "$tmp/out$j" \
      2> "$tmp/err$j.raw" < /dev/null
    rc[j]=$?
    cd "$here"
    mapfile -t raw2 < "$tmp/err$j.raw"
    kept=()
    for l in "${raw2[@]}"; do
      [[ $l =~ $note || $l =~ $peak ]] && continue
      [[ $l =~ $timing ]] && l=${BASH_REMATCH[1]}
      kept+=("$l")
    done
    if [ $j = 1 ]; then err1=("${kept[@]}"); else err2=("${kept[@]}"); fi
    printf -v 'joined[j]' '%s\n' "${kept[@]}"
  done
  if [ "${rc[1]}" = "${rc[2]}" ] && [ "${#err1[@]}" = "${#err2[@]}" ] &&
     [ "${joined[1]}" = "${joined[2]}" ] && cmp -s "$tmp/out1" "$tmp/out2"; then
    same=$((same + 1))
    return 0
  fi
  differ=$((differ + 1))
  echo "DIFFERS ($what): $f ($args): status ${rc[1]} / ${rc[2]}"
  diff "$tmp/out1" "$tmp/out2" | head -6
  lines err1 > "$tmp/err1"; lines err2 > "$tmp/err2"
  diff "$tmp/err1" "$tmp/err2" | head -10
  return 1
}
lines() { local -n a=$1; [ ${#a[@]} = 0 ] || printf '%s\n' "${a[@]}"; }
for dir in "$@"; do
  while IFS= read -r f; do
    base=${f##*/}
    mapfile -t text < "$f"
    runs=() dependent=0
    for l in "${text[@]}"; do
      case $l in
        "// run:"*) l=${l#// run:}; runs+=("${l#"${l%%[! ]*}"}") ;;
        "// jobs-schedule-dependent:"*) dependent=1 ;;
      esac
    done
    # as $(sed ...) read them: the empty runs at the end go, those before stay
    while [ ${#runs[@]} -gt 0 ] && [ -z "${runs[-1]}" ]; do unset 'runs[-1]'; done
    [ ${#runs[@]} = 0 ] && continue
    if [ "$dependent" = 1 ]; then out=$((out + 1)); continue; fi
    for args in "${runs[@]}"; do
      # one CTA, one cluster: --jobs has nothing to share out
      [[ "$args" =~ --grid[=\ ]+([0-9,]+) ]] || continue
      [[ "${BASH_REMATCH[1]}" =~ ^1(,1)*$ ]] && continue
      compare "$f" "$base" "$args" text || continue
      noted=0
      for l in "${raw2[@]}"; do [[ $l =~ $note ]] && { noted=1; break; }; done
      if [ "$noted" = 1 ]; then
        one=$((one + 1)); echo "one thread: $f ($args)"; continue
      fi
      [ ${#err1[@]} -gt 0 ] || continue
      compare "$f" "$base" "$args --diagnostics json" json &&
        compare "$f" "$base" "$args --diagnostics sarif" sarif
    done
  done < <(find "$dir" -name '*.ptx' | sort)
done
echo "jobs: $same runs same ($one on one thread, $out left out), $differ differ"
[ "$differ" = 0 ]
