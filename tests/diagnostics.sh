#!/usr/bin/env bash
# --diagnostics=json|sarif: exact JSON objects for front-end errors and a static check's
# error and warning (each names its check), a run-time rule and a deadlock; a SARIF log that Microsoft's SARIF multitool validates (make deps installs it
# under .tools/; without it that part is skipped, status 77); bad values are exit 2.
set -u
ptxi=${1:?usage: diagnostics.sh PTXI SOURCE_ROOT}; root=${2:?}
ptxi=$(cd "$(dirname "$ptxi")" && pwd)/$(basename "$ptxi")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
expect() {  # expect STATUS WANT-FILE COMMAND...: exit status and stderr exactly
  local want=$1 file=$2; shift 2
  "$@" > "$tmp/out" 2> "$tmp/err"; local rc=$?
  [ $rc = "$want" ] || bad "$*: exit $rc, expected $want"
  diff -u "$file" "$tmp/err" || bad "$*: diagnostics differ"
}

cat > "$tmp/bad.ptx" <<'PTX'
.version 8.0
.target sm_90
.address_size 64
.visible .entry k()
{
  mbarrier.arrive.b32 %r1, [x];
  ret;
}
PTX
cd "$tmp" || exit 2
cat > want <<'OUT'
{"severity":"error","rule":"undeclared-identifier","message":"undeclared identifier '%r1'","ptx":{"file":"bad.ptx","line":6,"column":23,"length":3},"source":null,"threads":null,"notes":[]}
{"severity":"error","rule":"undeclared-identifier","message":"undeclared identifier 'x'","ptx":{"file":"bad.ptx","line":6,"column":29,"length":1},"source":null,"threads":null,"notes":[]}
OUT
expect 2 want "$ptxi" check --diagnostics=json bad.ptx

# static checks name themselves (src/front/checks.def), errors and warnings alike
cd "$root/ptx_samples/checks" || exit 2
cat > "$tmp/want" <<'OUT'
{"severity":"error","rule":"operand-kind","message":"operand 1 of mbarrier.init must be an address in brackets","ptx":{"file":"operand-kind.ptx","line":17,"column":33,"length":4},"source":null,"threads":null,"notes":[]}
{"severity":"warning","rule":"manual-form","message":"st.async.b32 without an mbarrier operand is not a form of the manual (ptxas accepts it; ptxi cannot run it)","ptx":{"file":"manual-form.ptx","line":15,"column":3,"length":24},"source":null,"threads":null,"notes":[]}
OUT
expect 2 "$tmp/want" "$ptxi" check --diagnostics=json operand-kind.ptx manual-form.ptx

cd "$root/ptx_samples/explain" || exit 2
cat > "$tmp/want" <<'OUT'
{"severity":"error","rule":"async-proxy-fence","message":"cp.async.bulk reads shared 0x0+128, written by ordinary stores with no fence.proxy.async since","ptx":{"file":"async_proxy_missing.ptx","line":26,"column":3,"length":64},"source":null,"threads":"CTA (0,0,0) thread 0 (0,0,0)","notes":["CTA (0,0,0) thread 0 (0,0,0)","rule (PTX ISA 9.7.9.25.2): memory written by ordinary (generic-proxy) stores, shared or global, must be ordered before an asynchronous bulk copy reads it (a bulk reduction reads its destination too), with fence.proxy.async","the hardware carries on; --keep-going would too: without the fence the copy may read stale bytes; ptxi copies the bytes as they are"]}
OUT
expect 1 "$tmp/want" "$ptxi" run async_proxy_missing.ptx --block 32 --arg buf:128 --diagnostics json

cd "$root/ptx_samples/deadlock" || exit 2
"$ptxi" run cross_wait.ptx --block 64 --arg buf:4 --diagnostics=json > /dev/null 2> "$tmp/err"
rc=$?; [ $rc = 3 ] || bad "deadlock: exit $rc, expected 3"
python3 - "$tmp/err" <<'PY' || bad "deadlock: JSON objects are not as expected"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
rules = [o["rule"] for o in objs]
assert rules == ["deadlock", "deadlock", "deadlock"], rules
assert objs[0]["ptx"]["line"] == 26 and objs[0]["threads"] == "CTA (0,0,0) threads 0-31", objs[0]
assert objs[2]["ptx"] is None and objs[2]["message"].startswith("deadlock: the launch can never finish"), objs[2]
PY

