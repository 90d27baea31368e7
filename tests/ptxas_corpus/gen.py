#!/usr/bin/env python3
"""
gen.py - generate the differential corpus of one-instruction PTX kernels and label each
with ptxas's verdict.

    gen.py list                 print the cases (version, target, instruction), no ptxas
    gen.py label [-o FILE] [--reuse OLD.tsv ...]
                                run ptxas on every case not labelled in OLD.tsv (JOBS=2
                                processes), write corpus.tsv

Every case is the kernel in TEMPLATE with one instruction substituted; the runner
(run_corpus.c) rebuilds the same text from the corpus row, so the corpus needs only the
instruction, .version and .target. Rows: id, version, target, verdict (ok|error), the
instruction, and ptxas's first error message (without the "ptxas file, line N;" prefix).
"""
import hashlib
import itertools
import os
import subprocess
import sys
import tempfile
from multiprocessing import Pool

PTXAS = os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas")

# Keep in sync with TEMPLATE in run_corpus.c (the runner checks line 16 is the instruction).
TEMPLATE = """.version {v}
.target {t}
.address_size 64
.global .align 16 .b8 gbuf[1024];
.visible .entry k()
{{
\t.reg .pred %p<4>;
\t.reg .b16 %rs<4>;
\t.reg .b32 %r<8>;
\t.reg .b64 %rd<8>;
\t.reg .u32 %u<4>;
\t.reg .f32 %f<4>; .reg .f64 %fd<4>; .reg .f16 %h<4>; .reg .f16x2 %hx<4>; .reg .s32 %s<4>; .reg .s64 %sd<4>; .reg .u16 %us<4>; .reg .u64 %ud<4>;
\t.shared .align 8 .b64 bar;
\t.shared .align 16 .b8 sbuf[1024];
\t.local .align 8 .b8 lbuf[64];
\t{insn}
$L1:
\tret;
}}
"""

PAIRS = [("7.0", "sm_80"), ("7.1", "sm_80"), ("7.8", "sm_80"), ("8.0", "sm_80"),
         ("8.5", "sm_80"), ("8.6", "sm_80"), ("9.0", "sm_80"), ("7.1", "sm_86"),
         ("8.0", "sm_86"), ("7.8", "sm_89"), ("8.6", "sm_89"), ("7.8", "sm_90"),
         ("8.0", "sm_90"), ("8.5", "sm_90"), ("8.6", "sm_90"), ("9.0", "sm_90"),
         ("8.0", "sm_90a"), ("8.6", "sm_90a"), ("9.0", "sm_90a")]
# The thresholds that matter most; every combination gets these plus a few rotating pairs.
KEY = [("7.0", "sm_80"), ("8.0", "sm_80"), ("7.8", "sm_90"), ("8.0", "sm_90"),
       ("8.6", "sm_90"), ("9.0", "sm_90a")]
BAD_PAIRS = [("7.0", "sm_86"), ("7.1", "sm_89"), ("7.1", "sm_90"), ("7.8", "sm_90a"),
             ("9.1", "sm_90"), ("6.0", "sm_80")]


def pick(insn, n):
    """n pairs for one instruction, chosen deterministically from its text."""
    h = int(hashlib.md5(insn.encode()).hexdigest(), 16)
    out = []
    while len(out) < n:
        p = PAIRS[h % len(PAIRS)]
        h //= len(PAIRS)
        if p not in out:
            out.append(p)
        if h == 0:
            h = int(hashlib.md5((insn + str(len(out))).encode()).hexdigest(), 16)
    return out


cases = []      # (version, target, insn)
seen = set()


def add(insn, pairs):
    for v, t in pairs:
        k = (v, t, insn)
        if k not in seen:
            seen.add(k)
            cases.append(k)


def full(insn):
    add(insn, KEY + pick(insn, 2))


def some(insn, n=3):
    add(insn, [("9.0", "sm_90a")] + pick(insn, n))


SEMS = ["", ".release", ".relaxed", ".acquire"]
SCOPES = ["", ".cta", ".cluster", ".gpu"]
SPACES = ["", ".shared", ".shared::cta", ".shared::cluster", ".global"]
ADDRS = ["[bar]", "[%rd1]", "[%r1]", "[bar+8]", "[bar+4]", "[sbuf+16]", "[gbuf]",
         "[%rd1+8]", "[64]", "[lbuf]", "%rd1", "[bar+-8]"]
U32S = ["1", "0", "1048576", "%r1", "%u1", "%rd1", "%rs1", "%f1", "%p1", "0x10", "_"]


def gen_init_inval():
    for op in ["init", "inval"]:
        ops = "[bar], %r1" if op == "init" else "[bar]"
        for sp, ty, ss in itertools.product(SPACES + [".local"], [".b64", ".b32", ".u64"],
                                            ["", ".release.cta", ".relaxed.cluster"]):
            full(f"mbarrier.{op}{ss}{sp}{ty} {ops};")
        for sp in ["", ".shared", ".shared::cta"]:
            for a in ADDRS:
                some(f"mbarrier.{op}{sp}.b64 {a}" + (", %r1;" if op == "init" else ";"))
        full(f"mbarrier.{op}.b64.shared {ops};")
        full(f"mbarrier.{op}.shared.b64 {ops}, %r2;")
        full(f"mbarrier.{op}.shared.shared.b64 {ops};")
        full(f"mbarrier.{op}.shared::cta.shared.b64 {ops};")
        full(f"@%p1 mbarrier.{op}.shared.b64 {ops};")
        full(f"mbarrier.{op}.shared {ops};")
    full("mbarrier.init.shared.b64 [bar];")
    full("mbarrier.init.shared.b64 %rd1, [bar], 1;")
    for c in U32S:
        for sp in ["", ".shared"]:
            some(f"mbarrier.init{sp}.b64 [bar], {c};", 4)


def gen_arrive():
    for op in ["arrive", "arrive_drop"]:
        for om, se, sc, sp in itertools.product(["", ".expect_tx", ".noComplete"], SEMS,
                                                SCOPES, SPACES):
            q = f"mbarrier.{op}{om}{se}{sc}{sp}.b64"
            if om == ".expect_tx":
                confs = ["%rd1, [bar], %r2", "_, [bar], %r2"]
            else:
                confs = ["%rd1, [bar]", "_, [bar]", "%rd1, [bar], %r2", "_, [bar], %r2"]
            for c in confs:
                add(f"{q} {c};", pick(q + c, 3) + [("9.0", "sm_90a")])
        base = f"mbarrier.{op}"
        for q in [".shared.b64", ".release.cta.shared::cta.b64", ".shared::cluster.b64",
                  ".noComplete.shared.b64", ".expect_tx.shared::cta.b64"]:
            for d in ["%rd1", "_", "%r1", "%p1", "%f1", "%u1"]:
                for rest in ["[bar]", "[bar], 1", "[bar], 0", "[bar], %r2"]:
                    some(f"{base}{q} {d}, {rest};", 2)
            for a in ADDRS:
                some(f"{base}{q} _, {a}, 1;", 2)
            for c in U32S:
                some(f"{base}{q} _, [bar], {c};", 2)
                full(f"{base}{q} %rd1, [bar], {c};") if c in ("0", "1", "%r2") else None
        # orders and duplicates
        for q in [".shared.release.cta.b64", ".b64.shared", ".cta.release.shared.b64",
                  ".release.expect_tx.cta.shared.b64", ".shared.expect_tx.b64",
                  ".release.noComplete.cta.shared.b64", ".shared.noComplete.b64",
                  ".shared::cta.release.cta.b64", ".release.release.cta.shared.b64",
                  ".release.cta.cluster.shared.b64", ".shared.shared::cta.b64",
                  ".expect_tx.expect_tx.shared.b64", ".noComplete.expect_tx.shared.b64",
                  ".expect_tx.noComplete.shared.b64", ".release.cta.shared.b64.b64",
                  ".b32", ".u64", ".s64", ".shared.u64", ""]:
            for c in ["%rd1, [bar]", "_, [bar], %r2", "%rd1, [bar], 1"]:
                some(f"{base}{q} {c};", 3)
        for c in ["%rd1, [bar], %r2, %r3", "%rd1", "[bar]", "%rd1, [bar], %r2, 1",
                  "_, [bar], 4, %r3"]:
            some(f"{base}.shared.b64 {c};", 3)
            some(f"{base}.expect_tx.shared.b64 {c};", 3)
        full(f"@%p1 {base}.shared.b64 %rd1, [bar];")
        full(f"@!%p1 {base}.release.cluster.shared::cluster.b64 _, [%r1];")


def gen_tx():
    for op in ["expect_tx", "complete_tx"]:
        for se, sc, sp in itertools.product(SEMS, SCOPES, SPACES):
            q = f"mbarrier.{op}{se}{sc}{sp}.b64"
            add(f"{q} [bar], %r1;", pick(q, 4) + [("9.0", "sm_90a"), ("8.0", "sm_90")])
        for c in U32S:
            some(f"mbarrier.{op}.shared.b64 [bar], {c};", 2)
            some(f"mbarrier.{op}.relaxed.cluster.shared::cluster.b64 [%r2], {c};", 2)
        for a in ADDRS:
            some(f"mbarrier.{op}.shared::cluster.b64 {a}, 16;", 2)
        for x in ["%rd1, [bar], %r1", "[bar]", "[bar], %r1, %r2", "_, [bar], %r1"]:
            some(f"mbarrier.{op}.shared.b64 {x};", 2)
        for q in [".b32", ".u64", "", ".shared.relaxed.cta.b64", ".b64.shared",
                  ".relaxed.shared.b64", ".cta.shared.b64", ".relaxed.cta.cta.shared.b64"]:
            some(f"mbarrier.{op}{q} [bar], %r1;", 3)


def gen_wait():
    for op in ["test_wait", "try_wait"]:
        for om, se, sc, sp in itertools.product(["", ".parity"], SEMS, SCOPES, SPACES):
            q = f"mbarrier.{op}{om}{se}{sc}{sp}.b64"
            third = "%r2" if om else "%rd2"
            for c in [f"%p1, [bar], {third}"] + ([f"%p1, [bar], {third}, %r3"]
                                                 if op == "try_wait" else []):
                add(f"{q} {c};", pick(q + c, 3) + [("9.0", "sm_90a")])
        for om in ["", ".parity"]:
            q = f"mbarrier.{op}{om}.shared.b64"
            thirds = ["%rd2", "%r2", "0", "1", "2", "3", "%rs2", "%f2", "_", "%p2", "-1"]
            for d in ["%p1", "_", "%r1", "%rd1", "%rs1"]:
                some(f"{q} {d}, [bar], {thirds[0] if not om else '0'};", 2)
            for th in thirds:
                full(f"{q} %p1, [bar], {th};") if th in ("0", "1", "2", "%rd2", "%r2") \
                    else some(f"{q} %p1, [bar], {th};", 2)
            for a in ADDRS:
                some(f"{q} %p1, {a}, {'%r2' if om else '%rd2'};", 2)
            for h in ["%r3", "100", "0", "%rd3", "%rs3", "%f3"]:
                some(f"{q} %p1, [bar], {'%r2' if om else '%rd2'}, {h};", 2)
            some(f"{q} %p1, [bar];", 2)
            some(f"{q} %p1, [bar], %r2, %r3, %r4;", 2)
            some(f"{q} %p1|%p2, [bar], %r2;", 2)
            some(f"{q} !%p1, [bar], %r2;", 2)
            some(f"@%p2 {q} %p1, [bar], {'%r2' if om else '%rd2'};", 2)
        for q in [".shared.parity.b64", ".acquire.parity.cta.shared.b64", ".b64.parity",
                  ".parity.parity.b64", ".shared.acquire.cta.b64", ".cta.acquire.b64",
                  ".parity.b32", ".parity.u64", ".parity", ".acquire.cta.parity.shared.b64"]:
            some(f"mbarrier.{op}{q} %p1, [bar], %r2;", 3)
            some(f"mbarrier.{op}{q} %p1, [bar], %rd2;", 2)


