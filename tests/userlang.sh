#!/usr/bin/env bash
# Reports in the user's terms (issue 30), on real nvcc -lineinfo output (tests/userlang/*.cu
# beside their PTX: nvcc 13.0 -arch=sm_90a -ptx -lineinfo (asm_check: -arch=compute_90a, as
# ptxas rejects it), the .file path set to
# /home/user/src, so ptxi reads the source beside the PTX): the report leads with the
# user's own frame, cccl's frames are notes; names demangled and shortened; shared
# variables and parameters as the source names them. Exact output and exit status.
set -u
ptxi=${1:?usage: userlang.sh PTXI SOURCE_ROOT}; root=${2:?}
ptxi=$(cd "$(dirname "$ptxi")" && pwd)/$(basename "$ptxi")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
out() { local t; IFS= read -r -d '' t; printf '%s' "$t" > "$tmp/out.want"; }
err() { local t; IFS= read -r -d '' t; printf '%s' "$t" > "$tmp/err.want"; }
# expect STATUS NAME COMMAND...: stdout must equal what out() was given, stderr what err()
# was given (each empty when not given), the exit status STATUS.
expect() {
  local want=$1 name=$2; shift 2
  : >> "$tmp/out.want"; : >> "$tmp/err.want"   # builtins: a process costs more than a case
  "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null; local rc=$?
  [ "$rc" = "$want" ] || bad "$name: exit $rc, expected $want: $(head -3 "$tmp/err")"
  diff -u "$tmp/out.want" "$tmp/out" > "$tmp/d" || { bad "$name: stdout differs"; head -30 "$tmp/d"; }
  diff -u "$tmp/err.want" "$tmp/err" > "$tmp/d" || { bad "$name: stderr differs"; head -30 "$tmp/d"; }
  : > "$tmp/out.want"; : > "$tmp/err.want"
}
cd "$root/tests/userlang" || exit 2

