#!/usr/bin/env python3
"""
gen.py - corner-case vectors for ptxi's ALU (exec_int.c, exec_fp.c, exec_cvt.c), checked on a
real H100. Builds one PTX kernel that runs every spec (one instruction form each) over its
input cases, one case per thread, and writes the spec/case list that the cmocka test reads.

  gen.py ptx  OUT.ptx CASES.txt    write the kernel (and the cases without results)
  gen.py merge CASES.txt GPU.txt OUT.txt   attach the H100's output words to the cases
  gen.py filter                    (internal) drop specs that ptxas rejects, see below

Kernel: alu(.param .u64 out, .param .u64 in); one block of 256 threads; spec j reads its
inputs from a .global initialised array and writes two u64 words (d, aux) per case.
Data file (alu_cases.txt):
  S <name> <dclass> <aux> <srcclasses> <n>      aux: '-' none, 'q' setp's second predicate,
                                                'cc' carry out; srcclasses: one letter per
                                                source (h b16, r b32, l b64, p pred, i imm);
                                                a trailing 'C' = carry-in column present
  <src hex>... [cin] : <d hex> <aux hex>        one line per case
"""
import random
import struct
import subprocess
import sys
import os
import tempfile

K = 256  # threads (max cases per spec)
R = random.Random(20240531)

def f2b(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]

def d2b(x):
    return struct.unpack('<Q', struct.pack('<d', x))[0]

def b2f(b):
    return struct.unpack('<f', struct.pack('<I', b))[0]

# ---- value sets ------------------------------------------------------------------------

def ints(bits):
    m = (1 << bits) - 1
    h = 1 << (bits - 1)
    v = [0, 1, 2, 3, 7, m, m - 1, h - 1, h, h + 1, bits - 1, bits, bits + 1, 2 * bits,
         0xff & m, 0x100 & m, 0x8000 & m, 0x7f & m, 0x80 & m, 5, m ^ 5, 16, 8, 24]
    return [x & m for x in v]

def rint(bits):
    m = (1 << bits) - 1
    c = R.randrange(4)
    if c == 0:
        return R.getrandbits(bits)
    if c == 1:
        return R.getrandbits(R.randrange(1, bits + 1))
    if c == 2:
        return (-R.getrandbits(R.randrange(1, bits))) & m
    return R.choice(ints(bits))

F32S = [0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000,
        0x3f800000, 0xbf800000, 0x3fc00000, 0xbfc00000, 0x3f000000, 0xbf000000, 0x40000000,
        0x40200000, 0xc0200000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000,
        0xffc00000, 0x7f800001, 0x7fc12345, 0xffc00001, 0x4effffff, 0x4f000000, 0xcf000000,
        0xcf000001, 0x4f800000, 0x5effffff, 0x5f000000, 0xdf000000, 0x5f800000, 0x3effffff,
        0x3f7fffff, 0x3f800001, 0x40400000, 0x3eaaaaab, 0x00400000, 0x33800000, 0x477fe000,
        0x477ff000, 0x477fefff, 0x387fc000, 0x38800000, 0x33000000, 0x33000001, 0x7e800000,
        0x01000000, 0x0c000000, 0x42f6e979]

F64S = [0, 1 << 63, 1, (1 << 63) | 1, 0x000fffffffffffff, 0x0010000000000000,
        d2b(1.0), d2b(-1.0), d2b(1.5), d2b(-1.5), d2b(0.5), d2b(-0.5), d2b(2.5), d2b(-2.5),
        d2b(2.0), 0x7fefffffffffffff, 0xffefffffffffffff, 0x7ff0000000000000,
        0xfff0000000000000, 0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001,
        0x7ff8123456789abc, d2b(2.0 ** 31), d2b(2.0 ** 31 - 1), d2b(-2.0 ** 31),
        d2b(-2.0 ** 31 - 1), d2b(2.0 ** 32), d2b(2.0 ** 32 - 1), d2b(2.0 ** 63),
        d2b(-2.0 ** 63), d2b(2.0 ** 64), d2b(3.0), d2b(1e300), d2b(1e-300), d2b(-1e-310),
        d2b(1.0 + 2.0 ** -24), d2b(1.0 + 2.0 ** -24 + 2.0 ** -52), d2b(1.0 + 3 * 2.0 ** -24),
        d2b(65504.0), d2b(65520.0), d2b(65519.99), d2b(2.0 ** -24), d2b(2.0 ** -25),
        d2b(2.0 ** -25 * 1.0000001), d2b(3.4028235677973366e38), d2b(3.4028234663852886e38),
        d2b(2.0 ** -149), d2b(2.0 ** -150), d2b(2.0 ** -150 * 1.5), d2b(2.0 ** -126),
        d2b(1.0 + 2.0 ** -8), d2b(1.0 + 2.0 ** -9), d2b(1.0 + 3 * 2.0 ** -9), d2b(0.1),
        d2b(-0.7), d2b(123456.789), d2b(255.5), d2b(256.0), d2b(-128.5), d2b(-129.0),
        d2b(65535.5), d2b(32767.5), d2b(-32768.5), d2b(4294967295.5), d2b(448.0), d2b(464.0),
        d2b(57344.0), d2b(61440.0), d2b(2.0 ** -9), d2b(2.0 ** -10), d2b(2.0 ** -17)]

