#!/usr/bin/env python3
"""The native tier (src/run/jit.c) against the interpreter: random integer ALU programs run
with and without --no-jit must print the same registers, the same diagnostics and the same
warp- and thread-instruction counts.

Each program (one per seed of SEEDS) starts every thread's registers from its id, runs a
straight stretch of random instructions after an early divergent branch (so blocks see
partial group masks), then a loop whose exit depends on the lane, and stores every register.
The instructions are the forms jit.c compiles (add, sub, mul.lo, mul.wide, mad.lo, and, or,
xor, not, neg, shl, shr, min, max, selp, setp with and without a boolean op and |q, the .pred
logic ops) over .b/.u/.s 16/32/64, with random guards and immediates, mixed with a few it
does not (cvt, a guarded min or max), which end a block; the early branch's setp is a block
of its own. Chains of setps and .pred logic ops
read by selp, guards, logic ops and loop branches (mask_chain) exercise the predicates the
native tier keeps as lane masks; lanes leaving loops one by one, its packed passes and the
lanes that leave a compiled loop in place (the split and the scheduler's pick done between
two passes, the fairness streak begun again: a loop whose last lanes go on long after the
first left pins that).
Programs of negative seeds (seg_program) have bar.sync, so warps run them in the segment
code (jit_seg.c): blocks ending in the setp their branch reads, whose code sums the guard up
for it (jit.c's gen_whole), uniform and not, regions and shared-memory rows, half of them
with --no-race; one of them again under step limits that stop it all over a segment.
usage: jit_diff.py PTXI [SEED...]
"""
import random
import re
import shutil
import subprocess
import sys
import tempfile

SEEDS = list(range(1, 25))
NR = {16: 6, 32: 8, 64: 8}    # registers per width
NP = 6                        # predicates
REG = {16: "%h", 32: "%r", 64: "%rd"}
CMPS_U = ["eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"]
CMPS_S = ["eq", "ne", "lt", "le", "gt", "ge"]


def reg(rng, w):
    return f"{REG[w]}{rng.randrange(NR[w])}"


def pred(rng):
    return f"%p{rng.randrange(NP)}"


def imm(rng, w, signed):
    pick = rng.random()
    if pick < 0.3:
        v = rng.randrange(-4, 9)
    elif pick < 0.5:
        v = (1 << (w - 1)) - rng.randrange(3) if rng.random() < 0.5 else -(1 << (w - 1))
    else:
        v = rng.randrange(1 << w)
        if signed and v >= 1 << (w - 1):
            v -= 1 << w
    if not signed and v < 0:
        v += 1 << w
    return str(v)


def src(rng, w, signed, p_imm=0.3):
    return imm(rng, w, signed) if rng.random() < p_imm else reg(rng, w)


def typ(rng, w, kinds="bus"):
    return rng.choice(kinds) + str(w)


def insn(rng, jit_only=False):
    w = rng.choice([16, 32, 32, 64, 64])
    k = rng.random() * (0.92 if jit_only else 1)
    r = rng.choice
    if k < 0.10:
        t = typ(rng, w, "us")
        return f"{r(['add', 'sub'])}.{t} {reg(rng, w)}, {src(rng, w, t[0] == 's')}, {src(rng, w, t[0] == 's')}"
    if k < 0.18:
        t = typ(rng, w, "us")
        return f"mul.lo.{t} {reg(rng, w)}, {reg(rng, w)}, {src(rng, w, t[0] == 's')}"
    if k < 0.24:
        t = typ(rng, w, "us")
        return f"mad.lo.{t} {reg(rng, w)}, {reg(rng, w)}, {src(rng, w, t[0] == 's')}, {src(rng, w, t[0] == 's')}"
    if k < 0.27:
        t = r(["u32", "s32"])
        return f"mul.wide.{t} {reg(rng, 64)}, {reg(rng, 32)}, {src(rng, 32, t[0] == 's')}"
    if k < 0.37:
        return f"{r(['and', 'or', 'xor'])}.b{w} {reg(rng, w)}, {src(rng, w, False)}, {src(rng, w, False)}"
    if k < 0.40:
        return f"not.b{w} {reg(rng, w)}, {reg(rng, w)}"
    if k < 0.42:
        return f"neg.s{w} {reg(rng, w)}, {reg(rng, w)}"
    if k < 0.54:
        op = r(["shl.b", "shr.u", "shr.s", "shr.b"])
        amt = str(rng.randrange(w + 4)) if rng.random() < 0.7 else reg(rng, 32)
        return f"{op}{w} {reg(rng, w)}, {reg(rng, w)}, {amt}"
    if k < 0.60:
        return f"selp.{typ(rng, w)} {reg(rng, w)}, {src(rng, w, False)}, {src(rng, w, False)}, {pred(rng)}"
    if k < 0.76:
        t = typ(rng, w)
        cmp = r(CMPS_S if t[0] == "s" else CMPS_U if t[0] == "u" else ["eq", "ne"])
        d = pred(rng)
        if rng.random() < 0.3:
            d += "|" + pred(rng)
        tail = ""
        if rng.random() < 0.35:
            tail = f", {'!' if rng.random() < 0.3 else ''}{pred(rng)}"
            cmp += "." + r(["and", "or", "xor"])
        return f"setp.{cmp}.{t} {d}, {reg(rng, w)}, {src(rng, w, t[0] == 's')}{tail}"
    if k < 0.86:
        if rng.random() < 0.25:
            return f"not.pred {pred(rng)}, {pred(rng)}"
        return f"{r(['and', 'or', 'xor'])}.pred {pred(rng)}, {pred(rng)}, {pred(rng)}"
    if k < 0.92:
        t = typ(rng, w, "us")
        return f"{r(['min', 'max'])}.{t} {reg(rng, w)}, {reg(rng, w)}, {reg(rng, w)}"
    return f"cvt.u64.u32 {reg(rng, 64)}, {reg(rng, 32)}"