# The user's frame first: the wait loop in wait_full (cccl_deadlock.cu:11), not cccl's
# mbarrier_try_wait_parity.h:26; the _INTERNAL_ file prefix, cccl's __4 inline namespace
# and "(anonymous namespace)" shortened.
err <<'EOF'
cccl_deadlock.cu:11:3: error: deadlock: mbarrier.try_wait waits forever: the phase never completes [deadlock]
    11 |   while (!ptx::mbarrier_try_wait_parity(bar, parity)) {
       |   ^
    in function '(anonymous)::wait_full(unsigned long*, unsigned int)'
    inlined from cccl_deadlock.cu:34:7 in 'pipeline(float*, float)'
    library frame: /usr/local/cuda-13.0/include/cccl/cuda/__ptx/instructions/generated/mbarrier_try_wait_parity.h:26:13 in 'bool cuda::ptx::mbarrier_try_wait_parity<void>(unsigned long*, unsigned int const&)'
    PTX: cccl_deadlock.ptx:102:2
    CTA (0,0,0) threads 32-63
    on mbarrier 'full[1]' (CTA (0,0,0), shared 0x8): phase 0, pending 32 of 32 arrivals, tx-count 0
    the wait is on parity 0, that of phase 0, the phase in progress: it returns True only once phase 0 completes (no arrival has reached it; on a fresh barrier a wait on parity 1 returns True at once: it names the phase before phase 0, as a producer's first wait for an empty slot does)
    32 arrivals still missing
    threads of CTA (0,0,0) that exited: CTA (0,0,0) threads 0-31
    threads blocked elsewhere: none
ptxi: error: deadlock: the launch can never finish: 32 threads blocked, nothing left to run [deadlock]
ptxi: 1 error: deadlock 1
EOF
expect 3 cccl-user-frame "$ptxi" run cccl_deadlock.ptx --block 64 --arg buf:256 --arg f32:2

# A shared array by its source name ('tile[0]', not '_ZZ5scalePffiE4tile[0]')
err <<'EOF'
race_tile.cu:10:5: error: data race on shared 0x0 ('tile[0]', 4 bytes): this read by CTA (0,0,0) thread 32 is not ordered after the write by thread 0 [data-race]
    10 |     out[t - 32] = tile[t - 32];   // the bug: no __syncthreads() before this read
       |     ^
    in function 'scale(float*, float, int)'
    PTX: race_tile.ptx:59:2
    CTA (0,0,0) thread 32 (32,0,0)
    nothing orders them: no barrier, mbarrier wait or release/acquire pair of a scope that includes both threads lies between
    rule (PTX ISA 8.7): two accesses by different threads to overlapping bytes of shared or global memory, at least one a write and not both strong with scopes that include each other, must be ordered by happens-before (a barrier, an mbarrier phase, a release/acquire pair)
    the hardware carries on; --keep-going would too: the hardware returns whichever value the timing gives; ptxi carries on in its schedule
race_tile.cu:8:5: note: the earlier write by thread 0
     8 |     tile[t] = t * scale;
       |     ^
    in function 'scale(float*, float, int)'
    PTX: race_tile.ptx:49:2
ptxi: 1 error: data-race 1
EOF
expect 1 race-shared-name "$ptxi" run race_tile.ptx --block 64 --arg buf:256 --arg f32:2 --arg s32:32

# Parameters by the source's names and C++ types; the kernel demangled
echo "ptxi: error: argument 2 ('f64:2') does not fit parameter 1 'scale' (float) of kernel 'scale(float*, float, int)', which is 4 bytes" | err
expect 2 param-source-name "$ptxi" run race_tile.ptx --block 64 --arg buf:256 --arg f64:2 --arg s32:32
echo "ptxi: error: kernel 'scale(float*, float, int)' takes 3 parameters; 2 --arg given" | err
expect 2 kernel-demangled "$ptxi" run race_tile.ptx --block 64 --arg buf:256 --arg f32:2
# without the source beside it: the C++ type from the mangled name only
mkdir -p "$tmp/nosrc" && cp race_tile.ptx "$tmp/nosrc/"
echo "ptxi: error: argument 2 ('f64:2') does not fit parameter 1 (float) of kernel 'scale(float*, float, int)', which is 4 bytes" | err
expect 2 param-no-source "$ptxi" run "$tmp/nosrc/race_tile.ptx" --block 64 --arg buf:256 --arg f64:2 --arg s32:32
out <<'EOF'
kernel scale(float*, float, int)   (PTX name _Z5scalePffi)
  parameters: 3 (16 bytes)
    0   _Z5scalePffi_param_0                     .u64                8 bytes, align 8  = 'out' (float*)
    1   _Z5scalePffi_param_1                     .f32                4 bytes, align 4  = 'scale' (float)
    2   _Z5scalePffi_param_2                     .u32                4 bytes, align 4  = 'n' (int)
  static shared memory: 256 bytes (more with --shared BYTES)
  parameter bytes used (ld.param reads, and parameter addresses taken):
    offset  bytes  in parameter                               use
    0       8      _Z5scalePffi_param_0+0                     global address
    8       4      _Z5scalePffi_param_1+0                     value
    12      4      _Z5scalePffi_param_2+0                     value
  requires: nothing beyond the sm_90 limits
  run: ptxi run race_tile.ptx --kernel _Z5scalePffi --grid 1 --block 128 --arg buf:BYTES --arg f32:0 --arg u32:0
EOF
expect 0 info-param-names "$ptxi" info race_tile.ptx

# --trace with -lineinfo: the .cu line first, the PTX line second; --trace-lines by .cu lines
err <<'EOF'
[trace] race_tile.cu:8 (race_tile.ptx:38): CTA (0,0,0) threads 0-31: shl.b32 	%r5, %r1, 2;
        %r5 = [0] 0x0, [1] 0x4, [2] 0x8, [3] 0xc, [4] 0x10, [5] 0x14, [6] 0x18, [7] 0x1c, ...
[trace] race_tile.cu:8 (race_tile.ptx:39): CTA (0,0,0) threads 0-31: mov.u32 	%r6, _ZZ5scalePffiE4tile;
        %r6 = 0x0
[trace] race_tile.cu:8 (race_tile.ptx:40): CTA (0,0,0) threads 0-31: add.s32 	%r2, %r6, %r5;
        %r2 = [0] 0x0, [1] 0x4, [2] 0x8, [3] 0xc, [4] 0x10, [5] 0x14, [6] 0x18, [7] 0x1c, ...
[trace] race_tile.cu:8 (race_tile.ptx:47): CTA (0,0,0) threads 0-31: cvt.rn.f32.s32 	%f3, %r1;
        %f3 = [0] 0x0 (0), [1] 0x3f800000 (1), [2] 0x40000000 (2), [3] 0x40400000 (3), [4] 0x40800000 (4), [5] 0x40a00000 (5), [6] 0x40c00000 (6), [7] 0x40e00000 (7), ...
[trace] race_tile.cu:8 (race_tile.ptx:48): CTA (0,0,0) threads 0-31: mul.f32 	%f4, %f3, %f1;
        %f4 = [0] 0x0 (0), [1] 0x40000000 (2), [2] 0x40800000 (4), [3] 0x40c00000 (6), [4] 0x41000000 (8), [5] 0x41200000 (10), [6] 0x41400000 (12), [7] 0x41600000 (14), ...
[trace] race_tile.cu:8 (race_tile.ptx:49): CTA (0,0,0) threads 0-31: st.shared.f32 	[%r2], %f4;
[trace] race_tile.cu:8 (race_tile.ptx:50): CTA (0,0,0) threads 0-31: bra.uni 	$L__BB0_4;
EOF
expect 0 trace-cu-lines "$ptxi" run race_tile.ptx --block 64 --arg buf:256 --arg f32:2 --arg s32:32 \
  --no-race --trace all --trace-lines race_tile.cu:8-8 --trace-warp 0
echo "ptxi: error: --trace-lines: no .loc of the module names source file 'nope.cu' (nvcc -lineinfo writes them)" | err
expect 2 trace-lines-no-file "$ptxi" run race_tile.ptx --block 64 --arg buf:256 --arg f32:2 \
  --arg s32:32 --trace all --trace-lines nope.cu:8-8

# check: a static error in inline PTX says which .cu line (and inlined function) it came
# from, though nvcc writes the .file lines after the function
err <<'EOF'
asm_check.ptx:29:15: error: '%clock64' is 64 bits wide: mov.u32 cannot read it [special-register]
    29 |  mov.u32 %r1, %clock64;
       |               ^~~~~~~~
    from asm_check.cu:6:3 in 'stamp()'
EOF
expect 2 check-from-cu "$ptxi" check asm_check.ptx

# Fills: buf:BYTES:zero|iota:TYPE|random:TYPE[:SEED]|const:TYPE:V (noop.ptx leaves them)
K=../../ptx_samples/kernels
out <<'EOF'
00 00 00 00 00 00 80 3f 00 00 00 40 00 00 40 40
00 00 01 00 02 00 03 00
ef 36 38 3f 49 3f ac be 88 49 2c 3f
ea 7e 6c 3f 76 79 66 3e ff 05 f8 3e
c0 3f c0 3f c0 3f c0 3f
fd ff ff ff fd ff ff ff
00 00 00 00 00 00 00 00
EOF
expect 0 fills sh -c "for f in iota:f32 iota:u16 random:f32 random:f32:7 const:bf16:1.5 const:s32:-3 zero; do
  n=8; case \$f in iota:f32) n=16;; random*) n=12;; esac
  '$ptxi' run $K/noop.ptx --arg buf:\$n:\$f --dump 0:hex || exit 9; done"
