#!/usr/bin/env python3
"""The warp-wide shared-memory path (src/run/smem.c) against exec_mem.c's: random programs of
ld/st.shared run with --no-race, with and without it (PTXI_SMEM=0), must print the same
registers, the same shared memory, the same diagnostics, exit status and counts.

Each program (one per seed of SEEDS) fills its shared memory, then runs random scalar
loads and stores of every width (signed loads into 64-bit registers too) at addresses that
are consecutive, reversed, shuffled, shared by pairs, one for the whole warp (through a
register or a variable's name), strided; under guards, in a divergent branch and in blocks
with a partial last warp; with barriers between. A few programs have a misaligned access,
one lane out of bounds (far, or its last bytes just past the end) in an otherwise fine
warp, 32 places in a row whose last is just past the end (or, sound, ends at the end), or
a whole warp out of bounds (the
diagnostics then say which threads, and the launch stops where it stopped before), or an
inactive lane whose address is out of bounds (nothing to report). The last seeds put a whole
warp's 4-byte load or store (smem.c's row of 32 words) last, its last word just past the end
or ending at it.
usage: smem_diff.py PTXI [SEED...]
"""
import os
import re
import subprocess
import sys
import tempfile

import random

SEEDS = list(range(1, 57))
# seeds from 49: a whole warp's 4-byte row last, load or store, one place too far or ending
# at the end (which smem.c's row path takes)
ROWS = ["row4-ld", "row4-st", "end4-ld", "end4-st"]
NR32, NR64 = 6, 4
FAULTS = ["none", "misaligned", "none", "lane", "none", "warp", "none", "inactive", "none", "end",
          "none", "row"]
WIDTHS = [("u8", 1), ("s8", 1), ("u16", 2), ("s16", 2), ("u32", 4), ("s32", 4), ("b32", 4),
          ("u32", 4), ("s32", 4), ("u64", 8), ("s64", 8), ("b64", 8)]


def index(rng):
    """%x: a lane's element index, from %t (tid.x) and %l (the lane)."""
    k = rng.random()
    if k < 0.30:
        return ["mov.u32 %x, %t;"]
    if k < 0.40:
        return ["mov.u32 %x, %l;"]
    if k < 0.50:
        return ["sub.u32 %x, 31, %l;"]
    if k < 0.58:
        return [f"xor.b32 %x, %t, {rng.randrange(1, 8)};"]
    if k < 0.66:
        return [f"mov.u32 %x, {rng.randrange(8)};"]
    if k < 0.74:
        return ["shr.u32 %x, %t, 1;"]
    if k < 0.82:
        return [f"mul.lo.u32 %x, %t, {rng.choice([2, 3])};"]
    if k < 0.90:
        return ["mul.lo.u32 %x, %l, 7;", "and.b32 %x, %x, 31;"]
    return [f"add.u32 %x, %t, {rng.randrange(1, 5)};"]


