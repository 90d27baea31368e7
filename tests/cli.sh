#!/usr/bin/env bash
# The ptxi program's conventions: --version, --help of every command (every option of the
# table, with defaults), --opt=value, unknown options; --dump formats and @OFF, --out, --set
# and --dump SYMBOL, by-value struct arguments (bytes:), --kernel by demangled name or part,
# `ptxi info`, --color. Exact output and exit status for each.
set -u
ptxi=${1:?usage: cli.sh PTXI SOURCE_ROOT}; root=${2:?}
ptxi=$(cd "$(dirname "$ptxi")" && pwd)/$(basename "$ptxi")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# expect STATUS NAME COMMAND...: stdout must equal $tmp/out.want, stderr $tmp/err.want
# (each empty when not written), the exit status STATUS.
expect() {
  local want=$1 name=$2; shift 2
  : >> "$tmp/out.want"; : >> "$tmp/err.want"   # builtins: a process costs more than a case
  "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null; local rc=$?
  [ "$rc" = "$want" ] || bad "$name: exit $rc, expected $want: $(head -3 "$tmp/err")"
  diff -u "$tmp/out.want" "$tmp/out" > "$tmp/d" || { bad "$name: stdout differs"; head -20 "$tmp/d"; }
  diff -u "$tmp/err.want" "$tmp/err" > "$tmp/d" || { bad "$name: stderr differs"; head -20 "$tmp/d"; }
  : > "$tmp/out.want"; : > "$tmp/err.want"
}
cd "$root/tests/cli" || exit 2
K=../../ptx_samples/kernels

echo "ptxi 0.1.0" > "$tmp/out.want"
expect 0 version "$ptxi" --version

# --help: every option of the table for its command, with its default; exit 0
for cmd in run check info explain; do
  "$ptxi" $cmd --help > "$tmp/help" 2>&1 || bad "$cmd --help: exit $?"
  grep -q "^usage: ptxi $cmd" "$tmp/help" || bad "$cmd --help: no usage line"
done
"$ptxi" run --help > "$tmp/help"
for opt in kernel grid block cluster ctas shared cooperative arg set dump out keep-going no-race seed explore \
           jobs max-steps max-memory max-errors heap stats trace trace-cta trace-warp trace-lines \
           trace-width timeline diagnostics color help; do
  grep -q -- "^  --$opt\b" "$tmp/help" || bad "run --help does not list --$opt"
done
grep -q "(default: 300000000)" "$tmp/help" || bad "run --help: --max-steps default missing"
grep -q "bytes:SIZE\[,@OFF=SPEC\]" "$tmp/help" || bad "run --help: no SPEC list"

echo "ptxi: error: unknown option '--bogus' (see 'ptxi --help')" > "$tmp/err.want"
expect 2 unknown-option "$ptxi" run $K/noop.ptx --bogus
echo "ptxi: error: --grid needs a value (see 'ptxi --help')" > "$tmp/err.want"
expect 2 missing-value "$ptxi" run $K/noop.ptx --grid
echo "ptxi: error: keep-going takes no value (see 'ptxi --help')" > "$tmp/err.want"
expect 2 flag-value "$ptxi" run $K/noop.ptx --keep-going=1

# --jobs: a thread count of 1 to 256
for v in 0 x 257 99999999999999999999; do
  echo "ptxi: error: bad --jobs '$v' (want a number of threads, 1-256) (see 'ptxi --help')" \
    > "$tmp/err.want"
  expect 2 "jobs $v" "$ptxi" run $K/noop.ptx --jobs $v
done
printf '3fc00000\nc0000000\n00 3c\n' > "$tmp/out.want"
: > "$tmp/err.want" # the detector runs the clusters on the threads too: no note
expect 0 jobs-race "$ptxi" run $K/noop.ptx --arg file:$K/bytes.bin --grid 2 --dump 0 --jobs 2
printf '3fc00000\nc0000000\n00 3c\n' > "$tmp/out.want"
expect 0 jobs-no-race "$ptxi" run $K/noop.ptx --arg file:$K/bytes.bin --grid 2 --dump 0 --jobs 2 \
  --no-race
