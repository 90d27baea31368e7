#!/usr/bin/env python3
"""The data-race detector over every state space x every access kind.

For each space (global, shared, shared::cluster, local, each also through a generic
address; kernel parameters and constants, read only) and each access kind A (ld, st, atom,
red; weak, relaxed, acquire, release, acq_rel, volatile; every scope), one program runs A
against every kind B: pair k is two threads, each making its one access (A or B_k) to word
k, with nothing between them. Each access has its own line, so every racing pair is one
report whichever runs first. What the PTX memory model says (ISA 8) is worked out here:
a pair races when the space is shared or global, one access writes, and they are not both
strong with scopes that include each other. The test checks the exact set of racing pairs
reported (error line and note line), the exit status (1 with a race, 0 without), and that
nothing crashes. Threads of one CTA (two warps), and for global memory threads of two CTAs
(a .cta or .cluster scope does not include the other CTA, each its own cluster).

usage: race_kinds.py PTXI [WORKDIR]
"""
import os
import re
import subprocess
import sys
import tempfile

SCOPES = ["cta", "cluster", "gpu", "sys"]
RANK = {"cta": 1, "cluster": 2, "gpu": 3, "sys": 4}


def kinds():
    """(name, op, sem, scope): op ld/st/atom/red, sem weak/relaxed/..., scope or None."""
    out = [("ld", "ld", "weak", None), ("ld.volatile", "ld", "volatile", None),
           ("st", "st", "weak", None), ("st.volatile", "st", "volatile", None),
           ("atom", "atom", "default", None), ("red", "red", "default", None)]
    for s in SCOPES:
        for sem in ("relaxed", "acquire"):
            out.append((f"ld.{sem}.{s}", "ld", sem, s))
        for sem in ("relaxed", "release"):
            out.append((f"st.{sem}.{s}", "st", sem, s))
        for sem in ("relaxed", "acquire", "release", "acq_rel"):
            out.append((f"atom.{sem}.{s}", "atom", sem, s))
        for sem in ("relaxed", "release"):
            out.append((f"red.{sem}.{s}", "red", sem, s))
    return out


# space name -> (PTX space qualifier or "" for generic, how %rd2 gets word 0's address,
# whether the detector tracks it, read only)
SPACES = {
    "global": (".global", "mov.u64 %rd2, %rd1;", True, False),
    "generic-global": ("", "ld.param.u64 %rd2, [out];", True, False),
    "shared": (".shared", "mov.u64 %rd2, sbuf;", True, False),
    "generic-shared": ("", "cvta.shared.u64 %rd2, sbuf;", True, False),
    "shared-cluster": (".shared::cluster", "mov.u64 %rd2, sbuf;", True, False),
    "local": (".local", "mov.u64 %rd2, lbuf;", False, False),
    "generic-local": ("", "cvta.local.u64 %rd2, lbuf;", False, False),
    "param": (".param", "mov.u64 %rd2, out;", False, True),
    "const": (".const", "mov.u64 %rd2, cbuf;", False, True),
}


def allowed(space, k):
    name, op, sem, scope = k
    if SPACES[space][3]:
        return op == "ld" and sem == "weak"
    if space == "local" and op in ("atom", "red"):  # only through a generic address
        return False
    return True


def insn(space, k):
    name, op, sem, scope = k
    sp = SPACES[space][0]
    q = ""
    if sem not in ("weak", "default"):
        q += "." + sem
    if scope:
        q += "." + scope
    if op == "ld":
        return f"ld{q}{sp}.u32 %r5, [%rd3];"
    if op == "st":
        return f"st{q}{sp}.u32 [%rd3], %r4;"
    if op == "atom":
        return f"atom{q}{sp}.add.u32 %r5, [%rd3], %r4;"
    return f"red{q}{sp}.add.u32 [%rd3], %r4;"


def strong(k, cross):
    """Whether k is strong, with a scope that includes the other thread."""
    name, op, sem, scope = k
    if sem == "weak":
        return False
    if sem == "volatile":
        return True
    sc = scope or "gpu"
    return not cross or RANK[sc] >= RANK["gpu"]


def races(space, a, b, cross):
    if not SPACES[space][2]:
        return False
    if a[1] == "ld" and b[1] == "ld":
        return False
    return not (strong(a, cross) and strong(b, cross))


