#!/usr/bin/env bash
# Regenerates every generated document from the tables (make docs):
#   docs/explain.md                 ptxi explain --markdown        (topics.def, rules.def)
#   docs/static-checks.md (a block) ptxi explain --static-markdown (checks.def)
#   docs/rules.md                   tests/rules/gen_rules_md.py    (rules.def, tests/rules/)
#   tests/explain/TOPIC.txt         ptxi explain TOPIC             (what tests/explain.sh compares)
# tests/explain.sh fails when any of them is stale.
set -eu
ptxi=${1:?usage: update_docs.sh PTXI}
root=$(cd "$(dirname "$0")/.." && pwd)
"$ptxi" explain --markdown > "$root/docs/explain.md"
"$ptxi" explain --static-markdown > "$root/docs/static-checks.block"
python3 - "$root/docs/static-checks.md" "$root/docs/static-checks.block" <<'PY'
import sys
doc, block = sys.argv[1], open(sys.argv[2]).read()
text = open(doc).read()
begin, end = block.split('\n', 1)[0], block.rstrip('\n').rsplit('\n', 1)[-1]
a, b = text.index(begin), text.index(end) + len(end) + 1
open(doc, 'w').write(text[:a] + block + text[b:])
PY
rm "$root/docs/static-checks.block"
python3 "$root/tests/rules/gen_rules_md.py" > "$root/docs/rules.md"
for f in "$root"/tests/explain/*.txt; do
  t=$(basename "$f" .txt)
  (cd "$root" && "$ptxi" explain "$t") > "$f"
done