F16S = [0, 0x8000, 1, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x3e00, 0x3800, 0x4000, 0x4100,
        0xc100, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0x7e55, 0x3555, 0x5bff,
        0x5c00, 0x0200, 0x3bff, 0x3c01, 0x4900, 0xd900, 0x5fff]

BF16S = [0, 0x8000, 1, 0x8001, 0x007f, 0x0080, 0x3f80, 0xbf80, 0x3fc0, 0x3f00, 0x4000,
         0x4020, 0xc020, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7f81, 0x7fd5,
         0x3eab, 0x4f00, 0x4eff, 0x3f7f, 0x3f81, 0x4300, 0xc700]

def rf32(wide=True):
    c = R.randrange(5)
    if c == 0:
        return R.getrandbits(32)
    if c == 1:
        return R.choice(F32S)
    e = R.randrange(100, 155) if not wide else R.randrange(0, 255)
    return (R.getrandbits(1) << 31) | (e << 23) | R.getrandbits(23)

def rf64():
    c = R.randrange(5)
    if c == 0:
        return R.getrandbits(64)
    if c == 1:
        return R.choice(F64S)
    if c == 2:  # an f32 value plus a bit of tail: rounding to f32 matters
        f = rf32()
        if (f >> 23) & 0xff in (0, 0xff):
            return d2b(1.0 + R.random())
        v = d2b(b2f(f))
        return v ^ R.choice([1 << 28, 1 << 28 | 1, 1, (1 << 29) - 1, 1 << 27])
    e = R.randrange(900, 1150)
    return (R.getrandbits(1) << 63) | (e << 52) | R.getrandbits(52)

def rf16():
    c = R.randrange(3)
    return R.choice(F16S) if c == 0 else R.getrandbits(16)

def rbf16():
    c = R.randrange(3)
    return R.choice(BF16S) if c == 0 else R.getrandbits(16)

def rx2(f):
    return f() | (f() << 16)

FLOATVALS = {
    'f32': lambda: (F32S, rf32),
    'f64': lambda: (F64S, rf64),
    'f16': lambda: (F16S, rf16),
    'bf16': lambda: (BF16S, rbf16),
}

# value source for one PTX type name
def vals(t):
    if t in FLOATVALS:
        return FLOATVALS[t]()
    if t in ('u8', 's8', 'b8'):
        return [0, 1, 0x7f, 0x80, 0xff, 0x100, 0x17f, 0xff80, 0xfffe] , lambda: R.getrandbits(16)
    if t[1:] in ('16',):
        return ints(16), lambda: rint(16)
    if t[1:] == '32':
        return ints(32), lambda: rint(32)
    if t[1:] == '64':
        return ints(64), lambda: rint(64)
    if t == 'f32':
        return F32S, rf32
    if t == 'f64':
        return F64S, rf64
    if t == 'f16':
        return F16S, rf16
    if t == 'bf16':
        return BF16S, rbf16
    if t == 'f16x2':
        return [a | (b << 16) for a, b in zip(F16S, reversed(F16S))], lambda: rx2(rf16)
    if t == 'bf16x2':
        return [a | (b << 16) for a, b in zip(BF16S, reversed(BF16S))], lambda: rx2(rbf16)
    if t == 'pred':
        return [0, 1], lambda: R.getrandbits(1)
    if t in ('e4m3x2', 'e5m2x2'):
        return [0, 0x7f7e, 0xff80, 0x0108, 0x7c7b, 0x0403, 0xfefd], lambda: R.getrandbits(16)
    raise ValueError(t)

CLASS = {'u8': 'h', 's8': 'h', 'b8': 'h', 'u16': 'h', 's16': 'h', 'b16': 'h', 'f16': 'h',
         'bf16': 'h', 'e4m3x2': 'h', 'e5m2x2': 'h', 'u32': 'r', 's32': 'r', 'b32': 'r',
         'f32': 'r', 'f16x2': 'r', 'bf16x2': 'r', 'tf32': 'r', 'u64': 'l', 's64': 'l',
         'b64': 'l', 'f64': 'l', 'pred': 'p'}

