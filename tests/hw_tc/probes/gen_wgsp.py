#!/usr/bin/env python3
"""
gen_wgsp.py - probes of wgmma.mma_async.sp, of the metadata of mma.sp with .tf32, and of when
a warpgroup's wgmma reads its shared operands (issue #26). Writes NAME.ptx into the current
directory and appends NAME WORDS to list.txt, as gen.py does; the H100's words are NAME.h100.
All wgmma probes run on one warpgroup (128 threads); the mma.sp ones on one warp.

  wsl_*  wgmma.mma_async.sp layout: A (compressed, 64 x K/2, K-major in shared memory) holds
         cc + 1 at compressed column cc, B (K x N, K-major) is the identity (N = K), the
         metadata hashed per thread and iteration: D[m][n] is the sum of cc + 1 over the
         compressed columns the metadata sent to column n of row m. Each thread stores its
         metadata word, then its D registers, per iteration.
  wsn_*  wgmma.mma_async.sp numerics: A from registers, B in shared memory, C and the
         metadata hashed (regimes as gen.py's mn_*); every D register stored.
  stl_*  mma.sp with .tf32 (m16n8k8, m16n8k16): A compressed all ones, B[k][n] = 4^k, the
         metadata hashed: D[m][n] is the sum of 4^k over the columns k used (twice: 2 4^k);
         each lane stores its metadata word, then its D registers.
  wsv_*  wsn_* with .tf32 and metadata of the two tf32 patterns only (0b0100, 0b1110, a
         hashed bit per chunk); spv_*: mma.sp .tf32 likewise (gen.py's sp_*), every selector,
         and mma.sp::ordered_metadata (spv_om_*); stv_*: stl_* with those two patterns only;
         stp_*: mma.sp m16n8k8 .tf32 with A, B, C hashed and one pattern (0x0-0xf) in every
         chunk of the metadata.
  wgr_*  when the four warps of a warpgroup read B: warps 1-3 wait ~10^5 cycles before
         their wgmma.fence; warp 0 runs wgmma, waits for it, then overwrites B in shared
         memory (2.0 everywhere, fence.proxy.async). D of every warp says which B it used.
"""
import struct
from gen import HEAD, hashed, mask_table, loop, sp_probe

ES = {'f16': 2, 'bf16': 2, 'tf32': 4, 'e4m3': 1, 'e5m2': 1, 's8': 1, 'u8': 1}
KOF = {2: 32, 4: 16, 1: 64}          # sparse K per element size


def enc(t, v):
    if t == 'f16':
        return struct.pack('<e', v)
    if t == 'bf16':
        return struct.pack('<f', v)[2:]
    if t == 'tf32':
        return struct.pack('<f', v)
    return bytes([int(v)])


def gbytes(name, data):
    return '.global .align 16 .b8 %s[%d] = {%s};\n' % (name, len(data), ', '.join(map(str, data)))


def kernel(body, decls):
    return HEAD + decls + """.visible .entry probe(.param .u64 out, .param .u64 in)
{
	.reg .b32 %%r<400>;
	.reg .f32 %%f<400>;
	.reg .b64 %%rd<40>;
	.reg .pred %%p<8>;
	ld.param.u64 %%rd1, [out];
	mov.u32 %%r0, %%tid.x;
	mov.u64 %%rd10, sm;
	cvt.u32.u64 %%r30, %%rd10;
%s
	ret;
}
""" % body