# a -lineinfo module: the CUDA position is the location, the PTX one is kept beside it
cd "$root/ptx_samples/lineinfo" || exit 2
"$ptxi" run ws_pipeline.ptx --block 64 --arg buf:256 --diagnostics=json > /dev/null 2> "$tmp/err"
rc=$?; [ $rc = 3 ] || bad "lineinfo: exit $rc, expected 3"
python3 - "$tmp/err" <<'PY' || bad "lineinfo: JSON objects are not as expected"
import json, sys
o = [json.loads(l) for l in open(sys.argv[1])][0]
assert o["source"] == {"file": "ws_pipeline.cu", "line": 20, "column": 22}, o
assert o["ptx"]["file"] == "ws_pipeline.ptx" and o["ptx"]["line"] == 106, o
assert o["notes"][:2] == ["in function 'wait(unsigned long*, int)'",
                          "inlined from ws_pipeline.cu:42:7 in 'ws_pipeline(int*)'"], o
assert o["threads"] == "CTA (0,0,0) threads 32-63", o
PY
"$ptxi" run ws_pipeline.ptx --block 64 --arg buf:256 --diagnostics=sarif > /dev/null 2> "$tmp/src.sarif"
python3 - "$tmp/src.sarif" <<'PY' || bad "lineinfo: SARIF locations"
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]["results"][0]
loc = r["locations"][0]["physicalLocation"]
assert loc["artifactLocation"]["uri"] == "ws_pipeline.cu" and loc["region"]["startLine"] == 20, r
rel = r["relatedLocations"][0]["physicalLocation"]
assert rel["artifactLocation"]["uri"] == "ws_pipeline.ptx" and rel["region"]["startLine"] == 106, r
# the log's rules are those its results name, each with its help (90 KB for all of them)
run = json.load(open(sys.argv[1]))["runs"][0]
rules = run["tool"]["driver"]["rules"]
assert [x["id"] for x in rules] == ["deadlock"], rules
assert all(rules[x["ruleIndex"]]["id"] == x["ruleId"] for x in run["results"]), run["results"]
assert rules[0]["help"]["text"].startswith("Threads wait on a barrier"), rules[0]
PY

"$ptxi" check --diagnostics=xml "$tmp/bad.ptx" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc = 2 ] || bad "bad value: exit $rc"
grep -q "^ptxi: error: bad --diagnostics 'xml' (text, json or sarif)" "$tmp/err" || bad "bad value: $(cat "$tmp/err")"

# SARIF: one log for three files, valid, every result naming a rule of the log; static checks
# are rules with the help of `ptxi explain CHECK` (less its live run)
cd "$tmp" && cp "$root/ptx_samples/explain/phases.ptx" ok.ptx
cp "$root/ptx_samples/checks/operand-kind.ptx" static.ptx
"$ptxi" check --diagnostics=sarif bad.ptx ok.ptx static.ptx > /dev/null 2> log.sarif; rc=$?
[ $rc = 2 ] || bad "sarif check: exit $rc, expected 2"
"$ptxi" explain operand-kind | sed '/^Example/,$d' > want-help
python3 - log.sarif want-help <<'PY' || bad "sarif: structure"
import json, sys
d = json.load(open(sys.argv[1]))
run = d["runs"][0]
rules = run["tool"]["driver"]["rules"]
assert d["version"] == "2.1.0" and len(run["results"]) == 3, run["results"]
for r in run["results"]:
    assert rules[r["ruleIndex"]]["id"] == r["ruleId"], r
assert [r["ruleId"] for r in run["results"]] == ["undeclared-identifier"] * 2 + ["operand-kind"]
ids = [r["id"] for r in rules]
assert len(ids) == len(set(ids)), ids
assert ids == ["undeclared-identifier", "operand-kind"] or ids == ["operand-kind", "undeclared-identifier"], ids  # only the rules used
help = rules[ids.index("operand-kind")]["help"]["text"]
want = open(sys.argv[2]).read()
assert help.startswith(want) and "$ ptxi check ptx_samples/checks/ok/operand-kind.ptx" in help, help
PY
tool=$root/.tools/node_modules/.bin/sarif-multitool
command -v sarif-multitool > /dev/null && tool=$(command -v sarif-multitool)
if [ ! -x "$tool" ]; then
  echo "diagnostics: SARIF multitool not installed (make deps); validation skipped"
  [ $fail = 0 ] && exit 77 || exit 1
fi
"$ptxi" run "$root/ptx_samples/explain/async_proxy_missing.ptx" --block 32 --arg buf:128 \
  --diagnostics=sarif > /dev/null 2> run.sarif
for f in log.sarif run.sarif src.sarif; do
  timeout 300 "$tool" validate "$f" > "$f.out" 2>&1 || bad "$f: multitool exit $?: $(tail -3 "$f.out")"
  if grep -E ': error [A-Z0-9]+:' "$f.out"; then bad "$f: not valid SARIF"; fi
  grep -q "Analysis completed successfully" "$f.out" || bad "$f: $(tail -3 "$f.out")"
done
[ $fail = 0 ] && echo "diagnostics: all checks passed"
exit $fail