def mask_chain(rng):
    """Predicates the native tier keeps as lane masks (jit.c's F_MASK, F_NMASK): setps, one
    negated relation or not, combined by .pred logic ops (a destination that is one of their
    operands too), read by selp, a guard, another logic op or a loop's branch."""
    w = rng.choice([16, 32, 64])
    L = []
    ps = rng.sample(range(NP), 3)
    for p in ps[:2]:
        t = typ(rng, w)
        cmp = rng.choice(CMPS_S if t[0] == "s" else CMPS_U if t[0] == "u" else ["eq", "ne"])
        L.append(f"setp.{cmp}.{t} %p{p}, {reg(rng, w)}, {src(rng, w, t[0] == 's')}")
    d = rng.choice(ps)  # often one of the operands
    L.append(f"{rng.choice(['and', 'or', 'xor'])}.pred %p{d}, %p{ps[0]}, %p{ps[1]}")
    if rng.random() < 0.4:
        L.append(f"{rng.choice(['and', 'or', 'xor'])}.pred %p{rng.choice(ps)}, %p{d}, %p{rng.choice(ps[:2])}")
    use = rng.random()
    if use < 0.4:
        L.append(f"selp.b{w} {reg(rng, w)}, {src(rng, w, False)}, {src(rng, w, False)}, %p{d}")
    elif use < 0.8:
        L.append(f"@{'!' if rng.random() < 0.5 else ''}%p{d} {insn(rng, jit_only=True)}")
    return L


def guarded(rng, text):
    if rng.random() < 0.3:
        return f"@{'!' if rng.random() < 0.4 else ''}{pred(rng)} {text}"
    return text


def store_all(L):
    """Ends kernel lines L: every register to out[the thread's index in the grid]; the
    program and its words per thread."""
    n = sum(NR.values()) + NP
    L += ["mov.u32 %u2, %ctaid.x;", "mov.u32 %u3, %ntid.x;", "mad.lo.u32 %u2, %u2, %u3, %t0;",
          "ld.param.u64 %a0, [out];", f"mul.wide.u32 %a1, %u2, {8 * n};",
          "add.u64 %a0, %a0, %a1;"]
    off = 0
    for w in (16, 32, 64):
        for i in range(NR[w]):
            L.append(f"st.global.u{w} [%a0+{off}], {REG[w]}{i};")
            off += 8
    for i in range(NP):
        L.append(f"selp.u32 %t2, 1, 0, %p{i};")
        L.append(f"st.global.u32 [%a0+{off}], %t2;")
        off += 8
    L += ["ret;", "}"]
    return "\n".join(L) + "\n", n