echo "ptxi: error: 'buf:6:iota:f32': want buf:BYTES[:FILL], FILL one of zero, iota:TYPE, random:TYPE[:SEED], const:TYPE:V; TYPE one of u8 u16 u32 u64 s8 s16 s32 s64 f16 bf16 f32 f64, BYTES a whole number of them" | err
expect 2 fill-partial-element "$ptxi" run $K/noop.ptx --arg buf:6:iota:f32

# --expect against a reference, --dump :COUNT; y = 2*x + 1 over 64 elements
python3 -c "import struct,sys; sys.stdout.buffer.write(struct.pack('<64f',*[2*i+1 for i in range(64)]))" > "$tmp/want.bin"
python3 -c "import struct,sys; v=[2*i+1 for i in range(64)]; v[5]=11.5; v[9]=7; sys.stdout.buffer.write(struct.pack('<64f',*v))" > "$tmp/near.bin"
saxpy() { "$ptxi" run saxpy.ptx --block 32 --arg buf:256:const:f32:1 --arg buf:256:iota:f32 --arg f32:2 "$@"; }
printf '1\n3\n5\n' | out
echo "ptxi: --expect 0=$tmp/want.bin: all 64 f32 elements match" | err
expect 0 expect-match saxpy --grid 2 --arg s32:64 --expect 0="$tmp/want.bin" --dump 0:f32:3
echo "ptxi: error: --expect 0=$tmp/near.bin: 2 of 64 f32 elements differ (rtol 0, atol 0); the first is element 5 (byte 20): 11, expected 11.5" | err
expect 1 expect-mismatch saxpy --grid 2 --arg s32:64 --expect 0="$tmp/near.bin"
echo "ptxi: error: --expect 0=$tmp/near.bin,rtol=0.05,type=f32: 1 of 64 f32 elements differ (rtol 0.05, atol 0); the first is element 9 (byte 36): 19, expected 7" | err
expect 1 expect-rtol saxpy --grid 2 --arg s32:64 --expect 0="$tmp/near.bin",rtol=0.05,type=f32
echo "ptxi: error: --expect 0=$tmp/nope.bin: cannot read '$tmp/nope.bin': No such file or directory" | err
expect 2 expect-no-file saxpy --grid 2 --arg s32:64 --expect 0="$tmp/nope.bin"
echo "ptxi: error: bad --expect '0=x,type=f8' (want N[@OFF]=FILE[,rtol=R][,atol=A][,type=T] or SYMBOL[@OFF]=FILE[,...]; at most 64) (see 'ptxi --help')" | err
expect 2 expect-bad-type saxpy --grid 2 --arg s32:64 --expect 0=x,type=f8
# a dump after a launch that stopped says so
printf '1\n3\n' | out
err <<'EOF'
saxpy.cu:7:5: error: 4-byte access at global address 0x700001200 is outside every allocation: it ends 4 bytes past the end of the 256-byte buffer of argument 1 at 0x700001100 [memory-out-of-bounds]
     7 |     y[i] = a * x[i] + y[i];
       |     ^
    in function 'saxpy(float*, float const*, float, int)'
    PTX: saxpy.ptx:48:2
    CTA (2,0,0) thread 0 (0,0,0)
    rule (PTX ISA 5.1): a memory access must fall inside an allocation of its state space
    the hardware faults here: the launch stops (the H100 faults with 'illegal address')