def gen_misc_mbar():
    for q in [".b64", ".shared.b64", ".u64", ".b32", ".shared::cta.b64", "", ".relaxed.cta.b64",
              ".noComplete.b64"]:
        for d, s in [("%r1", "%rd2"), ("%u1", "%rd2"), ("%rd1", "%rd2"), ("%rs1", "%rd2"),
                     ("%r1", "%r2"), ("%r1", "[bar]"), ("_", "%rd2"), ("%p1", "%rd2")]:
            some(f"mbarrier.pending_count{q} {d}, {s};", 2)
    for om, sp, ss in itertools.product(["", ".noinc"], SPACES + [".local"],
                                        ["", ".release.cta", ".relaxed.cluster"]):
        full(f"cp.async.mbarrier.arrive{om}{ss}{sp}.b64 [bar];")
    for om in ["", ".noinc"]:
        for a in ADDRS:
            some(f"cp.async.mbarrier.arrive{om}.shared.b64 {a};", 2)
        for q in [".b32", ".u64", "", ".shared", ".b64.noinc", ".shared.noinc.b64",
                  ".noinc.noinc.shared.b64"]:
            some(f"cp.async.mbarrier.arrive{om}{q} [bar];", 2)
        for x in ["%rd1, [bar]", "[bar], 1", "_, [bar]", ""]:
            some(f"cp.async.mbarrier.arrive{om}.shared.b64 {x};", 2)
    some("mbarrier.foo.shared.b64 [bar];", 1)
    some("mbarrier.shared.b64 [bar];", 1)
    some("mbarrier.arrive.nocomplete.shared.b64 %rd1, [bar], 1;", 1)


def gen_bulk():
    comps = ["", ".mbarrier::complete_tx::bytes", ".bulk_group"]
    dirs = [(".shared::cluster", ".global"), (".shared::cta", ".global"),
            (".shared::cluster", ".shared::cta"), (".global", ".shared::cta"),
            (".shared", ".global"), (".global", ".global"), (".shared::cta", ".shared::cta"),
            (".global", ".shared::cluster"), (".shared::cluster", ".shared::cluster"),
            (".local", ".global")]
    for (dst, src), comp, mc, ch in itertools.product(dirs, comps, ["", ".multicast::cluster"],
                                                      ["", ".L2::cache_hint"]):
        q = f"cp.async.bulk{dst}{src}{comp}{mc}{ch}"
        dm = "[gbuf]" if dst == ".global" else "[sbuf]"
        sm = "[gbuf]" if src == ".global" else "[sbuf+512]"
        ops = [dm, sm, "256"]
        if comp != ".bulk_group":
            ops.append("[bar]")
        if mc:
            ops.append("%rs1")
        if ch:
            ops.append("%rd3")
        add(f"{q} {', '.join(ops)};", pick(q, 2) + [("9.0", "sm_90a"), ("8.0", "sm_90"),
                                                   ("8.6", "sm_90")])
        # the same without the optional operands / with missing mbar
        if mc or ch:
            some(f"{q} {dm}, {sm}, 256, [bar];", 1)
    q1 = "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
    q2 = "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes"
    q3 = "cp.async.bulk.global.shared::cta.bulk_group"
    q4 = "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes"
    for sz in ["16", "20", "0", "8", "4096", "1048576", "%r1", "%u1", "%rd1", "%rs1", "0x30",
               "17", "-16", "%f1"]:
        for q, ops in [(q1, "[sbuf], [gbuf], {}, [bar]"), (q2, "[%r2], [sbuf], {}, [bar]"),
                       (q3, "[gbuf], [sbuf], {}"), (q4, "[sbuf], [gbuf], {}, [bar]")]:
            if sz in ("16", "20", "0", "%r1"):
                full(f"{q} {ops.format(sz)};")
            else:
                some(f"{q} {ops.format(sz)};", 2)
    for mask in ["%rs1", "%r1", "%rd1", "0xff", "3", "65536", "%p1"]:
        some(f"{q1}.multicast::cluster [sbuf], [gbuf], 256, [bar], {mask};", 3)
    for pol in ["%rd3", "%r3", "%rs3", "7"]:
        some(f"{q1}.L2::cache_hint [sbuf], [gbuf], 256, [bar], {pol};", 3)
        some(f"{q3}.L2::cache_hint [gbuf], [sbuf], 256, {pol};", 2)
    for ops in ["[sbuf+8], [gbuf+8], 256, [bar]", "[%rd1], [%rd2], 256, [%rd3]",
                "[%r1], [%rd2], 256, [%r3]", "[sbuf], [gbuf], 256, [bar+4]",
                "[gbuf], [gbuf], 256, [bar]", "[sbuf], [sbuf], 256, [bar]",
                "[sbuf], [gbuf], 256", "[sbuf], [gbuf], 256, [bar], %rd1",
                "[sbuf], [gbuf], [bar], 256", "%rd1, [gbuf], 256, [bar]",
                "[sbuf], [gbuf], 256, %rd1", "[lbuf], [gbuf], 256, [bar]",
                "[sbuf], [gbuf], 256, %r1", "[sbuf], [gbuf], 256, %ud1",
                "[sbuf], [lbuf], 256, [bar]", "[64], [gbuf], 256, [bar]"]:
        some(f"{q1} {ops};", 3)
        some(f"{q4} {ops};", 2)
    for q in [q1 + ".L2::cache_hint.multicast::cluster", "cp.async.bulk.global.shared::cluster",
              "cp.async.bulk.mbarrier::complete_tx::bytes.shared::cluster.global",
              "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.b64",
              "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.u32",
              "cp.async.bulk.global.shared::cluster.mbarrier::complete_tx::bytes.bulk_group"]:
        some(f"{q} [sbuf], [gbuf], 256, [bar];", 3)
    for x in ["cp.async.bulk.commit_group;", "cp.async.bulk.wait_group 0;",
              "cp.async.bulk.wait_group.read 0;", "cp.async.bulk.wait_group %r1;",
              "cp.async.bulk.commit_group 1;", "cp.async.bulk.wait_group;",
              "cp.async.bulk.wait_group.read 3;", "cp.async.bulk.wait_group 63;"]:
        full(x)


def gen_fence():
    for se in ["", ".release", ".acquire", ".acq_rel", ".sc", ".relaxed"]:
        for sc in ["", ".cta", ".cluster", ".gpu", ".sys"]:
            full(f"fence.mbarrier_init{se}{sc};")
            full(f"fence{se}{sc};")
    for sp in ["", ".global", ".shared", ".shared::cta", ".shared::cluster", ".local", ".const",
               ".param"]:
        full(f"fence.proxy.async{sp};")
        some(f"fence.proxy.async{sp}.release.cluster;", 2)
        some(f"fence.proxy.async.acq_rel.gpu{sp};", 1)
    for x in ["fence.cluster.release;", "fence.mbarrier_init.cluster.release;",
              "fence.mbarrier_init.release.cluster 0;", "fence.proxy.async.global.shared::cta;",
              "membar.proxy.async;", "fence.proxy.alias;", "fence.proxy.tensormap;",
              "fence.acquire.sync_restrict::shared::cluster.cluster;",
              "fence.release.sync_restrict::shared::cta.cluster;",
              "fence.release.sync_restrict::shared::cluster.cluster;",
              "fence.acquire.sync_restrict::shared::cta.cluster;",
              "fence.acquire.sync_restrict::shared::cluster.cta;",
              "fence.sync_restrict::shared::cluster.cluster;",
              "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;",
              "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;",
              "fence.proxy.async::generic.release.sync_restrict::shared::cluster.cluster;",
              "membar.cta;", "membar.gl;", "membar.sys;", "membar.cluster;", "membar;",
              "fence.sc.cta.cta;", "fence.acq_rel.acq_rel.gpu;", "fence;",
              "fence.mbarrier_init;", "fence.mbarrier_init.release.cluster.release;",
              "@%p1 fence.mbarrier_init.release.cluster;", "fence.proxy;",
              "fence.proxy.async.shared::cta.shared::cta;"]:
        full(x)


def gen_cluster():
    for sp in ["", ".shared::cluster", ".shared::cta", ".shared", ".global"]:
        for ty in [".u32", ".u64", ".b32", ".b64", ".s32", ""]:
            w = "%rd" if "64" in ty else "%r"
            full(f"mapa{sp}{ty} {w}1, {w}2, %r3;")
            full(f"getctarank{sp}{ty} %r1, {w}2;")
    for ty in [".u32", ".u64"]:
        w = "%rd" if ty == ".u64" else "%r"
        for d, a, b in [("%r1", "%r2", "%r3"), ("%rd1", "%rd2", "%r3"), ("%rd1", "%rd2", "%rd3"),
                        (w + "1", "sbuf", "%r3"), (w + "1", "sbuf+8", "%r3"),
                        (w + "1", w + "2", "1"), (w + "1", "gbuf", "%r3"),
                        (w + "1", w + "2", "%rs3"), ("_", w + "2", "%r3"),
                        (w + "1", "[sbuf]", "%r3"), (w + "1", "bar", "0"),
                        ("%u1", "%u2", "%u3"), ("%f1", "%r2", "%r3"), ("%p1", w + "2", "%r3"),
                        (w + "1", w + "2", "%p3")]:
            for sp in ["", ".shared::cluster"]:
                some(f"mapa{sp}{ty} {d}, {a}, {b};", 2)
        for d, a in [("%r1", w + "2"), ("%rd1", w + "2"), ("%rs1", w + "2"), ("_", w + "2"),
                     ("%r1", "sbuf"), ("%r1", "sbuf+8"), ("%r1", "gbuf"), ("%r1", "[sbuf]"),
                     ("%r1", "1"), ("%p1", w + "2"), ("%u1", w + "2"), ("%r1", "%rs2")]:
            for sp in ["", ".shared::cluster"]:
                some(f"getctarank{sp}{ty} {d}, {a};", 2)
    some("mapa.shared::cluster.u32 %r1, %r2;", 2)
    some("mapa.shared::cluster.u32 %r1, %r2, %r3, %r4;", 2)
    some("getctarank.shared::cluster.u32 %r1;", 2)
    some("getctarank.shared::cluster.u32 %r1, %r2, %r3;", 2)
    for w in ["arrive", "wait"]:
        for se in ["", ".release", ".relaxed", ".acquire", ".acq_rel"]:
            for al in ["", ".aligned"]:
                full(f"barrier.cluster.{w}{se}{al};")
        for x in [".aligned.release", ".aligned.acquire", ".aligned.relaxed", " 0", " %r1",
                  ".release.cluster", ".acquire.cta", ".aligned.aligned", ".sync"]:
            some(f"barrier.cluster.{w}{x};", 3)
        full(f"@%p1 barrier.cluster.{w};")
    for x in ["barrier.cluster.sync;", "barrier.cluster;", "barrier.cluster.arrive.wait;"]:
        some(x, 3)
    for d in ["%r1|%p1", "_|%p1", "%r1|_", "%rd1|%p1", "%rs1|%p1", "%p1|%p2", "%r1|%r2",
              "%r1", "%p1", "%u1|%p1", "%f1|%p1"]:
        for mk in ["0xffffffff", "%r3", "0", "%rd3", "%rs3", "%u3", "-1"]:
            if mk in ("0xffffffff", "%r3") or d in ("%r1|%p1",):
                full(f"elect.sync {d}, {mk};") if d in ("%r1|%p1", "_|%p1") else \
                    some(f"elect.sync {d}, {mk};", 2)
    for x in ["elect %r1|%p1, 0xffffffff;", "elect.sync.aligned %r1|%p1, 0xffffffff;",
              "elect.sync %r1|%p1;", "elect.sync %r1|%p1, %r3, %r4;",
              "@%p2 elect.sync %r1|%p1, 0xffffffff;", "elect.sync.b32 %r1|%p1, 0xffffffff;",
              "elect.sync %r1|!%p1, 0xffffffff;"]:
        full(x)
    sregs = ["%clusterid", "%nclusterid", "%cluster_ctaid", "%cluster_nctaid"]
    for s in sregs:
        for c in [".x", ".y", ".z", ".w", ""]:
            for ty, d in [(".u32", "%r1"), (".u64", "%rd1"), (".b32", "%r1"), (".u16", "%rs1")]:
                if ty == ".u32" or c == ".x":
                    full(f"mov{ty} {d}, {s}{c};") if c in (".x", "") and ty == ".u32" else \
                        some(f"mov{ty} {d}, {s}{c};", 2)
    for s in ["%cluster_ctarank", "%cluster_nctarank"]:
        for ty, d in [(".u32", "%r1"), (".u64", "%rd1"), (".b32", "%r1"), (".s32", "%r1"),
                      (".u16", "%rs1"), (".pred", "%p1")]:
            full(f"mov{ty} {d}, {s};") if ty == ".u32" else some(f"mov{ty} {d}, {s};", 2)
        some(f"mov.u32 %r1, {s}.x;", 2)
        some(f"add.u32 %r1, {s}, 1;", 2)
        some(f"cvt.u64.u32 %rd1, {s};", 2)
    for ty, d in [(".pred", "%p1"), (".u32", "%r1"), (".b32", "%r1")]:
        full(f"mov{ty} {d}, %is_explicit_cluster;")
    for x in ["mov.u32 %r1, %tid.x;", "mov.u32 %r1, %ctaid.y;", "mov.u32 %r1, %laneid;",
              "mov.u64 %rd1, %clock64;", "mov.u32 %r1, %dynamic_smem_size;",
              "mov.u32 %r1, %aggr_smem_size;", "mov.u32 %r1, %tid;",
              "cvt.u64.u32 %rd1, %cluster_ctaid.x;", "mov.u32 %r1, %lanemask_lt;",
              "mov.u32 %r1, %warpid;", "mov.u32 %r1, %total_smem_size;"]:
        full(x)


