#!/usr/bin/env bash
# ptxi explain: exact output of a concept (with its live sample), of a run-time rule and of a
# static check (its samples checked live) (tests/explain/*.txt), the topic list, an unknown
# topic's message and status; the generated docs not stale (docs/explain.md, the catalogue in
# docs/static-checks.md, docs/rules.md: tests/update_docs.sh rewrites them all); and every explain
# sample's first `// run:` line equal to the command explain prints.
set -u
ptxi=${1:?usage: explain.sh PTXI SOURCE_ROOT}; root=${2:?usage: explain.sh PTXI SOURCE_ROOT}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

for t in parity mbarrier-over-arrival operand-kind deadlock bar.sync mma.sync swizzle data-race; do
  "$ptxi" explain "$t" > "$tmp/out" 2>&1 || bad "explain $t: exit $?"
  diff -u "$root/tests/explain/$t.txt" "$tmp/out" ||
    bad "explain $t: output differs (if the change is meant: tests/update_docs.sh build/ptxi)"
done
"$ptxi" explain > "$tmp/out" 2>&1 || bad "explain (list): exit $?"
for want in 'Concepts:' 'Instructions:' 'Run-time rules:' 'Static checks:' \
            '  phase  parity  tx-count' 'mbarrier.arrive_drop' 'mbarrier-over-arrival' \
            '  module-header  ptx-version  sm-target'; do
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
  bad "docs/explain.md is stale: run 'tests/update_docs.sh build/ptxi' ($(head -c 300 "$tmp/diff"))"
"$ptxi" explain --static-markdown > "$tmp/smd" || bad "explain --static-markdown: exit $?"
sed -n '/^<!-- BEGIN ptxi explain --static-markdown -->$/,/^<!-- END ptxi explain --static-markdown -->$/p' \
  "$root/docs/static-checks.md" | diff -u - "$tmp/smd" > "$tmp/diff" ||
  bad "docs/static-checks.md's catalogue is stale: run 'tests/update_docs.sh build/ptxi' ($(head -c 300 "$tmp/diff"))"
python3 "$root/tests/rules/gen_rules_md.py" > "$tmp/rules.md" 2> "$tmp/rules.err" ||
  bad "gen_rules_md.py: $(cat "$tmp/rules.err")"
diff -u "$root/docs/rules.md" "$tmp/rules.md" > "$tmp/diff" ||
  bad "docs/rules.md is stale: run 'tests/update_docs.sh build/ptxi' ($(head -c 300 "$tmp/diff"))"

# Each sample explain uses: its first run line is the command docs/explain.md shows.
sed -n 's|^    \$ ptxi run ptx_samples/explain/||p' "$tmp/md" | sort -u | while read -r file args; do
  run=$(sed -n 's|^// run: *||p' "$root/ptx_samples/explain/$file" | head -1)
  [ "$run" = "$args" ] || { echo "FAIL: $file: first run line '$run', explain runs '$args'"; exit 1; }
done || fail=1

[ $fail = 0 ] && echo "explain: all checks passed"
exit $fail