ptxi: 1 error: memory-out-of-bounds 1
ptxi: note: the launch stopped before its threads finished: --dump, --out and --expect see memory as it was then
EOF
expect 1 dump-after-stop saxpy --grid 3 --arg s32:65 --dump 0:f32:2

# Wrong input kinds: one line saying what the file is and the command to run; exit 2.
# The headers are those nvcc 13.0 and gcc wrote (a cubin: ELF machine 190, EM_CUDA).
printf '\177ELF\002\001\001\101\010\000\000\000\000\000\000\000\002\000\276\000\001\000\000\000' > "$tmp/k.cubin"
printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\003\000\076\000\001\000\000\000' > "$tmp/app"
printf '\120\355\125\272\001\000\020\000\340\001\000\000\000\000\000\000' > "$tmp/k.fatbin"
echo "ptxi: error: 'saxpy.cu' is CUDA C++ source, not PTX: make PTX with 'nvcc -arch=sm_90a -ptx -lineinfo saxpy.cu -o saxpy.ptx', then run 'ptxi run saxpy.ptx'" | err
expect 2 input-cu "$ptxi" run saxpy.cu --arg buf:4
echo "ptxi: error: '$tmp/k.cubin' is a cubin (GPU machine code), not PTX: ptxi runs PTX; make it from the source with 'nvcc -arch=sm_90a -ptx -lineinfo k.cu -o k.ptx'" | err
expect 2 input-cubin "$ptxi" check "$tmp/k.cubin"
echo "ptxi: error: '$tmp/app' is a host program or object (ELF), not PTX: run the program with its kernels in ptxi as 'ptxi exec $tmp/app [ARGS]', or extract its PTX with 'cuobjdump -ptx $tmp/app > app.ptx'" | err
expect 2 input-elf "$ptxi" run "$tmp/app"
echo "ptxi: error: '$tmp/k.fatbin' is a fatbin, not PTX: extract the PTX it holds (compressed) with 'cuobjdump -ptx $tmp/k.fatbin > k.ptx', or make PTX from the source with 'nvcc -arch=sm_90a -ptx -lineinfo k.cu -o k.ptx'" | err
expect 2 input-fatbin "$ptxi" info "$tmp/k.fatbin"

