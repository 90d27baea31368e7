#!/usr/bin/env python3
"""
cvtgen.py - cvt's float forms against ptxas (check_cvt.c): every destination/source pair of
the packed and narrow types (f16x2, bf16x2, e4m3x2 ... ue8m0x2, the x4 forms, tf32) and the
plain float and integer conversions next to them, each with every rounding word (none, .rn,
.rz, .rm, .rp, .rna, .rs, .rni, .rzi) and up to two of .ftz, .sat, .satfinite, .relu; then
the .rs forms with and without their random-bits operand, destination registers of every
width, the words of some forms in every order, and the operands of a few written wrong.

    cvtgen.py list               print the forms (family, version, target, instruction)
    cvtgen.py label [-o FILE]    run ptxas (gen.py's labelling) and write cvt.tsv

The combinations are tried under .version 8.7 for sm_90a and for sm_100a, each kept with
chance 0.35 (a fixed seed); the other forms under 8.7 sm_90a and one more version/target drawn
for each (the gates of .satfinite, tf32's .rn/.rz, the fp8 and sm_100a types). Rows are gen.py's:
family, version, target, ok|error, instruction, ptxas's first message; run_corpus --hopper
(meson test ptxas_hopper_cvt) compares `ptxi check` with them.
"""
import itertools
import os
import random
import sys
from multiprocessing import Pool

import gen

# the register each type is written in (gen.HEAD's declarations: %h b16, %r b32, %rd b64)
REG = {"f32": "%f", "f64": "%fd", "f16": "%h", "bf16": "%h", "tf32": "%r", "f16x2": "%r",
       "bf16x2": "%r", "e4m3x2": "%h", "e5m2x2": "%h", "e2m1x2": "%h", "e2m3x2": "%h",
       "e3m2x2": "%h", "ue8m0x2": "%h", "s32": "%r", "u8": "%r", "s8": "%r", "u16": "%h",
       "s64": "%rd", "u32": "%r"}
NARROW = ["e4m3x2", "e5m2x2", "e2m1x2", "e2m3x2", "e3m2x2"]
ROUNDINGS = ["", "rn", "rz", "rm", "rp", "rna", "rs", "rni", "rzi"]
WORDS = ["ftz", "sat", "satfinite", "relu"]
OTHER = [("7.8", "sm_90a"), ("8.0", "sm_90a"), ("8.1", "sm_90a"), ("8.2", "sm_90a"),
         ("8.3", "sm_90a"), ("8.6", "sm_90a"), ("9.0", "sm_90a"), ("7.8", "sm_90"),
         ("8.6", "sm_90"), ("8.7", "sm_90"), ("9.0", "sm_90"), ("8.6", "sm_100a"),
         ("8.7", "sm_100a"), ("8.8", "sm_100a"), ("9.0", "sm_100a"), ("8.7", "sm_100"),
         ("7.4", "sm_90a"), ("7.4", "sm_80"), ("7.0", "sm_80"), ("8.1", "sm_89")]


def pairs():
    """(destination, source, how many source registers)"""
    p = [(d, "f32", 2) for d in ["f16x2", "bf16x2"] + NARROW + ["ue8m0x2"]]
    for d in NARROW:
        p += [(d, "f16x2", 1), (d, "bf16x2", 1)]
    for a in NARROW:
        p += [("f16x2", a, 1), ("bf16x2", a, 1)]
    p += [("ue8m0x2", "bf16x2", 1), ("bf16x2", "ue8m0x2", 1)]
    p += [(d, a, 1) for d, a in [
        ("tf32", "f32"), ("f16", "f32"), ("bf16", "f32"), ("bf16", "f16"), ("f16", "bf16"),
        ("f32", "bf16"), ("f32", "f16"), ("bf16", "f64"), ("f16", "f64"), ("f32", "f32"),
        ("f32", "f64"), ("f64", "f32"), ("bf16", "s32"), ("s32", "bf16"), ("f16x2", "f16x2"),
        ("tf32", "tf32"), ("bf16x2", "bf16x2"), ("f32", "tf32"), ("s32", "f32"), ("f32", "s32"),
        ("f16", "s32"), ("s32", "f16"), ("s8", "s32"), ("f16", "f16"), ("bf16", "bf16")]]
    return p


def combinations():
    """Every pair with every rounding and up to two other words."""
    for d, a, n in pairs():
        ops = REG[d] + "1, " + ", ".join("%s%d" % (REG[a], 2 + i) for i in range(n))
        for rnd in ROUNDINGS:
            for k in range(3):
                for ms in itertools.combinations(WORDS, k):
                    words = ([rnd] if rnd else []) + list(ms)
                    yield "cvt.%s%s.%s %s;" % ("".join(w + "." for w in words), d, a, ops)


