#!/bin/sh
# check_speed.sh - `ptxi check` against `ptxas -arch=sm_90` on one large module.
# The module is N copies (default 2000) of a block of mbarrier / cp.async.bulk / cluster
# instructions and ordinary typed ones (arithmetic, setp, cvt, ld/st, atom: the CK_ALU,
# cvt and ld/st rules), about 24 instructions each.
#   bench/check_speed.sh [path/to/ptxi] [N]
# The issue asks for ptxi check to be at least 10x faster than ptxas.
set -e
PTXI=${1:-build/ptxi}
N=${2:-2000}
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
F=$(mktemp /tmp/check_speed.XXXXXX.ptx)
trap 'rm -f "$F"' EXIT
{
	printf '.version 8.6\n.target sm_90\n.address_size 64\n'
	printf '.global .align 16 .b8 gbuf[4096];\n'
	printf '.visible .entry big(.param .u64 p)\n{\n'
	printf '\t.reg .pred %%p<4>;\n\t.reg .b16 %%rs<4>;\n\t.reg .b32 %%r<8>;\n\t.reg .b64 %%rd<8>;\n'
	printf '\t.reg .f32 %%f<4>;\n'
	printf '\t.shared .align 8 .b64 bar[4];\n\t.shared .align 16 .b8 sbuf[4096];\n'
	printf '\tmov.u32 %%r1, %%cluster_ctarank;\n\tmov.u64 %%rd2, 0;\n'
	i=0
	while [ $i -lt $N ]; do
		cat <<'B'
	mbarrier.init.shared::cta.b64 [bar], 32;
	mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %rd1, [bar], 256;
	cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [sbuf], [gbuf], 256, [bar];
	mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p1, [bar], 0;
	mbarrier.test_wait.shared.b64 %p2, [bar+8], %rd1;
	mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r2], 1;
	mbarrier.arrive_drop.noComplete.shared.b64 %rd3, [bar+16], 2;
	mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [%r2], 64;
	mapa.shared::cluster.u32 %r2, %r3, %r1;
	fence.proxy.async.shared::cta;
	elect.sync %r4|%p3, 0xffffffff;
	add.u32 %r3, %r3, 1;
	barrier.cluster.arrive.relaxed.aligned;
	barrier.cluster.wait.aligned;
	mul.wide.u32 %rd4, %r3, 4;
	add.s64 %rd5, %rd4, %rd2;
	ld.global.f32 %f1, [%rd5];
	fma.rn.f32 %f2, %f1, 0f3F800000, %f1;
	cvt.rzi.s32.f32 %r5, %f2;
	setp.lt.and.s32 %p1, %r5, 100, %p2;
	selp.b32 %r6, %r5, 0, %p1;
	st.shared.v2.u32 [sbuf+8], {%r5, %r6};
	atom.global.add.u32 %r7, [%rd5], 1;
	shl.b32 %r6, %r6, 2;
B
		i=$((i + 1))
	done
	printf '\tmbarrier.inval.shared.b64 [bar];\n\tret;\n}\n'
} > "$F"
echo "module: $(wc -c < "$F") bytes, $(grep -c ';' "$F") statements"
t() { s=$(date +%s.%N); "$@" > /dev/null 2>&1 || echo "($1 exited $?)"; e=$(date +%s.%N); echo "$e - $s" | bc; }
tp=$(t "$PTXI" check "$F")
ta=$(t "$PTXAS" -arch=sm_90 "$F" -o /dev/null)
echo "ptxi check:          ${tp} s"
echo "ptxas -arch=sm_90:   ${ta} s"
echo "ratio: $(echo "scale=1; $ta / $tp" | bc)x"