# --timeline: the hover leads with the .cu line (the page's "cu" map), the kernel demangled
"$ptxi" run cccl_deadlock.ptx --block 64 --arg buf:256 --arg f32:2 --timeline "$tmp/t.html" 2> /dev/null
echo '"cu":{"46":"cccl_deadlock.cu:22","52":"cccl_deadlock.cu:23","80":"cccl_deadlock.cu:11","102":"cccl_deadlock.cu:11","127":"cccl_deadlock.cu:30"}' | out
expect 0 timeline-cu-lines grep -o '"cu":{[^}]*}' "$tmp/t.html"
echo '"kernel":"pipeline(float*, float)"' | out
expect 0 timeline-kernel-name grep -o '"kernel":"[^"]*"' "$tmp/t.html"


# A map-only TMA kernel (map_only.ptx: a 16x4 f32 box in through the map, doubled, out
# through it) over a --buffer, a module .global variable, and from inside a struct over
# another argument's buffer (buf=K) or a --buffer's address (buf=NAME).
M=type=f32,dims=16x8,strides=64,box=16x4
python3 -c "import struct,sys; sys.stdout.buffer.write(struct.pack('<128f',*[2*i if i<64 else i for i in range(128)]))" > "$tmp/map.bin"
mo() { "$ptxi" run map_only.ptx --block 64 "$@"; }
printf '0\n2\n4\n' | out
echo "ptxi: --expect A=$tmp/map.bin: all 128 f32 elements match" | err
expect 0 map-only-buffer mo --kernel map_only --buffer A=buf:512:iota:f32 --arg tmap:buf=A,$M --expect A="$tmp/map.bin" --dump A:f32:3
printf '3\n-4\n0\n' | out
expect 0 map-only-global mo --kernel map_only --arg tmap:buf=table,$M --set "table=bytes:256,@0=f32:1.5,@4=f32:-2" --dump table:f32:3
echo "ptxi: --expect 0=$tmp/map.bin: all 128 f32 elements match" | err
expect 0 map-in-struct-arg mo --kernel map_in_struct --arg buf:512:iota:f32 --arg "bytes:192,@64=tmap:buf=0,$M" --expect 0="$tmp/map.bin"
echo "ptxi: --expect src=$tmp/map.bin: all 128 f32 elements match" | err
expect 0 map-in-struct-named mo --kernel map_in_struct --buffer src=buf:512:iota:f32 --arg buf=src --arg "bytes:192,@0=buf=src,@64=tmap:buf=@0,$M" --expect src="$tmp/map.bin"
echo "ptxi: error: tensor map argument 1 ('tmap:buf=B,$M'): buf=B names no --buffer and no .global variable of the module" | err
expect 2 map-unknown-name mo --kernel map_only --arg tmap:buf=B,$M
echo "ptxi: error: buffer of argument 0 ('buf=nope'): no --buffer nope was given" | err
expect 2 buffer-unknown mo --kernel map_in_struct --arg buf=nope --arg bytes:192
echo "ptxi: error: --buffer 'A=u32:3': want NAME=buf:BYTES[:FILL] or NAME=file:PATH (see 'ptxi --help')" | err
expect 2 buffer-not-buffer mo --kernel map_only --buffer A=u32:3 --arg tmap:buf=A,$M
echo "ptxi: error: --buffer A is given twice (see 'ptxi --help')" | err
expect 2 buffer-twice mo --kernel map_only --buffer A=buf:8 --buffer A=buf:8 --arg tmap:buf=A,$M
echo "ptxi: error: bad --buffer '3=buf:8' (want NAME=SPEC, NAME not a number; at most 64) (see 'ptxi --help')" | err
expect 2 buffer-number mo --kernel map_only --buffer 3=buf:8 --arg tmap:buf=A,$M