def gen_common():
    lines = [
        "add.s32 %r1, %r2, %r3;", "add.u32 %r1, %r2, 1;", "add.s32 %r1, %rd2, %r3;",
        "add.u64 %rd1, %rd2, %rd3;", "add.f32 %f1, %f2, %f3;", "add.f32 %f1, %r2, %f3;",
        "add.s32 %r1, %r2;", "add.s32 %r1, %r2, %r3, %r4;", "add %r1, %r2, %r3;",
        "add.sat.s32 %r1, %r2, %r3;", "add.sat.u32 %r1, %r2, %r3;", "add.cc.u32 %r1, %r2, %r3;",
        "add.rn.f32 %f1, %f2, %f3;", "add.rn.s32 %r1, %r2, %r3;", "add.s32 _, %r2, %r3;",
        "mul.lo.s32 %r1, %r2, %r3;", "mul.wide.u32 %rd1, %r2, %r3;", "mul.s32 %r1, %r2, %r3;",
        "mul.wide.u32 %r1, %r2, %r3;", "mad.lo.s32 %r1, %r2, %r3, %r4;",
        "mov.u32 %r1, %r2;", "mov.u32 %r1, 5;", "mov.b64 %rd1, %rd2;", "mov.u32 %r1, %rd2;",
        "mov.u64 %rd1, sbuf;", "mov.u64 %rd1, gbuf;", "mov.u32 %r1, sbuf;", "mov.pred %p1, 1;",
        "mov.f32 %f1, 0f3F800000;", "mov.b32 %r1, %f1;", "mov.u16 %rs1, %rs2;",
        "ld.shared.u32 %r1, [sbuf];", "ld.shared.u32 %r1, [%r2];", "ld.shared.u32 %r1, [%rd2];",
        "ld.global.u32 %r1, [%rd2];", "ld.global.u32 %r1, [sbuf];", "ld.u32 %r1, [%rd2];",
        "ld.shared::cta.u32 %r1, [sbuf];", "ld.shared::cluster.u32 %r1, [%r2];",
        "ld.shared.v2.u32 {%r1, %r2}, [sbuf];", "ld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [sbuf];",
        "ld.acquire.gpu.global.u32 %r1, [%rd2];", "ld.relaxed.cta.shared.u32 %r1, [sbuf];",
        "ld.volatile.shared.u32 %r1, [sbuf];", "ld.shared.b64 %rd1, [bar];",
        "ld.global.nc.u32 %r1, [%rd2];", "ld.local.u32 %r1, [lbuf];",
        "st.shared.u32 [sbuf], %r1;", "st.global.u32 [%rd2], %r1;", "st.shared.u32 [sbuf], %rd1;",
        "st.release.cluster.shared::cluster.u32 [%r2], %r1;", "st.shared.u32 [64], %r1;",
        "st.local.u32 [lbuf], %r1;", "st.shared.v2.u32 [sbuf], {%r1, %r2};",
        "setp.eq.s32 %p1, %r1, %r2;", "setp.lt.u32 %p1|%p2, %r1, %r2;", "setp.s32 %p1, %r1, %r2;",
        "setp.eq.s32 %r1, %r1, %r2;", "setp.ne.and.s32 %p1, %r1, %r2, %p2;",
        "selp.u32 %r1, %r2, %r3, %p1;", "selp.u32 %r1, %r2, %r3, %r4;",
        "bra $L1;", "bra.uni $L1;", "@%p1 bra $L1;", "@!%p1 bra $L1;", "bra %r1;",
        "bar.sync 0;", "bar.sync 0, 64;", "barrier.sync 0;", "bar.arrive 1, 64;",
        "barrier.sync.aligned 0;", "bar.warp.sync 0xffffffff;", "bar.sync %r1;",
        "atom.shared.add.u32 %r1, [sbuf], 1;", "atom.global.cas.b32 %r1, [%rd2], %r3, %r4;",
        "atom.shared.add.u64 %rd1, [sbuf], 1;", "atom.add.f32 %f1, [%rd2], %f2;",
        "atom.acq_rel.gpu.global.exch.b32 %r1, [%rd2], %r3;", "red.global.add.u32 [%rd2], %r1;",
        "red.shared.add.u32 [sbuf], %r1;", "atom.shared.add.u32 %r1, [sbuf];",
        "shfl.sync.bfly.b32 %r1, %r2, 1, 31, 0xffffffff;",
        "shfl.sync.idx.b32 %r1|%p1, %r2, 0, 31, 0xffffffff;",
        "vote.sync.ballot.b32 %r1, %p1, 0xffffffff;", "vote.sync.all.pred %p1, %p2, 0xffffffff;",
        "activemask.b32 %r1;", "redux.sync.add.u32 %r1, %r2, 0xffffffff;",
        "match.any.sync.b32 %r1, %r2, 0xffffffff;",
        "cvt.u32.u64 %r1, %rd2;", "cvt.u64.u32 %rd1, %r2;", "cvt.rn.f32.s32 %f1, %r2;",
        "cvt.f32.s32 %f1, %r2;", "cvt.rzi.s32.f32 %r1, %f2;", "cvt.u32.u32 %r1, %r2;",
        "cvta.to.shared.u64 %rd1, %rd2;", "cvta.shared.u64 %rd1, sbuf;",
        "cvta.to.shared::cluster.u64 %rd1, %rd2;", "cvta.shared::cluster.u64 %rd1, %rd2;",
        "cvta.to.shared.u32 %r1, %r2;", "cvta.global.u64 %rd1, gbuf;",
        "isspacep.shared %p1, %rd2;", "isspacep.shared::cluster %p1, %rd2;",
        "isspacep.global %p1, %rd2;", "isspacep.shared::cta %p1, %rd2;",
        "cp.async.ca.shared.global [sbuf], [gbuf], 16;", "cp.async.cg.shared.global [sbuf], [gbuf], 16;",
        "cp.async.ca.shared.global [sbuf], [gbuf], 4;", "cp.async.cg.shared.global [sbuf], [gbuf], 8;",
        "cp.async.commit_group;", "cp.async.wait_group 0;", "cp.async.wait_all;",
        "cp.async.wait_group %r1;",
        "nanosleep.u32 100;", "nanosleep.u32 %r1;", "exit;", "trap;", "ret;",
        "and.b32 %r1, %r2, %r3;", "or.pred %p1, %p2, %p3;", "not.b32 %r1, %r2;",
        "shl.b32 %r1, %r2, 3;", "shr.u32 %r1, %r2, %r3;", "shl.b64 %rd1, %rd2, %r3;",
        "xor.b32 %r1, %r2, %rd3;", "min.u32 %r1, %r2, %r3;", "max.s32 %r1, %r2, %r3;",
        "abs.s32 %r1, %r2;", "neg.s32 %r1, %r2;", "div.u32 %r1, %r2, %r3;", "rem.s32 %r1, %r2, %r3;",
        "div.rn.f32 %f1, %f2, %f3;", "div.f32 %f1, %f2, %f3;", "fma.rn.f32 %f1, %f2, %f3, %f4;",
        "fma.f32 %f1, %f2, %f3, %f4;", "popc.b32 %r1, %r2;", "clz.b32 %r1, %r2;",
        "lop3.b32 %r1, %r2, %r3, %r4, 0x96;", "prmt.b32 %r1, %r2, %r3, %r4;",
        "griddepcontrol.wait;", "griddepcontrol.launch_dependents;",
        "prefetch.global.L2 [%rd2];", "prefetch.L1 [%rd2];",
    ]
    for x in lines:
        full(x)



# ---- ordinary instructions: types, modifiers and operand widths (ISA 9.7.1-9.7.9) ----------

# The register of the template for each declared type, and the natural one per instruction type.
NAT = {"pred": "%p", "b8": "%rs", "u8": "%rs", "s8": "%rs", "b16": "%rs", "u16": "%us",
       "s16": "%rs", "b32": "%r", "u32": "%u", "s32": "%s", "b64": "%rd", "u64": "%ud",
       "s64": "%sd", "f16": "%h", "bf16": "%rs", "f16x2": "%hx", "bf16x2": "%r", "f32": "%f",
       "f64": "%fd", "tf32": "%r", "": "%r"}
WIDE = {"u16": "%u", "s16": "%s", "u32": "%ud", "s32": "%sd", "b16": "%r", "b32": "%rd",
        "u64": "%ud", "s64": "%sd", "f32": "%fd", "f16": "%f"}
ALLOPS = ["%p1", "%rs1", "%r1", "%rd1", "%u1", "%f1", "%fd1", "%h1", "%hx1", "%s1", "%sd1",
          "%us1", "%ud1", "5", "-1", "0f3F800000", "0d3FF0000000000000", "_", "sbuf", "$L1",
          "[sbuf]", "{%r1, %r2}", "!%p2"]
TYPES = ["pred", "b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64", "f16", "f16x2",
         "bf16", "bf16x2", "f32", "f64", "u8", "s8", ""]
# opcode -> operand signature: d dest of the type, a source of the type, u u32, p predicate,
# D double-width dest / source, U u32 dest
SIGS = {"add": "daa", "sub": "daa", "min": "daa", "max": "daa", "div": "daa", "rem": "daa",
        "and": "daa", "or": "daa", "xor": "daa", "mul": "daa", "mul.lo": "daa",
        "mul.hi": "daa", "mul.wide": "Daa", "mad": "daaa", "mad.lo": "daaa", "mad.hi": "daaa",
        "mad.wide": "DaaD", "fma": "daaa", "abs": "da", "neg": "da", "not": "da", "cnot": "da",
        "popc": "Ua", "clz": "Ua", "brev": "da", "bfind": "Ua", "rcp": "da", "sqrt": "da",
        "rsqrt": "da", "ex2": "da", "lg2": "da", "sin": "da", "cos": "da", "tanh": "da",
        "copysign": "daa", "shl": "dau", "shr": "dau", "selp": "daap", "bfe": "dauu",
        "bfi": "daauu", "mul24.lo": "daa", "mad24.lo": "daaa", "sad": "daaa", "testp.finite": "Pa",
        "addc": "daa", "subc": "daa", "mov": "da", "mul24": "daa", "min.NaN": "daa", "max.NaN": "daa"}