def cases(srcs, n, special=None):
    """srcs: list of (specials, randfn); returns n tuples: cross product of specials
    (sampled) then random."""
    out = []
    sp = [s for s, _ in srcs]
    if special:
        out += special
    tot = 1
    for s in sp:
        tot *= len(s)
    if tot <= n // 2:
        import itertools
        out += [list(t) for t in itertools.product(*sp)]
    else:
        for _ in range(n // 2):
            out.append([R.choice(s) for s in sp])
    while len(out) < n:
        out.append([f() for _, f in srcs])
    return [list(c) for c in out[:n]]

# ---- specs ---------------------------------------------------------------------------

SPECS = []  # (name, dclass, aux, srcclasses, cin, caselist, imm dict)

def spec(name, dtype, stypes, n=128, aux='-', cin=False, special=None, override=None, imm=None):
    dcl = CLASS[dtype]
    srcs = [vals(t) for t in stypes]
    if override:
        for i, v in override.items():
            srcs[i] = v
    cl = [CLASS[t] for t in stypes]
    if imm is not None:
        for i, v in imm.items():
            cl[i] = 'i'
    cs = cases(srcs, n, special)
    if imm is not None:
        for c in cs:
            for i, v in imm.items():
                c[i] = v
    if cin:
        for c in cs:
            c.append(R.getrandbits(1))
    SPECS.append((name, dcl, aux, ''.join(cl), cin, cs))

SHIFTAMT = ([0, 1, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 255, 256, 0x80000000, 0xffffffff],
            lambda: R.choice([R.randrange(70), R.getrandbits(32)]))
SMALL = ([0, 1, 2, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 127, 128, 255, 256, 257, 0xffffffff],
         lambda: R.choice([R.randrange(80), R.getrandbits(32), R.getrandbits(9)]))

def int_specs():
    for t in ('u16', 's16', 'u32', 's32', 'u64', 's64'):
        for op in ('add', 'sub', 'min', 'max', 'div', 'rem'):
            spec(f'{op}.{t}', t, [t, t])
        spec(f'mul.lo.{t}', t, [t, t])
        spec(f'mul.hi.{t}', t, [t, t])
        spec(f'mad.lo.{t}', t, [t, t, t])
        spec(f'mad.hi.{t}', t, [t, t, t])
        if t[1:] != '64':
            w = t[0] + str(int(t[1:]) * 2)
            spec(f'mul.wide.{t}', w, [t, t])
            spec(f'mad.wide.{t}', w, [t, t, w])
        if t[0] == 's':
            spec(f'abs.{t}', t, [t])
            spec(f'neg.{t}', t, [t])
        b = 'b' + t[1:]
        spec(f'shr.{t}', t, [t, 'u32'], override={1: SHIFTAMT})
        spec(f'setp.lt.{t}', 'pred', [t, t], aux='q')
        spec(f'setp.ge.and.{t}', 'pred', [t, t, 'pred'], aux='q')
        spec(f'setp.ne.or.{t}', 'pred', [t, t, 'pred'], aux='q')
        spec(f'setp.eq.xor.{t}', 'pred', [t, t, 'pred'], aux='q')
        spec(f'setp.le.{t}', 'pred', [t, t])
        spec(f'setp.gt.{t}', 'pred', [t, t], aux='q')
    for t in ('u32', 's32', 'u64', 's64'):
        spec(f'add.cc.{t}', t, [t, t], aux='cc')
        spec(f'sub.cc.{t}', t, [t, t], aux='cc')
        spec(f'addc.{t}', t, [t, t], cin=True)
        spec(f'addc.cc.{t}', t, [t, t], aux='cc', cin=True)
        spec(f'subc.{t}', t, [t, t], cin=True)
        spec(f'subc.cc.{t}', t, [t, t], aux='cc', cin=True)
        spec(f'mad.lo.cc.{t}', t, [t, t, t], aux='cc')
        spec(f'mad.hi.cc.{t}', t, [t, t, t], aux='cc')
        spec(f'madc.lo.{t}', t, [t, t, t], cin=True)
        spec(f'madc.hi.cc.{t}', t, [t, t, t], aux='cc', cin=True)
        spec(f'bfe.{t}', t, [t, 'u32', 'u32'], override={1: SMALL, 2: SMALL})
        spec(f'bfind.{t}', 'u32', [t])
        spec(f'bfind.shiftamt.{t}', 'u32', [t])
        spec(f'sad.{t}', t, [t, t, t])
    for t in ('u32', 's32'):
        spec(f'mul24.lo.{t}', t, [t, t])
        spec(f'mul24.hi.{t}', t, [t, t])
        spec(f'mad24.lo.{t}', t, [t, t, t])
        spec(f'mad24.hi.{t}', t, [t, t, t])
        spec(f'setp.ls.{t}', 'pred', [t, t], aux='q')
        spec(f'setp.hi.{t}', 'pred', [t, t], aux='q')
        spec(f'set.lt.u32.{t}', 'u32', [t, t])
        spec(f'set.ne.and.s32.{t}', 's32', [t, t, 'pred'])
        spec(f'set.gt.f32.{t}', 'f32', [t, t])
        spec(f'szext.clamp.{t}', t, [t, 'u32'], override={1: SMALL})
        spec(f'szext.wrap.{t}', t, [t, 'u32'], override={1: SMALL})
        spec(f'slct.{t}.s32', t, [t, t, 's32'])
        spec(f'slct.{t}.f32', t, [t, t, 'f32'])
        spec(f'slct.ftz.{t}.f32', t, [t, t, 'f32'])
        for u in ('u32', 's32'):
            spec(f'dp4a.{t}.{u}', t, [t, u, t])
            spec(f'dp2a.lo.{t}.{u}', t, [t, u, t])
            spec(f'dp2a.hi.{t}.{u}', t, [t, u, t])
    spec('add.sat.s32', 's32', ['s32', 's32'])
    spec('sub.sat.s32', 's32', ['s32', 's32'])
    spec('mad.hi.sat.s32', 's32', ['s32', 's32', 's32'])
    spec('mad24.hi.sat.s32', 's32', ['s32', 's32', 's32'])
    spec('min.relu.s32', 's32', ['s32', 's32'])
    spec('max.relu.s32', 's32', ['s32', 's32'])
    for t in ('u16x2', 's16x2'):
        pass
    spec('setp.lo.u64', 'pred', ['u64', 'u64'], aux='q')
    spec('setp.hs.u16', 'pred', ['u16', 'u16'], aux='q')
    spec('setp.lt.b32', 'pred', ['b32', 'b32'])
    spec('setp.lo.b32', 'pred', ['b32', 'b32'])
    spec('setp.ne.b64', 'pred', ['b64', 'b64'])
    for t in ('b16', 'b32', 'b64'):
        spec(f'shl.{t}', t, [t, 'u32'], override={1: SHIFTAMT})
        spec(f'shr.{t}', t, [t, 'u32'], override={1: SHIFTAMT})
        for op in ('and', 'or', 'xor'):
            spec(f'{op}.{t}', t, [t, t], n=32)
        spec(f'not.{t}', t, [t], n=32)
        spec(f'cnot.{t}', t, [t], n=32)
        spec(f'selp.{t}', t, [t, t, 'pred'], n=32)
    for t in ('b32', 'b64'):
        spec(f'popc.{t}', 'u32', [t])
        spec(f'clz.{t}', 'u32', [t])
        spec(f'brev.{t}', t, [t])
        spec(f'bfi.{t}', t, [t, t, 'u32', 'u32'], override={2: SMALL, 3: SMALL})
    for op in ('and', 'or', 'xor'):
        spec(f'{op}.pred', 'pred', ['pred', 'pred'], n=8)
    spec('not.pred', 'pred', ['pred'], n=4)
    spec('selp.f32', 'f32', ['f32', 'f32', 'pred'], n=32)
    spec('selp.f64', 'f64', ['f64', 'f64', 'pred'], n=32)
    for m in ('clamp', 'wrap'):
        spec(f'bmsk.{m}.b32', 'b32', ['u32', 'u32'], override={0: SMALL, 1: SMALL})
        for d in ('l', 'r'):
            for t in ('b32',):
                spec(f'shf.{d}.{m}.{t}', t, [t, t, 'u32'], override={2: SHIFTAMT})
    spec('shf.r.clamp.s32', 's32', ['s32', 's32', 'u32'], override={2: SHIFTAMT})
    spec('shf.r.wrap.u32', 'u32', ['u32', 'u32', 'u32'], override={2: SHIFTAMT})
    for lut in (0x96, 0xe8, 0xf8, 0x80, 0xfe, 0x1e, 0x3c, 0x01, 0x6a, 0xca):
        spec(f'lop3.b32', 'b32', ['b32', 'b32', 'b32', 'b32'], n=16, imm={3: lut})
    sel = ([0x3210, 0x0123, 0x7654, 0x4444, 0x8888, 0xffff, 0x1234, 0xabcd, 0x98ba, 0xc0de,
            0x12345678 & 0xffff, 0xfedc],
           lambda: R.getrandbits(32))
    spec('prmt.b32', 'b32', ['b32', 'b32', 'b32'], override={2: sel})
    for m in ('f4e', 'b4e', 'rc8', 'ecl', 'ecr', 'rc16'):
        spec(f'prmt.b32.{m}', 'b32', ['b32', 'b32', 'b32'], n=48, override={2: SMALL})
    for t in ('u16x2', 's16x2'):
        pass

FP_CMPS = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'equ', 'neu', 'ltu', 'leu', 'gtu', 'geu',
           'num', 'nan']