# A chained two-kernel computation (chain.cu: square, then mirror_add over its output), one
# command a kernel: the first --out's file is the second's file: argument; z[i] = i^2 + (63-i)^2
# (fed the first run's input instead, the second gives i + (63-i) = 63 everywhere)
python3 -c "import struct,sys; sys.stdout.buffer.write(struct.pack('<64f',*[i*i+(63-i)**2 for i in range(64)]))" > "$tmp/chain.bin"
expect 0 chain-first "$ptxi" run chain.ptx --kernel square --grid 2 --block 32 --arg buf:256 --arg buf:256:iota:f32 --arg s32:64 --out 0="$tmp/sq.bin"
printf '3969\n3845\n3725\n' | out
echo "ptxi: --expect 0=$tmp/chain.bin: all 64 f32 elements match" | err
expect 0 chain-second "$ptxi" run chain.ptx --kernel mirror_add --grid 2 --block 32 --arg buf:256 --arg file:"$tmp/sq.bin" --arg s32:64 --expect 0="$tmp/chain.bin" --dump 0:f32:3
echo "ptxi: error: --expect 0=$tmp/chain.bin: 64 of 64 f32 elements differ (rtol 0, atol 0); the first is element 0 (byte 0): 63, expected 3969" | err
expect 1 chain-second-wrong-input "$ptxi" run chain.ptx --kernel mirror_add --grid 2 --block 32 --arg buf:256 --arg buf:256:iota:f32 --arg s32:64 --expect 0="$tmp/chain.bin"


# A grid that would take over an hour says so once its first CTAs have run (the hours vary
# with the machine: masked), with or without the progress line; stopped here by --max-steps
printf 'ptxi: note: at this pace the grid of 2000000000 CTAs takes about H h M min (Ctrl-C stops it and says where its warps stand)\nexit 3\n' | out
expect 0 long-grid-note sh -c "'$ptxi' run long_cta.ptx --grid 2000000000 --max-steps 2000000 --progress never 2> '$tmp/e'; st=\$?
  head -1 '$tmp/e' | sed 's/about [0-9]* h [0-9]* min/about H h M min/'; echo exit \$st"

# --ctas: part of the grid. Each CTA of ctas.ptx writes its index + 100 to out[index];
# the CTAs not run leave the buffer's fill (7, or 0). A CTA runs its whole cluster; --jobs
# runs the same part; a bad list is a usage error (exit 2) before anything runs.
note_end() { echo "ptxi: note: only part of the grid ran: $1 of 16 CTAs (--ctas)"; }
keep="the others do not run and leave memory as it was: --dump, --out and --expect show only these CTAs' writes"
printf '%08x\n' 100 7 7 7 7 105 7 7 7 109 7 7 7 7 7 7 | out
{ echo "ptxi: note: --ctas: 3 of 16 CTAs run (0, 5, 9); $keep"; note_end 3; } | err
expect 0 ctas-list "$ptxi" run ctas.ptx --grid 16 --block 32 --arg buf:64:const:u32:7 --ctas 0,5,9 --dump 0
printf '0\n0\n0\n0\n104\n105\n0\n0\n0\n0\n0\n0\n112\n113\n0\n0\n' | out
{ echo "ptxi: note: --ctas: 4 of 16 CTAs run (4-5, 12-13), each with its whole cluster; $keep"; note_end 4; } | err
expect 0 ctas-cluster-jobs "$ptxi" run ctas.ptx --grid 8,2 --cluster 2,2 --block 32 --arg buf:64 --ctas 5 --dump 0:u32 --no-race --jobs 2
printf '100\n0\n0\n0\n104\n0\n0\n0\n108\n0\n0\n0\n112\n0\n0\n0\n' | out
{ echo "ptxi: note: --ctas: 4 of 16 CTAs run (0, 4, 8, 12); $keep"; note_end 4; } | err
expect 0 ctas-sample "$ptxi" run ctas.ptx --grid 16 --block 32 --arg buf:64 --ctas sample:4 --dump 0:u32
printf '0\n101\n102\n103\n' | out
{ echo "ptxi: note: --ctas: 3 of 16 CTAs run (1-3); $keep"; note_end 3; } | err
expect 0 ctas-range "$ptxi" run ctas.ptx --grid 16 --block 32 --arg buf:64 --ctas 1-3 --dump 0:u32:4
for bad in "16|--ctas: CTA 16 is outside the grid of 16 CTAs (0-15)" \
           "5-3|--ctas: the range 5-3 runs backwards" \
           "1,,2|--ctas '1,,2': want CTA indices and ranges (0,5,9 or 0-15 or both) or sample:N" \
           "sample:0|--ctas 'sample:0': sample:N wants a count of CTAs, at least 1"; do
  echo "ptxi: error: ${bad#*|}" | err
  expect 2 "ctas-bad ${bad%%|*}" "$ptxi" run ctas.ptx --grid 16 --block 32 --arg buf:64 --ctas "${bad%%|*}"
done

[ "$fail" = 0 ] && echo "userlang: all passed"
exit $fail
