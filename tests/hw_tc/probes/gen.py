#!/usr/bin/env python3
"""
gen.py - the questions asked of an H100 about the tensor-core forms whose behaviour the PTX
manual leaves open or that were not measured before (docs/tensor-cores.md). Writes one PTX
probe per form into the current directory; each runs on one warp and writes u32 words to its
first parameter. The H100's words are kept beside each probe as NAME.h100 and
tests/hw_tc/probes.sh checks that ptxi writes the same words.

  gen.py            write every probe (NAME.ptx) and list.txt (NAME WORDS per line)

Probes:
  wl_*  wmma.load.{a,b,c}: the loaded matrix holds its own memory index at every element
        (16-bit and wider elements: the index; 8-, 4- and 1-bit ones: the index's bits, one
        pass per element width), so the fragment registers say which element each holds.
  ws_*  wmma.store.d: every fragment element holds its own number (lane, register, half);
        the stored matrix says where each goes.
  mn_*  mma.sync numerics (forms not measured before): operands from a hash of (iteration,
        operand, lane, register), with exponents drawn from four regimes (narrow, middle,
        wide with subnormals, raw bits with inf/NaN); every D register stored.
  wp_*  wmma load -> mma -> store over hashed matrices in shared memory (the same regimes):
        wmma.mma's numerics through whole matrices, independent of the fragment layout.
  wd_*  wgmma.mma_async m64n16k16 with A one-hot from registers and B through a matrix
        descriptor over shared memory whose element e holds e: D says which element the
        descriptor reached for each (k, n), K-major and MN-major, every swizzle mode, base
        offsets and starts not aligned to the swizzle pattern (128 threads).
  sp_*  mma.sp / mma.sp::ordered_metadata numerics: A, B, C and the metadata word hashed as
        for mn_* (the metadata raw, so every 4-bit chunk occurs, the 2:4 patterns and the
        others), one probe per form and legal sparsity selector; every D register stored.
  sl_*  mma.sp layout: A all ones, B[k][n] = 2^k (exact in f32), metadata hashed: D[m][n] is
        the sum of 2^k over the columns k the metadata selected for row m.
Run on the GPU with ../../../../shared/tools/gpu-launch.c:
  gpu-launch NAME.ptx probe 1 32 1 WORDS 16 0      (wd_*: block 128)
"""
import os

HEAD = """.version 8.7
.target sm_90a
.address_size 64
"""

# ---- wmma forms (ISA 9.7.14.4) ------------------------------------------------------------
# shape -> (M, N, K); A/B types per shape; accumulator types
WMMA_SHAPES = {
    'm16n16k16': (16, 16, 16), 'm32n8k16': (32, 8, 16), 'm8n32k16': (8, 32, 16),
    'm16n16k8': (16, 16, 8), 'm8n8k4': (8, 8, 4), 'm8n8k32': (8, 8, 32), 'm8n8k128': (8, 8, 128),
}
AB_TYPES = {
    'm16n16k16': ['f16', 'bf16', 's8', 'u8'], 'm32n8k16': ['f16', 'bf16', 's8', 'u8'],
    'm8n32k16': ['f16', 'bf16', 's8', 'u8'], 'm16n16k8': ['tf32'], 'm8n8k4': ['f64'],
    'm8n8k32': ['s4', 'u4'], 'm8n8k128': ['b1'],
}
C_TYPES = {
    'm16n16k16': ['f16', 'f32', 's32'], 'm32n8k16': ['f16', 'f32', 's32'],
    'm8n32k16': ['f16', 'f32', 's32'], 'm16n16k8': ['f32'], 'm8n8k4': ['f64'],
    'm8n8k32': ['s32'], 'm8n8k128': ['s32'],
}
BITS = {'f16': 16, 'bf16': 16, 's8': 8, 'u8': 8, 'tf32': 32, 'f64': 64, 's4': 4, 'u4': 4,
        'b1': 1, 'f32': 32, 's32': 32}


def dims(shape, which):
    m, n, k = WMMA_SHAPES[shape]
    return {'a': (m, k), 'b': (k, n), 'c': (m, n), 'd': (m, n)}[which]


def frag_regs(shape, which, t):
    """Registers of one lane's fragment (b32, or f64 for f64)."""
    r, c = dims(shape, which)
    if t == 'f16' and which in 'ab':
        return 8
    per = 1 if BITS[t] >= 32 else 32 // BITS[t]
    return r * c // 32 // per