def opnds(sig, ty, n=1):
    out = []
    for k, ch in enumerate(sig):
        r = {"d": NAT.get(ty, "%r"), "a": NAT.get(ty, "%r"), "u": "%u", "p": "%p",
             "D": WIDE.get(ty, "%rd"), "U": "%u", "P": "%p"}[ch]
        out.append(f"{r}{k + n}")
    return ", ".join(out)


def alu(insn):
    add(insn, [("9.0", "sm_90a")] + pick(insn, 1))


def alu1(insn):
    """One pair only: for the large matrices, where the verdict seldom depends on it."""
    add(insn, [("9.0", "sm_90a")] if len(insn) % 3 else [pick(insn, 1)[0]])


def gen_alu_types():
    for op, sig in SIGS.items():
        for ty in TYPES:
            alu(f"{op}{'.' + ty if ty else ''} {opnds(sig, ty)};")


def gen_alu_operands():
    plan = [("add", ["s32", "u32", "b32", "f32", "u64", "f64", "f16", "u16", "f16x2"]),
            ("and", ["b32", "b64", "pred"]), ("mul.lo", ["s32", "u64"]), ("min", ["s32", "f32"]),
            ("div.rn", ["f32", "f64"]), ("mul.wide", ["s32", "u16"]), ("shl", ["b32", "b64"]),
            ("selp", ["b32", "f32"]), ("mad.lo", ["s32"]), ("fma.rn", ["f32"]),
            ("neg", ["s32", "f32"]), ("not", ["b32"]), ("popc", ["b32", "b64"]),
            ("mov", ["b32", "u32", "f32", "b64", "u64", "pred", "b16", "f64", "f16", "s32"])]
    for op, tys in plan:
        sig = SIGS.get(op, SIGS.get(op.split(".")[0]))
        for ty in tys:
            base = opnds(sig, ty).split(", ")
            for pos in range(len(base)):
                for x in ALLOPS:
                    o = list(base)
                    o[pos] = x
                    alu1(f"{op}.{ty} {', '.join(o)};")


MODS = ["", ".rn", ".rz", ".rm", ".rp", ".rni", ".sat", ".ftz", ".cc", ".lo", ".hi", ".wide",
        ".approx", ".full", ".NaN", ".relu", ".xorsign.abs", ".rn.ftz", ".rn.sat", ".ftz.sat",
        ".approx.ftz", ".rn.ftz.sat", ".oob", ".lo.cc", ".shiftamt", ".sat.rn", ".ftz.rn"]


def gen_alu_mods():
    for op in ["add", "sub", "mul", "mad", "div", "rem", "min", "max", "abs", "neg", "fma", "rcp",
               "sqrt", "rsqrt", "ex2", "lg2", "sin", "cos", "tanh", "and", "shl", "copysign",
               "popc", "mul24", "addc", "testp.finite"]:
        sig = SIGS[op]
        for m in MODS:
            for ty in ["s32", "u32", "u64", "s16", "f32", "f64", "f16", "bf16", "b32"]:
                s2 = sig
                if op in ("mul", "mad") and m in (".wide",):
                    s2 = SIGS[op + ".wide"]
                alu1(f"{op}{m}.{ty} {opnds(s2, ty)};")


CMPS = ["eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu",
        "gtu", "geu", "num", "nan"]


def gen_setp():
    for ty in ["s32", "u32", "b32", "f32", "f64", "u64", "s64", "b64", "f16", "b16", "s16", "u16",
               "bf16", "pred", "f16x2"]:
        r = NAT[ty]
        for c in CMPS + [""]:
            cc = "." + c if c else ""
            alu(f"setp{cc}.{ty} %p1, {r}1, {r}2;")
        for form in [f"%p1|%p2, {r}1, {r}2", f"%r1, {r}1, {r}2", f"%p1, {r}1, {r}2, %p3",
                     f"_, {r}1, {r}2", f"%p1, {r}1", f"%p1, {r}1, 5", f"%p1, {r}1, 0f3F800000",
                     f"%p1, %rd1, {r}2", f"_|%p2, {r}1, {r}2", f"%p1|_, {r}1, {r}2",
                     f"!%p1, {r}1, {r}2"]:
            alu(f"setp.ne.{ty} {form};")
        for b in ["and", "or", "xor", "nand"]:
            alu(f"setp.lt.{b}.{ty} %p1, {r}1, {r}2, %p3;")
            alu(f"setp.lt.{b}.{ty} %p1, {r}1, {r}2, !%p3;")
            alu(f"setp.lt.{b}.{ty} %p1, {r}1, {r}2;")
            alu(f"setp.lt.{b}.{ty} %p1, {r}1, {r}2, %r3;")
        alu(f"setp.lt.ftz.{ty} %p1, {r}1, {r}2;")
        alu(f"setp.ftz.lt.{ty} %p1, {r}1, {r}2;")
    for x in ["set.lt.u32.s32 %r1, %s1, %s2;", "set.lt.f32.f32 %f1, %f2, %f3;",
              "set.lt.s32 %r1, %s1, %s2;", "set.lt.u32.f32 %r1, %f2, %f3;"]:
        alu(x)


CVTT = ["u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64", "f16", "bf16", "f32", "f64", "b32",
        "f16x2"]


def gen_cvt():
    rnds = ["", ".rn", ".rz", ".rm", ".rp", ".rni", ".rzi", ".rmi", ".rpi", ".rna"]
    for d in CVTT:
        for s_ in CVTT:
            for r in rnds:
                add(f"cvt{r}.{d}.{s_} {NAT[d]}1, {NAT[s_]}2;", [("9.0", "sm_90a")])
    for d, s_ in [("f32", "f64"), ("s32", "f32"), ("f32", "s32"), ("f32", "f32"), ("u32", "u16"),
                  ("f16", "f32"), ("s32", "s64"), ("bf16", "f32"), ("f32", "f16")]:
        for m in [".sat", ".ftz", ".rn.sat", ".rn.ftz", ".rzi.sat", ".rzi.ftz", ".rn.relu",
                  ".rn.satfinite", ".ftz.sat.rn", ".rz.ftz.sat", ".rni.ftz.sat", ".relu",
                  ".rn.ftz.relu"]:
            alu(f"cvt{m}.{d}.{s_} {NAT[d]}1, {NAT[s_]}2;")
        for x in ALLOPS:
            alu(f"cvt.rn.{d}.{s_} {x}, {NAT[s_]}2;" if d[0] == "f" and s_[0] != "f" or
                d[0] == "f" and s_ == "f64" and d != "f64" else f"cvt.{d}.{s_} {x}, {NAT[s_]}2;")
            alu(f"cvt.rzi.{d}.{s_} {NAT[d]}1, {x};" if d[0] != "f" and s_[0] == "f"
                else f"cvt.{d}.{s_} {NAT[d]}1, {x};")
    for x in ["cvt.rn.f16x2.f32 %r1, %f1, %f2;", "cvt.rn.bf16x2.f32 %r1, %f1, %f2;",
              "cvt.rn.relu.f16x2.f32 %r1, %f1, %f2;", "cvt.rn.f16x2.f32 %r1, %f1;",
              "cvt.rna.tf32.f32 %r1, %f1;", "cvt.rn.satfinite.e4m3x2.f32 %rs1, %f1, %f2;",
              "cvt.rn.f16x2.e4m3x2 %r1, %rs1;"]:
        alu(x)


def gen_mov():
    for ty in TYPES:
        r = NAT.get(ty, "%r")
        for x in ALLOPS + ["gbuf", "lbuf", "bar", "sbuf+8", "%tid.x"]:
            alu1(f"mov{'.' + ty if ty else ''} {r}1, {x};")
    for x in ["mov.b64 %rd1, {%r1, %r2};", "mov.b64 {%r1, %r2}, %rd1;", "mov.b32 %r1, {%rs1, %rs2};",
              "mov.b32 {%rs1, %rs2}, %r1;", "mov.b64 {%rs1, %rs2, %rs3, %rs4}, %rd1;",
              "mov.b64 %rd1, {%r1, %rs2};", "mov.b64 %rd1, {%r1};", "mov.u64 %rd1, {%r1, %r2};",
              "mov.b64 {%r1, _}, %rd1;", "mov.b64 {_, %r2}, %rd1;", "mov.b32 {%rs1, _}, %r1;",
              "mov.b128 %rd1, {%rd1, %rd2};", "mov.v2.b32 {%r1, %r2}, {%r3, %r4};",
              "mov.b64 %rd1, {%f1, %f2};", "mov.f32 %f1, 1.0;", "mov.f64 %fd1, 0d3FF0000000000000;",
              "mov.u32 %r1, k;", "mov.u64 %rd1, k;", "mov.u64 %rd1, $L1;", "mov.b32 %r1, %f1, %f2;",
              "mov.b32 %r1;", "mov.u64 %rd1, gbuf+8;", "mov.pred %p1, %p2;", "mov.pred %p1, !%p2;",
              "mov.pred %p1, 0;", "mov.pred %p1, 2;", "mov.b16 %rs1, 0x10000;",
              "mov.u32 %r1, 0x100000000;"]:
        alu(x)


