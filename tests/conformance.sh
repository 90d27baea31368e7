#!/usr/bin/env bash
# Runs one set of H100 conformance cases from ../shared/conformance over the names listed in
# a pass list in tests/ (the ratchet: the cases that must pass today; a list only grows).
#   conformance.sh PTXI [SET]     SET: core (run.sh, conformance-pass.txt; the default),
#                                 tensor (tensor/run.py), triton (triton/run.py),
#                                 races (races/run.sh), static-hopper
#                                 (static-hopper/run.py over the forms the list names:
#                                 version, target, instruction, tab-separated);
#                                 list: conformance-SET-pass.txt
# Skips (exit 77) when ../shared/conformance is not there, so the project's tests stand alone.
set -u
ptxi=${1:?usage: conformance.sh PATH/TO/ptxi [core|tensor|triton|races]}
set_=${2:-core}
ptxi=$(cd "$(dirname "$ptxi")" && pwd)/$(basename "$ptxi")
here=$(cd "$(dirname "$0")" && pwd)
root=${PTXI_CONFORMANCE:-$here/../../shared/conformance}
case $set_ in
  core)   runner=$root/run.sh;         cases=$root/cases;  list=$here/conformance-pass.txt ;;
  tensor) runner=$root/tensor/run.py;  cases=$root/tensor; list=$here/conformance-tensor-pass.txt ;;
  triton) runner=$root/triton/run.py;  cases=$root/triton; list=$here/conformance-triton-pass.txt ;;
  races)  runner=$root/races/run.sh;   cases=$root/races/cases; list=$here/conformance-races-pass.txt ;;
  static-hopper) runner=$root/static-hopper/run.py; cases=$root/static-hopper/forms.jsonl
          list=$here/conformance-static-hopper-pass.txt ;;
  *) echo "conformance: unknown set '$set_'"; exit 2 ;;
esac
if [ ! -x "$runner" ]; then
  echo "conformance: $runner not found; skipped"
  exit 77
fi
if [ "$set_" = static-hopper ]; then
  # run.py takes a file of forms: the ones the list names
  forms=$(mktemp) || exit 2
  trap 'rm -f "$forms"' EXIT
  python3 - "$cases" "$list" "$forms" <<'PY' || exit 2
import json, sys
want = {tuple(l.rstrip("\n").split("\t")) for l in open(sys.argv[2]) if not l.startswith("#")}
with open(sys.argv[3], "w") as out:
    for line in open(sys.argv[1]):
        f = json.loads(line)
        if (f["version"], f["target"], f["instr"]) in want:
            out.write(line)
PY
  "$runner" "$ptxi" "$forms"
  exit
fi
names=$(grep -v '^#' "$list" | tr '\n' ' ')
if [ -z "${names// /}" ]; then
  echo "conformance $set_: no case in $(basename "$list") yet"
  exit 0
fi
"$runner" "$ptxi" "$cases" $names
