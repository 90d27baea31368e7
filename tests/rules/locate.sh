#!/usr/bin/env bash
# Fills in the L:C of every "// expect error: L:C TEXT" line of the given samples: the k-th
# expect-error line gets the line and first column of the k-th line marked "// <--".
# A line with two markers ("// <-- ..., <-- ...") counts twice. Idempotent; run it after
# moving code around:  bash tests/rules/locate.sh tests/rules/*/*.ptx
set -eu
for f in "$@"; do
  mapfile -t locs < <(awk '/\/\/ <--/ { match($0, /[^ ]/); n = gsub(/<--/, "&"); for (i = 0; i < n; i++) print NR ":" RSTART }' "$f")
  awk -v locs="${locs[*]:-}" '
    BEGIN { n = split(locs, L, " ") }
    /^\/\/ expect error: / {
      k++
      if (k > n) { print FILENAME ": more expect-error lines than // <-- markers" > "/dev/stderr"; exit 1 }
      sub(/^\/\/ expect error: [^ ]+/, "// expect error: " L[k])
    }
    { print }' "$f" > "$f.tmp" && mv "$f.tmp" "$f"
done
