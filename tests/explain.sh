#!/usr/bin/env bash
# ptxi explain: exact output of a concept (with its live sample) and of a rule
# (tests/explain/*.txt), the topic list, an unknown topic's message and status, docs/explain.md not
# stale, and every explain sample's first `// run:` line equal to the command explain prints.
set -u
ptxi=${1:?usage: explain.sh PTXI SOURCE_ROOT}; root=${2:?usage: explain.sh PTXI SOURCE_ROOT}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

for t in parity mbarrier-over-arrival; do
  "$ptxi" explain "$t" > "$tmp/out" 2>&1 || bad "explain $t: exit $?"
  diff -u "$root/tests/explain/$t.txt" "$tmp/out" ||
    bad "explain $t: output differs (if the change is meant: build/ptxi explain $t > tests/explain/$t.txt)"
done
"$ptxi" explain > "$tmp/out" 2>&1 || bad "explain (list): exit $?"
for want in 'Concepts:' 'Instructions:' 'Run-time rules:' '  phase  parity  tx-count' \
            'mbarrier.arrive_drop' 'mbarrier-over-arrival'; do
  grep -qF -- "$want" "$tmp/out" || bad "explain (list): no '$want'"
done

"$ptxi" explain arrive > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc = 2 ] || bad "unknown topic: exit $rc, expected 2"
[ ! -s "$tmp/out" ] || bad "unknown topic: wrote to stdout"
want="ptxi: error: no topic 'arrive' (did you mean: mbarrier.arrive, mbarrier.arrive_drop, cp.async.mbarrier.arrive, mbarrier-arrive-count-zero, barrier-cluster-double-arrive?); 'ptxi explain' lists them"
[ "$(cat "$tmp/err")" = "$want" ] || bad "unknown topic: message: $(cat "$tmp/err")"
"$ptxi" explain a b > /dev/null 2>&1; rc=$?
[ $rc = 2 ] || bad "two topics: exit $rc, expected 2"

"$ptxi" explain --markdown > "$tmp/md" || bad "explain --markdown: exit $?"
diff -u "$root/docs/explain.md" "$tmp/md" > "$tmp/diff" ||
  bad "docs/explain.md is stale: run 'build/ptxi explain --markdown > docs/explain.md' ($(head -c 300 "$tmp/diff"))"

# Each sample explain uses: its first run line is the command docs/explain.md shows.
sed -n 's|^    \$ ptxi run ptx_samples/explain/||p' "$tmp/md" | sort -u | while read -r file args; do
  run=$(sed -n 's|^// run: *||p' "$root/ptx_samples/explain/$file" | head -1)
  [ "$run" = "$args" ] || { echo "FAIL: $file: first run line '$run', explain runs '$args'"; exit 1; }
done || fail=1

[ $fail = 0 ] && echo "explain: all checks passed"
exit $fail