printf '3fc00000\nc0000000\n00 3c\n' > "$tmp/out.want"
expect 0 jobs-one-cluster "$ptxi" run $K/noop.ptx --arg file:$K/bytes.bin --dump 0 --jobs 8

# numbers: decimal or 0x hex, nothing before the digits (strtoull would take " -1" as 2^64-1)
# and no octal (010 is ten); shapes within sm_90's limits
for o in "seed  -1" "max-memory  -1" "heap +5"; do
  opt=${o%% *}; v=${o#* }
  "$ptxi" run $K/noop.ptx --arg buf:4 --$opt "$v" > /dev/null 2> "$tmp/err"; rc=$?
  [ $rc = 2 ] && grep -q "^ptxi: error: bad --$opt '$v' (" "$tmp/err" ||
    bad "--$opt '$v': exit $rc: $(cat "$tmp/err")"
done
printf '0\n0\n0\n0\n0\n0\n0\n0\n0\n0\n' > "$tmp/out.want"
expect 0 decimal-not-octal "$ptxi" run $K/noop.ptx --arg buf:010 --dump 0:u8
echo "ptxi: error: bad --grid ' 1' (want X[,Y[,Z]], each 1 to 2147483647) (see 'ptxi --help')" > "$tmp/err.want"
expect 2 grid-space "$ptxi" run $K/noop.ptx --arg buf:4 --grid " 1"
echo "ptxi: error: bad --grid '2147483648' (want X[,Y[,Z]], each 1 to 2147483647) (see 'ptxi --help')" > "$tmp/err.want"
expect 2 grid-x-max "$ptxi" run $K/noop.ptx --arg buf:4 --grid 2147483648
echo "ptxi: error: a grid has at most 65535 CTAs in y (asked for 65536)" > "$tmp/err.want"
expect 2 grid-y-max "$ptxi" run $K/noop.ptx --arg buf:4 --grid 1,65536
echo "ptxi: error: a block has at most 64 threads in z (asked for 128)" > "$tmp/err.want"
expect 2 block-z-max "$ptxi" run $K/noop.ptx --arg buf:4 --block 1,1,128
echo "ptxi: error: bad --dump '0@-8' (want N[@OFF][:FMT][:COUNT] or SYMBOL[@OFF][:FMT][:COUNT], FMT one of u8 u16 u32 u64 s32 f16 bf16 f32 f64 hex) (see 'ptxi --help')" > "$tmp/err.want"
expect 2 dump-negative "$ptxi" run $K/noop.ptx --arg buf:4 --dump 0@-8
echo "ptxi: error: 'bytes:8,@-1=u8:1': field '@-1=u8:1' is not @OFF=SPEC" > "$tmp/err.want"
expect 2 field-negative "$ptxi" run $K/noop.ptx --arg bytes:8,@-1=u8:1
echo "ptxi: error: 'buf: 4': want buf:BYTES[:FILL], at most 16 GiB (4 GiB with a fill)" > "$tmp/err.want"
expect 2 buf-space "$ptxi" run $K/noop.ptx --arg "buf: 4"

# --opt=value and --opt value alike
printf '3fc00000\nc0000000\n00 3c\n' > "$tmp/out.want"
expect 0 opt-equals "$ptxi" run $K/noop.ptx --arg=file:$K/bytes.bin --grid=2 --dump=0

# --dump formats: bytes.bin is 00 00 c0 3f 00 00 00 c0 00 3c (10 bytes: a 2-byte tail)
check_format() {
  printf -- "$2" > "$tmp/out.want"
  expect 0 "dump :$1" "$ptxi" run $K/noop.ptx --arg file:$K/bytes.bin --dump "0:$1"
}
check_format u8 '0\n0\n192\n63\n0\n0\n0\n192\n0\n60\n'
check_format u16 '0\n16320\n0\n49152\n15360\n'
check_format u32 '1069547520\n3221225472\n00 3c\n'
check_format u64 '13835058056351711232\n00 3c\n'
check_format s32 '1069547520\n-1073741824\n00 3c\n'
check_format f16 '0\n1.9375\n0\n-2\n1\n'
check_format bf16 '0\n1.5\n0\n-2\n0.0078125\n'
check_format f32 '1.5\n-2\n00 3c\n'
check_format f64 '-2.0000004749745131\n00 3c\n'
check_format hex '00 00 c0 3f 00 00 00 c0 00 3c\n'
printf '3fc00000\nc0000000\n00 3c\n' > "$tmp/out.want" # the default: words in hex
expect 0 "dump words" "$ptxi" run $K/noop.ptx --arg file:$K/bytes.bin --dump 0
echo "ptxi: error: bad --dump '0:f128' (want N[@OFF][:FMT][:COUNT] or SYMBOL[@OFF][:FMT][:COUNT], FMT one of u8 u16 u32 u64 s32 f16 bf16 f32 f64 hex) (see 'ptxi --help')" > "$tmp/err.want"
expect 2 bad-format "$ptxi" run $K/noop.ptx --arg buf:8 --dump 0:f128
echo "ptxi: error: --dump 0: argument 0 is not a buffer (buf: or file:)" > "$tmp/err.want"
expect 2 dump-scalar "$ptxi" run $K/noop.ptx --arg u64:5 --dump 0
echo "ptxi: error: --dump 0@8: argument 0 has no 8-byte address at byte 8" > "$tmp/err.want"
expect 2 dump-past "$ptxi" run $K/noop.ptx --arg buf:8 --dump 0@8

# --out: the raw bytes
expect 0 out "$ptxi" run $K/noop.ptx --arg file:$K/bytes.bin --out "0=$tmp/copy.bin"
cmp -s "$tmp/copy.bin" $K/bytes.bin || bad "--out: the file differs from the buffer"
echo "ptxi: error: --out 0=/nonexistent/x: cannot write '/nonexistent/x': No such file or directory" > "$tmp/err.want"
expect 2 out-unwritable "$ptxi" run $K/noop.ptx --arg buf:8 --out 0=/nonexistent/x

# a by-value struct with a buffer, a count and a tensor map naming the buffer field
spec="bytes:192,@0=file:$K/ramp.bin,@8=buf:256,@16=u32:3,@64=tmap:buf=@0,type=f32,dims=16x8,strides=64,box=16x4"
seq 0 3 189 > "$tmp/out.want"
expect 0 struct "$ptxi" run $K/params_struct.ptx --block 64 --arg "$spec" --dump 0@8:f32
echo "ptxi: error: argument 1: field @190 ('u32:3', 4 bytes) runs past the 192 bytes of the struct" > "$tmp/err.want"
expect 2 struct-past "$ptxi" run $K/params_struct.ptx --block 64 --arg "bytes:192,@190=u32:3"
echo "ptxi: error: argument 1: tensor map field @64 ('tmap:buf=@0,type=f32,dims=16x8,strides=64,box=16x4'): buf=@0 is not a buffer field of the struct" > "$tmp/err.want"
expect 2 struct-tmap "$ptxi" run $K/params_struct.ptx --block 64 \
  --arg "bytes:192,@0=u32:1,@64=tmap:buf=@0,type=f32,dims=16x8,strides=64,box=16x4"
echo "ptxi: error: argument 1: fields @16 ('u32:3') and @16 ('u8:1') overlap" > "$tmp/err.want"
expect 2 struct-overlap "$ptxi" run $K/params_struct.ptx --block 64 --arg "bytes:192,@16=u32:3,@16=u8:1"
echo "ptxi: error: tensor map 'tmap:buf=@0,type=f32,dims=16x8,strides=64,box=16x4,type=f16': type= is given twice" > "$tmp/err.want"
expect 2 tmap-twice "$ptxi" run $K/params_struct.ptx --block 64 \
  --arg "bytes:192,@0=buf:512,@64=tmap:buf=@0,type=f32,dims=16x8,strides=64,box=16x4,type=f16"
echo "ptxi: error: argument 1 ('bytes:100') does not fit parameter 0 'p' (an array of .b8) of kernel 'scale_tile', which is 192 bytes" > "$tmp/err.want"
expect 2 struct-size "$ptxi" run $K/params_struct.ptx --block 64 --arg bytes:100
echo "ptxi: error: 'bytes:x': want bytes:SIZE[,@OFF=SPEC]..., SIZE 1-32764" > "$tmp/err.want"
expect 2 struct-syntax "$ptxi" run $K/noop.ptx --arg bytes:x

# --explore: --out files written and --dump errors reported as without it
printf '3fc00000\nc0000000\n00 3c\n' > "$tmp/out.want"
echo "ptxi: --explore: 2 schedules besides the default: no rule broken, no deadlock, the same output" > "$tmp/err.want"
expect 0 explore-out "$ptxi" run $K/noop.ptx --arg file:$K/bytes.bin --out "0=$tmp/explored.bin" \
  --dump 0 --explore 2
cmp -s "$tmp/explored.bin" $K/bytes.bin || bad "--explore --out: the file differs from the buffer"
printf '%s\n' "ptxi: error: --dump 0@8: argument 0 has no 8-byte address at byte 8" \
  "ptxi: --explore: the default schedule already fails" > "$tmp/err.want"
expect 2 explore-dump-error "$ptxi" run $K/noop.ptx --arg buf:8 --dump 0@8 --explore 2
# --explore goes on past a default schedule that deadlocks; a failure is shown once
D=../rules/deadlock/missing_arrival.ptx
"$ptxi" run $D --block 64 --arg buf:16 > /dev/null 2> "$tmp/err.want"
printf '%s\n' "ptxi: --explore: the default schedule deadlocks; trying the others" \
  "ptxi: --explore: 3 schedules besides the default: 1 distinct failure shown" >> "$tmp/err.want"
expect 3 explore-past-deadlock "$ptxi" run $D --block 64 --arg buf:16 --explore 3
# --explore runs its seeded schedules side by side (one per CPU, or --jobs N), each in a
# child process, taken back in schedule order: the same bytes as one after another, the
# kernel's printf lines, dumps and verdicts included
for j in 1 3; do
  "$ptxi" run ../../ptx_samples/explore/ticket_order.ptx --block 64 --arg buf:4 --arg buf:256 \
    --dump 1 --explore 8 --jobs $j > "$tmp/x$j" 2>&1; echo "exit $?" >> "$tmp/x$j"
  (cd ../../ptx_samples/devrt && "$ptxi" run printf_formats.ptx --block 2 --arg file:name.bin --arg f32:2.5 --arg f64:3.25 \
    --arg s64:1234567890123 --explore 4 --jobs $j) >> "$tmp/x$j" 2>&1; echo "exit $?" >> "$tmp/x$j"
  "$ptxi" run $D --block 64 --arg buf:16 --explore 5 --jobs $j >> "$tmp/x$j" 2>&1
  echo "exit $?" >> "$tmp/x$j"
done
cmp -s "$tmp/x1" "$tmp/x3" || { bad "--explore --jobs 3 differs from --jobs 1"; diff "$tmp/x1" "$tmp/x3" | head; }
grep -q "schedule 2 of 8 gives other output" "$tmp/x3" || bad "--explore --jobs 3: no schedule 2"

# --set and --dump SYMBOL / SYMBOL@OFF
printf '100\n10\n20\n30\n40\n0000000a\n' > "$tmp/out.want"
expect 0 set "$ptxi" run globals.ptx --block 4 --set scale=u32:10 --set table=file:table.bin \
  --dump counter:u32 --dump table@0:u32 --dump scale
echo "ptxi: error: --set scale is given twice (see 'ptxi --help')" > "$tmp/err.want"
expect 2 set-twice "$ptxi" run globals.ptx --set scale=u32:1 --set scale=u32:2
echo "ptxi: error: --set nosuch: the module has no .global or .const variable of that name" > "$tmp/err.want"
expect 2 set-unknown "$ptxi" run globals.ptx --set nosuch=u32:1
echo "ptxi: error: --set scale: 'u64:1' (8 bytes) does not fit variable 'scale' (4 bytes)" > "$tmp/err.want"
expect 2 set-size "$ptxi" run globals.ptx --set scale=u64:1

# --kernel: PTX name, demangled name, a part that names one kernel
expect 0 kernel-part "$ptxi" run two_kernels.ptx --kernel scale_col --arg buf:4
expect 0 kernel-demangled "$ptxi" run two_kernels.ptx --kernel 'scale_row(float*)' --arg buf:4
expect 0 kernel-mangled "$ptxi" run two_kernels.ptx --kernel _Z9scale_rowPf --arg buf:4
echo "ptxi: error: --kernel 'scale' names several kernels (scale_row(float*), scale_col(float*)): name one in full" > "$tmp/err.want"
expect 2 kernel-ambiguous "$ptxi" run two_kernels.ptx --kernel scale --arg buf:4
echo "ptxi: error: no kernel named 'nope' (kernels: scale_row(float*), scale_col(float*))" > "$tmp/err.want"
expect 2 kernel-none "$ptxi" run two_kernels.ptx --kernel nope --arg buf:4

# ptxi info
cp info_params_struct.txt "$tmp/out.want"
expect 0 info-struct "$ptxi" info $K/params_struct.ptx
cp info_two_kernels.txt "$tmp/out.want"
expect 0 info-mangled "$ptxi" info two_kernels.ptx
cp info_triton.txt "$tmp/out.want"
expect 0 info-triton "$ptxi" info triton_style.ptx
cp info_params_layout.txt "$tmp/out.want"
expect 0 info-params-layout "$ptxi" info params_layout.ptx
cp info_shared_per_kernel.txt "$tmp/out.want" # each kernel's own .shared variables
expect 0 info-shared-per-kernel "$ptxi" info ../regress/shared-per-kernel.ptx

# --color: gcc's colours when asked, none with never (and by default off a terminal)
"$ptxi" run two_kernels.ptx --kernel nope --arg buf:4 --color=always 2> "$tmp/err"
grep -q $'^\e\[1mptxi:\e\[0m \e\[1;31merror:\e\[0m no kernel' "$tmp/err" || bad "--color=always: $(cat -v "$tmp/err")"
"$ptxi" run two_kernels.ptx --kernel nope --arg buf:4 2> "$tmp/err"
! grep -q $'\e' "$tmp/err" || bad "colour off a terminal"
echo "ptxi: error: bad --color 'blue' (auto, always or never) (see 'ptxi --help')" > "$tmp/err.want"
expect 2 color-bad "$ptxi" check --color=blue two_kernels.ptx

# a launch that never ends: the progress line, then Ctrl-C reports where every warp stands
"$ptxi" run spin_counted.ptx --block 64 --arg buf:4 --no-race --max-steps 100000000000 \
  --progress always 2> "$tmp/err" & pid=$!
sleep 4; kill -INT $pid; wait $pid; rc=$?
[ $rc = 130 ] || bad "SIGINT: exit $rc, expected 130"
tr '\r' '\n' < "$tmp/err" > "$tmp/lines"
grep -q "^ptxi: [0-9]* s, .* warp-instructions, 0 of 1 CTAs finished, 1 warps running, 1 waiting" "$tmp/lines" ||
  bad "no progress line: $(head -c 300 "$tmp/lines")"
grep -q "spin_counted.ptx:2[456]:2: note: interrupted here: running" "$tmp/lines" || bad "SIGINT: the spinning warp is not named"
grep -q "^spin_counted.ptx:30:2: note: interrupted here: waiting on an mbarrier phase" "$tmp/lines" ||
  bad "SIGINT: the waiting warp is not named"
grep -q "^ptxi: error: interrupted after [0-9]* warp-instructions (cluster 1 of 1); where the warps stand is above \[interrupted\]" "$tmp/lines" ||
  bad "SIGINT: no closing line"
"$ptxi" run spin_counted.ptx --block 64 --arg buf:4 --no-race --max-steps 100000 2> "$tmp/err"
! grep -qi deadlock "$tmp/err" || bad "the step limit is worded as a deadlock: $(cat "$tmp/err")"
grep -q "^spin_counted.ptx:2[456]:2: note: a loop that never ends, lines 24-26: it polls global 0x700000000 (4 bytes)$" "$tmp/err" ||
  bad "the spinning loop is not diagnosed: $(cat "$tmp/err")"

[ $fail = 0 ] && echo "cli: all checks passed"
exit $fail