def gen_mem():
    spaces = ["", ".global", ".shared", ".local", ".const", ".param", ".shared::cta"]
    addrs = ["[sbuf]", "[gbuf]", "[lbuf]", "[%rd2]", "[%r2]", "[bar]", "[sbuf+4]", "[gbuf+-8]",
             "[%rd2+16]", "[k]", "[64]", "%rd2", "[%f2]", "[%rs2]", "[$L1]"]
    for sp in spaces:
        for a in addrs:
            alu(f"ld{sp}.u32 %r1, {a};")
            alu(f"st{sp}.u32 {a}, %r1;")
    for ty in ["u8", "s8", "b8", "u16", "s16", "b16", "u32", "s32", "b32", "u64", "s64", "b64",
               "f16", "f32", "f64", "pred", "f16x2", "bf16", "b128", ""]:
        for x in ["%p1", "%rs1", "%r1", "%rd1", "%f1", "%fd1", "%h1", "%hx1", "%u1", "%ud1", "_",
                  "5", "0f3F800000"]:
            alu1(f"ld.shared{'.' + ty if ty else ''} {x}, [sbuf];")
            alu1(f"st.shared{'.' + ty if ty else ''} [sbuf], {x};")
    for v, regs in [(".v2", ["%r1, %r2", "%rd1, %rd2", "%r1, _", "%r1", "%r1, %r2, %r3",
                             "%f1, %r2", "%rs1, %rs2"]),
                    (".v4", ["%r1, %r2, %r3, %r4", "%r1, %r2", "%r1, _, _, %r4",
                             "%rd1, %rd2, %rd3, %rd4"]),
                    (".v8", ["%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r1"])]:
        for ty in ["u32", "f32", "b64", "u16", "b8"]:
            for rg in regs:
                alu(f"ld.global{v}.{ty} {{{rg}}}, [%rd2];")
                alu(f"st.global{v}.{ty} [%rd2], {{{rg}}};")
        alu(f"ld.global{v}.u32 %r1, [%rd2];")
    for m in [".volatile", ".relaxed.gpu", ".acquire.gpu", ".relaxed", ".acquire", ".release.gpu",
              ".nc", ".ca", ".cg", ".cs", ".lu", ".cv", ".wb", ".wt", ".weak", ".mmio.relaxed.sys",
              ".L1::evict_last", ".L2::64B", ".L2::cache_hint", ".volatile.gpu", ".relaxed.cta.nc",
              ".acquire.cluster", ".sc.gpu", ".acq_rel.gpu", ".L1::no_allocate",
              ".L2::evict_first", ".ca.L2::128B", ".nc.L1::evict_last"]:
        alu(f"ld{m}.global.u32 %r1, [%rd2];")
        alu(f"st{m}.global.u32 [%rd2], %r1;")
        alu(f"ld.global{m}.u32 %r1, [%rd2];")
    for x in ["ld.global.u32 %r1, [%rd2], %rd3;", "ld.global.L2::cache_hint.u32 %r1, [%rd2], %rd3;",
              "st.global.u32 [%rd2], %r1, %r2;", "ld.global.u32 %r1;", "ld.global.u32 [%rd2], %r1;",
              "st.global.u32 %r1, [%rd2];", "ldu.global.u32 %r1, [%rd2];",
              "ldu.global.v2.f32 {%f1, %f2}, [%rd2];", "ld.param.u64 %rd1, [k];",
              "ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd2];", "st.global.v2.u32 [%rd2], {%r1, 5};",
              "st.global.u32 [%rd2], 5;", "st.global.f32 [%rd2], 0f3F800000;",
              "ld.global.u32 %r1, [gbuf+2048];", "ld.shared.u32 %r1, [%rd2+-4];"]:
        alu(x)
    aops = ["add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas"]
    for op in aops:
        for ty in ["u32", "s32", "b32", "u64", "s64", "b64", "f32", "f64", "f16", "f16x2", "bf16",
                   "u16", "b16"]:
            r = NAT[ty]
            extra = f", {r}4" if op == "cas" else ""
            alu(f"atom.global.{op}.{ty} {r}1, [%rd2], {r}3{extra};")
            alu(f"red.global.{op}.{ty} [%rd2], {r}3{extra};")
    for x in ["atom.global.add.u32 %r1, [%rd2];", "atom.global.add.u32 %r1, [%rd2], %r3, %r4;",
              "atom.global.cas.b32 %r1, [%rd2], %r3;", "atom.global.add.u32 _, [%rd2], %r3;",
              "atom.global.add.u32 %r1, [%rd2], %rd3;", "atom.global.add.u32 %rd1, [%rd2], %r3;",
              "atom.global.add.u32 %r1, [sbuf], %r3;", "atom.shared.add.u32 %r1, [gbuf], %r3;",
              "atom.add.u32 %r1, [%rd2], %r3;", "atom.global.u32 %r1, [%rd2], %r3;",
              "atom.global.add %r1, [%rd2], %r3;", "atom.local.add.u32 %r1, [lbuf], %r3;",
              "atom.const.add.u32 %r1, [%rd2], %r3;", "red.global.add.u32 %r1, [%rd2], %r3;",
              "red.global.add.u32 [%rd2];", "atom.global.add.noftz.f16 %h1, [%rd2], %h3;",
              "atom.global.add.noftz.bf16 %rs1, [%rd2], %rs3;", "atom.global.add.u32 %r1, [%rd2], 1;",
              "atom.global.add.f32 %f1, [%rd2], 0f3F800000;", "atom.global.add.f32 %f1, [%rd2], 1;",
              "atom.relaxed.gpu.global.add.u32 %r1, [%rd2], %r3;", "atom.acquire.global.add.u32 %r1, [%rd2], %r3;",
              "atom.gpu.global.add.u32 %r1, [%rd2], %r3;", "atom.sys.global.add.u32 %r1, [%rd2], %r3;",
              "atom.global.cas.b16 %rs1, [%rd2], %rs3, %rs4;", "atom.global.exch.b128 %rd1, [%rd2], %rd3;",
              "atom.shared::cluster.add.u32 %r1, [%r2], %r3;", "atom.global.v2.f32.add {%f1, %f2}, [%rd2], {%f1, %f2};",
              "atom.global.add.sat.s32 %r1, [%rd2], %r3;", "red.shared.add.u64 [sbuf], %rd1;",
              "atom.global.inc.u32 %r1, [%rd2], 5;", "atom.global.L2::cache_hint.add.u32 %r1, [%rd2], %r3, %rd4;"]:
        alu(x)