def reg_decl(t):
    return {'f32': ('.f32', '%f'), 'f64': ('.f64', '%fd')}.get(t, ('.b32', '%r'))


def regs(t, n, base=100):
    _, p = reg_decl(t)
    return '{' + ', '.join('%s%d' % (p, base + i) for i in range(n)) + '}'


def store_regs(t, n, base, off_words_expr):
    """PTX storing n fragment registers at %rd3 (byte address already computed)."""
    _, p = reg_decl(t)
    out = []
    step = 8 if t == 'f64' else 4
    st = {'f32': 'st.global.f32', 'f64': 'st.global.f64'}.get(t, 'st.global.b32')
    for i in range(n):
        out.append('\t%s [%%rd3+%d], %s%d;' % (st, i * step, p, base + i))
    return out


def kernel(body, decls=''):
    return HEAD + decls + """.visible .entry probe(.param .u64 out, .param .u64 in)
{
	.reg .b32 %%r<400>;
	.reg .f32 %%f<400>;
	.reg .f64 %%fd<400>;
	.reg .b64 %%rd<40>;
	.reg .pred %%p<8>;
	ld.param.u64 %%rd1, [out];
	mov.u32 %%r0, %%tid.x;
%s
	ret;
}
""" % body


def image_bytes(vals, bits):
    """Pack element values (already masked to `bits`) into little-endian bytes."""
    if bits >= 8:
        b = bytearray()
        for v in vals:
            b += int(v).to_bytes(bits // 8, 'little')
        return bytes(b)
    b = bytearray((len(vals) * bits + 7) // 8)
    for i, v in enumerate(vals):
        b[i * bits // 8] |= v << (i * bits % 8)
    return bytes(b)


def gvar(name, data):
    s = ', '.join(str(x) for x in data)
    return '.global .align 16 .b8 %s[%d] = {%s};\n' % (name, len(data), s)


def wmma_load_probe(which, layout, shape, t):
    rows, cols = dims(shape, which)
    n = rows * cols
    bits = BITS[t]
    passes = 1 if bits >= 16 else (max(n - 1, 1).bit_length() + bits - 1) // bits
    nreg = frag_regs(shape, which, t)
    words_per_lane = nreg * (2 if t == 'f64' else 1)
    decls = ''
    body = ['\tmul.wide.u32 %%rd2, %%r0, %d;' % (words_per_lane * 4)]
    stride = cols if layout == 'row' else rows
    for p in range(passes):
        if bits >= 16:
            if bits == 16:
                vals = list(range(n))
            elif bits == 32:
                vals = [i | i << 16 for i in range(n)]
            else:
                vals = [i | i << 32 for i in range(n)]
        else:
            vals = [(i >> (p * bits)) & ((1 << bits) - 1) for i in range(n)]
        decls += gvar('img%d' % p, image_bytes(vals, bits))
        body.append('\tmov.u64 %%rd4, img%d;' % p)
        body.append('\twmma.load.%s.sync.aligned.%s.%s.global.%s %s, [%%rd4], %d;' %
                    (which, layout, shape, t, regs(t if which == 'c' else
                                                   ('f64' if t == 'f64' else 'b32'), nreg),
                     stride))
        body.append('\tadd.u64 %%rd3, %%rd1, %d;' % (p * 32 * words_per_lane * 4))
        body.append('\tadd.u64 %rd3, %rd3, %rd2;')
        body += store_regs(t if which == 'c' else ('f64' if t == 'f64' else 'b32'), nreg, 100,
                           None)
    return kernel('\n'.join(body), decls), passes * 32 * words_per_lane


def wmma_store_probe(layout, shape, t):
    rows, cols = dims(shape, 'd')
    nreg = frag_regs(shape, 'd', t)
    _, pre = reg_decl(t)
    body = []
    # fragment element numbers: f16: 2 (lane nreg + r) + half; f32/s32: lane nreg + r;
    # f64: lane nreg + r as an integer (the bits, not the value)
    body.append('\tmul.lo.u32 %%r1, %%r0, %d;' % nreg)
    for r in range(nreg):
        if t == 'f16':
            body.append('\tadd.u32 %%r2, %%r1, %d;' % r)
            body.append('\tshl.b32 %r2, %r2, 1;')
            body.append('\tadd.u32 %r3, %r2, 1;')
            body.append('\tshl.b32 %r3, %r3, 16;')
            body.append('\tor.b32 %%r%d, %%r2, %%r3;' % (100 + r))
        elif t == 'f64':
            body.append('\tadd.u32 %%r2, %%r1, %d;' % r)
            body.append('\tcvt.u64.u32 %rd5, %r2;')
            body.append('\tmov.b64 %%fd%d, %%rd5;' % (100 + r))
        elif t == 'f32':
            body.append('\tadd.u32 %%r2, %%r1, %d;' % r)
            body.append('\tmov.b32 %%f%d, %%r2;' % (100 + r))
        else:
            body.append('\tadd.u32 %%r%d, %%r1, %d;' % (100 + r, r))
    stride = cols if layout == 'row' else rows
    body.append('\twmma.store.d.sync.aligned.%s.%s.global.%s [%%rd1], %s, %d;' %
                (layout, shape, t, regs(t, nreg), stride))
    words = rows * cols * BITS[t] // 32
    return kernel('\n'.join(body)), words


# ---- hashed operands ----------------------------------------------------------------------
# Per element type: (and, or) masks of a 32-bit word for the regimes narrow, middle, wide, raw.
MASKS = {
    'f16': [(0x8fff8fff, 0x38003800), (0x9fff9fff, 0x30003000), (0xbfffbfff, 0), (~0, 0)],
    'bf16': [(0x80ff80ff, 0x3f003f00), (0x81ff81ff, 0x3e003e00), (0xbfffbfff, 0), (~0, 0)],
    'e4m3': [(0x8f8f8f8f, 0x30303030), (0x9f9f9f9f, 0x20202020), (0xbfbfbfbf, 0), (~0, 0)],
    'e5m2': [(0x87878787, 0x38383838), (0x8f8f8f8f, 0x30303030), (0xbfbfbfbf, 0), (~0, 0)],
    'f32': [(0x80ffffff, 0x3f000000), (0x81ffffff, 0x3e000000), (0xbfffffff, 0), (~0, 0)],
    'tf32': [(0x80ffffff, 0x3f000000), (0x81ffffff, 0x3e000000), (0xbfffffff, 0), (~0, 0)],
    'int': [(~0, 0)] * 4,
}


def mask_table(types):
    """A .global table: for type i, regime r: words (and, or) at 8 (4 i + r)."""
    data = []
    for t in types:
        for a, o in MASKS[t]:
            data += [a & 0xffffffff, o]
    s = ', '.join('0x%08x' % x for x in data)
    return '.global .align 16 .u32 masks[%d] = {%s};\n' % (len(data), s)


def hash_word(dst, src):
    """dst = hash(src) (three multiply-xorshift rounds); uses %r9."""
    return ['\tmul.lo.u32 %s, %s, 0x9E3779B1;' % (dst, src),
            '\tshr.u32 %%r9, %s, 16;' % dst, '\txor.b32 %s, %s, %%r9;' % (dst, dst),
            '\tmul.lo.u32 %s, %s, 0x85EBCA6B;' % (dst, dst),
            '\tshr.u32 %%r9, %s, 13;' % dst, '\txor.b32 %s, %s, %%r9;' % (dst, dst),
            '\tmul.lo.u32 %s, %s, 0xC2B2AE35;' % (dst, dst),
            '\tshr.u32 %%r9, %s, 16;' % dst, '\txor.b32 %s, %s, %%r9;' % (dst, dst)]


def hashed(dst, opnd, idx, tslot):
    """dst = word idx of operand opnd this iteration, masked by type slot tslot's regime.
    %r5 = it * 65536 + lane * 64 + 1; %rd6 = address of this iteration's masks row."""
    out = ['\tadd.u32 %%r8, %%r5, %d;' % (opnd * 16384 + idx * 1)]
    out += hash_word(dst, '%r8')
    out += ['\tld.global.u32 %%r10, [%%rd6+%d];' % (tslot * 32),
            '\tld.global.u32 %%r11, [%%rd6+%d];' % (tslot * 32 + 4),
            '\tand.b32 %s, %s, %%r10;' % (dst, dst), '\tor.b32 %s, %s, %%r11;' % (dst, dst)]
    return out


def loop(iters, inner):
    """A loop over it = %r4 in [0, iters); %r5 = it 65536 + lane 64 + 1; %rd6 = the masks of
    regime it % 4."""
    return (['\tmov.u32 %r4, 0;', 'LOOP:',
             '\tshl.b32 %r5, %r4, 16;', '\tshl.b32 %r6, %r0, 6;', '\tadd.u32 %r5, %r5, %r6;',
             '\tadd.u32 %r5, %r5, 1;', '\tand.b32 %r7, %r4, 3;',
             '\tmul.wide.u32 %rd7, %r7, 8;', '\tmov.u64 %rd6, masks;',
             '\tadd.u64 %rd6, %rd6, %rd7;'] + inner +
            ['\tadd.u32 %r4, %r4, 1;', '\tsetp.lt.u32 %%p1, %%r4, %d;' % iters,
             '\t@%p1 bra LOOP;'])


def mma_probe(instr, na, nb, nc, nd, ta, tb, tc, iters=64):
    """mma.sync: A, B, C registers hashed; D (b32 words, f32 as .b32 too) stored per lane per
    iteration at out + 4 ((it 32 + lane) nd + r)."""
    types = [ta, tb, tc]
    inner = []
    for i in range(na):
        inner += hashed('%%r%d' % (100 + i), 0, i, 0)
    for i in range(nb):
        inner += hashed('%%r%d' % (140 + i), 1, i, 1)
    for i in range(nc):
        inner += hashed('%%r%d' % (180 + i), 2, i, 2)

    def rl(b, n):
        return '{' + ', '.join('%%r%d' % (b + i) for i in range(n)) + '}'
    inner.append('\t%s %s, %s, %s, %s;' % (instr, rl(220, nd), rl(100, na), rl(140, nb),
                                           rl(180, nc)))
    inner += ['\tshl.b32 %r12, %r4, 5;', '\tadd.u32 %r12, %r12, %r0;',
              '\tmul.wide.u32 %%rd3, %%r12, %d;' % (nd * 4), '\tadd.u64 %rd3, %rd3, %rd1;']
    inner += ['\tst.global.b32 [%%rd3+%d], %%r%d;' % (4 * i, 220 + i) for i in range(nd)]
    return kernel('\n'.join(loop(iters, inner)), mask_table(types)), iters * 32 * nd


def wp_probe(shape, al, bl, ta, tb, tc, td, extra='', iters=16):
    """wmma: A (M x K), B (K x N), C (M x N) as hashed words in shared memory (each lane
    writes words lane, lane + 32, ...), loaded with layouts al, bl and row; D stored row-major
    at out + it * (M N bits / 8)."""
    m, n, k = WMMA_SHAPES[shape]
    types = [{'s8': 'int', 'u8': 'int', 's4': 'int', 'u4': 'int', 'b1': 'int', 's32': 'int',
              'f64': 'int'}.get(t, t) for t in (ta, tb, tc)]
    wa = m * k * BITS[ta] // 32
    wb = k * n * BITS[tb] // 32
    wc = m * n * BITS[tc] // 32
    wd = m * n * BITS[td] // 32
    decls = mask_table(types) + '.shared .align 128 .b32 sa[%d];\n' % wa
    decls += '.shared .align 128 .b32 sb[%d];\n.shared .align 128 .b32 sc[%d];\n' % (wb, wc)
    inner = []
    for opnd, (arr, nw) in enumerate([('sa', wa), ('sb', wb), ('sc', wc)]):
        for j in range((nw + 31) // 32):
            inner += hashed('%r20', opnd, j, opnd)
            inner += ['\tmov.u64 %%rd21, %s;' % arr, '\tadd.u32 %%r22, %%r0, %d;' % (32 * j),
                      '\tsetp.lt.u32 %%p2, %%r22, %d;' % nw,
                      '\tmul.wide.u32 %rd22, %r22, 4;', '\tadd.u64 %rd21, %rd21, %rd22;',
                      '\t@%p2 st.shared.b32 [%rd21], %r20;']
    inner.append('\tbar.warp.sync -1;')
    na, nb = frag_regs(shape, 'a', ta), frag_regs(shape, 'b', tb)
    nc, nd = frag_regs(shape, 'c', tc), frag_regs(shape, 'd', td)
    rta = 'f64' if ta == 'f64' else 'b32'
    sa = k if al == 'row' else m
    sb = n if bl == 'row' else k
    ld_t = {'b1': 'b1', 's4': 's4', 'u4': 'u4'}.get(ta, ta)
    inner += ['\tmov.u64 %rd24, sa;', '\tmov.u64 %rd25, sb;', '\tmov.u64 %rd26, sc;',
              '\twmma.load.a.sync.aligned.%s.%s.shared.%s %s, [%%rd24], %d;' %
              (al, shape, ld_t, regs(rta, na, 100), sa),
              '\twmma.load.b.sync.aligned.%s.%s.shared.%s %s, [%%rd25], %d;' %
              (bl, shape, tb, regs(rta, nb, 140), sb),
              '\twmma.load.c.sync.aligned.row.%s.shared.%s %s, [%%rd26], %d;' %
              (shape, tc, regs(tc, nc, 180), n)]
    if ta in ('f16',):
        tys = '%s.%s' % (td, tc)
    else:
        tys = '%s.%s.%s.%s' % (td, ta, tb, tc)
    pre, post = (extra, '') if 'popc' in extra else ('', extra)
    inner.append('\twmma.mma%s.sync.aligned.%s.%s.%s.%s%s %s, %s, %s, %s;' %
                 (pre, al, bl, shape, tys, post, regs(td, nd, 220), regs(rta, na, 100),
                  regs(rta, nb, 140), regs(tc, nc, 180)))
    inner += ['\tmul.wide.u32 %%rd3, %%r4, %d;' % (wd * 4), '\tadd.u64 %rd3, %rd3, %rd1;',
              '\twmma.store.d.sync.aligned.row.%s.global.%s [%%rd3], %s, %d;' %
              (shape, td, regs(td, nd, 220), n),
              '\tbar.warp.sync -1;']
    return kernel('\n'.join(loop(iters, inner)), decls), iters * wd


def all_probes():
    P = {}
    for shape, abt in AB_TYPES.items():
        for t in abt:
            for which in 'ab':
                lays = ['row', 'col']
                if t in ('s4', 'u4', 'b1'):
                    lays = ['row'] if which == 'a' else ['col']
                for lay in lays:
                    P['wl_%s_%s_%s_%s' % (which, lay, shape, t)] = wmma_load_probe(which, lay,
                                                                                    shape, t)
        for t in C_TYPES[shape]:
            for lay in ('row', 'col'):
                P['wl_c_%s_%s_%s' % (lay, shape, t)] = wmma_load_probe('c', lay, shape, t)
                P['ws_d_%s_%s_%s' % (lay, shape, t)] = wmma_store_probe(lay, shape, t)
    # mma.m8n8k4 with f16 (quad-pair fragments): every layout pair and every d/c pair ptxas
    # accepts (an f32 C needs an f32 D)
    for al in ('row', 'col'):
        for bl in ('row', 'col'):
            for d, c in (('f16', 'f16'), ('f32', 'f16'), ('f32', 'f32')):
                nd = 4 if d == 'f16' else 8
                nc = 4 if c == 'f16' else 8
                ins = 'mma.sync.aligned.m8n8k4.%s.%s.%s.f16.f16.%s' % (al, bl, d, c)
                P['mn_m8n8k4_%s_%s_%s_%s' % (al, bl, d, c)] = mma_probe(
                    ins, 2, 2, nc, nd, 'f16', 'f16', 'f16' if c == 'f16' else 'f32')
    # fp8 mma.sync with an f16 accumulator, and the m16n8k16 fp8 shape
    for a, b in (('e4m3', 'e4m3'), ('e4m3', 'e5m2'), ('e5m2', 'e4m3'), ('e5m2', 'e5m2')):
        ins = 'mma.sync.aligned.m16n8k32.row.col.f16.%s.%s.f16' % (a, b)
        P['mn_m16n8k32_f16_%s_%s' % (a, b)] = mma_probe(ins, 4, 2, 2, 2, a, b, 'f16')
    for d, a, b in (('f32', 'e4m3', 'e4m3'), ('f32', 'e5m2', 'e5m2'), ('f16', 'e4m3', 'e4m3'),
                    ('f16', 'e5m2', 'e4m3')):
        ins = 'mma.sync.aligned.m16n8k16.row.col.%s.%s.%s.%s' % (d, a, b, d)
        n = 4 if d == 'f32' else 2
        P['mn_m16n8k16_%s_%s_%s' % (d, a, b)] = mma_probe(ins, 2, 1, n, n, a, b, d)
    # wmma.mma numerics through memory
    P['wp_m16n16k16_f16_f32'] = wp_probe('m16n16k16', 'row', 'col', 'f16', 'f16', 'f32', 'f16')
    P['wp_m32n8k16_f16_f32'] = wp_probe('m32n8k16', 'col', 'row', 'f16', 'f16', 'f32', 'f16')
    P['wp_m8n32k16_f16_f32'] = wp_probe('m8n32k16', 'row', 'row', 'f16', 'f16', 'f32', 'f16')
    P['wp_m16n16k16_f32_f16'] = wp_probe('m16n16k16', 'col', 'col', 'f16', 'f16', 'f16', 'f32')
    P['wp_m16n16k16_f16_f16'] = wp_probe('m16n16k16', 'row', 'col', 'f16', 'f16', 'f16', 'f16')
    P['wp_m16n16k16_f32_f32'] = wp_probe('m16n16k16', 'col', 'row', 'f16', 'f16', 'f32', 'f32')
    P['wp_m32n8k16_bf16'] = wp_probe('m32n8k16', 'row', 'col', 'bf16', 'bf16', 'f32', 'f32')
    P['wp_m16n16k8_tf32'] = wp_probe('m16n16k8', 'col', 'row', 'tf32', 'tf32', 'f32', 'f32')
    P['wp_m8n32k16_s8'] = wp_probe('m8n32k16', 'row', 'col', 's8', 's8', 's32', 's32')
    P['wp_m16n16k16_u8_satfinite'] = wp_probe('m16n16k16', 'row', 'row', 'u8', 'u8', 's32',
                                              's32', '.satfinite')
    P['wp_m8n8k32_s4'] = wp_probe('m8n8k32', 'row', 'col', 's4', 's4', 's32', 's32')
    P['wp_m8n8k128_b1_xor'] = wp_probe('m8n8k128', 'row', 'col', 'b1', 'b1', 's32', 's32',
                                       '.xor.popc')
    return P


def wgmma_desc_probe(mn_major, w, start, base, lbo, sbo):
    """wgmma.mma_async m64n16k16 f16 with A one-hot from registers (A[m][k] = 1 where
    k = m % 16) and B from shared memory through a descriptor: D[m][n] = B[m % 16][n], and
    shared element e (bytes 2e, 2e+1) holds the f16 value e, so D names the element the
    descriptor reached for every (k, n). 128 threads; each stores its 8 D registers."""
    swz = {0: 0, 128: 1, 64: 2, 32: 3}[w]
    desc = (((start >> 4) & 0x3fff) | ((lbo >> 4) & 0x3fff) << 16 | ((sbo >> 4) & 0x3fff) << 32
            | base << 49 | swz << 62)
    body = ['\tmov.u64 %rd10, sm;', '\tcvt.u32.u64 %r30, %rd10;',
            # element e = 16 tid + i, i < 16: value e as f16
            '\tshl.b32 %r31, %r0, 4;']
    for i in range(16):
        body += ['\tadd.u32 %%r32, %%r31, %d;' % i, '\tcvt.rn.f16.u32 %rs1, %r32;',
                 '\tshl.b32 %r33, %r32, 1;', '\tadd.u32 %r34, %r30, %r33;',
                 '\tst.shared.b16 [%r34], %rs1;']
    body += ['\tfence.proxy.async.shared::cta;', '\tbar.sync 0;']
    # A fragment: register r, half j: row g + 8 (r & 1), k 8 (r >> 1) + 2 t + j (mod 16 rows)
    body += ['\tand.b32 %r40, %r0, 31;', '\tshr.u32 %r41, %r40, 2;', '\tand.b32 %r42, %r40, 3;']
    for r in range(4):
        halves = []
        for j in range(2):
            body += ['\tshl.b32 %r43, %r42, 1;', '\tadd.u32 %%r43, %%r43, %d;' % (8 * (r >> 1) + j),
                     '\tadd.u32 %%r44, %%r41, %d;' % (8 * (r & 1)),
                     '\tsetp.eq.u32 %p3, %r43, %r44;',
                     '\tselp.b32 %%r%d, 15360, 0, %%p3;' % (45 + j)]
        body += ['\tshl.b32 %r46, %r46, 16;', '\tor.b32 %%r%d, %%r45, %%r46;' % (100 + r)]
    body += ['\tmov.u64 %%rd11, %d;' % desc, '\tshr.u32 %r47, %r30, 4;',
             '\tcvt.u64.u32 %rd12, %r47;', '\tadd.u64 %rd11, %rd11, %rd12;',
             '\tsetp.ne.u32 %p4, %r0, %r0;',
             '\twgmma.fence.sync.aligned;',
             '\twgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%%f100, %%f101, %%f102, '
             '%%f103, %%f104, %%f105, %%f106, %%f107}, {%%r100, %%r101, %%r102, %%r103}, %%rd11, '
             '%%p4, 1, 1, %d;' % (1 if mn_major else 0),
             '\twgmma.commit_group.sync.aligned;', '\twgmma.wait_group.sync.aligned 0;',
             '\tmul.wide.u32 %rd3, %r0, 32;', '\tadd.u64 %rd3, %rd3, %rd1;']
    body += ['\tst.global.f32 [%%rd3+%d], %%f%d;' % (4 * i, 100 + i) for i in range(8)]
    text = kernel('\n'.join(body), '.shared .align 1024 .b8 sm[4096];\n')
    return text.replace('.reg .pred %p<8>;', '.reg .pred %p<8>;\n\t.reg .b16 %rs<4>;'), 128 * 8


def desc_probes():
    P = {}
    for w, sbo in ((0, 256), (32, 256), (64, 512), (128, 1024)):
        lbo = 128 if w == 0 else 16
        cases = [(0, 0)] if w == 0 else [(0, 0), (128, 0), (256, 0), (0, 1), (128, 1), (0, 3),
                                          (384, 3), (512, 4)]
        for start, base in cases:
            P['wd_k_sw%d_s%d_b%d' % (w, start, base)] = wgmma_desc_probe(False, w, start, base,
                                                                         lbo, sbo)
    for w, sbo in ((0, 128), (32, 256), (64, 512), (128, 1024)):
        lbo = 256 if w == 0 else 16
        cases = [(0, 0)] if w == 0 else [(0, 0), (128, 0), (0, 2)]
        for start, base in cases:
            P['wd_mn_sw%d_s%d_b%d' % (w, start, base)] = wgmma_desc_probe(True, w, start, base,
                                                                          lbo, sbo)
    return P


# ---- sparse mma (ISA 9.7.14.6) ------------------------------------------------------------
# (shape, atype, A regs, B regs, legal selectors, [(dtype, ctype)]): every form ptxas sm_90a
# accepts (selectors as ptxas bounds them: 1 thread -> 0..3, a pair -> 0..1, all four -> 0).
SP_FORMS = [
    ('m16n8k16', 'f16', 2, 2, 4, [('f32', 'f32'), ('f16', 'f16')]),
    ('m16n8k32', 'f16', 4, 4, 2, [('f32', 'f32'), ('f16', 'f16')]),
    ('m16n8k16', 'bf16', 2, 2, 4, [('f32', 'f32')]),
    ('m16n8k32', 'bf16', 4, 4, 2, [('f32', 'f32')]),
    ('m16n8k8', 'tf32', 2, 2, 4, [('f32', 'f32')]),
    ('m16n8k16', 'tf32', 4, 4, 2, [('f32', 'f32')]),
    ('m16n8k32', 's8', 2, 2, 2, [('s32', 's32')]),
    ('m16n8k64', 'u8', 4, 4, 1, [('s32', 's32')]),
    ('m16n8k64', 'e4m3', 4, 4, 1, [('f32', 'f32')]),
    ('m16n8k64', 'e5m2', 4, 4, 1, [('f32', 'f32')]),
]


def sp_probe(instr, na, nb, nc, nd, ta, tc, sel, iters=16):
    """mma.sp: A, B, C and the metadata hashed (operand 3, raw bits); D stored as mma_probe."""
    tt = 'int' if ta in ('s8', 'u8') else ta
    types = [tt, tt, 'int' if tc == 's32' else tc, 'int']
    inner = []
    for i in range(na):
        inner += hashed('%%r%d' % (100 + i), 0, i, 0)
    for i in range(nb):
        inner += hashed('%%r%d' % (140 + i), 1, i, 1)
    for i in range(nc):
        inner += hashed('%%r%d' % (180 + i), 2, i, 2)
    inner += hashed('%r200', 3, 0, 3)

    def rl(b, n):
        return '{' + ', '.join('%%r%d' % (b + i) for i in range(n)) + '}'
    inner.append('\t%s %s, %s, %s, %s, %%r200, %d;' % (instr, rl(220, nd), rl(100, na),
                                                      rl(140, nb), rl(180, nc), sel))
    inner += ['\tshl.b32 %r12, %r4, 5;', '\tadd.u32 %r12, %r12, %r0;',
              '\tmul.wide.u32 %%rd3, %%r12, %d;' % (nd * 4), '\tadd.u64 %rd3, %rd3, %rd1;']
    inner += ['\tst.global.b32 [%%rd3+%d], %%r%d;' % (4 * i, 220 + i) for i in range(nd)]
    return kernel('\n'.join(loop(iters, inner)), mask_table(types)), iters * 32 * nd


def sp_layout_probe(instr, na, nb, ta, sel, k, iters=4):
    """A all ones; B[k][n] = 2^k: lane 4g + t holds B rows 2t + j + 8 r (16-bit, as mma.sync
    m16n8k16/k32); the metadata hashed; D (f32) stored as mma_probe."""
    one = {'f16': 0x3c00, 'bf16': 0x3f80}[ta]
    inner = ['\tmov.b32 %%r%d, %d;' % (100 + i, one | one << 16) for i in range(na)]
    inner += ['\tand.b32 %r20, %r0, 3;', '\tshl.b32 %r20, %r20, 1;']
    for r in range(nb):
        halves = []
        for j in range(2):
            # exponent field of 2^(2t + j + 8r): f16 bias 15 (<< 10), bf16 bias 127 (<< 7)
            sh, bias = (10, 15) if ta == 'f16' else (7, 127)
            inner += ['\tadd.u32 %%r21, %%r20, %d;' % (j + 8 * r + bias), '\tshl.b32 %%r%d, %%r21, %d;'
                      % (22 + j, sh)]
        inner += ['\tshl.b32 %r23, %r23, 16;', '\tor.b32 %%r%d, %%r22, %%r23;' % (140 + r)]
    inner += ['\tmov.b32 %%r%d, 0;' % (180 + i) for i in range(4)]
    inner += hashed('%r200', 3, 0, 0)

    def rl(b, n):
        return '{' + ', '.join('%%r%d' % (b + i) for i in range(n)) + '}'
    inner.append('\t%s %s, %s, %s, %s, %%r200, %d;' % (instr, rl(220, 4), rl(100, na),
                                                      rl(140, nb), rl(180, 4), sel))
    inner += ['\tshl.b32 %r12, %r4, 5;', '\tadd.u32 %r12, %r12, %r0;',
              '\tmul.wide.u32 %rd3, %r12, 16;', '\tadd.u64 %rd3, %rd3, %rd1;']
    inner += ['\tst.global.b32 [%%rd3+%d], %%r%d;' % (4 * i, 220 + i) for i in range(4)]
    return kernel('\n'.join(loop(iters, inner)), mask_table(['int'])), iters * 32 * 4


def sp_probes():
    P = {}
    for shape, ta, na, nb, nsel, accs in SP_FORMS:
        for d, c in accs:
            nd = 2 if d == 'f16' else 4
            for sel in range(nsel):
                ins = 'mma.sp.sync.aligned.%s.row.col.%s.%s.%s.%s' % (shape, d, ta, ta, c)
                P['sp_%s_%s_%s_s%d' % (shape, d, ta, sel)] = sp_probe(ins, na, nb, nd, nd, ta,
                                                                      c, sel)
    for shape, ta, na, sel in (('m16n8k16', 'f16', 2, 0), ('m16n8k32', 'bf16', 4, 1),
                               ('m16n8k64', 'e4m3', 4, 0)):
        ins = 'mma.sp::ordered_metadata.sync.aligned.%s.row.col.f32.%s.%s.f32' % (shape, ta, ta)
        P['sp_om_%s_f32_%s_s%d' % (shape, ta, sel)] = sp_probe(ins, na, na, 4, 4, ta, 'f32',
                                                               sel)
    for shape, ta, na, nsel, k in (('m16n8k16', 'f16', 2, 4, 16), ('m16n8k32', 'bf16', 4, 2, 32)):
        for sel in range(nsel):
            ins = 'mma.sp.sync.aligned.%s.row.col.f32.%s.%s.f32' % (shape, ta, ta)
            P['sl_%s_%s_s%d' % (shape, ta, sel)] = sp_layout_probe(ins, na, na, ta, sel, k)
    return P


def main():
    P = all_probes()
    P.update(desc_probes())
    P.update(sp_probes())
    with open('list.txt', 'w') as lst:
        for name in sorted(P):
            text, words = P[name]
            with open(name + '.ptx', 'w') as f:
                f.write('// %s: tests/hw_tc/probes/gen.py (see there); %d words\n' %
                        (name, words))
                f.write('// run: --block %d --arg buf:%d --arg buf:16 --dump 0 --no-race\n' %
                        (128 if name.startswith('wd_') else 32, words * 4))
                f.write(text)
            lst.write('%s %d\n' % (name, words))


if __name__ == '__main__':
    main()
