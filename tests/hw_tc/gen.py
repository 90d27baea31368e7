#!/usr/bin/env python3
"""Extracts single-output tensor-core vectors from the H100's mma.sync conformance cases
(../shared/conformance/tensor, mma_*) into mma_cases.txt for tests/test_tc_arith.c.

usage: gen.py CONFORMANCE_TENSOR_DIR > mma_cases.txt

Each case holds per-thread fragment registers of A, B, C and the H100's D for
mma.sync.m16n8kK; the m16n8 fragment layouts of the PTX manual (section "Matrix fragments for
mma.m16n8kK") turn them into rows of A, columns of B and elements of C and D. Up to six outputs
per case are kept, those where an exact sum rounded once to nearest disagrees with the H100.
Line format: FN ATYPE BTYPE K C D A0..A(K-1) B0..B(K-1), hexadecimal raw bits; FN is f32,
f16 (accumulator type) or fp8sm90 (mma.sync fp8 as ptxas emulates it).
"""
import json, math, os, struct, sys

BITS = {"f16": 16, "bf16": 16, "tf32": 32, "e4m3": 8, "e5m2": 8}


def a_rc(at, K, j, g, t):
    """Row and column of element j of a thread's A fragment (g = lane / 4, t = lane % 4)."""
    if BITS[at] == 16 and K == 16: return g + 8 * ((j >> 1) & 1), 2 * t + (j & 1) + 8 * (j >> 2)
    if BITS[at] == 16 and K == 8: return g + 8 * (j >> 1), 2 * t + (j & 1)
    if at == "tf32" and K == 8: return g + 8 * (j & 1), t + 4 * (j >> 1)
    if at == "tf32" and K == 4: return g + 8 * j, t
    return g + 8 * ((j >> 2) & 1), 4 * t + (j & 3) + 16 * (j >> 3)


def b_kn(bt, K, j, g, t):
    if BITS[bt] == 16 and K == 16: return 2 * t + (j & 1) + 8 * (j >> 1), g
    if BITS[bt] == 16 and K == 8: return 2 * t + j, g
    if bt == "tf32" and K == 8: return t + 4 * j, g
    if bt == "tf32" and K == 4: return t, g
    return 4 * t + (j & 3) + 16 * (j >> 2), g


def elem(words, j, bits):
    per = 32 // bits
    return (words[j // per] >> (bits * (j % per))) & ((1 << bits) - 1)


def val(t, raw):
    if t == "f16": return struct.unpack("<e", struct.pack("<H", raw))[0]
    if t in ("bf16", "f32"): return struct.unpack("<f", struct.pack("<I", raw << 16 if t == "bf16" else raw))[0]
    if t == "tf32": return struct.unpack("<f", struct.pack("<I", raw & 0xffffe000))[0]
    if t == "e5m2": return struct.unpack("<e", struct.pack("<H", raw << 8))[0]
    s, e, m = -1 if raw & 0x80 else 1, (raw >> 3) & 15, raw & 7
    return math.nan if e == 15 and m == 7 else s * (m / 8 * 2**-6 if e == 0 else (1 + m / 8) * 2**(e - 7))


def naive(at, a, b, c, dt):
    try:
        x = val(dt, c) + sum(val(at, p) * val(at, q) for p, q in zip(a, b))
        return struct.unpack("<I", struct.pack("<f", x))[0] if dt == "f32" else struct.unpack("<H", struct.pack("<e", x))[0]
    except (OverflowError, ValueError):
        return -1


def words(root, path):
    d = open(os.path.join(root, path), "rb").read()
    return list(struct.unpack("<%dI" % (len(d) // 4), d))


def case_lines(root, name):
    c = json.load(open(os.path.join(root, "cases", name + ".json")))
    v = c["numeric"]["variant"]
    at, bt, dt, K, na, nb, nc = v["atype"], v["btype"], v["dtype"], v["K"], v["na"], v["nb"], v["nc"]
    A, B, C = (words(root, c["args"][i]["init"]) for i in range(3))
    H = words(root, c["outputs"][0]["file"])
    fn = "f16" if dt == "f16" else ("fp8sm90" if BITS[at] == 8 else "f32")
    cbits = 32 if dt == "f32" else 16
    out = []
    for w in range(len(A) // na // 32):
        Am = [[0] * K for _ in range(16)]; Bm = [[0] * 8 for _ in range(K)]; Cm = [[0] * 8 for _ in range(16)]
        for lane in range(32):
            g, t, th = lane >> 2, lane & 3, w * 32 + lane
            for j in range(na * 32 // BITS[at]):
                r, k = a_rc(at, K, j, g, t); Am[r][k] = elem(A[th * na:], j, BITS[at])
            for j in range(nb * 32 // BITS[bt]):
                k, n = b_kn(bt, K, j, g, t); Bm[k][n] = elem(B[th * nb:], j, BITS[bt])
            for j in range(4):
                Cm[g + 8 * (j >> 1)][2 * t + (j & 1)] = elem(C[th * nc:], j, cbits)
        for lane in range(32):
            g, t, th = lane >> 2, lane & 3, w * 32 + lane
            for j in range(4):
                r, n = g + 8 * (j >> 1), 2 * t + (j & 1)
                bcol, want = [Bm[k][n] for k in range(K)], elem(H[th * nc:], j, cbits)
                if want != naive(at, Am[r], bcol, Cm[r][n], dt) and len(out) < 6:
                    out.append("%s %s %s %d %x %x %s %s" % (fn, at, bt, K, Cm[r][n], want,
                               " ".join("%x" % x for x in Am[r]), " ".join("%x" % x for x in bcol)))
    return out


def main():
    root = sys.argv[1]
    for name in sorted(n[:-5] for n in os.listdir(os.path.join(root, "cases")) if n.startswith("mma_")):
        for line in case_lines(root, name):
            print(line)


if __name__ == "__main__":
    main()