def gen_misc():
    for x in ["bra $L1;", "bra %r1;", "bra %rd1;", "bra k;", "bra sbuf;", "bra 16;", "bra;",
              "bra $L1, $L1;", "bra.uni $L1;", "bra.u32 $L1;", "bra [$L1];", "bra.sync $L1;",
              "@%p1 bra.uni $L1;", "@%r1 bra $L1;", "@%rd1 bra $L1;", "bra $L2;",
              "cvta.to.shared.u64 %rd1, %rd2;", "cvta.to.shared.u32 %r1, %r2;",
              "cvta.shared.u32 %r1, %r2;", "cvta.to.global.u32 %r1, %r2;", "cvta.global.u32 %r1, gbuf;",
              "cvta.to.shared.u64 %r1, %rd2;", "cvta.to.shared.u64 %rd1, %r2;", "cvta.to.shared.b64 %rd1, %rd2;",
              "cvta.to.shared.s64 %rd1, %rd2;", "cvta.to.shared %rd1, %rd2;", "cvta.u64 %rd1, %rd2;",
              "cvta.to.local.u64 %rd1, %rd2;", "cvta.local.u64 %rd1, lbuf;", "cvta.const.u64 %rd1, %rd2;",
              "cvta.param.u64 %rd1, %rd2;", "cvta.to.param.u64 %rd1, %rd2;", "cvta.shared.u64 %rd1, gbuf;",
              "cvta.global.u64 %rd1, sbuf;", "cvta.shared::cta.u64 %rd1, sbuf;", "cvta.to.shared::cta.u64 %rd1, %rd2;",
              "cvta.shared.u64 %rd1, sbuf+8;", "cvta.to.global.u64 %rd1, 64;", "cvta.to.shared.u32 %r1, %rd2;",
              "isspacep.shared %p1, %r2;", "isspacep.local %p1, %rd2;", "isspacep.const %p1, %rd2;",
              "isspacep.param %p1, %rd2;", "isspacep.shared %r1, %rd2;", "isspacep %p1, %rd2;",
              "isspacep.param::entry %p1, %rd2;", "isspacep.shared.u64 %p1, %rd2;"]:
        alu(x)
    for cc in [".ca", ".cg", ""]:
        for sz in ["4", "8", "16", "2", "32", "%r1"]:
            alu(f"cp.async{cc}.shared.global [sbuf], [gbuf], {sz};")
            alu(f"cp.async{cc}.shared.global [sbuf], [gbuf], {sz}, 4;")
        for x in ["[sbuf], [gbuf], 16, %r1", "[sbuf], [gbuf]", "[gbuf], [sbuf], 16", "[sbuf], [%rd2], 16",
                  "[%r2], [%rd2], 16", "[%rd2], [%rd3], 16", "[sbuf], [gbuf], 16, 20",
                  "[sbuf], [gbuf], 16, %rd1"]:
            alu(f"cp.async{cc}.shared.global {x};")
        alu(f"cp.async{cc}.global.shared [gbuf], [sbuf], 16;")
        alu(f"cp.async{cc}.shared.global.L2::128B [sbuf], [gbuf], 16;")
        alu(f"cp.async{cc}.shared.global.L2::cache_hint [sbuf], [gbuf], 16, %rd1;")
        alu(f"cp.async{cc}.shared::cta.global [sbuf], [gbuf], 16;")
    for ty in ["b32", "u32", "s32", "b64", "b16", "f32", ""]:
        r = NAT[ty]
        alu(f"shl.{ty} {r}1, {r}2, %r3;" if ty else "shl %r1, %r2, %r3;")
        alu(f"shr.{ty} {r}1, {r}2, 3;" if ty else "shr %r1, %r2, 3;")
        alu(f"shr.{ty} {r}1, {r}2, %rd3;" if ty else "shr %r1, %r2, %rd3;")
    for x in ["shfl.sync.bfly.b32 %r1, %r2, 1, 31, 0xffffffff;", "shfl.sync.bfly.b32 %r1, %r2, 1, 31;",
              "shfl.sync.b32 %r1, %r2, 1, 31, 0xffffffff;", "shfl.sync.up.b64 %rd1, %rd2, 1, 0, 0xffffffff;",
              "shfl.sync.up.b32 %rd1, %r2, 1, 0, 0xffffffff;", "shfl.sync.down.f32 %f1, %f2, 1, 31, 0xffffffff;",
              "shfl.sync.idx.b32 %r1|%p1, %r2, %r3, %r4, %r5;", "shfl.sync.idx.b32 _|%p1, %r2, 0, 31, 0xffffffff;",
              "shfl.sync.idx.u32 %r1, %r2, 0, 31, 0xffffffff;", "shfl.sync.idx.b32 %r1, %r2, %rd3, 31, 0xffffffff;",
              "shfl.sync.idx.b32 %r1, %f2, 0, 31, 0xffffffff;", "shfl.sync.idx.b32 %r1, %r2, 0, 31, %rd5;",
              "shfl.bfly.b32 %r1, %r2, 1, 31;", "shfl.sync.idx.b32 _, %r2, 0, 31, 0xffffffff;",
              "vote.sync.ballot.b32 %r1, %p1, 0xffffffff;", "vote.sync.ballot.b32 %r1, %r2, 0xffffffff;",
              "vote.sync.ballot.b32 %rd1, %p1, 0xffffffff;", "vote.sync.any.pred %p1, %p2, 0xffffffff;",
              "vote.sync.uni.pred %p1, !%p2, 0xffffffff;", "vote.sync.all.pred %r1, %p2, 0xffffffff;",
              "vote.sync.any.b32 %r1, %p2, 0xffffffff;", "vote.sync.ballot.pred %p1, %p2, 0xffffffff;",
              "vote.sync.all.pred %p1, %p2;", "vote.sync.all %p1, %p2, 0xffffffff;",
              "vote.any.pred %p1, %p2;", "vote.sync.ballot.b32 %r1, %p1, %r3;", "vote.sync.ballot.b32 %r1, %p1, %rd3;",
              "activemask.b32 %rd1;", "activemask.b32 %r1, %r2;", "activemask.u32 %r1;", "activemask %r1;",
              "redux.sync.add.s32 %r1, %r2, 0xffffffff;", "redux.sync.min.u32 %r1, %r2, 0xffffffff;",
              "redux.sync.and.b32 %r1, %r2, 0xffffffff;", "redux.sync.add.b32 %r1, %r2, 0xffffffff;",
              "redux.sync.and.u32 %r1, %r2, 0xffffffff;", "redux.sync.add.u64 %rd1, %rd2, 0xffffffff;",
              "redux.sync.min.f32 %f1, %f2, 0xffffffff;", "redux.sync.add.u32 %r1, %rd2, 0xffffffff;",
              "redux.sync.add.u32 %r1, %r2;", "match.all.sync.b32 %r1, %r2, 0xffffffff;",
              "match.all.sync.b32 %r1|%p1, %r2, 0xffffffff;", "match.any.sync.b64 %r1, %rd2, 0xffffffff;",
              "match.any.sync.b32 %r1|%p1, %r2, 0xffffffff;", "match.any.sync.u32 %r1, %r2, 0xffffffff;",
              "match.any.sync.b32 %rd1, %r2, 0xffffffff;", "match.sync.b32 %r1, %r2, 0xffffffff;",
              "bar.sync 0, %r1;", "bar.sync 16;", "bar.sync 15;", "bar.sync 0, 33;", "bar.sync 0, 32;",
              "bar.sync %rd1;", "bar.sync 0, %rd1;", "bar.sync;", "bar.arrive 1;", "bar.arrive %r1, %r2;",
              "bar.red.popc.u32 %r1, 0, %p1;", "bar.red.and.pred %p1, 0, %p2;", "bar.red.or.pred %p1, 0, 64, %p2;",
              "bar.red.popc.u32 %r1, 0, %r2;", "bar.red.popc.b32 %r1, 0, %p1;", "bar.red.and.u32 %r1, 0, %p1;",
              "barrier.sync.aligned 0, 64;", "barrier.arrive 0, 64;", "barrier.arrive.aligned 0, 64;",
              "barrier.red.popc.u32 %r1, 0, %p1;", "bar.sync.aligned 0;", "bar.warp.sync %r1;",
              "bar.warp.sync %rd1;", "bar.warp.sync;", "barrier.sync %r1, %r2;", "bar.cta.sync 0;",
              "barrier.cta.sync.aligned 0;", "barrier.cta.arrive 0, 64;",
              "nanosleep.u32 %rd1;", "nanosleep 100;", "nanosleep.u64 100;", "nanosleep.u32 %f1;",
              "prmt.b32 %r1, %r2, %r3, 0x3210;", "prmt.b32.f4e %r1, %r2, %r3, %r4;", "prmt.u32 %r1, %r2, %r3, %r4;",
              "prmt.b32 %rd1, %r2, %r3, %r4;", "lop3.b32 %r1, %r2, %r3, %r4, %r5;", "lop3.b64 %rd1, %rd2, %rd3, %rd4, 0x96;",
              "lop3.u32 %r1, %r2, %r3, %r4, 0x96;", "lop3.b32 %r1, %r2, %r3, %r4, 256;",
              "lop3.b32 %r1, %r2, %r3, %r4;", "bfe.u32 %r1, %r2, 8, 4;", "bfe.s64 %rd1, %rd2, %r3, %r4;",
              "bfe.b32 %r1, %r2, 8, 4;", "bfe.u32 %r1, %r2, %rd3, 4;", "bfi.b32 %r1, %r2, %r3, 8, 4;",
              "bfi.u32 %r1, %r2, %r3, 8, 4;", "bfi.b64 %rd1, %rd2, %rd3, %r4, %r5;",
              "bmsk.clamp.b32 %r1, %r2, %r3;", "bmsk.b32 %r1, %r2, %r3;", "szext.clamp.s32 %r1, %r2, %r3;",
              "szext.s32 %r1, %r2, %r3;", "dp4a.u32.u32 %r1, %r2, %r3, %r4;", "dp4a.s32.u32 %r1, %r2, %r3, %r4;",
              "dp4a.u32 %r1, %r2, %r3, %r4;", "dp2a.lo.u32.u32 %r1, %r2, %r3, %r4;", "dp2a.u32.u32 %r1, %r2, %r3, %r4;",
              "shf.l.wrap.b32 %r1, %r2, %r3, %r4;", "shf.r.clamp.b32 %r1, %r2, %r3, %r4;", "shf.l.b32 %r1, %r2, %r3, %r4;",
              "shf.wrap.b32 %r1, %r2, %r3, %r4;", "shf.l.wrap.u32 %r1, %r2, %r3, %r4;", "shf.l.wrap.b64 %rd1, %rd2, %rd3, %r4;",
              "slct.s32.s32 %r1, %r2, %r3, %r4;", "slct.f32.s32 %f1, %f2, %f3, %r4;", "slct.s32.f32 %r1, %r2, %r3, %f4;",
              "slct.ftz.s32.f32 %r1, %r2, %r3, %f4;", "slct.s32 %r1, %r2, %r3, %r4;",
              "call k;", "ret.uni;", "exit.uni;", "trap.u32;", "ret %r1;", "exit 0;",
              "brev.b32 %r1, %r2;", "brev.u32 %r1, %r2;", "bfind.shiftamt.u32 %r1, %r2;", "bfind.u64 %r1, %rd2;",
              "bfind.u64 %rd1, %rd2;", "clz.b64 %r1, %rd2;", "clz.b64 %rd1, %rd2;", "popc.b64 %rd1, %rd2;",
              "testp.finite.f32 %p1, %f1;", "testp.finite.f32 %r1, %f1;", "testp.f32 %p1, %f1;",
              "testp.normal.f64 %p1, %fd1;", "testp.notanumber.u32 %p1, %r1;",
              "copysign.f32 %f1, %f2, %f3;", "copysign.f16 %h1, %h2, %h3;", "tanh.approx.f32 %f1, %f2;",
              "tanh.approx.f16 %h1, %h2;", "tanh.approx.bf16 %rs1, %rs2;", "ex2.approx.ftz.bf16 %rs1, %rs2;",
              "ex2.approx.f16 %h1, %h2;", "ex2.approx.f16x2 %hx1, %hx2;", "rcp.rn.f64 %fd1, %fd2;",
              "rcp.approx.ftz.f64 %fd1, %fd2;", "rcp.approx.f64 %fd1, %fd2;", "sqrt.approx.f64 %fd1, %fd2;",
              "rsqrt.approx.f64 %fd1, %fd2;", "rsqrt.approx.ftz.f64 %fd1, %fd2;", "sin.approx.f64 %fd1, %fd2;",
              "lg2.approx.ftz.f32 %f1, %f2;", "div.approx.f64 %fd1, %fd2, %fd3;", "div.full.f64 %fd1, %fd2, %fd3;",
              "div.full.ftz.f32 %f1, %f2, %f3;", "div.approx.ftz.f32 %f1, %f2, %f3;", "div.rn.ftz.f32 %f1, %f2, %f3;",
              "div.rnd.f32 %f1, %f2, %f3;", "mad.rn.f32 %f1, %f2, %f3, %f4;", "mad.f32 %f1, %f2, %f3, %f4;",
              "mad.sat.f32 %f1, %f2, %f3, %f4;", "mad.rn.ftz.sat.f32 %f1, %f2, %f3, %f4;", "mad.hi.sat.s32 %r1, %r2, %r3, %r4;",
              "mad.lo.sat.s32 %r1, %r2, %r3, %r4;", "mad.hi.cc.u32 %r1, %r2, %r3, %r4;", "madc.lo.u32 %r1, %r2, %r3, %r4;",
              "madc.hi.cc.u32 %r1, %r2, %r3, %r4;", "madc.lo.s64 %rd1, %rd2, %rd3, %rd4;", "mul.hi.sat.s32 %r1, %r2, %r3;",
              "mul24.hi.u32 %r1, %r2, %r3;", "mul24.lo.s32 %r1, %r2, %r3;", "mul24.lo.u64 %rd1, %rd2, %rd3;",
              "mad24.hi.sat.s32 %r1, %r2, %r3, %r4;", "mad24.lo.u32 %r1, %r2, %r3, %r4;", "sad.u32 %r1, %r2, %r3, %r4;",
              "sad.s64 %rd1, %rd2, %rd3, %rd4;", "sad.f32 %f1, %f2, %f3, %f4;",
              "fma.rn.f16 %h1, %h2, %h3, %h4;", "fma.rn.relu.f16 %h1, %h2, %h3, %h4;", "fma.rn.sat.f16 %h1, %h2, %h3, %h4;",
              "fma.rn.relu.bf16 %rs1, %rs2, %rs3, %rs4;", "fma.rn.oob.f16 %h1, %h2, %h3, %h4;", "fma.rn.ftz.f64 %fd1, %fd2, %fd3, %fd4;",
              "fma.rn.f32x2 %rd1, %rd2, %rd3, %rd4;", "add.rn.f32x2 %rd1, %rd2, %rd3;",
              "min.NaN.f32 %f1, %f2, %f3;", "min.ftz.NaN.f32 %f1, %f2, %f3;", "min.xorsign.abs.f32 %f1, %f2, %f3;",
              "min.relu.s32 %r1, %r2, %r3;", "max.relu.s16x2 %r1, %r2, %r3;", "min.u16x2 %r1, %r2, %r3;",
              "max.s16x2 %r1, %r2, %r3;", "min.f32 %f1, %f2, %f3, %f4;", "max.f32 %f1, %f2, %f3, %f4;",
              "min.NaN.f64 %fd1, %fd2, %fd3;", "min.f16 %h1, %h2, %h3;", "max.NaN.bf16 %rs1, %rs2, %rs3;",
              "add.s16x2 %r1, %r2, %r3;", "add.u16x2 %r1, %r2, %r3;", "abs.f16 %h1, %h2;", "abs.ftz.f32 %f1, %f2;",
              "abs.s16 %rs1, %rs2;", "neg.ftz.f32 %f1, %f2;", "neg.f16x2 %hx1, %hx2;", "neg.bf16 %rs1, %rs2;",
              "not.pred %p1, %p2;", "not.b16 %rs1, %rs2;", "not.u32 %r1, %r2;", "cnot.b32 %r1, %r2;",
              "cnot.b16 %rs1, %rs2;", "and.pred %p1, %p2, !%p3;", "or.b16 %rs1, %rs2, %rs3;",
              "xor.pred %p1, %p2, %p3;", "and.b32 %r1, %r2, 0xff;", "and.b64 %rd1, %rd2, -1;",
              "and.u32 %r1, %r2, %r3;", "or.s32 %r1, %r2, %r3;", "and.b32 %r1, %r2, 0f3F800000;",
              "addc.u32 %r1, %r2, %r3;", "addc.cc.u32 %r1, %r2, %r3;", "addc.cc.s64 %rd1, %rd2, %rd3;",
              "subc.cc.u32 %r1, %r2, %r3;", "add.cc.s64 %rd1, %rd2, %rd3;", "sub.cc.u32 %r1, %r2, %r3;",
              "add.cc.u16 %rs1, %rs2, %rs3;", "add.sat.cc.s32 %r1, %r2, %r3;", "sub.sat.s32 %r1, %r2, %r3;",
              "sub.sat.s64 %rd1, %rd2, %rd3;", "add.sat.s16 %rs1, %rs2, %rs3;", "add.sat.f32 %f1, %f2, %f3;",
              "sub.sat.f64 %fd1, %fd2, %fd3;", "add.ftz.f64 %fd1, %fd2, %fd3;", "add.rn.ftz.sat.f32 %f1, %f2, %f3;",
              "mul.rn.sat.f32 %f1, %f2, %f3;", "mul.wide.s64 %rd1, %rd2, %rd3;", "mul.wide.u16 %r1, %rs2, %rs3;",
              "mul.wide.s32 %rd1, %r2, 5;", "mul.lo.u16 %rs1, %rs2, %rs3;", "mul.hi.u64 %rd1, %rd2, %rd3;",
              "mad.wide.u32 %rd1, %r2, %r3, %rd4;", "mad.wide.u32 %rd1, %r2, %r3, %r4;", "mad.wide.s16 %r1, %rs2, %rs3, %r4;",
              "mad.lo.u32 %r1, %r2, %r3;", "mad.lo.u64 %rd1, %rd2, %rd3, 5;", "mad.rn.f64 %fd1, %fd2, %fd3, %fd4;",
              "mad.f64 %fd1, %fd2, %fd3, %fd4;", "fma.f64 %fd1, %fd2, %fd3, %fd4;", "fma.rz.f64 %fd1, %fd2, %fd3, %fd4;",
              "div.s64 %rd1, %rd2, %rd3;", "div.u16 %rs1, %rs2, %rs3;", "rem.u64 %rd1, %rd2, %rd3;",
              "div.rn.f64 %fd1, %fd2, %fd3;", "div.f64 %fd1, %fd2, %fd3;", "div.rz.f32 %f1, %f2, %f3;",
              "div.approx.f32 %f1, %f2, %f3;", "div.full.f32 %f1, %f2, %f3;", "div.full.rn.f32 %f1, %f2, %f3;",
              "sqrt.f32 %f1, %f2;", "sqrt.rn.f32 %f1, %f2;", "sqrt.approx.f32 %f1, %f2;", "sqrt.f64 %fd1, %fd2;",
              "sqrt.rn.f64 %fd1, %fd2;", "rcp.f32 %f1, %f2;", "rcp.rn.f32 %f1, %f2;", "rcp.approx.f32 %f1, %f2;",
              "rsqrt.f32 %f1, %f2;", "rsqrt.approx.f32 %f1, %f2;", "ex2.f32 %f1, %f2;", "ex2.approx.f32 %f1, %f2;",
              "lg2.f32 %f1, %f2;", "sin.f32 %f1, %f2;", "cos.approx.ftz.f32 %f1, %f2;", "sin.rn.f32 %f1, %f2;"]:
        alu(x)


