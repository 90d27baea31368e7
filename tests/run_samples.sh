#!/usr/bin/env bash
# Runs every PTX program under a directory tree and checks what its comments promise:
#   // run: ARGS...            arguments after "ptxi run FILE" (several lines: several runs)
#   // check                   run "ptxi check FILE" instead
#   // expect-exit: N          exit status (default 0)
#   // expect: TEXT            stdout lines, in order, exactly (all of them when any is given)
#   // expect error: L:C TEXT  stderr holds "FILE:L:C: error: " followed somewhere by TEXT
#   // expect warning: L:C TEXT, // expect-stderr: TEXT (anywhere in stderr)
#   // expect-no-stderr: TEXT  stderr nowhere holds TEXT
# An optional third argument is appended to every run (e.g. "--seed 11": correct programs
# must give the same results under any schedule).
# Prints "samples: N passed, M failed" and fails if any failed.
set -u
ptxi=${1:?usage: run_samples.sh PTXI DIR}
ptxi=$(cd "$(dirname "$ptxi")" && pwd)/$(basename "$ptxi")
dir=${2:?usage: run_samples.sh PTXI DIR [EXTRA-ARGS]}
extra=${3:-}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
while IFS= read -r f; do
  runs=$(sed -n 's|^// run: *||p' "$f")
  if grep -q '^// check' "$f"; then runs="__check__"; fi
  [ -z "$runs" ] && continue
  want_exit=$(sed -n 's|^// expect-exit: *||p' "$f" | head -1); want_exit=${want_exit:-0}
  sed -n 's|^// expect: *||p' "$f" > "$tmp/want"
  while IFS= read -r args; do
    cd "$(dirname "$f")"
    if [ "$args" = "__check__" ]; then
      "$ptxi" check "$(basename "$f")" > "$tmp/out" 2> "$tmp/err"; rc=$?
    else
      eval "\"$ptxi\" run \"$(basename "$f")\" $args $extra" > "$tmp/out" 2> "$tmp/err" < /dev/null; rc=$?
    fi
    cd - >/dev/null
    why=""
    [ "$rc" != "$want_exit" ] && why="exit $rc, expected $want_exit"
    if [ -z "$why" ] && [ -s "$tmp/want" ] && ! cmp -s "$tmp/want" "$tmp/out"; then
      why="stdout differs: $(diff "$tmp/want" "$tmp/out" | head -4 | tr '\n' ' ')"
    fi
    if [ -z "$why" ]; then
      while IFS= read -r line; do
        kind=${line%%:*}; rest=${line#*: }
        loc=${rest%% *}; text=${rest#* }
        [ "$loc" = "$rest" ] && text=""
        if ! grep -F -- "$(basename "$f"):$loc: $kind: " "$tmp/err" | grep -q -F -- "$text"; then
          why="no '$kind' at $loc containing '$text'"; break
        fi
      done < <(sed -n 's#^// expect \(error\|warning\): *#\1: #p' "$f")
    fi
    if [ -z "$why" ]; then
      while IFS= read -r text; do
        grep -q -F -- "$text" "$tmp/err" || { why="stderr lacks '$text'"; break; }
      done < <(sed -n 's|^// expect-stderr: *||p' "$f")
    fi
    if [ -z "$why" ]; then
      while IFS= read -r text; do
        ! grep -q -F -- "$text" "$tmp/err" || { why="stderr holds '$text'"; break; }
      done < <(sed -n 's|^// expect-no-stderr: *||p' "$f")
    fi
    if [ -z "$why" ]; then pass=$((pass + 1))
    else fail=$((fail + 1)); echo "FAIL ${f#$dir/} [$args]: $why"; head -c 600 "$tmp/err" | sed 's/^/    /'; fi
  done <<< "$runs"
done < <(find "$dir" -name '*.ptx' | sort)
echo "samples: $pass passed, $fail failed"
[ "$fail" = 0 ]