def copy_in(img, nbytes, soff):
    """Every thread copies its 16-byte chunks of global img to shared sm + soff."""
    out = []
    for i in range((nbytes // 16 + 127) // 128):
        out += ['\tadd.u32 %%r31, %%r0, %d;' % (128 * i), '\tsetp.lt.u32 %%p2, %%r31, %d;' % (nbytes // 16),
                '\tshl.b32 %r32, %r31, 4;', '\tmov.u64 %%rd11, %s;' % img,
                '\tcvt.u64.u32 %rd12, %r32;', '\tadd.u64 %rd11, %rd11, %rd12;',
                '\tadd.u32 %%r33, %%r30, %d;' % soff, '\tadd.u32 %r33, %r33, %r32;',
                '\t@%p2 ld.global.v4.u32 {%r34, %r35, %r36, %r37}, [%rd11];',
                '\t@%p2 st.shared.v4.u32 [%r33], {%r34, %r35, %r36, %r37};']
    return out


def desc(reg, soff, lbo, sbo):
    """A matrix descriptor of sm + soff (no swizzle) into reg."""
    c = ((lbo >> 4) & 0x3fff) << 16 | ((sbo >> 4) & 0x3fff) << 32
    return ['\tadd.u32 %%r38, %%r30, %d;' % soff, '\tshr.u32 %r38, %r38, 4;',
            '\tcvt.u64.u32 %rd13, %r38;', '\tmov.u64 %s, %d;' % (reg, c),
            '\tadd.u64 %s, %s, %%rd13;' % (reg, reg)]


def kmajor(vals, rows, kbytes, es, sbo):
    """rows x (kbytes / es) elements, K-major core matrices: row r, piece p at
    (r % 8) 16 + (r / 8) sbo + p 128."""
    img = bytearray((rows // 8) * sbo)
    for r in range(rows):
        for p in range(kbytes // 16):
            for i in range(16 // es):
                off = (r % 8) * 16 + (r // 8) * sbo + p * 128 + i * es
                img[off:off + es] = vals(r, p * (16 // es) + i)
    return bytes(img)


def dregs(dt, n):
    return n // 2 if dt in ('f32', 's32') else n // 4


def dlist(dt, nd, base=220):
    p = '%f' if dt == 'f32' else '%r'
    return '{' + ', '.join('%s%d' % (p, base + i) for i in range(nd)) + '}'


def operands_tail(t, sel, a_regs, trans_b=0, scale_a=1):
    if t in ('s8', 'u8'):
        return '%%r200, %d, %%p4' % sel
    if t in ('f16', 'bf16'):
        return '%%r200, %d, %%p4, %d, 1%s, %d' % (sel, scale_a, '' if a_regs else ', 0', trans_b)
    return '%%r200, %d, %%p4, %d, 1' % (sel, scale_a)


def layout_probe(t, dt, sel, iters=4):
    es = ES[t]
    k = KOF[es]
    n = k
    one = 1
    aimg = kmajor(lambda r, cc: enc(t, cc + 1), 64, 32, es, 256)
    bimg = kmajor(lambda col, kk: enc(t, 1 if kk == col else 0), n, 64, es, 512)
    nd = dregs(dt, n)
    decls = gbytes('imga', aimg) + gbytes('imgb', bimg) + mask_table(['int'])
    decls += '.shared .align 1024 .b8 sm[8192];\n'
    body = copy_in('imga', len(aimg), 0) + copy_in('imgb', len(bimg), 4096)
    body += ['\tfence.proxy.async.shared::cta;', '\tbar.sync 0;']
    body += desc('%rd20', 0, 128, 256) + desc('%rd21', 4096, 128, 512)
    body += ['\tsetp.ne.u32 %p4, %r0, %r0;']
    inner = hashed('%r200', 3, 0, 0)
    ins = 'wgmma.mma_async.sp.sync.aligned.m64n%dk%d.%s.%s.%s' % (n, k, dt, t, t)
    inner += ['\twgmma.fence.sync.aligned;',
              '\t%s %s, %%rd20, %%rd21, %s;' % (ins, dlist(dt, nd), operands_tail(t, sel, False)),
              '\twgmma.commit_group.sync.aligned;', '\twgmma.wait_group.sync.aligned 0;',
              '\tshl.b32 %r12, %r4, 7;', '\tadd.u32 %r12, %r12, %r0;',
              '\tmul.wide.u32 %%rd3, %%r12, %d;' % ((nd + 1) * 4), '\tadd.u64 %rd3, %rd3, %rd1;',
              '\tst.global.b32 [%rd3], %r200;']
    st = 'st.global.f32' if dt == 'f32' else 'st.global.b32'
    p = '%f' if dt == 'f32' else '%r'
    inner += ['\t%s [%%rd3+%d], %s%d;' % (st, 4 * (i + 1), p, 220 + i) for i in range(nd)]
    body += loop(iters, inner)
    return kernel('\n'.join(body), decls), iters * 128 * (nd + 1)


MT = {'f16': 'f16', 'bf16': 'bf16', 'tf32': 'tf32', 'e4m3': 'e4m3', 'e5m2': 'e5m2', 's8': 'int',
      'u8': 'int', 'f32': 'f32', 's32': 'int'}


VALID_TF32 = ['\tand.b32 %r200, %r200, 0x11111111;', '\tmul.lo.u32 %r200, %r200, 10;',
              '\tor.b32 %r200, %r200, 0x44444444;']


def numeric_probe(ta, tb, dt, sel, n=16, iters=8, trans_b=0, scale_a=1, valid=False):
    es = ES[ta]
    k = KOF[es]
    nd = dregs(dt, n)
    decls = mask_table([MT[ta], MT[tb], MT[dt], 'int']) + '.shared .align 1024 .b8 sm[8192];\n'
    bwords = n * k * es // 4
    inner = []
    for i in range(4):
        inner += hashed('%%r%d' % (100 + i), 0, i, 0)
    for j in range((bwords + 127) // 128):
        inner += hashed('%r20', 1, j, 1)
        inner += ['\tadd.u32 %%r22, %%r0, %d;' % (128 * j), '\tsetp.lt.u32 %%p2, %%r22, %d;' % bwords,
                  '\tshl.b32 %r23, %r22, 2;', '\tadd.u32 %r23, %r23, %r30;',
                  '\t@%p2 st.shared.b32 [%r23], %r20;']
    for i in range(nd):
        inner += hashed('%%r%d' % (180 + i), 2, i, 2)
        if dt == 'f32':
            inner.append('\tmov.b32 %%f%d, %%r%d;' % (220 + i, 180 + i))
        else:
            inner.append('\tmov.b32 %%r%d, %%r%d;' % (220 + i, 180 + i))
    inner += hashed('%r200', 3, 0, 3)
    if valid:  # every chunk 0b0100 or 0b1110 (a hashed bit picks): the tf32 patterns
        inner += VALID_TF32
    inner += ['\tfence.proxy.async.shared::cta;', '\tbar.sync 0;']
    # B: K-major (pieces of a column 128 apart, 8 columns 512 apart) or MN-major (8-column
    # pieces: the two of a K index 128 apart, 8 K indices 256 apart)
    inner += desc('%rd21', 0, 256, 128) if trans_b else desc('%rd21', 0, 128, 512)
    ins = 'wgmma.mma_async.sp.sync.aligned.m64n%dk%d.%s.%s.%s' % (n, k, dt, ta, tb)
    if dt == 's32' and ta != tb:
        pass
    inner += ['\tsetp.eq.u32 %p4, %r0, %r0;', '\twgmma.fence.sync.aligned;',
              '\t%s %s, {%%r100, %%r101, %%r102, %%r103}, %%rd21, %s;' %
              (ins, dlist(dt, nd), operands_tail(ta, sel, True, trans_b, scale_a)),
              '\twgmma.commit_group.sync.aligned;', '\twgmma.wait_group.sync.aligned 0;',
              '\tbar.sync 0;',
              '\tshl.b32 %r12, %r4, 7;', '\tadd.u32 %r12, %r12, %r0;',
              '\tmul.wide.u32 %%rd3, %%r12, %d;' % (nd * 4), '\tadd.u64 %rd3, %rd3, %rd1;']
    st = 'st.global.f32' if dt == 'f32' else 'st.global.b32'
    p = '%f' if dt == 'f32' else '%r'
    inner += ['\t%s [%%rd3+%d], %s%d;' % (st, 4 * i, p, 220 + i) for i in range(nd)]
    return kernel('\n'.join(loop(iters, inner)), decls), iters * 128 * nd


def tf32_sp_layout(k, sel, iters=8):
    """mma.sp m16n8k{8,16} .tf32 on one warp: A ones, B[k][n] = 4^k."""
    na = nb = 2 if k == 8 else 4
    inner = ['\tmov.b32 %%r%d, 0x3f800000;' % (100 + i) for i in range(na)]
    inner += ['\tand.b32 %r20, %r0, 3;']
    for r in range(nb):  # b_r: row 4 r + lane % 4 -> 4^row = 2^(2 row): exponent 127 + 2 row
        inner += ['\tadd.u32 %%r21, %%r20, %d;' % (4 * r), '\tshl.b32 %r21, %r21, 1;',
                  '\tadd.u32 %r21, %r21, 127;', '\tshl.b32 %%r%d, %%r21, 23;' % (140 + r)]
    inner += ['\tmov.b32 %%r%d, 0;' % (180 + i) for i in range(4)]
    inner += hashed('%r200', 3, 0, 0)
    rl = lambda b, m: '{' + ', '.join('%%r%d' % (b + i) for i in range(m)) + '}'
    inner.append('\tmma.sp.sync.aligned.m16n8k%d.row.col.f32.tf32.tf32.f32 %s, %s, %s, %s, %%r200, %d;'
                 % (k, rl(220, 4), rl(100, na), rl(140, nb), rl(180, 4), sel))
    inner += ['\tshl.b32 %r12, %r4, 5;', '\tadd.u32 %r12, %r12, %r0;',
              '\tmul.wide.u32 %rd3, %r12, 20;', '\tadd.u64 %rd3, %rd3, %rd1;',
              '\tst.global.b32 [%rd3], %r200;']
    inner += ['\tst.global.b32 [%%rd3+%d], %%r%d;' % (4 * (i + 1), 220 + i) for i in range(4)]
    text = HEAD + mask_table(['int']) + """.visible .entry probe(.param .u64 out, .param .u64 in)
{
	.reg .b32 %%r<400>;
	.reg .b64 %%rd<40>;
	.reg .pred %%p<8>;
	ld.param.u64 %%rd1, [out];
	mov.u32 %%r0, %%tid.x;
%s
	ret;
}
""" % '\n'.join(loop(iters, inner))
    return text, iters * 32 * 5


def reread_probe(delay, stamps=False):
    """m64n16k16 f16: A ones (registers), B[k][n] = n + 1 + k/16 (K-major in shared); warps
    1-3 spin `delay` cycles before wgmma.fence, warp 0 overwrites B with 2.0 after its
    wait_group. With stamps, words 1024.. hold whether warp 0 passed its mma_async and its
    wait_group after each other warp's fence (clock64), for the report only."""
    bimg = kmajor(lambda col, kk: enc('f16', col + 1 + kk / 16), 16, 32, 2, 256)
    decls = gbytes('imgb', bimg) + '.shared .align 1024 .b8 sm[8192];\n'
    decls += '.shared .align 8 .b64 stamp[16];\n'
    body = copy_in('imgb', len(bimg), 0)
    body += ['\tfence.proxy.async.shared::cta;', '\tbar.sync 0;']
    body += desc('%rd21', 0, 128, 256)
    body += ['\tmov.b32 %%r%d, 0x3c003c00;' % (100 + i) for i in range(4)]
    body += ['\tmov.f32 %%f%d, 0f00000000;' % (220 + i) for i in range(8)]
    body += ['\tshr.u32 %r40, %r0, 5;', '\tsetp.eq.u32 %p5, %r40, 0;', '\tsetp.ne.u32 %p4, %r0, %r0;',
             '\tmov.u64 %rd30, %clock64;', '\t@%p5 bra GO;', 'SPIN:', '\tmov.u64 %rd31, %clock64;',
             '\tsub.u64 %rd32, %rd31, %rd30;', '\tsetp.lt.u64 %%p6, %%rd32, %d;' % delay,
             '\t@%p6 bra SPIN;', 'GO:', '\tmov.u64 %rd33, %clock64;',
             '\twgmma.fence.sync.aligned;',
             '\twgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 %s, {%%r100, %%r101, %%r102, '
             '%%r103}, %%rd21, %%p4, 1, 1, 0;' % dlist('f32', 8),
             '\tmov.u64 %rd34, %clock64;',
             '\twgmma.commit_group.sync.aligned;', '\twgmma.wait_group.sync.aligned 0;',
             '\tmov.u64 %rd35, %clock64;',
             '\t@!%p5 bra STORE;',
             # warp 0: B is 512 bytes; each lane writes 16 bytes of 2.0
             '\tand.b32 %r41, %r0, 31;', '\tshl.b32 %r41, %r41, 4;', '\tadd.u32 %r41, %r41, %r30;',
             '\tmov.b32 %r42, 0x40004000;',
             '\tst.shared.v4.u32 [%r41], {%r42, %r42, %r42, %r42};',
             '\tfence.proxy.async.shared::cta;',
             'STORE:',
             '\tmul.wide.u32 %rd3, %r0, 32;', '\tadd.u64 %rd3, %rd3, %rd1;']
    body += ['\tst.global.f32 [%%rd3+%d], %%f%d;' % (4 * i, 220 + i) for i in range(8)]
    words = 128 * 8
    if stamps:
        body += ['\tand.b32 %r43, %r0, 31;', '\tsetp.ne.u32 %p3, %r43, 0;', '\t@%p3 bra SYNC;',
                 '\tmov.u64 %rd36, stamp;', '\tmul.wide.u32 %rd37, %r40, 24;',
                 '\tadd.u64 %rd36, %rd36, %rd37;', '\tst.shared.u64 [%rd36], %rd33;',
                 '\tst.shared.u64 [%rd36+8], %rd34;', '\tst.shared.u64 [%rd36+16], %rd35;',
                 'SYNC:', '\tbar.sync 0;', '\tsetp.ne.u32 %p3, %r0, 0;', '\t@%p3 bra END;',
                 '\tmov.u64 %rd36, stamp;', '\tld.shared.u64 %rd24, [%rd36+8];',
                 '\tld.shared.u64 %rd25, [%rd36+16];']
        for wv in (1, 2, 3):
            body += ['\tld.shared.u64 %%rd26, [%%rd36+%d];' % (24 * wv),
                     '\tsetp.gt.u64 %p3, %rd24, %rd26;', '\tselp.u32 %r44, 1, 0, %p3;',
                     '\tst.global.u32 [%%rd1+%d], %%r44;' % (4096 + 8 * (wv - 1)),
                     '\tsetp.gt.u64 %p3, %rd25, %rd26;', '\tselp.u32 %r44, 1, 0, %p3;',
                     '\tst.global.u32 [%%rd1+%d], %%r44;' % (4096 + 8 * (wv - 1) + 4)]
        body += ['\tsub.u64 %rd27, %rd25, %rd24;', '\tcvt.u32.u64 %r45, %rd27;',
                 '\tst.global.u32 [%rd1+4120], %r45;', 'END:']
        words += 8
    return kernel('\n'.join(body), decls), words


def probes():
    P = {}
    for t, dt, sels in (('f16', 'f32', 2), ('bf16', 'f32', 2), ('tf32', 'f32', 2), ('u8', 's32', 1)):
        for sel in range(sels):
            P['wsl_%s_%s_s%d' % (t, dt, sel)] = layout_probe(t, dt, sel)
    for ta, tb, dt, sel, extra in (('f16', 'f16', 'f32', 0, {}), ('f16', 'f16', 'f32', 1, {}),
                                   ('f16', 'f16', 'f16', 0, {}), ('bf16', 'bf16', 'f32', 1, {}),
                                   ('tf32', 'tf32', 'f32', 0, {}), ('tf32', 'tf32', 'f32', 1, {}),
                                   ('e4m3', 'e4m3', 'f32', 0, {}), ('e5m2', 'e4m3', 'f16', 0, {}),
                                   ('e4m3', 'e5m2', 'f32', 0, {}), ('s8', 's8', 's32', 0, {}),
                                   ('u8', 's8', 's32', 0, {}),
                                   ('f16', 'f16', 'f32', 1, {'trans_b': 1, 'scale_a': -1})):
        name = 'wsn_%s_%s_%s_s%d%s' % (dt, ta, tb, sel, '_tb_na' if extra else '')
        P[name] = numeric_probe(ta, tb, dt, sel, **extra)
    for sel in range(2):
        P['wsv_f32_tf32_s%d' % sel] = numeric_probe('tf32', 'tf32', 'f32', sel, valid=True)
    for shape, na, sel, om in (('m16n8k8', 2, 0, ''), ('m16n8k8', 2, 1, ''), ('m16n8k8', 2, 2, ''),
                               ('m16n8k8', 2, 3, ''), ('m16n8k16', 4, 0, ''),
                               ('m16n8k16', 4, 1, ''), ('m16n8k8', 2, 1, '::ordered_metadata'),
                               ('m16n8k16', 4, 0, '::ordered_metadata')):
        text, words = sp_probe('mma.sp%s.sync.aligned.%s.row.col.f32.tf32.tf32.f32' % (om, shape),
                               na, na, 4, 4, 'tf32', 'f32', sel)
        text = text.replace('\tmma.sp', '\n'.join(VALID_TF32) + '\n\tmma.sp')
        P['spv_%s%s_f32_tf32_s%d' % ('om_' if om else '', shape, sel)] = text, words
    for k, nsel in ((8, 4), (16, 2)):
        for sel in range(nsel):
            P['stl_m16n8k%d_tf32_s%d' % (k, sel)] = tf32_sp_layout(k, sel)
            text, words = tf32_sp_layout(k, sel)
            text = text.replace('\tmma.sp', '\n'.join(VALID_TF32) + '\n\tmma.sp')
            P['stv_m16n8k%d_tf32_s%d' % (k, sel)] = text, words
    for pat in range(16):  # every chunk the same pattern: what the H100 does with each
        text, words = sp_probe('mma.sp.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32', 2, 2, 4, 4,
                               'tf32', 'f32', 0, iters=2)
        text = text.replace('\tmma.sp', '\tmov.b32 %%r200, 0x%s;\n\tmma.sp' % ('%x' % pat * 8))
        P['stp_m16n8k8_tf32_p%x' % pat] = text, words
    P['wgr_overwrite'] = reread_probe(100000)
    return P


def main():
    P = probes()
    keep = [l for l in open('list.txt') if l.split()[0] not in P]
    with open('list.txt', 'w') as lst:
        lst.writelines(keep)
        for name in sorted(P):
            text, words = P[name]
            with open(name + '.ptx', 'w') as f:
                f.write('// %s: tests/hw_tc/probes/gen_wgsp.py (see there); %d words\n' % (name, words))
                f.write('// run: --block %d --arg buf:%d --arg buf:16 --dump 0 --no-race\n' %
                        (32 if name.startswith(('stl_', 'spv_', 'stv_', 'stp_')) else 128, words * 4))
                f.write(text)
            lst.write('%s %d\n' % (name, words))
    text, words = reread_probe(100000, True)
    with open('/tmp/wgr_stamps.ptx', 'w') as f:
        f.write(text)
    print('wgr_stamps', words)


if __name__ == '__main__':
    main()
