#!/usr/bin/env bash
# The PipelineTmaAsync samples (ptx_samples/tma/pipeline_tma_async*.ptx): --trace mbarrier
# shows each tensor copy of the ring with its box, coordinates, bytes, stage and barrier, and
# the two broken variants give exactly their diagnostics under the default schedule.
set -u
ptxi=${1:?usage: tma_pipeline.sh PTXI SOURCE_ROOT}; root=${2:?}
ptxi=$(cd "$(dirname "$ptxi")" && pwd)/$(basename "$ptxi")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
cd "$root/ptx_samples/tma" || exit 2
args=(--block 96 --arg tmap:buf=2,type=u32,dims=32x64,strides=128,box=32x8 --arg buf:256
      --arg buf:8192)

"$ptxi" run pipeline_tma_async.ptx "${args[@]}" --trace mbarrier --trace-width 0 \
  2> "$tmp/err" > /dev/null || bad "pipeline_tma_async: exit $?"
line=$(grep -n 'cp.async.bulk.tensor.2d' pipeline_tma_async.ptx | cut -d: -f1)
prefix="^\\[trace\\] pipeline_tma_async.ptx:$line: CTA (0,0,0) thread 0 (0,0,0): "
grep 'cp.async.bulk.tensor issued' "$tmp/err" | sed "s/$prefix//" > "$tmp/got"
cat > "$tmp/want" <<'OUT'
cp.async.bulk.tensor issued: box 32x8 at (0, 0) of a 32x64 u32 tensor, 1024 bytes to shared 0x0, complete-tx 1024 on the mbarrier at 0xc00
cp.async.bulk.tensor issued: box 32x8 at (0, 8) of a 32x64 u32 tensor, 1024 bytes to shared 0x400, complete-tx 1024 on the mbarrier at 0xc08
cp.async.bulk.tensor issued: box 32x8 at (0, 16) of a 32x64 u32 tensor, 1024 bytes to shared 0x800, complete-tx 1024 on the mbarrier at 0xc10
cp.async.bulk.tensor issued: box 32x8 at (0, 24) of a 32x64 u32 tensor, 1024 bytes to shared 0x0, complete-tx 1024 on the mbarrier at 0xc00
cp.async.bulk.tensor issued: box 32x8 at (0, 32) of a 32x64 u32 tensor, 1024 bytes to shared 0x400, complete-tx 1024 on the mbarrier at 0xc08
cp.async.bulk.tensor issued: box 32x8 at (0, 40) of a 32x64 u32 tensor, 1024 bytes to shared 0x800, complete-tx 1024 on the mbarrier at 0xc10
cp.async.bulk.tensor issued: box 32x8 at (0, 48) of a 32x64 u32 tensor, 1024 bytes to shared 0x0, complete-tx 1024 on the mbarrier at 0xc00
cp.async.bulk.tensor issued: box 32x8 at (0, 56) of a 32x64 u32 tensor, 1024 bytes to shared 0x400, complete-tx 1024 on the mbarrier at 0xc08
OUT
diff -u "$tmp/want" "$tmp/got" || bad "pipeline_tma_async: the copies' trace differs"
[ "$(grep -c 'the cp.async.bulk.tensor lands' "$tmp/err")" = 8 ] ||
  bad "pipeline_tma_async: $(grep -c 'the cp.async.bulk.tensor lands' "$tmp/err") landings, expected 8"

# the cluster ring: each producer multicasts its half of every tile to both CTAs
"$ptxi" run pipeline_tma_async_cluster.ptx --grid 2 --cluster 2 --block 96 \
  --arg tmap:buf=2,type=u32,dims=32x64,strides=128,box=32x4 --arg buf:16 --arg buf:8192 \
  --trace mbarrier --trace-width 0 2> "$tmp/err" > /dev/null || bad "cluster: exit $?"
want='CTA (1,0,0) (cluster rank 1) thread 0 (0,0,0): cp.async.bulk.tensor issued: box 32x4 at (0, 60) of a 32x64 u32 tensor, 512 bytes to shared 0x600 of each CTA in ctaMask, complete-tx 512 on the mbarrier at 0xc08'
grep -q -F -- "$want" "$tmp/err" || bad "cluster: no trace line '$want'"
[ "$(grep -c 'cp.async.bulk.tensor issued' "$tmp/err")" = 16 ] ||
  bad "cluster: $(grep -c 'cp.async.bulk.tensor issued' "$tmp/err") copies, expected 16"

expect() {  # expect FILE [OPTION]: exit 1 and exactly the diagnostic in $tmp/want (the
            # launch stops at the error: a note says the --dump sees memory as it was then)
  "$ptxi" run "$1" "${args[@]}" --dump 1 ${2:-} > /dev/null 2> "$tmp/err"; local rc=$?
  [ $rc = 1 ] || bad "$1: exit $rc, expected 1"
  diff -u "$tmp/want" "$tmp/err" || bad "$1: diagnostic differs"
}
cat > "$tmp/want" <<'OUT'
pipeline_tma_async_wrong_barrier.ptx:119:3: error: load of 4 bytes at shared 0x0 touches the destination of the cp.async.bulk.tensor issued at line 87, which has not completed [async-copy-race]
   119 |   ld.shared.u32 %r21, [%r13];
       |   ^~~~~~~~~~~~~~~~~~~~~~~~~~~
    CTA (0,0,0) thread 32 (32,0,0)
    rule (PTX ISA 9.7.9.25.1): an async copy's (or bulk reduction's) destination must not be accessed, nor its source written, before its completion is observed (a wait on its mbarrier returned True, or the bulk group was waited for), even when the copy has in fact landed; nor the destination of st.async / red.async before it lands
    the hardware carries on; --keep-going would too: the access sees the memory as it is at that moment
ptxi: 1 error: async-copy-race 1
ptxi: note: the launch stopped before its threads finished: --dump, --out and --expect see memory as it was then
OUT
expect pipeline_tma_async_wrong_barrier.ptx --no-race  # async-copy-race alone (the sample says why)
cat > "$tmp/want" <<'OUT'
pipeline_tma_async_late_wait.ptx:79:3: error: mbarrier.arrive of 1 arrival with only 0 pending in phase 0 [mbarrier-over-arrival]
    79 |   mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r11], 1024;
       |   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    CTA (0,0,0) thread 0 (0,0,0)
    mbarrier 'full[0]' (CTA (0,0,0), shared 0xc00): phase 0, pending 0 of 1 arrivals, tx-count 2048
    rule (PTX ISA 9.7.13.15.2): an arrive-on must not exceed the pending arrival count of the current phase
    the hardware faults here: the launch stops (the H100 faults; compute-sanitizer says 'Barrier overflow')
ptxi: 1 error: mbarrier-over-arrival 1
ptxi: note: the launch stopped before its threads finished: --dump, --out and --expect see memory as it was then
OUT
expect pipeline_tma_async_late_wait.ptx
exit $fail
