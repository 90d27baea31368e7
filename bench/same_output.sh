#!/usr/bin/env bash
# Two ptxi builds on every "// run:" line of every program under ptx_samples/, tests/regress/
# and tests/rules/ (the run lines tests/run_samples.sh uses), each with EXTRA appended: their
# stdout, stderr and exit status must be the same (the time --stats prints aside). For a
# change meant to make ptxi faster and nothing else.
#   usage: bench/same_output.sh PTXI-OLD PTXI-NEW [EXTRA...]   (e.g. "--seed 5" "--stats")
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
old=$(abs "${1:?usage: same_output.sh PTXI-OLD PTXI-NEW [EXTRA...]}")
new=$(abs "${2:?usage: same_output.sh PTXI-OLD PTXI-NEW [EXTRA...]}")
shift 2
[ $# -eq 0 ] && set -- ""
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0; differ=0
for extra in "$@"; do
  while IFS= read -r f; do
    while IFS= read -r args; do
      [ -z "$args" ] && continue
      for side in old new; do
        bin=$old; [ $side = new ] && bin=$new
        (cd "$(dirname "$f")" &&
         eval "timeout 60 \"$bin\" run \"$(basename "$f")\" $args $extra" < /dev/null \
           > "$tmp/$side" 2>&1; echo "exit $?" >> "$tmp/$side")
        sed -i -E 's/[0-9.]+ s \([0-9.]+ M thread/T s (R M thread/' "$tmp/$side"
      done
      n=$((n + 1))
      if ! cmp -s "$tmp/old" "$tmp/new"; then
        differ=$((differ + 1))
        echo "differs: ${f#$root/} [$args $extra]"
        diff "$tmp/old" "$tmp/new" | head -6
      fi
    done < <(sed -n 's|^// run: *||p' "$f")
  done < <(cd "$root" && find "$root/ptx_samples" "$root/tests/regress" "$root/tests/rules" \
             -name '*.ptx' | sort)
done
echo "same_output: $n runs, $differ differ"
[ "$differ" = 0 ]