def program(seed):
    rng = random.Random(seed)
    L = [".version 8.0", ".target sm_90", ".address_size 64",
         ".visible .entry k(.param .u64 out, .param .u32 seed)", "{"]
    for w in (16, 32, 64):
        L.append(f".reg .b{w} {REG[w]}<{NR[w]}>;")
    L += [f".reg .pred %p<{NP}>;", ".reg .b32 %t<4>;", ".reg .b32 %u<4>;", ".reg .b32 %s<2>;", ".reg .b64 %a<3>;", ".reg .pred %q<3>;"]
    # every register from the thread's id and the seed
    L += ["mov.u32 %t0, %tid.x;", "ld.param.u32 %t1, [seed];", "xor.b32 %t1, %t1, %t0;"]
    for i in range(NR[32]):
        L.append(f"mad.lo.u32 %r{i}, %t1, {rng.randrange(1, 1 << 32)}, {rng.randrange(1 << 32)};")
    for i in range(NR[64]):
        L.append(f"mul.wide.u32 %rd{i}, %r{i % NR[32]}, {rng.randrange(1, 1 << 32)};")
        L.append(f"xor.b64 %rd{i}, %rd{i}, {rng.randrange(1 << 63)};")
    for i in range(NR[16]):
        L.append(f"cvt.u16.u32 %h{i}, %r{(i + 3) % NR[32]};")
    for i in range(NP):
        L.append(f"and.b32 %t2, %r{i}, {1 << rng.randrange(8)};")
        L.append(f"setp.ne.u32 %p{i}, %t2, 0;")
    # an early divergent branch: a straight stretch on part of the warp
    # (its setp alone, a cvt before it: a block of one setp, as a branch's often is)
    L += [f"and.b32 %t2, %t0, {rng.choice([1, 3, 5, 6])};", "cvt.u64.u32 %a1, %t2;",
          "setp.eq.u32 %q0, %t2, 0;", "@%q0 bra SKIP;"]
    L += [guarded(rng, insn(rng)) + ";" for _ in range(rng.randrange(10, 40))]
    L.append("SKIP:")
    L += [guarded(rng, insn(rng)) + ";" for _ in range(rng.randrange(5, 30))]
    L += [t + ";" for t in mask_chain(rng)] + [guarded(rng, insn(rng)) + ";" for _ in range(3)]
    # a loop whose trip count depends on the lane
    L += ["rem.u32 %t3, %t0, 5;", "add.u32 %t3, %t3, 1;", "mov.u32 %t2, 0;", "LOOP:"]
    L += [guarded(rng, insn(rng)) + ";" for _ in range(rng.randrange(5, 40))]
    L += ["add.u32 %t2, %t2, 1;", "setp.lt.u32 %q1, %t2, %t3;", "@%q1 bra LOOP;"]
    # loops the native tier runs with their back edge (jit.c's loop blocks): bodies of its
    # forms alone, lanes leaving one by one after data-dependent trip counts (past the
    # scheduler's fairness streak and a quantum's end), each exit drawing a ticket and %clock,
    # which pin the schedule: which group ran when, and how far the clock had moved
    L += ["mov.u32 %s1, 0;", "mov.u32 %u2, %ntid.x;", "mov.u32 %u3, %nctaid.x;",
          "mul.lo.u32 %u2, %u2, %u3;", "ld.param.u64 %a2, [out];",
          f"mul.wide.u32 %a1, %u2, {8 * (sum(NR.values()) + NP)};", "add.u64 %a2, %a2, %a1;"]
    for k in range(2):
        body = [guarded(rng, insn(rng, jit_only=True)) + ";" for _ in range(rng.randrange(1, 12))]
        if rng.random() < 0.6:
            at = rng.randrange(len(body) + 1)
            body[at:at] = [t + ";" for t in mask_chain(rng)]
        cap = rng.choice([3, 40, 90, 200])
        skip = rng.random() < 0.5  # part of the warp waits past the loop, not at its exit
        trip = [f"and.b32 %u0, %r{k}, {rng.choice([7, 63, 255])};",
                f"add.u32 %u0, %u0, {rng.randrange(1, 4)};", f"min.u32 %u0, %u0, {cap};"]
        if rng.random() < 0.3:  # a trip count all lanes share: they leave at once
            trip = [f"mov.u32 %u0, {rng.choice([2, 30, 150])};"]
        L += ([f"@%q0 bra AFTER{k};"] if skip else []) + trip + ["mov.u32 %u1, 0;", f"LOOP{k}:"]
        exit = ["setp.lt.u32 %q2, %u1, %u0;", f"@%q2 bra LOOP{k};"]
        if rng.random() < 0.4:  # the branch's predicate a negated relation, or two combined
            exit = rng.choice([["setp.ge.u32 %q2, %u1, %u0;", f"@!%q2 bra LOOP{k};"],
                               ["setp.lt.u32 %q2, %u1, %u0;", "setp.ne.u32 %q1, %u1, 0;",
                                "and.pred %q2, %q2, %q1;", f"@%q2 bra LOOP{k};"],
                               ["setp.ge.u32 %q2, %u1, %u0;", "setp.eq.u32 %q1, %u1, 0;",
                                "or.pred %q2, %q2, %q1;", f"@!%q2 bra LOOP{k};"]])
        L += body + ["add.u32 %u1, %u1, 1;"] + exit + ["mov.u32 %u3, %clock;",
                     "atom.global.add.u32 %u2, [%a2], 1;", f"AFTER{k}:",
                     "mad.lo.u32 %s1, %s1, 31, %u2;", "mad.lo.u32 %s1, %s1, 31, %u3;"]
        if k == 1:
            # lanes leaving a few passes apart, then the rest looping on with a short body
            # past the fairness streak (64 picks after the last split): the group waiting
            # past the loop runs when it is spent, and its tickets and %clock say when
            lo = rng.choice([1, 2, 5])
            L += ["and.b32 %u0, %t0, 3;", "setp.eq.u32 %q2, %u0, 0;",
                  "shr.u32 %u0, %t0, 2;", f"and.b32 %u0, %u0, {rng.choice([3, 7])};",
                  f"add.u32 %u0, %u0, {lo};", "and.b32 %u1, %t0, 7;",
                  f"add.u32 %u1, %u1, {rng.choice([70, 100, 140])};",
                  "selp.u32 %u0, %u0, %u1, %q2;", "mov.u32 %u1, 0;", "LOOPT:"]
            L += [guarded(rng, insn(rng, jit_only=True)) + ";" for _ in range(rng.randrange(0, 3))]
            L += ["add.u32 %u1, %u1, 1;", "setp.lt.u32 %q2, %u1, %u0;", "@%q2 bra LOOPT;",
                  "mov.u32 %u3, %clock;", "atom.global.add.u32 %u2, [%a2], 1;",
                  "mad.lo.u32 %s1, %s1, 31, %u2;", "mad.lo.u32 %s1, %s1, 31, %u3;"]
        if k == 0 and rng.random() < 0.5:  # a uniform loop: the whole group iterates
            L += ["mov.u32 %u1, 0;", "LOOPU:", "xor.b32 %s1, %s1, %u1;",
                  "add.u32 %u1, %u1, 1;", "setp.lt.u32 %q2, %u1, 700;", "@%q2 bra LOOPU;"]
    L.append("xor.b32 %r0, %r0, %s1;")
    return store_all(L)