def fp_specs():
    for t in ('f32', 'f64'):
        for r in ('rn', 'rz', 'rm', 'rp'):
            spec(f'add.{r}.{t}', t, [t, t])
            spec(f'sub.{r}.{t}', t, [t, t], n=64)
            spec(f'mul.{r}.{t}', t, [t, t])
            spec(f'fma.{r}.{t}', t, [t, t, t], n=256)
            spec(f'div.{r}.{t}', t, [t, t], n=256)
            spec(f'sqrt.{r}.{t}', t, [t])
            spec(f'rcp.{r}.{t}', t, [t])
        spec(f'add.{t}', t, [t, t], n=64)
        spec(f'mul.{t}', t, [t, t], n=64)
        spec(f'min.{t}', t, [t, t])
        spec(f'max.{t}', t, [t, t])
        spec(f'abs.{t}', t, [t], n=64)
        spec(f'neg.{t}', t, [t], n=64)
        spec(f'copysign.{t}', t, [t, t], n=64)
        for c in ('finite', 'infinite', 'number', 'notanumber', 'normal', 'subnormal'):
            spec(f'testp.{c}.{t}', 'pred', [t], n=64)
        for c in FP_CMPS:
            spec(f'setp.{c}.{t}', 'pred', [t, t], aux='q', n=96)
        spec(f'setp.lt.or.{t}', 'pred', [t, t, 'pred'], aux='q', n=64)
        spec(f'mad.rn.{t}', t, [t, t, t], n=64)
    ftzp = [[0x3f7fffff, 0x00800000], [0x3f7fffff, 0x80800000], [0x3f000000, 0x00800001],
            [0x3f7ffffe, 0x00800000], [0x3f000000, 0x00ffffff], [0x3f800000, 0x00400000],
            [0x3f7fffff, 0x00800001], [0x3effffff, 0x01000000]]
    for r in ('rn', 'rz', 'rm', 'rp'):
        spec(f'mul.{r}.ftz.f32', 'f32', ['f32', 'f32'], n=64, special=ftzp)
        spec(f'mul.{r}.f32', 'f32', ['f32', 'f32'], n=32, special=ftzp)
    for r in ('rn', 'rz'):
        spec(f'add.{r}.ftz.f32', 'f32', ['f32', 'f32'])
        spec(f'fma.{r}.ftz.f32', 'f32', ['f32', 'f32', 'f32'])
        spec(f'div.{r}.ftz.f32', 'f32', ['f32', 'f32'])
    spec('add.sat.f32', 'f32', ['f32', 'f32'])
    spec('add.rn.ftz.sat.f32', 'f32', ['f32', 'f32'])
    spec('mul.sat.f32', 'f32', ['f32', 'f32'])
    spec('fma.rn.sat.f32', 'f32', ['f32', 'f32', 'f32'])
    spec('sqrt.rn.ftz.f32', 'f32', ['f32'])
    spec('rcp.rn.ftz.f32', 'f32', ['f32'])
    spec('min.ftz.f32', 'f32', ['f32', 'f32'])
    spec('max.NaN.f32', 'f32', ['f32', 'f32'])
    spec('min.NaN.f32', 'f32', ['f32', 'f32'])
    spec('max.xorsign.abs.f32', 'f32', ['f32', 'f32'])
    spec('abs.ftz.f32', 'f32', ['f32'], n=64)
    spec('neg.ftz.f32', 'f32', ['f32'], n=64)
    spec('setp.lt.ftz.f32', 'pred', ['f32', 'f32'], aux='q')
    spec('set.lt.ftz.u32.f32', 'u32', ['f32', 'f32'])
    spec('set.equ.f32.f64', 'f32', ['f64', 'f64'])
    spec('set.num.s32.f32', 's32', ['f32', 'f32'])
    spec('testp.normal.f32', 'pred', ['f32'])
    # approximate
    for t in ('f32',):
        for op in ('rcp', 'sqrt', 'rsqrt', 'ex2', 'lg2', 'sin', 'cos', 'tanh'):
            spec(f'{op}.approx.{t}', t, [t], n=256)
            if op != 'tanh':
                spec(f'{op}.approx.ftz.{t}', t, [t], n=128)
        spec('div.approx.f32', 'f32', ['f32', 'f32'], n=256)
        spec('div.approx.ftz.f32', 'f32', ['f32', 'f32'], n=128)
        spec('div.full.f32', 'f32', ['f32', 'f32'], n=256)
        spec('div.full.ftz.f32', 'f32', ['f32', 'f32'], n=128)
    spec('rcp.approx.ftz.f64', 'f64', ['f64'], n=128)
    spec('rsqrt.approx.f64', 'f64', ['f64'], n=128)
    spec('rsqrt.approx.ftz.f64', 'f64', ['f64'], n=64)
    spec('ex2.approx.f16', 'f16', ['f16'], n=128)
    spec('ex2.approx.f16x2', 'f16x2', ['f16x2'], n=64)
    spec('ex2.approx.ftz.bf16', 'bf16', ['bf16'], n=128)
    spec('tanh.approx.f16', 'f16', ['f16'], n=128)
    spec('tanh.approx.bf16', 'bf16', ['bf16'], n=128)
    # half precision
    for t in ('f16', 'f16x2', 'bf16', 'bf16x2'):
        for op in ('add', 'sub', 'mul'):
            spec(f'{op}.rn.{t}', t, [t, t])
            spec(f'{op}.{t}', t, [t, t], n=32)
        spec(f'fma.rn.{t}', t, [t, t, t], n=256)
        spec(f'fma.rn.relu.{t}', t, [t, t, t], n=64)
        spec(f'neg.{t}', t, [t], n=48)
        spec(f'abs.{t}', t, [t], n=48)
        spec(f'min.{t}', t, [t, t])
        spec(f'max.{t}', t, [t, t])
        spec(f'min.NaN.{t}', t, [t, t], n=64)
        spec(f'max.xorsign.abs.{t}', t, [t, t], n=64)
    for t in ('f16', 'f16x2'):
        spec(f'add.rn.ftz.{t}', t, [t, t], n=64)
        spec(f'add.rn.sat.{t}', t, [t, t], n=64)
        spec(f'mul.rn.ftz.sat.{t}', t, [t, t], n=64)
        spec(f'fma.rn.ftz.{t}', t, [t, t, t], n=64)
        spec(f'fma.rn.sat.{t}', t, [t, t, t], n=64)
        spec(f'min.ftz.{t}', t, [t, t], n=64)
        spec(f'neg.ftz.{t}', t, [t], n=32)
    for t in ('f16', 'bf16'):
        for c in ('eq', 'lt', 'ge', 'neu', 'nan', 'gtu'):
            spec(f'setp.{c}.{t}', 'pred', [t, t], n=96)
    spec('setp.lt.ftz.f16', 'pred', ['f16', 'f16'], n=64)

