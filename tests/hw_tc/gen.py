#!/usr/bin/env python3
"""Extracts single-output tensor-core vectors from the H100's mma.sync and wgmma conformance
cases (../shared/conformance/tensor, mma_* and wg_*) into mma_cases.txt for
tests/test_tc_arith.c.

usage: gen.py CONFORMANCE_TENSOR_DIR > mma_cases.txt

Each case holds per-thread fragment registers of A, B, C and the H100's D for
mma.sync.m16n8kK; the m16n8 fragment layouts of the PTX manual (section "Matrix fragments for
mma.m16n8kK") turn them into rows of A, columns of B and elements of C and D. Up to six outputs
per case are kept, those where an exact sum rounded once to nearest disagrees with the H100.
wgmma cases (only the plain ones: A and B from shared memory without swizzle, no transposes,
scales of 1, scale-d 1) give rows of A and columns of B from the shared-memory images
through the core-matrix layout (8 rows of 16 bytes; leading and stride byte offsets of the
case), and D from the m64nN accumulator fragments; fp8 there is the native 32-term block.
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


BYTES = {"f16": 2, "bf16": 2, "tf32": 4, "e4m3": 1, "e5m2": 1}


def wg_lines(root, name):
    c = json.load(open(os.path.join(root, "cases", name + ".json")))
    v = c["numeric"]["variant"]
    if (v.get("form") != "ss" or v["trans_a"] or v["trans_b"] or v["scale_a"] != 1 or
            v["scale_b"] != 1 or c["numeric"].get("scale_d", 1) != 1):
        return []
    at, bt, dt, K, nreg = v["atype"], v["btype"], v["dtype"], v["K"], v["nreg"]
    eb, kc = BYTES[at], 16 // BYTES[at]
    img = [open(os.path.join(root, c["args"][i]["init"]), "rb").read() for i in range(2)]
    C, H = words(root, c["args"][2]["init"]), words(root, c["outputs"][0]["file"])
    size, lbo, sbo = (v["a_bytes"], v["b_bytes"]), (v["lbo_a"], v["lbo_b"]), (v["sbo_a"], v["sbo_b"])

    def vec(which, cta, r):  # row r of A, or column r of B, K elements
        base = cta * size[which]
        offs = [base + (r // 8) * sbo[which] + (k // kc) * lbo[which] + (r % 8) * 16 + (k % kc) * eb
                for k in range(K)]
        return [int.from_bytes(img[which][o:o + eb], "little") for o in offs]
    out = []
    fn = "f16" if dt == "f16" else "f32"
    for cta in range(c["grid"][0]):
        for t in range(128):
            w, g, q = t // 32, (t % 32) >> 2, t & 3
            for r in range(nreg):
                i = (cta * 128 + t) * nreg + r
                if dt == "f32":
                    cells = [(16 * w + g + 8 * ((r >> 1) & 1), 8 * (r >> 2) + 2 * q + (r & 1), C[i], H[i])]
                else:
                    cells = [(16 * w + g + 8 * (r & 1), 8 * (r >> 1) + 2 * q + j, (C[i] >> 16 * j) & 0xffff,
                              (H[i] >> 16 * j) & 0xffff) for j in range(2)]
                for row, col, cv, want in cells:
                    a, b = vec(0, cta, row), vec(1, cta, col)
                    if want != naive(at, a, b, cv, dt) and len(out) < 6:
                        out.append("%s %s %s %d %x %x %s %s" % (fn, at, bt, K, cv, want,
                                   " ".join("%x" % x for x in a), " ".join("%x" % x for x in b)))
    return out


def main():
    root = sys.argv[1]
    names = sorted(n[:-5] for n in os.listdir(os.path.join(root, "cases")))
    for name in names:
        lines = case_lines(root, name) if name.startswith("mma_") else \
            wg_lines(root, name) if name.startswith("wg_") else []
        for line in lines:
            print(line)


if __name__ == "__main__":
    main()
