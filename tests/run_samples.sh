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
# The comments and stderr are read with bash's builtins: a run starts ptxi, and cmp where
# stdout is promised, and nothing else (a process costs more than most runs on a loaded
# machine, and these trees hold hundreds of runs).
set -u
ptxi=${1:?usage: run_samples.sh PTXI DIR}
ptxi=$(cd "$(dirname "$ptxi")" && pwd)/$(basename "$ptxi")
dir=${2:?usage: run_samples.sh PTXI DIR [EXTRA-ARGS]}
extra=${3:-}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
here=$PWD
pass=0; fail=0
# has_line TEXT...: a line of stderr (array err) holds every TEXT
has_line() {
  local l t
  for l in "${err[@]}"; do
    for t; do [[ $l == *"$t"* ]] || continue 2; done
    return 0
  done
  return 1
}
while IFS= read -r f; do
  mapfile -t lines < "$f"
  runs=() want=() marks=() stderr_has=() stderr_not=() want_exit="" exits=0 check=0
  for l in "${lines[@]}"; do
    case $l in
      "// run:"*) l=${l#// run:}; runs+=("${l#"${l%%[! ]*}"}") ;;
      "// check"*) check=1 ;;
      "// expect-exit:"*) l=${l#// expect-exit:}   # the first one counts
        [ "$exits" = 1 ] || { want_exit=${l#"${l%%[! ]*}"}; exits=1; } ;;
      "// expect:"*) l=${l#// expect:}; want+=("${l#"${l%%[! ]*}"}") ;;
      "// expect error:"* | "// expect warning:"*) l=${l#// expect }; kind=${l%%:*}
        l=${l#*:}; marks+=("$kind: ${l#"${l%%[! ]*}"}") ;;
      "// expect-stderr:"*) l=${l#// expect-stderr:}; stderr_has+=("${l#"${l%%[! ]*}"}") ;;
      "// expect-no-stderr:"*) l=${l#// expect-no-stderr:}; stderr_not+=("${l#"${l%%[! ]*}"}") ;;
    esac
  done
  # as $(sed ...) read them: the empty runs at the end go, those before stay
  while [ ${#runs[@]} -gt 0 ] && [ -z "${runs[-1]}" ]; do unset 'runs[-1]'; done
  [ "$check" = 1 ] && runs=(__check__)
  [ ${#runs[@]} = 0 ] && continue
  want_exit=${want_exit:-0}
  : > "$tmp/want"
  [ ${#want[@]} = 0 ] || printf '%s\n' "${want[@]}" > "$tmp/want"
  base=${f##*/}
  for args in "${runs[@]}"; do
    cd "${f%/*}"
    if [ "$args" = "__check__" ]; then
      "$ptxi" check "$base" > "$tmp/out" 2> "$tmp/err"; rc=$?
    else
      eval "\"$ptxi\" run \"$base\" $args $extra" > "$tmp/out" 2> "$tmp/err" < /dev/null; rc=$?
    fi
    cd "$here"
    mapfile -t err < "$tmp/err"
    why=""
    [ "$rc" != "$want_exit" ] && why="exit $rc, expected $want_exit"
    if [ -z "$why" ] && [ ${#want[@]} != 0 ] && ! cmp -s "$tmp/want" "$tmp/out"; then
      why="stdout differs: $(diff "$tmp/want" "$tmp/out" | head -4 | tr '\n' ' ')"
    fi
    if [ -z "$why" ]; then
      for line in "${marks[@]}"; do
        kind=${line%%:*}; rest=${line#*: }
        loc=${rest%% *}; text=${rest#* }
        [ "$loc" = "$rest" ] && text=""
        if ! has_line "$base:$loc: $kind: " "$text"; then
          why="no '$kind' at $loc containing '$text'"; break
        fi
      done
    fi
    if [ -z "$why" ]; then
      for text in "${stderr_has[@]}"; do
        has_line "$text" || { why="stderr lacks '$text'"; break; }
      done
    fi
    if [ -z "$why" ]; then
      for text in "${stderr_not[@]}"; do
        ! has_line "$text" || { why="stderr holds '$text'"; break; }
      done
    fi
    if [ -z "$why" ]; then pass=$((pass + 1))
    else fail=$((fail + 1)); echo "FAIL ${f#$dir/} [$args]: $why"; head -c 600 "$tmp/err" | sed 's/^/    /'; fi
  done
done < <(find "$dir" -name '*.ptx' | sort)
echo "samples: $pass passed, $fail failed"
[ "$fail" = 0 ]
