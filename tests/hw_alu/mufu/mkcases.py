#!/usr/bin/env python3
"""mkcases.py VAL_IN.bin VAL_OUT.bin > tests/hw_alu/approx_cases.txt
Turns the random validation inputs of genval.py and the H100's outputs (meas.cu, same device
call as the MUFU tables, inputs not used to build them) into alu_cases.txt's format."""
import struct, sys
NAMES = ["rcp.approx.ftz.f32", "rsqrt.approx.ftz.f32", "sqrt.approx.ftz.f32", "ex2.approx.ftz.f32",
         "lg2.approx.ftz.f32", "sin.approx.ftz.f32", "cos.approx.ftz.f32", "tanh.approx.f32",
         "rcp.approx.f32", "rsqrt.approx.f32", "sqrt.approx.f32", "ex2.approx.f32", "lg2.approx.f32",
         "sin.approx.f32", "cos.approx.f32", "div.approx.f32", "div.approx.ftz.f32", "div.full.f32",
         "div.full.ftz.f32"]
vin = open(sys.argv[1], 'rb').read()
vout = open(sys.argv[2], 'rb').read()
n = len(vout) // 4
cases = {}
for i in range(n):
    op, a, b = struct.unpack_from('<III', vin, 12 * i)
    d, = struct.unpack_from('<I', vout, 4 * i)
    cases.setdefault(op, []).append((a, b, d))
print("# ptxi approx vectors: random inputs (tests/hw_alu/mufu/genval.py) and the outputs of an NVIDIA H100")
print("# (driver 580.159.04), measured in the call that measured the MUFU tables; same format as alu_cases.txt")
for op in sorted(cases):
    c = cases[op]
    div = op >= 15
    print("S %s r - %s %d" % (NAMES[op], "rr" if div else "r", len(c)))
    for a, b, d in c:
        print(("%x %x : %x 0" % (a, b, d)) if div else ("%x : %x 0" % (a, d)))