def program(space, a, bs, cross):
    """Role 0 makes access a, role 1 access bs[k], both on word k; (text, line of a_k, line
    of b_k by k)."""
    lines = [".version 8.0", ".target sm_90", ".address_size 64", "",
             ".const .align 4 .b32 cbuf[64];", "",
             ".visible .entry kinds(.param .u64 out)", "{",
             "  .shared .align 4 .b32 sbuf[64];", "  .local .align 4 .b32 lbuf[64];",
             "  .reg .pred %p;", "  .reg .b32 %r<8>;", "  .reg .b64 %rd<8>;",
             "  ld.param.u64 %rd1, [out];", "  cvta.to.global.u64 %rd1, %rd1;",
             "  mov.u32 %r0, %tid.x;"]
    if cross:
        lines += ["  mov.u32 %r1, %ctaid.x;", "  mov.u32 %r2, %r0;"]
    else:
        lines += ["  shr.u32 %r1, %r0, 6;", "  and.b32 %r2, %r0, 63;"]
    lines += ["  add.u32 %r4, %r0, 1;", "  mad.lo.u32 %r4, %r1, 1000, %r4;",
              "  " + SPACES[space][1], "  mul.wide.u32 %rd4, %r2, 4;",
              "  add.u64 %rd3, %rd2, %rd4;",
              "  setp.ne.u32 %p, %r1, 0;", "  @%p bra B;"]
    for k in range(len(bs)):
        lines += [f"  setp.eq.u32 %p, %r2, {k};", f"  @%p bra A{k};"]
    lines += ["  bra END;", "B:"]
    for k in range(len(bs)):
        lines += [f"  setp.eq.u32 %p, %r2, {k};", f"  @%p bra B{k};"]
    lines += ["  bra END;"]
    aline, bline = {}, {}
    for k, b in enumerate(bs):
        lines += [f"A{k}:", "  " + insn(space, a)]
        aline[k] = len(lines)
        lines += ["  bra END;", f"B{k}:", "  " + insn(space, b)]
        bline[k] = len(lines)
        lines += ["  bra END;"]
    lines += ["END:", "  ret;", "}", ""]
    return "\n".join(lines), aline, bline


def main():
    ptxi = os.path.abspath(sys.argv[1])
    work = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp()
    ks = kinds()
    bad = checked = 0
    err_re = re.compile(r"^kinds\.ptx:(\d+):\d+: error: data race .*\[data-race\]$")
    note_re = re.compile(r"^kinds\.ptx:(\d+):\d+: note: the earlier ")
    for space in SPACES:
        for cross in ([False, True] if space in ("global", "generic-global") else [False]):
            for a in ks:
                if not allowed(space, a):
                    continue
                bs = [b for b in ks if allowed(space, b)]
                text, aline, bline = program(space, a, bs, cross)
                path = os.path.join(work, "kinds.ptx")
                with open(path, "w") as f:
                    f.write(text)
                shape = ["--grid", "2", "--block", "64"] if cross else ["--block", "128"]
                r = subprocess.run([ptxi, "run", "kinds.ptx", *shape, "--arg", "buf:256",
                                    "--keep-going", "--max-errors", "0"], cwd=work,
                                   capture_output=True, text=True, timeout=120)
                want = {k for k, b in enumerate(bs) if races(space, a, b, cross)}
                got, bogus, cur = set(), [], None
                for ln in r.stderr.splitlines():
                    m = err_re.match(ln)
                    if m:
                        cur = int(m.group(1))
                        continue
                    m = note_re.match(ln)
                    if m and cur is not None:
                        pair = {cur, int(m.group(1))}
                        ks_ = [k for k in range(len(bs)) if pair == {aline[k], bline[k]}]
                        if ks_:
                            got |= set(ks_)
                        else:
                            bogus.append(ln)
                        cur = None
                rc = 1 if want else 0
                checked += 1
                if got != want or bogus or r.returncode != rc:
                    bad += 1
                    where = f"{space}{' across CTAs' if cross else ''}, {a[0]}"
                    print(f"FAIL {where}: exit {r.returncode} (want {rc})")
                    for k in sorted(want - got):
                        print(f"    missed: {a[0]} / {bs[k][0]}")
                    for k in sorted(got - want):
                        print(f"    reported, no race: {a[0]} / {bs[k][0]}")
                    for ln in bogus[:3]:
                        print("    " + ln)
                    if r.returncode not in (0, 1):
                        print("    " + r.stderr[:600].replace("\n", "\n    "))
    print(f"race-kinds: {checked - bad} of {checked} programs as the model says")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
