#!/usr/bin/env bash
# --timeline in a real browser: headless Chromium loads the page of two samples (a
# producer/consumer pipeline, and a deadlock); the page must raise no console error, and its
# DOM must hold one row per warp, a mark per barrier operation, a phase line per phase
# completion of the page's own data, and (for the deadlock) the deadlock banner and the
# blocked threads' bars. A screenshot of the first is kept beside the test log (build dir).
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

[ $fail = 0 ] && echo "timeline: all checks passed (screenshot in $art)"
exit $fail