def access(rng, size, fault):
    """One random ld/st.shared; `fault` picks a broken address."""
    t, es = rng.choice(WIDTHS)
    if fault in ROWS:
        t, es = rng.choice([w for w in WIDTHS if w[1] == 4])
    L = index(rng)
    # inside: the index wrapped below the size, less room for the offset
    L += [f"mul.lo.u32 %x, %x, {es};", f"rem.u32 %x, %x, {size - 32};",
          f"and.b32 %x, %x, {~(es - 1) & 0xffffffff};"]
    off = rng.randrange(4) * es
    if fault == "misaligned":
        off += rng.randrange(1, es) if es > 1 else 0
    elif fault == "lane":  # one lane far outside, the others fine
        L += [f"setp.eq.u32 %q, %l, {rng.randrange(32)};", f"selp.u32 %y, {size + 64}, 0, %q;",
              "add.u32 %x, %x, %y;"]
    elif fault == "warp":
        off += size
    elif fault == "end":  # one lane's bytes just past the end
        L += [f"setp.eq.u32 %q, %l, {rng.randrange(32)};",
              f"selp.u32 %x, {size - off - es + rng.choice([1, es])}, %x, %q;"]
    elif fault == "row" or fault.startswith("row4"):  # 32 in a row, the last too far
        L = [f"mad.lo.u32 %x, %l, {es}, {size - 31 * es - off};"]
    elif fault.startswith("end4"):  # 32 in a row up to the end
        L = [f"mad.lo.u32 %x, %l, {es}, {size - 32 * es - off};"]
    elif fault == "none" and rng.random() < 0.1:  # 32 in a row up to the end
        L = [f"mad.lo.u32 %x, %l, {es}, {size - 32 * es - off};"]
    elif fault == "none" and rng.random() < 0.15:  # lane 31's bytes end at the end
        L += ["setp.eq.u32 %q, %l, 31;", f"selp.u32 %x, {size - off - es}, %x, %q;"]
    elif fault == "inactive":  # outside only where the guard is false
        L += ["selp.u32 %y, 0, 4096, %p0;", "add.u32 %x, %x, %y;"]
    L.append("add.u32 %x, %x, %b;")
    guard = "@%p0 " if fault == "inactive" else rng.choice(["", "", "", "@%p0 ", "@!%p1 ", "@%p2 "])
    if fault in ROWS:
        guard = ""
    named = fault == "none" and rng.random() < 0.1  # a variable's address: every lane alike
    addr = f"[s+{off}]" if named else f"[%x+{off}]"
    if fault.endswith("-ld") or not fault.endswith("-st") and rng.random() < 0.5:
        if t[0] == "s" and rng.random() < 0.5 or es == 8:
            d = f"%rd{rng.randrange(NR64)}"
        else:
            d = f"%r{rng.randrange(NR32)}"
        L.append(f"{guard}ld.shared.{t} {d}, {addr};")
    else:
        bt = "b" + str(8 * es)
        if rng.random() < 0.15 and fault not in ROWS:
            v = str(rng.randrange(1 << (8 * es)))
        else:
            v = f"%rd{rng.randrange(NR64)}" if es == 8 else f"%r{rng.randrange(NR32)}"
        if es < 4 and not v.isdigit():  # from a 16-bit register
            L.append(f"cvt.u{8 * es}.u32 %h, {v};")
            v = "%h"
        L.append(f"{guard}st.shared.{bt} {addr}, {v};")
    return L


