#!/usr/bin/env bash
# Rule severities: --rule NAME=error|warning|off and --rules FILE in `run` and `check`. A
# warning is reported as one and leaves the exit status alone (the launch carries on, as the
# hardware does); off is not reported; rules where the hardware faults and checks of what
# ptxas rejects stay errors; JSON severities and SARIF levels follow. Each case compares
# stdout, stderr and the exit status exactly with tests/severity/want/CASE.{out,err,rc}.
set -u
ptxi=${1:?usage: severity.sh PTXI SOURCE_ROOT}; root=${2:?}
ptxi=$(cd "$(dirname "$ptxi")" && pwd)/$(basename "$ptxi")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$root/tests/severity" || exit 2
fail=0
# case NAME ARGS...: `ptxi ARGS` against want/NAME.*; with UPDATE=1 writes them instead
case_() {
  local name=$1; shift
  "$ptxi" "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null; echo $? > "$tmp/rc"
  case $name in *sarif*) # the results' rules and levels (the rule list grows with ptxi)
    grep -o '"ruleId":"[^"]*","ruleIndex":[0-9]*,"level":"[a-z]*"' "$tmp/err" |
      sed 's/"ruleIndex":[0-9]*,//' > "$tmp/e2"; mv "$tmp/e2" "$tmp/err";; esac
  if [ "${UPDATE:-}" = 1 ]; then
    for k in out err rc; do cp "$tmp/$k" "want/$name.$k"; done; return
  fi
  for k in rc out err; do
    if ! diff -u "want/$name.$k" "$tmp/$k" > "$tmp/d"; then
      echo "FAIL $name: $k differs"; head -20 "$tmp/d"; fail=1; break
    fi
  done
}
R="run init_twice.ptx --arg buf:4 --dump 0"
case_ run-default $R
case_ run-error $R --rule mbarrier-init-live=error
case_ run-warning $R --rule mbarrier-init-live=warning
case_ run-warning-keep-going $R --rule mbarrier-init-live=warning --keep-going
case_ run-off $R --rule=mbarrier-init-live=off
case_ run-rules-file $R --rules rules.txt
case_ run-last-wins $R --rule mbarrier-init-live=off --rule mbarrier-init-live=error
case_ run-json $R --rule mbarrier-init-live=warning --diagnostics json
case_ run-sarif-level $R --rule mbarrier-init-live=warning --diagnostics sarif
case_ run-fault-stays $R --rule mbarrier-over-arrival=warning
case_ run-unknown $R --rule mbarrier-init-lives=off
case_ run-bad-level $R --rule mbarrier-init-live=quiet
case_ run-no-name $R --rule =off
case_ run-bad-file $R --rules bad_rules.txt
case_ run-no-file $R --rules missing.txt
case_ check-default check empty_copy.ptx
case_ check-error check empty_copy.ptx --rule bulk-copy-empty=error
case_ check-rules-file check empty_copy.ptx --rules rules.txt
case_ check-off check empty_copy.ptx --rule bulk-copy-empty=off
case_ check-sarif check empty_copy.ptx --rule bulk-copy-empty=error --diagnostics sarif
case_ check-ptxas-stays check empty_copy.ptx --rule operand-count=warning
case_ check-run-rule check empty_copy.ptx --rule data-race=warning
[ "$fail" = 0 ] && echo "severity: all cases pass"
exit $fail
