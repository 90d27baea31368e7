import random, struct
R = random.Random(7777)
def f2b(x): return struct.unpack('<I', struct.pack('<f', x))[0]
SPEC = [0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x3f800000, 0xbf800000,
        0x7f800000, 0xff800000, 0x7fc00000, 0x7f7fffff, 0xff7fffff, 0x3f7fffff, 0x3f800001, 0x40000000,
        0xc2fc0000, 0xc2fe0000, 0xc2fd0000, 0xc3000000, 0xc3160000, 0x43000000, 0x42fe0000, 0x7e800000, 0x7f000000, 0x00400000]
def rnd(op):
    c = R.randrange(8)
    if c == 0: return R.getrandbits(32)
    if c == 1: return R.choice(SPEC)
    if op in (3, 11):   # ex2
        return f2b(R.uniform(-150, 130)) if c < 5 else f2b(R.uniform(-2, 2) * 2.0 ** -R.randrange(0, 30))
    if op in (4, 12):   # lg2
        return R.getrandbits(31) if c < 4 else f2b(R.uniform(0.5, 2.0))
    if op in (5, 6, 13, 14):
        return f2b(R.uniform(-8, 8)) if c < 4 else f2b(R.uniform(-1, 1) * 2.0 ** R.randrange(-30, 40))
    if op == 7:
        return f2b(R.uniform(-10, 10)) if c < 4 else f2b(R.uniform(-1, 1) * 2.0 ** R.randrange(-30, 8))
    if op in (0, 1, 2, 8, 9, 10):
        return R.getrandbits(31) if c < 5 else R.getrandbits(32)
    return f2b(R.uniform(-1, 1) * 2.0 ** R.randrange(-40, 40))
out = bytearray()
n = 0
for op in range(19):
    for i in range(4096):
        a = rnd(op)
        b = rnd(op) if op >= 15 else 0
        if op >= 15 and i % 4 == 0:   # divisors near the 2^126 edge / denormal
            b = R.choice([0x7e800000, 0x7e800001, 0x7effffff, 0x7f000000, 0x7f7fffff, 0x00800000, 0x007fffff, 0x3f800000, 0xfe800001]) | (R.getrandbits(1) << 31)
        out += struct.pack('<III', op, a, b); n += 1
open('val_in.bin', 'wb').write(out)
print(n)