INTS = ['u8', 'u16', 'u32', 'u64', 's8', 's16', 's32', 's64']
FLTS = ['f16', 'bf16', 'f32', 'f64']

def cvt_specs():
    for d in INTS + FLTS:
        for s in INTS + FLTS:
            n = 64 if (d in INTS and s in INTS) else 128
            if d in INTS and s in INTS:
                spec(f'cvt.{d}.{s}', d, [s], n=n)
                if d != s:
                    spec(f'cvt.sat.{d}.{s}', d, [s], n=n)
            elif d in INTS:
                for r in ('rni', 'rzi', 'rmi', 'rpi'):
                    spec(f'cvt.{r}.{d}.{s}', d, [s], n=n)
                if s == 'f32':
                    spec(f'cvt.rzi.ftz.{d}.{s}', d, [s], n=32)
            elif s in INTS:
                for r in ('rn', 'rz', 'rm', 'rp'):
                    spec(f'cvt.{r}.{d}.{s}', d, [s], n=n)
            elif d == s:
                for r in ('rni', 'rzi', 'rmi', 'rpi'):
                    spec(f'cvt.{r}.{d}.{s}', d, [s], n=n)
                if d == 'f32':
                    spec('cvt.ftz.f32.f32', d, [s], n=64)
                    spec('cvt.sat.f32.f32', d, [s], n=64)
                    spec('cvt.rni.ftz.sat.f32.f32', d, [s], n=64)
            elif FLTS.index(d) > FLTS.index(s) and not (d == 'bf16'):
                spec(f'cvt.{d}.{s}', d, [s], n=n)
                if s == 'f32':
                    spec(f'cvt.ftz.{d}.{s}', d, [s], n=64)
            else:
                for r in ('rn', 'rz', 'rm', 'rp'):
                    spec(f'cvt.{r}.{d}.{s}', d, [s], n=n)
                if s == 'f32' or d == 'f32':
                    spec(f'cvt.rn.ftz.{d}.{s}', d, [s], n=64)
                if d in ('f16', 'bf16'):
                    spec(f'cvt.rn.relu.{d}.{s}', d, [s], n=64)
                    spec(f'cvt.rn.satfinite.{d}.{s}', d, [s], n=64)
    spec('cvt.sat.f64.f64', 'f64', ['f64'], n=64)
    spec('cvt.rn.sat.f16.f32', 'f16', ['f32'], n=64)
    spec('cvt.rn.sat.f32.s32', 'f32', ['s32'], n=64)
    spec('cvt.rn.f16x2.f32', 'f16x2', ['f32', 'f32'], n=128)
    spec('cvt.rn.relu.f16x2.f32', 'f16x2', ['f32', 'f32'], n=64)
    spec('cvt.rn.bf16x2.f32', 'bf16x2', ['f32', 'f32'], n=128)
    spec('cvt.rz.bf16x2.f32', 'bf16x2', ['f32', 'f32'], n=64)
    spec('cvt.rn.satfinite.e4m3x2.f32', 'e4m3x2', ['f32', 'f32'], n=256)
    spec('cvt.rn.satfinite.e5m2x2.f32', 'e5m2x2', ['f32', 'f32'], n=256)
    spec('cvt.rn.satfinite.relu.e4m3x2.f32', 'e4m3x2', ['f32', 'f32'], n=64)
    spec('cvt.rn.f16x2.e4m3x2', 'f16x2', ['e4m3x2'], n=256,
         override={0: ([], lambda: R.getrandbits(16))})
    spec('cvt.rn.f16x2.e5m2x2', 'f16x2', ['e5m2x2'], n=256,
         override={0: ([], lambda: R.getrandbits(16))})
    spec('cvt.rn.satfinite.e4m3x2.f16x2', 'e4m3x2', ['f16x2'], n=128)
    spec('cvt.rna.tf32.f32', 'tf32', ['f32'], n=128)
    spec('cvt.rna.satfinite.tf32.f32', 'tf32', ['f32'], n=64)