def uni_src(rng):
    """A uniform operand of a uni_chain op: %u0, %u1 (the round), %u5, or an immediate"""
    return rng.choice(["%u0", "%u1", "%u5", str(rng.randrange(1 << 32)), str(rng.randrange(9))])


def uni_chain(rng):
    """Uniform 32-bit ops for a uniform block (jit_suni.c's form where they fit): into %u5,
    which nothing after the block reads, or %u0, which the next round's blocks read and the
    round's end folds into %s1"""
    body = []
    for _ in range(rng.randrange(0, 4)):
        d, a, b = rng.choice(["%u5", "%u5", "%u0"]), rng.choice(["%u0", "%u1", "%u5"]), uni_src(rng)
        k = rng.random()
        if k < 0.3:
            body.append(f"{rng.choice(['add', 'sub'])}.{rng.choice(['u32', 's32'])} {d}, {a}, {b};")
        elif k < 0.5:
            body.append(f"{rng.choice(['and', 'or', 'xor'])}.b32 {d}, {a}, {b};")
        elif k < 0.65:
            body.append(f"mul.lo.{rng.choice(['u32', 's32'])} {d}, {a}, {b};")
        else:
            op = rng.choice(["shl.b32", "shr.u32", "shr.s32", "shr.b32"])
            body.append(f"{op} {d}, {a}, {rng.choice([0, 1, 5, 31, 32, 40])};")
    return body


def uni_setp(rng, a):
    """setp of %q0 on uniform a and another uniform operand, any 32-bit type and relation"""
    t = rng.choice(["u32", "s32", "b32"])
    c = rng.choice({"u32": CMPS_U, "s32": CMPS_S, "b32": ["eq", "ne"]}[t])
    b = rng.choice(["%u0", "%u1", str(rng.randrange(3)), str((1 << 32) - 1 - rng.randrange(3))])
    return f"setp.{c}.{t} %q0, {a}, {b};" if rng.random() < 0.7 else f"setp.{c}.{t} %q0, {b}, {a};"