def extras():
    """.rs with and without its random bits, the x4 forms, registers of every width, and the
    words of some forms in every order."""
    out = []
    for d in ["f16x2", "bf16x2"]:
        for m in ["", "relu.", "satfinite.", "relu.satfinite."]:
            out += ["cvt.rs.%s%s.f32 %%r1, %%f2, %%f3, %%r4;" % (m, d),
                    "cvt.rs.%s%s.f32 %%r1, %%f2, %%f3;" % (m, d),
                    "cvt.rn.%s%s.f32 %%r1, %%f2, %%f3, %%r4;" % (m, d)]
    for d in ["e4m3x4", "e5m2x4", "e2m3x4", "e3m2x4", "e2m1x4"]:
        for m in ["satfinite.", "relu.satfinite.", "", "relu."]:
            for dr in ["%r1", "%h1"]:
                out.append("cvt.rs.%s%s.f32 %s, {%%f2, %%f3, %%f4, %%f5}, %%r4;" % (m, d, dr))
            out += ["cvt.rn.%s%s.f32 %%r1, {%%f2, %%f3, %%f4, %%f5}, %%r4;" % (m, d),
                    "cvt.rs.%s%s.f32 %%r1, %%f2, %%f3, %%r4;" % (m, d)]
    for r in ["%r1", "%h1", "%rd1", "%f1"]:
        s = r.replace("1", "2")
        out += ["cvt.rn.satfinite.e2m1x2.f32 %s, %%f2, %%f3;" % r,
                "cvt.rn.f16x2.e2m1x2 %%r1, %s;" % s,
                "cvt.rn.satfinite.e4m3x2.f32 %s, %%f2, %%f3;" % r,
                "cvt.rn.f16x2.e4m3x2 %s, %%h2;" % r, "cvt.rn.f16x2.e4m3x2 %%r1, %s;" % s,
                "cvt.rn.satfinite.e4m3x2.f16x2 %%h1, %s;" % s,
                "cvt.rn.f16x2.f32 %s, %%f2, %%f3;" % r, "cvt.rna.tf32.f32 %s, %%f2;" % r,
                "cvt.rn.bf16x2.f32 %%r1, %s, %%f3;" % s]
    for a in ["e4m3x2", "e5m2x2", "e2m3x2", "e3m2x2"]:
        out += ["cvt.rn.bf16x2.%s %%r1, %%h2;" % a, "cvt.rn.relu.bf16x2.%s %%r1, %%h2;" % a]
    for p in ["cvt.rn.satfinite.relu.e4m3x2.f32 %h1, %f2, %f3;",
              "cvt.rn.relu.f16x2.f32 %r1, %f2, %f3;", "cvt.rna.satfinite.tf32.f32 %r1, %f2;",
              "cvt.rn.relu.f16x2.e4m3x2 %r1, %h2;",
              "cvt.rz.satfinite.relu.bf16x2.f32 %r1, %f2, %f3;",
              "cvt.rn.ftz.sat.f16.f32 %h1, %f2;", "cvt.rzi.ftz.sat.s32.f32 %r1, %f2;",
              "cvt.rn.satfinite.relu.bf16.f32 %h1, %f2;"]:
        head, ops = p.split(" ", 1)
        for q in itertools.permutations(head.split(".")[1:]):
            out.append("cvt." + ".".join(q) + " " + ops)
    return sorted(set(out))


def forms():
    rng = random.Random(26)
    seen = set()
    combos = list(combinations())
    rows = [(v, t, f) for f in combos for v, t in (gen.MAIN, ("8.7", "sm_100a"))
            if rng.random() < 0.35]
    for f in extras():
        rows += [(gen.MAIN[0], gen.MAIN[1], f), rng.choice(OTHER) + (f,)]
    for v, t, f in rows:
        if (v, t, f) not in seen:
            seen.add((v, t, f))
            yield "cvt", v, t, f


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "list":
        for row in forms():
            print("\t".join(row))
        return
    if len(sys.argv) < 2 or sys.argv[1] != "label":
        sys.exit(__doc__)
    out = sys.argv[sys.argv.index("-o") + 1] if "-o" in sys.argv else \
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "cvt.tsv")
    groups = {}
    for _, v, t, insn in forms():
        groups.setdefault((v, t), []).append(insn)
    jobs = list(gen.split_jobs(groups))
    with Pool(int(os.environ.get("JOBS", "2"))) as pool:
        results = pool.map(gen.label_group, jobs)
    rows = [("cvt", v, t, "error" if msg else "ok", insn, (msg or "").replace("\t", " "))
            for (v, t, _), res in zip(jobs, results) for insn, msg in res]
    gen.write_table(out, rows, "cvtgen.py")


if __name__ == "__main__":
    main()