# ---- PTX -------------------------------------------------------------------------------

def hexs(x):
    return '%x' % x

REGN = {'h': '%h', 'r': '%r', 'l': '%l', 'p': '%p'}

def spec_body(j, s, inoff, outoff):
    name, dcl, aux, scl, cin, cs = s
    n = len(cs)
    L = []
    L.append(f'\t// {j}: {name}')
    L.append(f'\tsetp.ge.u32 %pskip, %rtid, {n};')
    L.append(f'\t@%pskip bra SKIP{j};')
    ops = []
    for i, c in enumerate(scl):
        if c == 'i':
            ops.append(str(cs[0][i]))
            continue
        L.append(f'\tld.global.b64 %ls{i}, [%pin+{inoff + 8 * i}];')
        if c == 'l':
            ops.append(f'%ls{i}')
        elif c == 'r':
            L.append(f'\tcvt.u32.u64 %rs{i}, %ls{i};')
            ops.append(f'%rs{i}')
        elif c == 'h':
            L.append(f'\tcvt.u16.u64 %hs{i}, %ls{i};')
            ops.append(f'%hs{i}')
        elif c == 'p':
            L.append(f'\tsetp.ne.b64 %ps{i}, %ls{i}, 0;')
            ops.append(f'%ps{i}')
    if cin:
        L.append(f'\tld.global.b64 %lcin, [%pin+{inoff + 8 * len(scl)}];')
        L.append('\tcvt.u32.u64 %rcin, %lcin;')
        L.append('\tadd.cc.u32 %rtmp, %rcin, -1;')
    dreg = {'h': '%hd', 'r': '%rd', 'l': '%ld', 'p': '%pd'}[dcl]
    dst = dreg + ('|%pq' if aux == 'q' else '')
    L.append(f'\t{name} {dst}, {", ".join(ops)};')
    if aux == 'cc':
        L.append('\taddc.u32 %raux, %rzero, %rzero;')
        L.append('\tcvt.u64.u32 %laux, %raux;')
    elif aux == 'q':
        L.append('\tselp.u64 %laux, 1, 0, %pq;')
    else:
        L.append('\tmov.u64 %laux, 0;')
    if dcl == 'h':
        L.append('\tcvt.u64.u16 %lout, %hd;')
    elif dcl == 'r':
        L.append('\tcvt.u64.u32 %lout, %rd;')
    elif dcl == 'l':
        L.append('\tmov.u64 %lout, %ld;')
    else:
        L.append('\tselp.u64 %lout, 1, 0, %pd;')
    L.append(f'\tst.global.v2.b64 [%pout+{outoff}], {{%lout, %laux}};')
    L.append(f'SKIP{j}:')
    return L