def seg_cond(rng, k, uniform):
    """A block ending in the setp of %p{k} for the branch after it (jit_seg.c's gen_block sums
    such a guard up in the block's code): on the lane (all, none or part of a warp by round),
    on random registers, some with a second destination or a boolean op (whose guard the
    block does not sum: the branch reads the frame), or (uniform) a block of the round alone
    and %q0, which nothing else writes (jit_uni.c finds both uniform), after uniform ops of
    uni_chain; returns the block and the guard."""
    if uniform:
        return uni_chain(rng) + [f"and.b32 %u5, %u1, {rng.choice([1, 3, 7])};",
                                 uni_setp(rng, "%u5")], "%q0"
    body = [insn(rng, jit_only=True) + ";" for _ in range(rng.randrange(0, 5))]
    pick = rng.random()
    if pick < 0.35:
        body += [f"mad.lo.u32 %u2, %u1, {rng.choice([5, 13, 29])}, {rng.randrange(64)};",
                 "and.b32 %u2, %u2, 127;",
                 f"setp.{rng.choice(['lt', 'ge', 'hi'])}.u32 %p{k}, %t0, %u2;"]
    elif pick < 0.6:
        body += [f"and.b32 %u2, %u1, {rng.choice([1, 3, 7])};",
                 f"setp.{rng.choice(['eq', 'ne'])}.u32 %p{k}, %u2, {rng.randrange(3)};"]
    elif pick < 0.8:
        w = rng.choice([16, 32, 64])
        t = typ(rng, w, "us")
        body.append(f"setp.{rng.choice(CMPS_U if t[0] == 'u' else CMPS_S)}.{t} %p{k}, "
                    f"{reg(rng, w)}, {src(rng, w, t[0] == 's')};")
    else:
        other = (k + 1) % NP
        d = f"%p{k}|%p{other}" if rng.random() < 0.5 else f"%p{other}|%p{k}"
        tail = f", %p{rng.randrange(NP)}" if rng.random() < 0.5 else ""
        op = "." + rng.choice(["and", "or", "xor"]) if tail else ""
        body.append(f"setp.lt{op}.u32 {d}, %t0, %r{rng.randrange(NR[32])}{tail};")
    return body, f"%p{k}"