def gen_async_store():
    """st.async and red.async (ISA 9.7.9.12, 9.7.13.7)."""
    c = ".mbarrier::complete_tx::bytes"
    st = f"st.async.shared::cluster{c}"
    red = f"red.async.relaxed.cluster.shared::cluster{c}"
    for se, sc, sp, cm in itertools.product(["", ".weak", ".relaxed", ".release"],
                                            ["", ".cluster", ".cta", ".gpu"],
                                            ["", ".shared::cluster", ".shared::cta", ".shared",
                                             ".global"], ["", c]):
        alu1(f"st.async{se}{sc}{sp}{cm}.u32 [%r1], %r2, [%r3];")
        alu1(f"red.async{se}{sc}{sp}{cm}.add.u32 [%r1], %r2, [%r3];")
    for q in ["st.async.u32", "st.async.weak.u32", f"st.async{c}.u32", "st.async.cluster.u32",
              "st.async.shared::cluster.u32", "st.async.shared::cta.u32", f"{st}.u32",
              f"{st}.v2.u32", "st.async.release.gpu.global.u32", f"{red}.add.u32",
              "red.async.relaxed.cluster.add.u32", "red.async.release.gpu.global.add.u32"]:
        for ops in ["[%r1], %r2", "[%r1], {%r2, %r4}", "[%r1]", "[%r1], %r2, [%r3], [%r3]",
                    "[%rd1], %r2"]:
            alu(f"{q} {ops};")
    for ty in ["b32", "b64", "u32", "u64", "s32", "s64", "f32", "f64", "b16", "u8", "b128",
               "f16", "pred", ""]:
        r = NAT.get(ty, "%rd")
        for v, n in [("", 1), (".v2", 2), (".v4", 4), (".v8", 8)]:
            val = f"{r}2" if n == 1 else "{" + ", ".join([f"{r}2"] * n) + "}"
            alu(f"{st}{v}{'.' + ty if ty else ''} [%r1], {val}, [%r3];")
    for ty in ["u32", "s32", "b32", "f32", "u64", "b64", "f64"]:
        for x in ["%r2", "%rd2", "%f2", "%fd2", "%u2", "%s2", "%ud2", "%sd2", "%p2", "%rs2",
                  "%h2", "5", "-1", "0f3F800000", "0d3FF0000000000000", "_", "%tid.x", "{%r2}",
                  "!%p1", "[%r2]", "bar"]:
            alu1(f"{st}.{ty} [%r1], {x}, [%r3];")
    for ty in ["u32", "f32", "b32", "f64", "b64"]:
        for x in ["%r2, %r4", "%f2, %f3", "%u2, %s2", "%rd2, %rd3", "%fd2, %fd3", "%ud2, %sd2",
                  "%r2, 5", "1, %f2", "0f3F800000, %r2", "%r2, _", "%r2", "%r2, %r2, %r2",
                  "%p1, %p2", "%r2, %rd2"]:
            alu1(f"{st}.v2.{ty} [%r1], {{{x}}}, [%r3];")
    for a, m in [("[%r1]", "[%r3]"), ("[%rd1]", "[%rd3]"), ("[sbuf]", "[bar]"),
                 ("[sbuf+8]", "[bar]"), ("[%r1+8]", "[%r3+8]"), ("[64]", "[%r3]"),
                 ("[%r1]", "[16]"), ("%r1", "[%r3]"), ("[%r1]", "%r3"), ("[gbuf]", "[bar]"),
                 ("[sbuf]", "[gbuf]"), ("[lbuf]", "[bar]"), ("[%rs1]", "[%r3]"),
                 ("[%f1]", "[%r3]"), ("[%r1]", "[%rd3]")]:
        for q in [f"{st}.u32", f"st.async{c}.u32", f"{red}.add.u32",
                  f"red.async.relaxed.cluster{c}.add.u32"]:
            alu1(f"{q} {a}, %r2, {m};")
    for op in ["add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas"]:
        for ty in ["u32", "s32", "b32", "u64", "s64", "b64", "f32", "f64", "f16", "u16"]:
            alu(f"{red}.{op}.{ty} [%r1], {NAT[ty]}2, [%r3];")
    for x in ["%r2", "%rd2", "%f2", "%u2", "%s2", "%ud2", "%p2", "%rs2", "5", "-5",
              "0f3F800000", "_", "%tid.x", "{%r2}", "{%r2, %r4}", "!%p1"]:
        for q in ["add.u32", "and.b32", "add.u64", "max.s32"]:
            alu1(f"{red}.{q} [%r1], {x}, [%r3];")
    for q in [f"{red}.add.min.u32", f"{red}.add.u32.u32", f"{red}.u32", f"{red}.add",
              f"red.async.relaxed.relaxed.cluster.shared::cluster{c}.add.u32",
              f"{red}.add.v2.u32", f"{red}.add.noftz.u32", f"{red}.add.sat.s32",
              f"{red}.add.u32.wb", f"red.async.add.u32.relaxed.cluster.shared::cluster{c}",
              f"red.async{c}.relaxed.cluster.add.u32", f"red.async.cluster.relaxed{c}.add.u32",
              f"{st}.add.u32", f"{st}.u32.u32", f"{st}.s32.u32", f"{st}", f"{st}.v2.v4.u32",
              f"{st}{c}.u32", f"st.async.weak.weak{c}.u32",
              f"st.async.shared::cluster.shared::cluster{c}.u32",
              f"{st}.volatile.u32", f"{st}.L2::cache_hint.u32", f"{st}.bulk_group.u32",
              f"{st}.mmio.u32", f"st.async{c}.weak.shared::cluster.u32",
              f"st.async.u32.shared::cluster{c}", f"st.async.v2.shared::cluster{c}.u32",
              f"{st}.u32.v2"]:
        alu(f"{q} [%r1], %r2, [%r3];")
        alu(f"{q} [%r1], {{%r2, %r4}}, [%r3];")
    for x in [f"{st}.u32 [%r1], %r2, [%r3];",
              f"{st}.v4.f32 [%r1], {{%f1, %f2, %f3, %f1}}, [%r3];",
              f"{red}.add.u32 [%r1], %r2, [%r3];", f"{red}.inc.u32 [%r1], 1, [%r3];",
              f"@%p1 {st}.b64 [%r1], %rd2, [%r3];", f"@!%p1 {red}.xor.b32 [%r1], %r2, [%r3];",
              f"st.async{c}.v2.s64 [%rd1], {{%sd1, %sd2}}, [%rd3];"]:
        full(x)
        add(x, [("8.1", "sm_90"), ("8.1", "sm_89"), ("8.1", "sm_90a"), ("8.0", "sm_90a")])


def gen_bulk_reduce():
    """cp.reduce.async.bulk and cp.async.bulk.prefetch (ISA 9.7.9.25.4.2-3)."""
    c = ".mbarrier::complete_tx::bytes"
    r1 = f"cp.reduce.async.bulk.shared::cluster.shared::cta{c}"
    r2 = "cp.reduce.async.bulk.global.shared::cta.bulk_group"
    for op in ["add", "min", "max", "inc", "dec", "and", "or", "xor", "cas", "exch"]:
        for ty in ["b32", "u32", "s32", "b64", "u64", "s64", "f32", "f64", "f16", "bf16",
                   "f16x2", "u16"]:
            alu(f"{r1}.{op}.{ty} [sbuf], [sbuf+512], 256, [bar];")
            alu(f"{r2}.{op}.{ty} [gbuf], [sbuf], 256;")
    for q in ["add.noftz.f16", "add.noftz.bf16", "noftz.add.f16", "add.bf16.noftz",
              "add.noftz.f32", "add.noftz.u32", "min.noftz.f16", "add.noftz.f16x2",
              "add.u32.u32", "add.min.u32", "add", "u32", "add.noftz.noftz.f16"]:
        alu(f"{r2}.{q} [gbuf], [sbuf], 256;")
        alu1(f"{r1}.{q} [sbuf], [sbuf+512], 256, [bar];")
    dirs = [(".shared::cluster", ".shared::cta"), (".global", ".shared::cta"),
            (".shared::cluster", ".global"), (".shared::cta", ".global"),
            (".shared::cluster", ".shared"), (".global", ".shared"), (".global", ".global"),
            (".shared::cta", ".shared::cta"), (".global", ".shared::cluster"), ("", ""),
            (".shared::cta", ".shared::cluster"), (".local", ".shared::cta")]
    for (dst, src), comp, ch in itertools.product(dirs, ["", c, ".bulk_group"],
                                                  ["", ".L2::cache_hint"]):
        q = f"cp.reduce.async.bulk{dst}{src}{comp}{ch}.add.u32"
        dm = "[gbuf]" if dst == ".global" else "[sbuf]"
        sm = "[gbuf]" if src == ".global" else "[sbuf+512]"
        ops = [dm, sm, "256"] + (["[bar]"] if comp == c else []) + (["%rd3"] if ch else [])
        add(f"{q} {', '.join(ops)};", pick(q, 1) + [("9.0", "sm_90a"), ("8.0", "sm_90")])
    for sz in ["16", "20", "0", "8", "1048560", "1048576", "-16", "%r1", "%u1", "%rd1",
               "%rs1", "%f1", "0x30"]:
        alu(f"{r1}.add.u32 [%r2], [sbuf], {sz}, [bar];")
        alu(f"{r2}.and.b64 [%rd2], [sbuf], {sz};")
    for ops in ["[sbuf], [sbuf+512], 256, [bar]", "[%r1], [%r2], 256, [%r3]",
                "[%rd1], [%rd2], 256, [%rd3]", "[sbuf], [sbuf+512], 256",
                "[sbuf], [sbuf+512], 256, %rd1", "[sbuf], [sbuf+512], 256, %r1",
                "[sbuf], [gbuf], 256, [bar]", "[gbuf], [sbuf], 256, [bar]",
                "[sbuf], [sbuf], 256, [bar], %rd1", "[lbuf], [sbuf], 256, [bar]",
                "[64], [sbuf], 256, [bar]", "%r1, [sbuf], 256, [bar]",
                "[sbuf+8], [sbuf+512], 256, [bar]", "[sbuf], [sbuf+512], 256, [bar+4]"]:
        alu(f"{r1}.min.s32 {ops};")
    for ops in ["[gbuf], [sbuf], 256", "[%rd1], [%r1], %r1", "[%r1], [%r1], %r1",
                "[%rd1], [%rd2], 256", "[sbuf], [sbuf], 256", "[gbuf], [gbuf], 256",
                "[gbuf], [sbuf], 256, %rd1", "[gbuf], [sbuf], 256, [bar]", "[gbuf], [lbuf], 256",
                "[gbuf+8], [sbuf], 256", "%rd1, [sbuf], 256"]:
        alu(f"{r2}.max.s64 {ops};")
    for pol in ["%rd3", "%r3", "%ud3", "%fd3", "7", ""]:
        tail = f", {pol}" if pol else ""
        alu(f"{r2}.L2::cache_hint.add.f32 [gbuf], [sbuf], 256{tail};")
        alu(f"{r2}.add.u32.L2::cache_hint [gbuf], [sbuf], 256{tail};")
    for q in [f"{r1}.multicast::cluster.add.u32", f"{r1}.relaxed.cluster.add.u32",
              f"{r2}.cluster.add.u32", f"{r2}.L2::evict_last.add.u32", f"{r2}.v2.add.u32",
              "cp.reduce.async.bulk.bulk_group.global.shared::cta.add.u32",
              "cp.reduce.async.bulk.add.u32.global.shared::cta.bulk_group",
              f"cp.reduce.async.bulk.shared::cta.shared::cluster{c}.add.u32"]:
        alu(f"{q} [gbuf], [sbuf], 256;")
        alu(f"{q} [sbuf], [sbuf+512], 256, [bar];")
    for x in [f"{r1}.add.u32 [%r1], [%r2], %r3, [%r4];", f"{r2}.add.noftz.bf16 [%rd1], [%r2], 512;",
              f"@%p1 {r2}.L2::cache_hint.xor.b64 [%rd1], [sbuf], %r3, %rd2;",
              f"{r1}.inc.u32 [sbuf], [sbuf+512], 16, [bar];"]:
        full(x)
    pf = "cp.async.bulk.prefetch"
    for q in [f"{pf}.L2.global", f"{pf}.global.L2", f"{pf}.L2", f"{pf}.global", f"{pf}",
              f"{pf}.L1.global", f"{pf}.L2.shared::cta", f"{pf}.L2.shared", f"{pf}.L2.local",
              f"{pf}.L2.global.bulk_group", f"{pf}.L2.global.L2::evict_last",
              f"{pf}.L2.global.b32", f"{pf}.L2.L2.global", f"{pf}.L2.global.global"]:
        for ch in ["", ".L2::cache_hint"]:
            for ops in ["[gbuf], 256", "[gbuf], 256, %rd1"]:
                alu(f"{q}{ch} {ops};")
    for ops in ["[gbuf], 256", "[%rd1], %r1", "[%r1], %r1", "[gbuf], %rd1", "[gbuf], 20",
                "[gbuf], 0", "[gbuf], 1048560", "[gbuf], 1048576", "[gbuf+8], 256",
                "[sbuf], 256", "[lbuf], 256", "[64], 256", "gbuf, 256", "[gbuf], %u1",
                "[gbuf], %rs1", "[gbuf], %f1", "[gbuf], 256, [bar]", "[gbuf]", "[%rd1+16], 16"]:
        alu(f"{pf}.L2.global {ops};")
    for pol in ["%rd3", "%r3", "%ud3", "%f3", "5"]:
        alu(f"{pf}.L2.global.L2::cache_hint [gbuf], 256, {pol};")
    for x in [f"{pf}.L2.global [gbuf], 256;", f"{pf}.L2.global.L2::cache_hint [%rd1], %r2, %rd3;"]:
        full(x)
        add(x, [("7.8", "sm_90"), ("8.0", "sm_89")])


