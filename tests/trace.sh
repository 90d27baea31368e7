#!/usr/bin/env bash
# --trace filters and format: --trace-warp/--trace-lines/--trace-cta select lines, --trace-width
# folds them, float registers show their values; bad filter values are exit 2 with a message.
set -u
ptxi=${1:?usage: trace.sh PTXI SOURCE_ROOT}; root=${2:?}
ptxi=$(cd "$(dirname "$ptxi")" && pwd)/$(basename "$ptxi")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
cd "$root/ptx_samples/explain" || exit 2

"$ptxi" run phases.ptx --block 64 --trace mbarrier --trace-warp 1 --trace-lines 24-28 \
  --trace-width 80 2> "$tmp/err" || bad "filters: exit $?"
cat > "$tmp/want" <<'OUT'
[trace] phases.ptx:24: CTA (0,0,0) thread 32 (32,0,0): mbarrier.arrive 'bar'
        (shared 0x0) [1 arrival]: phase 0, pending 2 of 2 arrivals, tx-count 0
        -> phase 0, pending 1 of 2 arrivals, tx-count 0
[trace] phases.ptx:26: CTA (0,0,0) threads 32-63: mbarrier.try_wait.parity 'bar'
        (shared 0x0) [parity 0]: True: phase 0 completed (now phase 1, pending 1
        of 2 arrivals, tx-count 0)
[trace] phases.ptx:28: CTA (0,0,0) thread 32 (32,0,0): mbarrier.arrive 'bar'
        (shared 0x0) [1 arrival]: phase 1, pending 1 of 2 arrivals, tx-count 0
        -> phase 2, pending 2 of 2 arrivals, tx-count 0; phase 1 completed
OUT
diff -u "$tmp/want" "$tmp/err" || bad "filters: output differs"

# a filter that could match nothing is an error, not a silent empty trace
check_filter_error() {
  local want=$1; shift
  "$ptxi" run phases.ptx --block 64 "$@" > /dev/null 2> "$tmp/err"; local rc=$?
  [ $rc = 2 ] || bad "$*: exit $rc, expected 2"
  [ "$(cat "$tmp/err")" = "$want" ] || bad "$*: message: $(cat "$tmp/err")"
}
check_filter_error "ptxi: error: --trace-cta 1,0,0: the grid is (1,1,1) CTAs" \
  --trace mbarrier --trace-cta 1,0,0
check_filter_error "ptxi: error: --trace-warp 2: the CTAs of this launch have warps 0-1" \
  --trace mbarrier --trace-warp 2
check_filter_error "ptxi: error: --trace-cta, --trace-warp and --trace-lines narrow --trace: give --trace mbarrier or --trace all (see 'ptxi --help')" \
  --trace-lines 24-28
"$ptxi" run phases.ptx --block 64 --trace mbarrier --trace-cta 0 --trace-width 0 2> "$tmp/err"
[ "$(grep -c '^\[trace\]' "$tmp/err")" = 9 ] || bad "--trace-cta 0: $(grep -c '^\[trace\]' "$tmp/err") lines, expected 9"
[ "$(wc -l < "$tmp/err")" = 9 ] || bad "--trace-width 0 folded lines"

cat > "$tmp/f.ptx" <<'PTX'
.version 8.0
.target sm_90
.address_size 64
.visible .entry f()
{
  .reg .f32 %f<3>;
  .reg .f64 %fd<2>;
  mov.f32 %f1, 0f3FC00000;
  add.f32 %f2, %f1, %f1;
  cvt.f64.f32 %fd1, %f2;
  ret;
}
PTX
"$ptxi" run "$tmp/f.ptx" --block 32 --trace all --trace-lines 9-10 2> "$tmp/err" || bad "floats: exit $?"
cat > "$tmp/want" <<OUT
[trace] $tmp/f.ptx:9: CTA (0,0,0) threads 0-31: add.f32 %f2, %f1, %f1;
        %f2 = 0x40400000 (3)
[trace] $tmp/f.ptx:10: CTA (0,0,0) threads 0-31: cvt.f64.f32 %fd1, %f2;
        %fd1 = 0x4008000000000000 (3)
OUT
diff -u "$tmp/want" "$tmp/err" || bad "floats: output differs"

# a .b128 register shows as one 128-bit number (its pair of slots)
cat > "$tmp/q.ptx" <<'PTX'
.version 8.4
.target sm_90
.address_size 64
.visible .entry q()
{
  .reg .b128 %q<2>;
  .reg .b64 %rd<3>;
  mov.b64 %rd1, 0x1122334455667788;
  mov.b64 %rd2, 0x99;
  mov.b128 %q1, {%rd1, %rd2};
  ret;
}
PTX
"$ptxi" run "$tmp/q.ptx" --block 32 --trace all --trace-lines 10 2> "$tmp/err" || bad "b128: exit $?"
cat > "$tmp/want" <<OUT
[trace] $tmp/q.ptx:10: CTA (0,0,0) threads 0-31: mov.b128 %q1, {%rd1, %rd2};
        %q1 = 0x991122334455667788
OUT
diff -u "$tmp/want" "$tmp/err" || bad "b128: output differs"

for opt in "--trace-lines 5-2" "--trace-lines 0" "--trace-warp 32" "--trace-width 10" \
           "--trace-cta 1,x"; do
  "$ptxi" run phases.ptx --block 64 --trace mbarrier $opt > /dev/null 2> "$tmp/err"; rc=$?
  [ $rc = 2 ] || bad "$opt: exit $rc, expected 2"
  grep -q "^ptxi: error: bad ${opt%% *} '${opt#* }'" "$tmp/err" || bad "$opt: message: $(cat "$tmp/err")"
done
[ $fail = 0 ] && echo "trace: all checks passed"
exit $fail
