#!/usr/bin/env bash
# Static checks as data (src/front/checks.def): every check has a unique name, no run-time rule
# (rules.def) has it, the checker or the front end reports it, ptx_samples/checks/NAME.ptx
# breaks it (each diagnostic of `ptxi check` names it, and only it) and
# ptx_samples/checks/ok/NAME.ptx keeps it (exit 0, no message at all), and
# `ptxi explain NAME` checks both live. (The samples'
# exact messages and statuses are the samples suite's: run_samples.sh.)
set -u
ptxi=${1:?usage: checks.sh PTXI SOURCE_ROOT}; root=${2:?usage: checks.sh PTXI SOURCE_ROOT}
ptxi=$(cd "$(dirname "$ptxi")" && pwd)/$(basename "$ptxi")
root=$(cd "$root" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

sed -n 's/^CHECK(\([A-Z0-9_]*\), "\([a-z0-9-]*\)".*/\1 \2/p' "$root/src/front/checks.def" > "$tmp/rows"
[ -s "$tmp/rows" ] || bad "no CHECK rows in src/front/checks.def"
cut -d' ' -f2 "$tmp/rows" | sort | uniq -d | while read -r n; do echo "FAIL: '$n' twice"; done |
  grep -q . && fail=1
sed -n 's/^RULE([A-Z0-9_]*, "\([a-z0-9-]*\)".*/\1/p' "$root/src/report/rules.def" | sort > "$tmp/rules"
cut -d' ' -f2 "$tmp/rows" | sort | comm -12 - "$tmp/rules" | while read -r n; do
  echo "FAIL: '$n' is both a static check and a run-time rule"; done | grep . && fail=1

cd "$root/ptx_samples/checks" || exit 2
# has LINE-PATTERN FILE: a line of FILE matches the bash pattern (grep without a process: a
# process costs more than a check's runs on a loaded machine)
has() {
  local l lines
  mapfile -t lines < "$2"
  for l in "${lines[@]}"; do [[ $l == $1 ]] && return 0; done
  return 1
}
names=()
while read -r id name; do
  names+=("$name")
  grep -q "CHECK_$id\b" "$root"/src/check/check*.c "$root"/src/front/ir*.c "$root"/grammar/ptx.re ||
    bad "$name: no code reports CHECK_$id (src/check/check*.c, src/front/ir*.c, grammar/)"
  [ -f "$name.ptx" ] && [ -f "ok/$name.ptx" ] || { bad "$name: no $name.ptx and ok/$name.ptx"; continue; }
  "$ptxi" check "$name.ptx" > /dev/null 2> "$tmp/err"
  # its diagnostics (lines '^[^ ].*: (error|warning|note): '): one at least, each naming it
  mapfile -t err < "$tmp/err"
  diags=0 other=""
  for l in "${err[@]}"; do
    [[ $l =~ ^[^\ ].*:\ (error|warning|note):\  ]] || continue
    diags=$((diags + 1))
    [ -z "$other" ] && [[ $l != *" [$name]" ]] && other=$l
  done
  [ $diags -gt 0 ] || bad "$name.ptx: no diagnostic"
  if [ -n "$other" ]; then read -r other <<< "$other"; echo "FAIL: $name.ptx: $other"; fail=1; fi
  "$ptxi" check "ok/$name.ptx" > /dev/null 2> "$tmp/err"; rc=$?
  [ $rc = 0 ] && [ ! -s "$tmp/err" ] || bad "ok/$name.ptx: exit $rc, $(head -c 300 "$tmp/err")"
  "$ptxi" explain "$name" > "$tmp/explain" 2>&1 || bad "explain $name: exit $?"
  has "*not built into*" "$tmp/explain" && bad "explain $name: samples not embedded (meson.build static_checks)"
  has "  \$ ptxi check ptx_samples/checks/$name.ptx" "$tmp/explain" || bad "explain $name: no example"
done < "$tmp/rows"
for f in *.ptx ok/*.ptx; do
  n=${f##*/}; n=${n%.ptx}
  [[ " ${names[*]} " == *" $n "* ]] || bad "$f: no check '$n' in src/front/checks.def"
done

[ $fail = 0 ] && echo "checks: $(wc -l < "$tmp/rows") static checks, all consistent"
exit $fail
