#!/usr/bin/env bash
# --timeline in a real browser: headless Chromium loads the page of two samples (a
# producer/consumer pipeline, and a deadlock); the page must raise no console error, and its
# DOM must hold one row per warp, a mark per barrier operation, a phase line per phase
# completion of the page's own data, and (for the deadlock) the deadlock banner and the
# blocked threads' bars; a loop run to its step limit opens on its events with the idle
# stretch cut, and #view=A-B opens a view. A screenshot of the first is kept beside the test
# log (build dir).
# Skips (77) where Chromium is not installed (make deps installs it).
set -u
ptxi=${1:?usage: timeline.sh PTXI SOURCE_ROOT [ARTEFACT_DIR]}; root=${2:?}; art=${3:-.}
ptxi=$(cd "$(dirname "$ptxi")" && pwd)/$(basename "$ptxi"); art=$(cd "$art" && pwd)
chromium=$(command -v chromium || command -v chromium-browser) || {
  echo "timeline: chromium not installed; skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

browse() {  # browse PAGE NAME [shot]: the DOM after the script ran, console messages, a screenshot
  local flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
    --disable-background-networking --disable-component-update --disable-sync
    --user-data-dir="$tmp/profile-$2" --enable-logging=stderr --v=0 --window-size=1400,700)
  timeout 120 "$chromium" "${flags[@]}" --dump-dom "file://$1" > "$tmp/$2.dom" 2> "$tmp/$2.log"
  [ "${3:-}" = shot ] && { timeout 120 "$chromium" "${flags[@]}" --screenshot="$art/timeline-$2.png" \
    "file://$1" > /dev/null 2>> "$tmp/$2.log"; [ -s "$art/timeline-$2.png" ] || bad "$2: no screenshot"; }
  if grep -E 'CONSOLE|Uncaught' "$tmp/$2.log" | grep -qiE 'error|uncaught'; then
    bad "$2: console errors: $(grep -iE 'uncaught|error' "$tmp/$2.log" | grep -E 'CONSOLE|Uncaught' | head -3)"
  fi
}
count() { grep -o "$1" "$2" | wc -l; }
# the page's own data: how many phase completions, marks and rows it holds
data() { python3 -c '
import json, re, sys
d = json.loads(re.search(r"id=\"data\">(.*?)</script>", open(sys.argv[1]).read(), re.S).group(1))
k = d["kinds"]
print(len(d["rows"]), len(d["phases"]), sum(1 for e in d["events"] if not e[6] or k[e[0]] == "copy"),
      sum(1 for e in d["events"] if k[e[0]] == "blocked"))' "$1"; }

# 1. producer/consumer: 2 warps, 4 barriers, phases completing
cd "$root/ptx_samples/mbarrier" || exit 2
"$ptxi" run producer_consumer.ptx --block 64 --arg buf:64 --timeline "$tmp/pc.html" > /dev/null ||
  bad "producer_consumer: exit $?"
read -r rows phases marks blocked <<< "$(data "$tmp/pc.html")"
[ "$rows" = 2 ] || bad "producer_consumer: $rows rows in the data, expected 2 warps"
[ "$phases" -ge 4 ] || bad "producer_consumer: only $phases phase completions in the data"
browse "$tmp/pc.html" producer_consumer shot
dom=$tmp/producer_consumer.dom
[ "$(count 'class="warp-row"' "$dom")" = 2 ] || bad "producer_consumer: warp rows: $(count 'class="warp-row"' "$dom")"
[ "$(count 'class="phase-line"' "$dom")" = "$phases" ] || bad "producer_consumer: phase lines $(count 'class="phase-line"' "$dom") != $phases"
[ "$(count 'class="ev ev-' "$dom")" = "$marks" ] || bad "producer_consumer: marks $(count 'class="ev ev-' "$dom") != $marks"
[ "$(count 'class="ev ev-arrive"' "$dom")" -ge 4 ] || bad "producer_consumer: fewer than 4 arrive marks"
[ "$(count 'class="ev ev-init"' "$dom")" = 4 ] || bad "producer_consumer: init marks: $(count 'class="ev ev-init"' "$dom"), expected 4"
[ "$(count 'class="barrier-row"' "$dom")" = 4 ] || bad "producer_consumer: barrier rows: $(count 'class="barrier-row"' "$dom")"
grep -q 'id="deadlock"' "$dom" && bad "producer_consumer: a deadlock banner"
[ "$(count 'class="cut"' "$dom")" = 0 ] || bad "producer_consumer: a short launch has cuts"

# 2. a deadlock: the banner and a bar per blocked place, status 3
cd "$root/ptx_samples/deadlock" || exit 2
"$ptxi" run cross_wait.ptx --block 64 --arg buf:4 --timeline "$tmp/dl.html" > /dev/null 2>&1
rc=$?; [ $rc = 3 ] || bad "cross_wait: exit $rc, expected 3"
read -r rows phases marks blocked <<< "$(data "$tmp/dl.html")"
[ "$blocked" = 2 ] || bad "cross_wait: $blocked blocked places in the data, expected 2"
browse "$tmp/dl.html" deadlock
dom=$tmp/deadlock.dom
grep -q 'id="deadlock"' "$dom" || bad "cross_wait: no deadlock banner"
[ "$(count 'span ev-blocked' "$dom")" = 2 ] || bad "cross_wait: blocked bars: $(count 'span ev-blocked' "$dom")"

# 3. a page that cannot be written is exit 2 with a message
"$ptxi" run cross_wait.ptx --block 64 --arg buf:4 --timeline /nonexistent/dir/t.html > /dev/null 2> "$tmp/err"
rc=$?; [ $rc = 2 ] || bad "unwritable --timeline: exit $rc, expected 2"
grep -q "cannot write --timeline '/nonexistent/dir/t.html'" "$tmp/err" || bad "unwritable --timeline: message: $(cat "$tmp/err")"

# 4. a loop that runs to its step limit (tests/cli/spin_counted.ptx: warp 0 spins counting,
# warp 1 polls an mbarrier): the page opens on the events, the stretch where only the loops
# ran cut. The first event (the init, step 5) sits at the plot's left edge and the last (the
# wait that runs into the limit) ends at its right edge; one cut, from the first poll to the
# last, says how many steps it leaves out. #view=0-2063 opens on those steps.
cd "$root/tests/cli" || exit 2
"$ptxi" run spin_counted.ptx --block 64 --arg buf:4 --no-race --max-steps 1000000 \
  --timeline "$tmp/spin.html" > /dev/null 2>&1
rc=$?; [ $rc = 3 ] || bad "spin_counted: exit $rc, expected 3"
browse "$tmp/spin.html" spin
browse "$tmp/spin.html#view=0-2063" spin-view
python3 - "$tmp/spin.html" "$tmp/spin.dom" "$tmp/spin-view.dom" <<'PY' || fail=1
import json, re, sys
page, dom, view = (open(f).read() for f in sys.argv[1:])
d = json.loads(re.search(r'id="data">(.*?)</script>', page, re.S).group(1))
kinds = d["kinds"]
poll = [e for e in d["events"] if kinds[e[0]] == "wait-false"][0]
LEFT, WIDTH = 280, 1010
bad = []
num = float
marks = [num(m) for m in re.findall(r'<circle [^>]*cx="([-0-9.e]+)"[^>]*class="ev ', dom)]
spans = [(num(a), num(b)) for a, b in re.findall(r'<rect class="span [^"]*" x="([-0-9.e]+)" y="[^"]*" width="([-0-9.e]+)"', dom)]
first = min(marks + [a for a, _ in spans])
last = max(marks + [a + w for a, w in spans])
if not LEFT <= first < LEFT + 0.01 * WIDTH:
    bad.append(f"the first event is at x {first:.1f}, not at the left edge {LEFT}")
if abs(last - (LEFT + WIDTH)) > 0.01:
    bad.append(f"the last event ends at x {last:.2f}, not at the right edge {LEFT + WIDTH}")
if last - first < 0.99 * WIDTH:
    bad.append(f"the events span {last - first:.1f} of {WIDTH} pixels")
cuts = re.findall(r'<g class="cut" data-from="(\d+)" data-to="(\d+)" data-steps="(\d+)"', dom)
if cuts != [(str(poll[2]), str(poll[3]), str(poll[3] - poll[2]))]:
    bad.append(f"cuts {cuts}, expected one over the polls, steps {poll[2]}-{poll[3]}")
label = "\u22ef " + f"{poll[3] - poll[2]:,}" + " steps cut \u22ef"
if dom.count('class="cut-label">' + label + "<") != 1:
    bad.append(f"no cut label '{label}'")
if 'id="view">whole launch<' not in dom:
    bad.append("the view is not the whole launch")
# #view=0-2063: the init (step 5) at 5/2063 of the width, the view named
init = [num(m) for m in re.findall(r'<circle [^>]*cx="([-0-9.e]+)"[^>]*class="ev ev-init"', view)]
want = LEFT + 5 / 2063 * WIDTH
if len(init) != 1 or abs(init[0] - want) > 0.01:
    bad.append(f"#view=0-2063: the init mark at {init}, expected x {want:.3f}")
if 'id="view">steps 0 to 2063<' not in view:
    bad.append("#view=0-2063: the view is not named")
for b in bad:
    print("FAIL: spin_counted timeline: " + b)
sys.exit(1 if bad else 0)
PY

[ $fail = 0 ] && echo "timeline: all checks passed (screenshot in $art)"
exit $fail