def seg_program(seed):
    """A kernel with bar.sync, so that warps run barrier-to-barrier segments in the native
    tier's segment code (jit_seg.c): rounds of blocks each ending in a setp read by the branch
    right after it (taken by all lanes of a warp, none or part), forward over short stretches
    of ALU instructions and shared-memory rows (regions), barriers between them, a word of
    shared memory every lane loads, and the round's loop branch."""
    rng = random.Random(seed)
    L = [".version 8.0", ".target sm_90", ".address_size 64",
         ".visible .entry k(.param .u64 out, .param .u32 seed)", "{"]
    for w in (16, 32, 64):
        L.append(f".reg .b{w} {REG[w]}<{NR[w]}>;")
    L += [f".reg .pred %p<{NP}>;", ".reg .b32 %t<4>;", ".reg .b32 %u<6>;", ".reg .b32 %s<2>;",
          ".reg .b64 %a<3>;", ".reg .pred %q<3>;", ".shared .align 8 .b8 sh[512];"]
    L += ["mov.u32 %t0, %tid.x;", "ld.param.u32 %t1, [seed];", "xor.b32 %t1, %t1, %t0;"]
    for i in range(NR[32]):
        L.append(f"mad.lo.u32 %r{i}, %t1, {rng.randrange(1, 1 << 32)}, {rng.randrange(1 << 32)};")
    for i in range(NR[64]):
        L.append(f"mul.wide.u32 %rd{i}, %r{i % NR[32]}, {rng.randrange(1, 1 << 32)};")
    for i in range(NR[16]):
        L.append(f"cvt.u16.u32 %h{i}, %r{(i + 3) % NR[32]};")
    for i in range(NP):
        L.append(f"setp.ne.u32 %p{i}, %r{i}, 0;")
    L += ["mov.u32 %u3, sh;", "shl.b32 %u4, %t0, 2;", "add.u32 %u3, %u3, %u4;",
          "st.shared.u32 [%u3], %t1;", "mov.u32 %s1, 0;", "mov.u32 %u1, 0;", "bar.sync 0;",
          "ROUND:"]
    # (one program in three only uniform branches: a warp that never splits runs the
    # uniform code, jit_seg.c's ebp zero, all along)
    only_uniform = seed % 3 == 0
    for j in range(rng.randrange(2, 5)):
        body, guard = seg_cond(rng, rng.randrange(NP), only_uniform or rng.random() < 0.2)
        L += body
        L.append(f"@{'!' if rng.random() < 0.4 else ''}{guard} bra F{j};")
        for _ in range(rng.randrange(0, 4)):
            x = rng.random()
            if x < 0.25:
                L.append(f"st.shared.u32 [%u3], %r{rng.randrange(NR[32])};")
            elif x < 0.5:
                L.append(f"ld.shared.u32 %r{rng.randrange(NR[32])}, [%u3];")
            else:
                L.append(insn(rng, jit_only=True) + ";")
        L.append(f"F{j}:")
        if rng.random() < 0.6:
            t, w = rng.choice([("u8", 32), ("s8", 32), ("u16", 32), ("s16", 32), ("u32", 32),
                               ("s32", 32), ("u64", 64), ("s64", 64)])
            at = rng.randrange(512 // (int(t[1:]) // 8)) * (int(t[1:]) // 8)
            L += ["bar.sync 0;", f"ld.shared.{t} {reg(rng, w)}, [sh+{at}];", "bar.sync 0;"]
    L += ["xor.b32 %s1, %s1, %r1;", "xor.b32 %s1, %s1, %u0;", "add.u32 %u1, %u1, 1;",
          f"setp.lt.u32 %q2, %u1, {rng.choice([9, 20, 40])};", "@%q2 bra ROUND;"]
    L.append("xor.b32 %r0, %r0, %s1;")
    return store_all(L)


def run(ptxi, path, n, block, extra):
    cmd = [ptxi, "run", path, "--grid", "2", "--block", str(block), "--arg",
           f"buf:{8 * n * block * 2 + 8}", "--arg", "u32:12345", "--dump", "0:u64", "--stats"] + extra
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    err = re.sub(r", [0-9.]+ s \([0-9.]+ M thread-instructions/s\)", "", p.stderr)
    err = re.sub(r"peak memory .*", "", err)
    return p.returncode, p.stdout, err


def main():
    ptxi = sys.argv[1]
    seeds = [int(s) for s in sys.argv[2:]] or SEEDS + [-s for s in SEEDS]
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds:  # (a negative seed: seg_program's)
            text, n = program(seed) if seed > 0 else seg_program(-seed)
            path = f"{tmp}/jit_{seed}.ptx"
            with open(path, "w") as f:
                f.write(text)
            block = [32, 45, 64, 77, 100][seed % 5] if seed > 0 else 128
            extra = ["--no-race"] if seed < 0 and seed % 2 else []  # (the row path inline)
            a = run(ptxi, path, n, block, extra)
            b = run(ptxi, path, n, block, extra + ["--no-jit"])
            if a[0] != 0 or "warp-instructions" not in a[2]:
                print(f"seed {seed}: ptxi failed ({a[0]}):\n{a[2]}")
                bad += 1
            elif a != b:
                print(f"seed {seed}: the native tier differs from the interpreter")
                for x, y in zip(a[1].splitlines(), b[1].splitlines()):
                    if x != y:
                        print(f"  jit {x}  interp {y}")
                        break
                if a[2] != b[2]:
                    print(f"  stderr jit:\n{a[2]}  stderr interp:\n{b[2]}")
                bad += 1
    # the step limit landing all over one segment program: where the budget runs out at a
    # branch right after a block whose code summed its guard up (jit_seg.c's
    # gen_bra_summed's budget test: without it 5 of these differ)
    if not sys.argv[2:]:
        tmp = tempfile.mkdtemp()
        text, n = seg_program(5)
        path = f"{tmp}/jit_steps.ptx"
        with open(path, "w") as f:
            f.write(text)
        for steps in range(200, 700, 37):
            extra = ["--no-race", "--max-steps", str(steps)]
            if run(ptxi, path, n, 128, extra) != run(ptxi, path, n, 128, extra + ["--no-jit"]):
                print(f"seg_program(5) --max-steps {steps}: the native tier differs")
                bad += 1
        shutil.rmtree(tmp)
    print(f"jit_diff: {len(seeds) - bad} of {len(seeds)} programs agree")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