def nwords(s):
    return len(s[3]) + (1 if s[4] else 0)

def ptx(specs, entry='alu'):
    data = []
    body = []
    inoff = 0
    for j, s in enumerate(specs):
        w = max(1, nwords(s))
        body += spec_body(j, s, inoff, j * K * 16)
        for c in s[5]:
            row = list(c) + [0] * (w - len(c))
            data += row[:w]
        # inputs of spec j: [tid][w]; %pin already includes tid*w*8? no: per-spec stride
        inoff += len(s[5]) * w * 8
    # per-spec stride differs, so compute the thread's address per spec
    out = []
    out.append('.version 8.5\n.target sm_90\n.address_size 64\n')
    out.append(f'.global .align 16 .b64 indata[{max(1, len(data))}] = {{')
    for i in range(0, len(data), 16):
        out.append(', '.join('0x%x' % v for v in data[i:i + 16]) + (',' if i + 16 < len(data) else ''))
    out.append('};\n')
    out.append(f'.visible .entry {entry}(.param .u64 out, .param .u64 in)\n{{')
    out.append('\t.reg .b16 %hs<4>, %hd;\n\t.reg .b32 %rs<4>, %rd, %raux, %rzero, %rcin, %rtmp, %rtid;')
    out.append('\t.reg .b64 %ls<4>, %ld, %laux, %lout, %lcin, %pin, %pout, %pin0, %pout0, %t;')
    out.append('\t.reg .pred %ps<4>, %pd, %pq, %pskip;')
    out.append('\tld.param.u64 %pout0, [out];\n\tcvta.to.global.u64 %pout0, %pout0;')
    out.append('\tmov.u32 %rtid, %tid.x;\n\tmov.u32 %rzero, 0;\n\tmov.u64 %pin0, indata;')
    out.append('\tmul.wide.u32 %t, %rtid, 16;\n\tadd.u64 %pout, %pout0, %t;')
    inoff = 0
    j = 0
    for j, s in enumerate(specs):
        w = max(1, nwords(s))
        out.append(f'\tmul.wide.u32 %t, %rtid, {w * 8};\n\tadd.u64 %pin, %pin0, %t;')
        out += spec_body(j, s, inoff, j * K * 16)
        inoff += len(s[5]) * w * 8
    out.append('\tret;\n}\n')
    return '\n'.join(out)