def gen_createpolicy():
    """createpolicy (ISA 9.7.9.18)."""
    pri = ["", ".L2::evict_last", ".L2::evict_normal", ".L2::evict_first",
           ".L2::evict_unchanged", ".L2::cache_hint", ".L1::evict_last"]
    for p1, p2 in itertools.product(pri, pri):
        alu(f"createpolicy.fractional{p1}{p2}.b64 %rd1, 0.5;")
        alu1(f"createpolicy.range{p1}{p2}.b64 %rd1, [%rd2], %r1, %r2;")
    fr = "createpolicy.fractional.L2::evict_last"
    for x in ["1.0", "0.5", "0.0", "1.5", "-0.5", "-0.0", "1", "0f3F800000", "0f3F800001",
              "0f00000001", "0fFFC00000", "0d3FE0000000000000", "0d3FF0000000000001",
              "0d3FF0000010000000", "1e-10", "1.0000001", "%f1", "%r1", "%u1", "%s1", "%h1",
              "%rs1", "%fd1", "%rd1", "%tid.x", "-%f1", "_"]:
        alu(f"{fr}.b64 %rd1, {x};")
    for d in ["%rd1", "%ud1", "%sd1", "%fd1", "%r1", "_", "[%rd1]"]:
        alu(f"{fr}.b64 {d}, 0.5;")
        alu(f"{fr}.b64 {d};")
    for q in [f"{fr}.b32", f"{fr}.u64", fr, "createpolicy.fractional.b64.L2::evict_last",
              "createpolicy.b64.fractional.L2::evict_last", "createpolicy.L2::evict_last.b64",
              "createpolicy.fractional.range.L2::evict_last.b64",
              "createpolicy.fractional.global.L2::evict_last.b64",
              "createpolicy.fractional.L2::evict_last.L2::evict_unchanged.L2::evict_first.b64",
              f"{fr}.b64.b64", "createpolicy.fractional.L2.b64"]:
        alu(f"{q} %rd1, 0.5;")
    alu(f"{fr}.b64 %rd1, 0.5, 1.0;")
    rg = "createpolicy.range"
    for sp in ["", ".global", ".shared", ".shared::cta", ".local", ".global.global"]:
        for a in ["[%rd2]", "[%r2]", "[gbuf]", "[gbuf+16]", "[sbuf]", "[lbuf]", "[64]", "%rd2"]:
            alu(f"{rg}{sp}.L2::evict_last.b64 %rd1, {a}, 128, 1024;")
    for ps, ts in [("%r1", "%r2"), ("128", "1024"), ("2048", "1024"), ("0", "0"), ("-1", "4"),
                   ("-2", "-1"), ("4", "-1"), ("5", "0x100000000"), ("0", "0x1ffffffff"),
                   ("0xffffffff", "0xffffffff"), ("%u1", "%s1"), ("%rs1", "%r1"),
                   ("%f1", "%r1"), ("%rd1", "%r2"), ("128", "%r1"), ("%tid.x", "%r2"),
                   ("1.0", "%r2")]:
        alu(f"{rg}.global.L2::evict_last.L2::evict_first.b64 %rd1, [%rd2], {ps}, {ts};")
    for ops in ["%rd1, [%rd2], %r1", "%rd1, [%rd2], %r1, %r2, %r3", "_, [%rd2], %r1, %r2",
                "%r1, [%rd2], %r1, %r2", "%rd1, [%rd2]"]:
        alu(f"{rg}.L2::evict_last.b64 {ops};")
    alu(f"{rg}.L2::evict_last.global.b64 %rd1, [gbuf], 1, 2;")
    cv = "createpolicy.cvt"
    for q in [f"{cv}.L2.b64", f"{cv}.b64", f"{cv}.L2", f"{cv}.L2.b32", f"{cv}.L1.b64",
              f"{cv}.L2.L2.b64", f"{cv}.global.L2.b64", f"{cv}.L2.L2::evict_unchanged.b64",
              f"{cv}.L2::evict_last.b64"]:
        alu(f"{q} %rd1, %rd2;")
    for ops in ["%rd1, %ud2", "%rd1, 5", "%rd1, %r2", "%rd1, %fd2", "%rd1, 0.5", "%rd1",
                "%rd1, %rd2, %rd3", "_, %rd2", "%r1, %rd2"]:
        alu(f"{cv}.L2.b64 {ops};")
    for x in [f"{fr}.b64 %rd1, 1.0;", f"{fr}.L2::evict_unchanged.b64 %rd1, 0.25;",
              f"{rg}.L2::evict_last.L2::evict_first.b64 %rd1, [%rd2], 0x100000, 0x200000;",
              f"{cv}.L2.b64 %rd1, %rd2;", f"@%p1 {fr}.b64 %rd1;"]:
        full(x)
        add(x, [("7.3", "sm_80"), ("7.4", "sm_80"), ("7.4", "sm_86")])


def gen_bad_pairs():
    for v, t in BAD_PAIRS:
        add("mov.u32 %r1, %tid.x;", [(v, t)])
        add("mbarrier.init.shared.b64 [bar], 1;", [(v, t)])
    for v, t in PAIRS:
        add("mov.u32 %r1, %tid.x;", [(v, t)])


def generate():
    gen_init_inval()
    gen_arrive()
    gen_tx()
    gen_wait()
    gen_misc_mbar()
    gen_bulk()
    gen_fence()
    gen_cluster()
    gen_common()
    gen_bad_pairs()
    gen_alu_types()
    gen_alu_operands()
    gen_alu_mods()
    gen_setp()
    gen_cvt()
    gen_mov()
    gen_mem()
    gen_misc()
    gen_async_store()
    gen_bulk_reduce()
    gen_createpolicy()
    return cases


def arch_of(t):
    return t


def label_one(args):
    i, (v, t, insn) = args
    path = os.path.join(WORK, f"c{i}.ptx")
    with open(path, "w") as f:
        f.write(TEMPLATE.format(v=v, t=t, insn=insn))
    r = subprocess.run([PTXAS, f"-arch={t}", path, "-o", "/dev/null"], capture_output=True,
                       text=True)
    msg = ""
    for line in r.stderr.splitlines():
        if "error" in line or "fatal" in line:
            msg = line.split(";", 1)[1].strip() if ";" in line else line.strip()
            # "error   : text" -> "text", keep the line number only if not the instruction's
            ln = line.split("line ")[1].split(";")[0] if "line " in line else "0"
            msg = msg.split(":", 1)[1].strip() if ":" in msg else msg
            if ln != "16":
                msg = f"[line {ln}] " + msg
            break
    os.unlink(path)
    return (i, v, t, "ok" if r.returncode == 0 else "error", insn, msg)


WORK = None


def main():
    global WORK
    cs = generate()
    if len(sys.argv) > 1 and sys.argv[1] == "list":
        for v, t, insn in cs:
            print(f"{v}\t{t}\t{insn}")
        print(len(cs), file=sys.stderr)
        return
    out = "corpus.tsv"
    if "-o" in sys.argv:
        out = sys.argv[sys.argv.index("-o") + 1]
    # --reuse FILE: keep the ptxas verdicts already recorded there, run ptxas on the rest.
    known = {}
    for k, a in enumerate(sys.argv):
        if a != "--reuse":
            continue
        with open(sys.argv[k + 1]) as f:
            for line in f:
                if line.startswith("#"):
                    continue
                p = line.rstrip("\n").split("\t")
                if len(p) >= 5:
                    known[(p[1], p[2], p[4])] = (p[3], p[5] if len(p) > 5 else "")
    jobs = int(os.environ.get("JOBS", "2"))
    WORK = tempfile.mkdtemp(prefix="ptxcorpus")
    todo = [(i, c) for i, c in enumerate(cs) if c not in known]
    print(f"{len(cs)} cases, {len(todo)} to label with ptxas", file=sys.stderr)
    # Verdicts also go to OUT.partial as they come, so an interrupted run can --reuse it.
    fresh = []
    with Pool(jobs) as pool, open(out + ".partial", "a") as part:
        for row in pool.imap_unordered(label_one, todo, chunksize=16):
            fresh.append(row)
            part.write("\t".join(str(x) for x in row) + "\n")
            part.flush()
    rows = [(i, v, t) + known[(v, t, insn)][:1] + (insn,) + known[(v, t, insn)][1:]
            for i, (v, t, insn) in enumerate(cs) if (v, t, insn) in known]
    rows = sorted(rows + fresh)
    with open(out, "w") as f:
        f.write("# ptxi differential corpus: ptxas 13.0 (V13.0.88) verdicts; see gen.py\n")
        f.write("# id\tversion\ttarget\tverdict\tinstruction\tptxas first error\n")
        for i, v, t, verdict, insn, msg in rows:
            f.write(f"{i}\t{v}\t{t}\t{verdict}\t{insn}\t{msg}\n")
    n_ok = sum(1 for r in rows if r[3] == "ok")
    print(f"{len(rows)} cases, {n_ok} ok, {len(rows) - n_ok} error -> {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