def program(seed):
    rng = random.Random(seed)
    size = rng.choice([256, 512, 1024, 1040])
    block = rng.choice([32, 48, 64, 96])
    fault = FAULTS[seed % len(FAULTS)] if seed < 49 else ROWS[(seed - 49) % len(ROWS)]
    nregs = NR32 + NR64
    L = [".version 8.0", ".target sm_90", ".address_size 64",
         ".visible .entry k(.param .u64 out)", "{",
         f".reg .b32 %r<{NR32}>;", f".reg .b64 %rd<{NR64}>;", ".reg .pred %p<3>;",
         ".reg .pred %q;", ".reg .b32 %t, %l, %x, %y, %b, %c;", ".reg .b16 %h;",
         ".reg .b64 %a, %o;", f".shared .align 8 .b8 s[{size}];",
         "mov.u32 %t, %tid.x;", "and.b32 %l, %t, 31;", "mov.u32 %b, s;"]
    for i in range(NR32):
        L.append(f"mad.lo.u32 %r{i}, %t, {rng.randrange(1, 1 << 32)}, {rng.randrange(1 << 32)};")
    for i in range(NR64):
        L.append(f"mul.wide.u32 %rd{i}, %r{i}, {rng.randrange(1, 1 << 32)};")
    L += ["and.b32 %y, %t, 1;", "setp.eq.u32 %p0, %y, 1;",       # odd lanes
          f"setp.lt.u32 %p1, %l, {rng.randrange(1, 31)};",       # the low lanes
          "and.b32 %y, %t, 6;", "setp.eq.u32 %p2, %y, 2;"]
    # every byte of shared memory written once: no read of unwritten bytes
    for i in range(0, size, 8 * block):
        L += [f"mad.lo.u32 %x, %t, 8, {i};", f"setp.lt.u32 %q, %x, {size};",
              "add.u32 %x, %x, %b;", "@%q st.shared.u64 [%x], %rd0;"]
    L.append("bar.sync 0;")
    n = rng.randrange(12, 40)
    where = rng.randrange(n) if fault != "none" else -1
    if fault in ROWS:  # the whole warp's, last (the maps of written bytes found full)
        where = n - 1
    for k in range(n):
        if k == n // 2:  # a divergent stretch: part of the warp alone
            L += ["@%p1 bra SKIP;"]
        L += access(rng, size, fault if k == where else "none")
        if k == n // 2 + 3:
            L.append("SKIP:")
        if rng.random() < 0.2 and not (n // 2 <= k < n // 2 + 3):
            L.append("bar.sync 0;")
    if n // 2 + 3 >= n:
        L.append("SKIP:")
    # the registers to out[tid], then shared memory after them
    L += ["bar.sync 0;", "ld.param.u64 %o, [out];", f"mul.wide.u32 %a, %t, {8 * nregs};",
          "add.u64 %a, %o, %a;"]
    for i in range(NR32):
        L.append(f"st.global.u32 [%a+{8 * i}], %r{i};")
    for i in range(NR64):
        L.append(f"st.global.u64 [%a+{8 * (NR32 + i)}], %rd{i};")
    for i in range(0, size, 8 * block):
        L += [f"mad.lo.u32 %x, %t, 8, {i};", f"setp.lt.u32 %q, %x, {size};",
              "add.u32 %c, %x, %b;", "@%q ld.shared.u64 %rd0, [%c];",
              "cvt.u64.u32 %a, %x;", "add.u64 %a, %a, %o;",
              f"@%q st.global.u64 [%a+{8 * nregs * block}], %rd0;"]
    L += ["ret;", "}"]
    return "\n".join(L) + "\n", block, 8 * nregs * block + size


def run(ptxi, path, block, nbytes, env):
    cmd = [ptxi, "run", path, "--block", str(block), "--arg", f"buf:{nbytes}", "--dump",
           "0:u64", "--stats", "--no-race"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    err = re.sub(r", [0-9.]+ s \([0-9.]+ M thread-instructions/s\)", "", p.stderr)
    err = re.sub(r"peak memory .*", "", err)
    return p.returncode, p.stdout, err


def main():
    ptxi = sys.argv[1]
    seeds = [int(s) for s in sys.argv[2:]] or SEEDS
    bad = faults = 0
    off = dict(os.environ, PTXI_SMEM="0")
    on = {k: v for k, v in os.environ.items() if k != "PTXI_SMEM"}
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds:
            text, block, nbytes = program(seed)
            path = f"{tmp}/smem{seed}.ptx"
            with open(path, "w") as f:
                f.write(text)
            a = run(ptxi, path, block, nbytes, on)
            b = run(ptxi, path, block, nbytes, off)
            if a[0] not in (0, 1) or "error:" in a[2] and a[0] == 0:
                print(f"seed {seed}: unexpected status {a[0]}\n{a[2]}")
                bad += 1
            elif a != b:
                print(f"seed {seed}: the warp-wide path differs (exit {a[0]} / {b[0]})")
                for x, y in zip(a[1].splitlines(), b[1].splitlines()):
                    if x != y:
                        print(f"  stdout: {x} | {y}")
                        break
                if a[2] != b[2]:
                    print(f"  stderr:\n{a[2]}\n  ---- reference:\n{b[2]}")
                bad += 1
            faults += a[0] != 0
    print(f"smem-diff: {len(seeds) - bad} of {len(seeds)} programs alike ({faults} faulted)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