def write_cases(specs, path, results=None):
    with open(path, 'w') as f:
        f.write('# ptxi ALU vectors: inputs and the outputs of an NVIDIA H100 (tests/hw_alu/gen.py)\n')
        for j, s in enumerate(specs):
            name, dcl, aux, scl, cin, cs = s
            f.write(f'S {name} {dcl} {aux} {scl or "-"}{"C" if cin else ""} {len(cs)}\n')
            for t, c in enumerate(cs):
                line = ' '.join(hexs(v) for v in c)
                if results is not None:
                    d, a = results[j][t]
                    line += ' : %x %x' % (d, a)
                f.write(line + '\n')

def ptxas_ok(text):
    with tempfile.TemporaryDirectory() as td:
        p = os.path.join(td, 'k.ptx')
        with open(p, 'w') as f:
            f.write(text)
        r = subprocess.run(['ptxas', '-arch=sm_90', p, '-o', os.path.join(td, 'k.o')],
                           capture_output=True, text=True)
        return r.returncode == 0, r.stderr

def build():
    int_specs()
    fp_specs()
    cvt_specs()
    return SPECS

def main():
    if sys.argv[1] == 'ptx':
        specs = build()
        ok = []
        rejected = []
        # check every spec alone with ptxas (in parallel batches), keep the legal ones
        import concurrent.futures as cf
        def chk(s):
            return ptxas_ok(ptx([(s[0], s[1], s[2], s[3], s[4], s[5][:1])]))
        with cf.ThreadPoolExecutor(16) as ex:
            res = list(ex.map(chk, specs))
        for s, (good, err) in zip(specs, res):
            if good:
                ok.append(s)
            else:
                rejected.append((s[0], err.strip().splitlines()[-1] if err.strip() else '?'))
        with open(sys.argv[3] + '.rejected', 'w') as f:
            for n, e in rejected:
                f.write(f'{n}: {e}\n')
        with open(sys.argv[2], 'w') as f:
            f.write(ptx(ok))
        write_cases(ok, sys.argv[3])
        print(f'{len(ok)} specs, {sum(len(s[5]) for s in ok)} cases, {len(rejected)} rejected',
              file=sys.stderr)
    elif sys.argv[1] == 'merge':
        specs = read_cases(sys.argv[2])
        words = [int(l, 16) for l in open(sys.argv[3]) if len(l.strip()) == 8]
        res = []
        for j, s in enumerate(specs):
            r = []
            for t in range(len(s[5])):
                o = (j * K + t) * 4
                r.append((words[o] | words[o + 1] << 32, words[o + 2] | words[o + 3] << 32))
            res.append(r)
        write_cases(specs, sys.argv[4], res)

def read_cases(path):
    specs = []
    for line in open(path):
        if line.startswith('#'):
            continue
        p = line.split()
        if p[0] == 'S':
            scl = p[4]
            cin = scl.endswith('C')
            scl = scl.rstrip('C')
            if scl == '-':
                scl = ''
            specs.append((p[1], p[2], p[3], scl, cin, []))
        else:
            specs[-1][5].append([int(v, 16) for v in p if v != ':'][:len(specs[-1][3]) + specs[-1][4]])
    return specs

if __name__ == '__main__':
    main()
