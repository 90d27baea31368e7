#!/usr/bin/env python3
"""
gen.py - the Hopper-era differential corpus: one-instruction kernels of each family (wgmma
dense and sparse, mma.sync/mma.sp, ldmatrix/stmatrix/movmatrix, tensor copies and prefetch,
tensormap.replace, multimem, cvt, cache hints and policies, clusters, the .unified address
suffix ...), each labelled with ptxas's verdict. Committed tables: tensor.tsv (--family
tensor,tensor-more), unified.tsv (--family unified), warp.tsv (--family warp).

    gen.py list                  print the forms (family, version, target, instruction)
    gen.py label [-o FILE] [--family F,G]  run ptxas (PTXAS, default ptxas on PATH) and write
                                 forms.tsv (only families F, G)

Each family is a list of valid base forms; every base is also tried mutated the ways ptxas
is strict or lenient about: modifiers shuffled, one dropped, one written twice, one swapped
for another of its kind, a foreign one added, an operand dropped or added, a vector shorter
or longer, another version or target. Rows of forms.tsv: family, version, target, ok|error,
instruction, ptxas's first message. run_corpus --hopper (meson test ptxas_hopper) rebuilds
each kernel from HEAD/TAIL and compares `ptxi check`'s verdict.

Labelling: many forms go in one module, after them a line ptxas always refuses (SENTINEL,
so that it stops before code generation); a line ptxas names is refused. A refusal can hide
another line's (ptxas reports some errors once), so the lines it did not name are tried
again together until ptxas names none of them; then each form left is assembled alone, as
some errors come only from passes a module with an error never reaches.
"""
import os
import random
import re
import subprocess
import sys
import tempfile
from multiprocessing import Pool

PTXAS = os.environ.get("PTXAS", "ptxas")
TIMEOUT = 30  # seconds: a form ptxas takes longer on is left out (no verdict)
HEAD = """.version {v}
.target {t}
.address_size 64
.visible .entry k(.param .u64 p0, .param .align 64 .b8 tmap[128])
{{
  .reg .pred %p<8>;
  .reg .b16 %h<16>;
  .reg .b32 %r<208>;
  .reg .b64 %rd<32>;
  .reg .f32 %f<136>;
  .reg .f64 %fd<16>;
  .shared .align 8 .b64 bar[4];
  .shared .align 128 .b8 smem[4096];
"""
TAIL = """  ret;
}
.global .align 128 .b8 gmap[128];
"""
FIRST_LINE = 14  # the instruction's line in a one-instruction module (run_corpus.c)

MAIN = ("8.7", "sm_90a")
OTHER = [("8.0", "sm_90a"), ("8.0", "sm_90"), ("8.3", "sm_90a"), ("8.6", "sm_90a"),
         ("8.7", "sm_90"), ("7.8", "sm_90"), ("8.7", "sm_100a"), ("8.7", "sm_80")]
FOREIGN = ["sync", "aligned", "row", "col", "relu", "satfinite", "ftz", "rn", "rz", "sat",
           "shared", "global", "shared::cta", "shared::cluster", "b32", "b64", "f32", "u32",
           "s32", "f16", "relaxed", "acquire", "release", "cta", "gpu", "sys", "cluster",
           "L2::cache_hint", "L2::128B", "v2", "v4", "trans", "x2", "add", "min", "tile",
           "im2col", "2d", "multicast::cluster", "bulk_group", "weak", "noftz", "L1",
           "L2", "b16", "bf16", "e4m3", "tf32", "acc::f32", "sp", "m16n8k16", "b1024"]

# Kinds a word may be swapped for (the word -> its alternatives).
KINDS = [
    ["f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8", "s4", "u4", "b1", "f32", "s32", "f64",
     "f16x2", "bf16x2", "b32", "b64", "u32", "u64", "s64", "b16", "e4m3x2", "e5m2x2"],
    ["m16n8k4", "m16n8k8", "m16n8k16", "m16n8k32", "m16n8k64", "m16n8k128", "m16n8k256",
     "m8n8k4", "m8n8k16", "m8n8k32", "m8n8k128", "m8n8", "m16n16", "m8n16"],
    ["row", "col"], ["x1", "x2", "x4"], ["1d", "2d", "3d", "4d", "5d"],
    ["tile", "im2col", "im2col_no_offs", "tile::gather4", "im2col::w"],
    ["shared", "shared::cta", "shared::cluster", "global", "local", "param", "const"],
    ["relaxed", "acquire", "release", "weak", "acq_rel", "sc"],
    ["cta", "cluster", "gpu", "sys"],
    ["add", "min", "max", "and", "or", "xor", "inc", "dec"],
    ["rn", "rz", "rm", "rp", "rna", "rni", "rzi"],
    ["v2", "v4", "v8"],
    ["L2::evict_last", "L2::evict_first", "L2::evict_normal", "L2::evict_unchanged",
     "L1::evict_last", "L1::evict_first", "L1::no_allocate", "L2::128B", "L2::256B"],
    ["global_address", "rank", "box_dim", "global_dim", "global_stride", "element_stride",
     "elemtype", "interleave_layout", "swizzle_mode", "swizzle_atomicity", "fill_mode"],
]
KIND_OF = {w: k for k in KINDS for w in k}


def regs(prefix, n, start=0):
    return "{" + ", ".join("%%%s%d" % (prefix, start + i) for i in range(n)) + "}"


# ---- base forms of each family ------------------------------------------------------------

def wgmma():
    out = []
    dense = [("f16", "f16", "f16", 16), ("f32", "f16", "f16", 16), ("f32", "bf16", "bf16", 16),
             ("f32", "tf32", "tf32", 8), ("f16", "e4m3", "e5m2", 32), ("f32", "e5m2", "e4m3", 32),
             ("s32", "s8", "s8", 32), ("s32", "u8", "s8", 32), ("s32", "b1", "b1", 256)]
    for n in (8, 24, 64, 136, 256):
        for d, a, b, k in dense:
            for sp in (False, True):
                if sp and a == "b1":
                    continue
                kk = k * 2 if sp else k
                nd = n // 4 if d == "f16" else n // 2
                dv = regs("f" if d == "f32" else "r", nd)
                extra = ".and.popc" if a == "b1" else ""
                op = "wgmma.mma_async%s.sync.aligned.m64n%dk%d.%s.%s.%s%s" % (
                    ".sp" if sp else "", n, kk, d, a, b, extra)
                spo = ", %r204, 0" if sp else ""
                half = a in ("f16", "bf16")
                for areg in (False, True):
                    tail = ""
                    if d != "s32":
                        tail = ", 1, -1" + ((", 1" if areg else ", 0, 1") if half else "")
                    aop = regs("r", 4, 200) if areg else "%rd10"
                    out.append("%s %s, %s, %%rd11%s, %%p0%s;" % (op, dv, aop, spo, tail))
    out += ["wgmma.fence.sync.aligned;", "wgmma.commit_group.sync.aligned;",
            "wgmma.wait_group.sync.aligned 1;", "setmaxnreg.inc.sync.aligned.u32 240;",
            "setmaxnreg.dec.sync.aligned.u32 40;"]
    return out


def mma():
    out = []
    # (shape, d, a, b, c, nd, na, nb, nc, dreg, creg)
    F = [("m16n8k16", "f32", "f16", "f16", "f32", 4, 4, 2, 4, "f", "f"),
         ("m16n8k8", "f16", "f16", "f16", "f16", 2, 2, 1, 2, "r", "r"),
         ("m16n8k16", "f32", "bf16", "bf16", "f32", 4, 4, 2, 4, "f", "f"),
         ("m16n8k8", "f32", "tf32", "tf32", "f32", 4, 4, 2, 4, "f", "f"),
         ("m16n8k4", "f32", "tf32", "tf32", "f32", 4, 2, 1, 4, "f", "f"),
         ("m8n8k4", "f32", "f16", "f16", "f32", 8, 2, 2, 8, "f", "f"),
         ("m8n8k4", "f64", "f64", "f64", "f64", 2, 1, 1, 2, "fd", "fd"),
         ("m16n8k32", "s32", "s8", "u8", "s32", 4, 4, 2, 4, "r", "r"),
         ("m16n8k16", "s32", "u8", "u8", "s32", 4, 2, 1, 4, "r", "r"),
         ("m8n8k16", "s32", "s8", "s8", "s32", 2, 1, 1, 2, "r", "r"),
         ("m16n8k64", "s32", "s4", "s4", "s32", 4, 4, 2, 4, "r", "r"),
         ("m16n8k256", "s32", "b1", "b1", "s32", 4, 4, 2, 4, "r", "r"),
         ("m16n8k32", "f32", "e4m3", "e5m2", "f32", 4, 4, 2, 4, "f", "f")]
    for shape, d, a, b, c, nd, na, nb, nc, dr, cr in F:
        extra = ".xor.popc" if a == "b1" else ""
        sat = ".satfinite" if d == "s32" and a != "b1" else ""
        dv = regs(dr, nd) if dr != "fd" else regs("fd", nd)
        cv = regs(cr, nc, 8 if cr == "fd" else 60)
        out.append("mma.sync.aligned.%s.row.col%s%s.%s.%s.%s.%s %s, %s, %s, %s;" % (
            shape, sat, extra, d, a, b, c, dv, regs("r", na, 40), regs("r", nb, 50), cv))
    SP = [("m16n8k16", "f32", "f16", "f16", "f32", 4, 2, 2, 4, "f"),
          ("m16n8k32", "f16", "bf16", "bf16", "f16", 2, 4, 4, 2, "r"),
          ("m16n8k8", "f32", "tf32", "tf32", "f32", 4, 2, 2, 4, "f"),
          ("m16n8k32", "s32", "s8", "s8", "s32", 4, 2, 2, 4, "r"),
          ("m16n8k64", "s32", "u8", "s8", "s32", 4, 4, 4, 4, "r"),
          ("m16n8k128", "s32", "s4", "s4", "s32", 4, 4, 4, 4, "r"),
          ("m16n8k64", "f32", "e4m3", "e4m3", "f32", 4, 4, 4, 4, "f")]
    for shape, d, a, b, c, nd, na, nb, nc, r in SP:
        sat = ".satfinite" if d == "s32" else ""
        for op in ("mma.sp", "mma.sp::ordered_metadata"):
            out.append("%s.sync.aligned.%s.row.col%s.%s.%s.%s.%s %s, %s, %s, %s, %%r8, 0x0;" % (
                op, shape, sat, d, a, b, c, regs(r, nd), regs("r", na, 40), regs("r", nb, 50),
                regs(r, nc, 60)))
    for x, n in (("x1", 1), ("x2", 2), ("x4", 4)):
        out.append("ldmatrix.sync.aligned.m8n8.%s.shared.b16 %s, [%%rd20];" % (x, regs("r", n)))
        out.append("ldmatrix.sync.aligned.m8n8.%s.trans.shared::cta.b16 %s, [smem];" % (x, regs("r", n)))
        out.append("stmatrix.sync.aligned.m8n8.%s.shared.b16 [%%rd20], %s;" % (x, regs("r", n)))
        out.append("stmatrix.sync.aligned.m8n8.%s.trans.shared::cta.b16 [%%r20], %s;" % (x, regs("r", n)))
    out.append("movmatrix.sync.aligned.m8n8.trans.b16 %r1, %r2;")
    return out


def tensor():
    out = []
    for d in range(1, 6):
        c = regs("r", d, 10)
        for mode in ("", ".tile", ".im2col"):
            if mode == ".im2col" and d < 3:
                continue
            off = ", " + regs("h", d - 2) if mode == ".im2col" else ""
            for cta in ("shared::cluster", "shared::cta"):
                out.append("cp.async.bulk.tensor.%dd.%s.global%s.mbarrier::complete_tx::bytes "
                           "[%%rd20], [%%rd1, %s], [%%rd22]%s;" % (d, cta, mode, c, off))
            out.append("cp.async.bulk.tensor.%dd.shared::cluster.global%s.mbarrier::complete_tx::bytes"
                       ".multicast::cluster.L2::cache_hint [%%rd20], [%%rd1, %s], [%%rd22]%s, %%h1, %%rd5;"
                       % (d, mode, c, off))
            m2 = mode.replace("im2col", "im2col_no_offs")
            out.append("cp.async.bulk.tensor.%dd.global.shared::cta%s.bulk_group [%%rd1, %s], [%%rd20];"
                       % (d, m2, c))
            out.append("cp.reduce.async.bulk.tensor.%dd.global.shared::cta.add%s.bulk_group"
                       ".L2::cache_hint [%%rd1, %s], [%%rd20], %%rd5;" % (d, m2, c))
            out.append("cp.async.bulk.prefetch.tensor.%dd.L2.global%s [%%rd1, %s]%s;"
                       % (d, mode, c, off))
    out.append("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes "
               "[smem], [tmap, {%r10, %r11}], [bar];")
    out.append("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [gmap, {%r13, %r14}];")
    for op in ("min", "max", "inc", "dec", "and", "or", "xor"):
        out.append("cp.reduce.async.bulk.tensor.2d.global.shared::cta.%s.tile.bulk_group "
                   "[%%rd1, {%%r10, %%r11}], [%%rd20];" % op)
    return out


def tensor_more():
    """More tensor-copy forms (check_tensor.c): every direction and load mode, the sm_100a
    modes and CTA pairs, operands of each kind and count, words in other orders."""
    out = []
    pol, mask = ", %rd5", ", %h9"
    for d in range(1, 6):
        c = regs("r", d, 10)
        offs = {"im2col": regs("h", max(d - 2, 1)), "im2col::w": "{%h0, %h1}",
                "im2col::w::128": "{%h0, %h1}"}
        for mode in ("tile", "im2col", "im2col::w", "im2col::w::128", "tile::gather4"):
            cc = regs("r", 5, 10) if mode == "tile::gather4" else c
            off = ", " + offs[mode] if mode in offs else ""
            for dst in ("shared::cluster", "shared::cta"):
                for extra, tail in ((("", ""), (".multicast::cluster", mask)) if d != 3 else
                                    ((".L2::cache_hint", pol), (".cta_group::2", ""),
                                     (".multicast::cluster.L2::cache_hint", mask + pol))):
                    out.append("cp.async.bulk.tensor.%dd.%s.global.%s.mbarrier::complete_tx::bytes%s "
                               "[%%rd20], [%%rd1, %s], [%%rd22]%s%s;" % (d, dst, mode, extra, cc, off, tail))
            out.append("cp.async.bulk.prefetch.tensor.%dd.L2.global.%s [%%rd1, %s]%s;" % (d, mode, cc, off))
            if d == 4:
                out.append("cp.async.bulk.prefetch.tensor.%dd.L2.global.%s.L2::cache_hint [%%rd1, %s]%s%s;"
                           % (d, mode, cc, off, pol))
        for mode in ("tile", "im2col_no_offs", "tile::scatter4", "im2col"):
            cc = regs("r", 5, 10) if mode == "tile::scatter4" else c
            out.append("cp.async.bulk.tensor.%dd.global.shared::cta.%s.bulk_group [%%rd1, %s], [%%rd20];"
                       % (d, mode, cc))
            out.append("cp.async.bulk.tensor.%dd.global.shared::cta.%s.bulk_group.L2::cache_hint "
                       "[%%rd1, %s], [%%rd20]%s;" % (d, mode, cc, pol))
            ops = ("add", "min", "max", "inc", "dec", "and", "or", "xor")
            for op in (ops if d == 2 and mode == "tile" else ops[d % 8::3]):
                out.append("cp.reduce.async.bulk.tensor.%dd.global.shared::cta.%s.%s.bulk_group "
                           "[%%rd1, %s], [%%rd20];" % (d, op, mode, cc))
    # operand kinds and spellings ptxas is lenient or strict about
    base = "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
    for dst, tm, mb in (("[smem]", "%rd1", "[bar]"), ("[smem+16]", "%r1", "[bar+8]"),
                        ("%rd20", "%rd1", "%rd22"), ("[%r20]", "%rd1", "[%r22]"),
                        ("[%rd20]", "%f1", "[%rd22]"), ("[%rd20]", "tmap", "[%rd22]"),
                        ("[%rd20]", "smem", "[%rd22]"), ("[%rd20]", "%rd1+8", "[%rd22]"),
                        ("[p0]", "%rd1", "[%rd22]"), ("[%rd20]", "%rd1", "[4]"),
                        ("[%rd20]", "%rd1", "[%f2]"), ("[%rd20]", "%p1", "[%rd22]")):
        out.append("%s %s, [%s, {%%r10, %%r11}], %s;" % (base, dst, tm, mb))
    for co in ("{%r10, 4}", "{%rd10, %rd11}", "{%h10, %h11}", "{%f10, %f11}", "{-1, 7}"):
        out.append("%s [%%rd20], [%%rd1, %s], [%%rd22];" % (base, co))
    for m, v in ((".multicast::cluster", "3"), (".multicast::cluster", "%r9"),
                 (".multicast::cluster", "{%h9}"), (".L2::cache_hint", "7"),
                 (".L2::cache_hint", "%r5"), (".L2::cache_hint", "%f1")):
        out.append("%s%s [%%rd20], [%%rd1, {%%r10, %%r11}], [%%rd22], %s;" % (base, m, v))
    for o in ("{%h1}", "{1}", "{%r1}", "%h1", "{%h1, %h2}", "{%rd1}"):
        out.append("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes "
                   "[%%rd20], [%%rd1, {%%r10, %%r11, %%r12}], [%%rd22], %s;" % o)
    out.append("cp.async.bulk.tensor.tile.2d.mbarrier::complete_tx::bytes.global.shared::cluster "
               "[%rd20], [%rd1, {%r10, %r11}], [%rd22];")
    out.append("cp.async.bulk.tensor.2d.mbarrier::complete_tx::bytes.shared::cluster.global.tile "
               "[%rd20], [%rd1, {%r10, %r11}], [%rd22];")
    out.append("cp.reduce.async.bulk.tensor.2d.bulk_group.global.shared::cta.tile.add "
               "[%rd1, {%r10, %r11}], [%rd20];")
    out.append("cp.async.bulk.prefetch.tensor.2d.global.L2.tile [%rd1, {%r10, %r11}];")
    return out


def tensormap():
    out = []
    f64 = [("global_address", ""), ("global_stride", "0, ")]
    f32 = [("rank", ""), ("box_dim", "0, "), ("global_dim", "0, "), ("element_stride", "0, ")]
    for sp in ("global", "shared::cta"):
        for f, ord_ in f64:
            out.append("tensormap.replace.tile.%s.%s.b1024.b64 [%%rd20], %s%%rd5;" % (f, sp, ord_))
        for f, ord_ in f32:
            out.append("tensormap.replace.tile.%s.%s.b1024.b32 [%%rd20], %s%%r5;" % (f, sp, ord_))
        for f, v in (("elemtype", 3), ("interleave_layout", 1), ("swizzle_mode", 2),
                     ("swizzle_atomicity", 0), ("fill_mode", 1)):
            out.append("tensormap.replace.tile.%s.%s.b1024.b32 [%%rd20], %d;" % (f, sp, v))
    out.append("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned "
               "[%rd1], [%rd20], 128;")
    out.append("fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;")
    out.append("fence.proxy.tensormap::generic.release.cta;")
    return out


def multimem():
    out = []
    for sem in ("", ".relaxed.sys", ".acquire.gpu", ".weak"):
        for op, ty, d in (("add", "u32", "%r1"), ("min", "s32", "%r1"), ("max", "u64", "%rd1"),
                          ("and", "b32", "%r1"), ("xor", "b64", "%rd1"), ("add", "f32", "%f1"),
                          ("add", "f64", "%fd1"), ("min", "f16x2", "%r1"), ("max", "bf16x2", "%r1"),
                          ("add", "f16", "%h1"), ("add", "bf16", "%h1")):
            out.append("multimem.ld_reduce%s.global.%s.%s %s, [%%rd20];" % (sem, op, ty, d))
        out.append("multimem.ld_reduce%s.global.add.v4.f32 {%%f0, %%f1, %%f2, %%f3}, [%%rd20];" % sem)
        out.append("multimem.ld_reduce%s.global.add.acc::f32.v2.f16x2 {%%r0, %%r1}, [%%rd20];" % sem)
    for sem in ("", ".relaxed.sys", ".release.cta", ".weak"):
        out.append("multimem.st%s.global.f32 [%%rd20], %%f1;" % sem)
        out.append("multimem.st%s.global.v4.f16x2 [%%rd20], {%%r0, %%r1, %%r2, %%r3};" % sem)
        out.append("multimem.red%s.global.add.u32 [%%rd20], %%r1;" % sem)
        out.append("multimem.red%s.global.min.s64 [%%rd20], %%rd1;" % sem)
        out.append("multimem.red%s.global.add.v2.f32 [%%rd20], {%%f0, %%f1};" % sem)
        out.append("multimem.red%s.global.add.v8.bf16x2 [%%rd20], %s;" % (sem, regs("r", 8)))
    return out


def cvt():
    out = []
    for r in ("rn", "rz"):
        out += ["cvt.%s.f16x2.f32 %%r1, %%f1, %%f2;" % r, "cvt.%s.bf16x2.f32 %%r1, %%f1, %%f2;" % r,
                "cvt.%s.satfinite.f16x2.f32 %%r1, %%f1, %%f2;" % r, "cvt.%s.relu.bf16.f32 %%h1, %%f1;" % r,
                "cvt.%s.f16.f32 %%h1, %%f1;" % r]
    out += ["cvt.rna.tf32.f32 %r1, %f1;", "cvt.rna.satfinite.tf32.f32 %r1, %f1;",
            "cvt.rn.satfinite.tf32.f32 %r1, %f1;", "cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2;",
            "cvt.rn.satfinite.relu.e5m2x2.f16x2 %h1, %r2;", "cvt.rn.f16x2.e4m3x2 %r1, %h2;",
            "cvt.rn.relu.f16x2.e5m2x2 %r1, %h2;", "cvt.rn.bf16.f16 %h1, %h2;",
            "cvt.f32.bf16 %f1, %h1;", "cvt.rn.f16.f64 %h1, %fd1;", "cvt.rzi.s32.f32 %r1, %f1;",
            "cvt.sat.f32.f32 %f1, %f2;", "cvt.ftz.rn.f32.f64 %f1, %fd1;", "cvt.rn.satfinite.e4m3x2.f16x2 %h1, %r2;"]
    return out


def cache():
    out = ["createpolicy.fractional.L2::evict_last.b64 %rd5, 0.5;",
           "createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %rd5, 1.0;",
           "createpolicy.fractional.L2::evict_first.b64 %rd5;",
           "createpolicy.range.global.L2::evict_last.L2::evict_first.b64 %rd5, [%rd20], %r5, %r6;",
           "createpolicy.cvt.L2.b64 %rd5, %rd6;",
           "applypriority.global.L2::evict_normal [%rd20], 128;",
           "discard.global.L2 [%rd20], 128;",
           "prefetch.global.L2::evict_last [%rd20];", "prefetch.L1 [%rd20];",
           "prefetch.local.L2 [%rd20];", "prefetch.tensormap [%rd20];",
           "prefetch.param.tensormap [%rd20];", "prefetchu.L1 [%rd20];",
           "ld.global.L1::evict_last.L2::cache_hint.b32 %r1, [%rd20], %rd5;",
           "ld.global.nc.L1::no_allocate.L2::256B.v2.b64 {%rd1, %rd2}, [%rd20];",
           "st.global.L1::no_allocate.L2::cache_hint.f32 [%rd20], %f1, %rd5;",
           "ld.relaxed.gpu.global.L2::64B.b32 %r1, [%rd20];",
           "cp.async.bulk.prefetch.L2.global.L2::cache_hint [%rd20], 256, %rd5;"]
    return out


def cluster():
    return ["barrier.cluster.arrive.release.aligned;", "barrier.cluster.wait.acquire.aligned;",
            "barrier.cluster.arrive.relaxed;", "barrier.cta.sync.aligned 0;",
            "barrier.cta.arrive.aligned 1, 64;", "barrier.sync.aligned 1, %r5;",
            "mapa.shared::cluster.u64 %rd1, %rd20, %r5;", "mapa.u32 %r1, %r20, 1;",
            "getctarank.shared::cluster.u32 %r1, %r20;", "getctarank.u64 %r1, %rd20;",
            "elect.sync %r1|%p1, -1;", "griddepcontrol.launch_dependents;",
            "griddepcontrol.wait;", "redux.sync.min.s32 %r1, %r2, -1;",
            "redux.sync.and.b32 %r1, %r2, %r5;",
            "fence.proxy.async.shared::cta;", "fence.mbarrier_init.release.cluster;",
            "fence.acq_rel.cluster;", "fence.proxy.alias;",
            "st.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 "
            "[%rd20], {%r5, %r6}, [%rd22];",
            "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32 "
            "[%rd20], %r5, [%rd22];",
            "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p1, [bar], %r5, 1000;",
            "mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [%r20], 16;"]


def unified():
    """The .unified suffix after an address operand (`ld ... [a].unified`): every instruction
    with an address, each address shape (register, register+offset, variable, immediate) and
    each state space, the suffix after the first or a later address."""
    out = []
    adrs = ["[%rd20]", "[%rd20+8]", "[smem]", "[gmap+4]", "[64]"]
    for sp in ("", ".global", ".shared", ".shared::cta", ".shared::cluster", ".local", ".const",
               ".param"):
        quals = ["", ".weak", ".volatile", ".relaxed.gpu", ".acquire.sys"] + [".nc"] * (sp == ".global")
        for q in quals:
            for a in adrs:
                out.append("ld%s%s.b32 %%r1, %s.unified;" % (q, sp, a))
        out.append("ld%s.v2.f32 {%%f1, %%f2}, [%%rd20].unified;" % sp)
        out.append("ld%s.L2::cache_hint.b64 %%rd1, [%%rd20].unified, %%rd5;" % sp)
        out.append("st%s.b32 [%%rd20].unified, %%r1;" % sp)
        out.append("ldu%s.b32 %%r1, [%%rd20].unified;" % sp)
        out.append("atom%s.add.u32 %%r1, [%%rd20].unified, 1;" % sp)
        out.append("atom%s.relaxed.gpu.cas.b64 %%rd1, [%%rd20+8].unified, %%rd2, %%rd3;" % sp)
        out.append("red%s.add.u32 [%%rd20].unified, 1;" % sp)
        out.append("prefetch%s.L2 [%%rd20].unified;" % sp)
        out.append("isspacep%s %%p1, %%rd20.unified;" % (sp or ".global"))
        out.append("mbarrier.arrive%s.b64 %%rd1, [%%rd20].unified;" % sp)
        out.append("mbarrier.init%s.b64 [%%rd20].unified, 1;" % sp)
        out.append("mbarrier.try_wait.parity%s.b64 %%p1, [%%rd20].unified, %%r5;" % sp)
    out += ["ld.mmio.relaxed.sys.global.b32 %r1, [%rd20].unified;",
            "ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%f1, %f2, %f3, %f4}, [%rd20].unified;",
            "ld.global.L1::evict_last.L2::64B.b16 %h1, [%rd20].unified;",
            "ld.global.b32 %r1, [%rd20].unified.unified;", "ld.global.b32 %r1, [%rd20] .unified;",
            "ld.global.unified.b32 %r1, [%rd20];", "ld.global.b32 %r1, [%rd20].global;",
            "atom.global.v2.f32.add {%f1, %f2}, [%rd20].unified, {%f1, %f2};",
            "atom.global.exch.b64 %rd1, [%rd20].unified, %rd2;",
            "atom.global.add.noftz.f16 %h1, [%rd20].unified, %h2;",
            "atom.global.L2::cache_hint.add.u32 %r1, [%rd20].unified, 1, %rd5;",
            "multimem.ld_reduce.relaxed.sys.global.add.u32 %r1, [%rd20].unified;",
            "multimem.ld_reduce.global.min.v2.f16x2 {%r1, %r2}, [%rd20].unified;",
            "multimem.st.global.u32 [%rd20].unified, %r1;",
            "multimem.red.global.add.u32 [%rd20].unified, %r1;",
            "cp.async.ca.shared.global [%rd21], [%rd20].unified, 4;",
            "cp.async.ca.shared.global [%rd21].unified, [%rd20], 4;",
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%rd21], [%rd20].unified, 16, [%rd22];",
            "cp.async.bulk.global.shared::cta.bulk_group [%rd20].unified, [%rd21], 16;",
            "cp.async.bulk.prefetch.L2.global [%rd20].unified, 256;",
            "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%rd20], [%rd1, {%r10, %r11}].unified, [%rd22];",
            "cp.async.bulk.prefetch.tensor.2d.L2.global [%rd1, {%r10, %r11}].unified;",
            "prefetchu.L1 [%rd20].unified;", "prefetch.tensormap [%rd20].unified;",
            "applypriority.global.L2::evict_normal [%rd20].unified, 128;",
            "discard.global.L2 [%rd20].unified, 128;",
            "createpolicy.range.global.L2::evict_last.b64 %rd5, [%rd20].unified, %r5, %r6;",
            "cvta.global.u64 %rd1, %rd20.unified;",
            "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r1}, [%rd20].unified;",
            "stmatrix.sync.aligned.m8n8.x1.shared.b16 [%rd20].unified, {%r1};",
            "tensormap.replace.tile.global_address.global.b1024.b64 [%rd20].unified, %rd5;",
            "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd20].unified, [%rd21], 128;",
            "fence.proxy.tensormap::generic.acquire.gpu [%rd20].unified, 128;",
            "mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [%rd20].unified, 16;",
            "mbarrier.complete_tx.b64 [%rd20].unified, 16;",
            "mbarrier.expect_tx.relaxed.cta.b64 [%rd20].unified, 16;",
            "mbarrier.arrive_drop.b64 %rd1, [%rd20].unified;",
            "mbarrier.inval.b64 [%rd20].unified;",
            "mbarrier.test_wait.b64 %p1, [%rd20].unified, %rd1;",
            "mbarrier.pending_count.b64 %r1, %rd1;",
            "cp.async.mbarrier.arrive.b64 [%rd20].unified;",
            "st.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.b32 [%rd20].unified, %r5, [%rd22];",
            "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32 [%rd20], %r5, [%rd22].unified;",
            "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, [%rd10].unified, %rd11, %p0, 1, -1, 0, 1;",
            "tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd20, {%r1}].unified;",
            "call.uni (%r1), [%rd20].unified;"]
    return out


def warp():
    """Warp-wide .sync instructions and CTA barriers: ptxas takes the .sync of vote, shfl and
    redux anywhere among the modifiers (CUB writes vote.ballot.sync.b32), barrier's after
    .aligned."""
    out = ["vote.sync.%s.pred %%p2, %s, %s;" % (m, a, mask)
           for m in ("any", "all", "uni") for a in ("%p1", "!%p1") for mask in ("-1", "%r5")]
    out += ["vote.sync.ballot.b32 %r1, %p1, -1;", "vote.sync.ballot.b32 %r1, !%p1, %r5;",
            "vote.ballot.sync.b32 %r1, %p1, -1;", "vote.any.sync.pred %p2, %p1, -1;"]
    out += ["shfl.sync.%s.b32 %s, %%r2, %s, %s, -1;" % (m, d, b, c)
            for m in ("up", "down", "bfly", "idx") for d in ("%r1", "%r1|%p1")
            for b, c in (("1", "31"), ("%r3", "0x1f"))]
    out += ["shfl.down.sync.b32 %r1, %r2, 1, 31, -1;", "shfl.idx.sync.b32 %r1|%p1, %r2, %r3, 31, %r5;"]
    out += ["redux.sync.%s.%s %%r1, %%r2, -1;" % (m, ty)
            for m, tys in (("add", ("u32", "s32")), ("min", ("u32", "s32")), ("max", ("u32", "s32")),
                           ("and", ("b32",)), ("or", ("b32",)), ("xor", ("b32",)))
            for ty in tys]
    out += ["redux.add.sync.u32 %r1, %r2, -1;", "redux.and.sync.b32 %r1, %r2, %r5;"]
    out += ["match.any.sync.b32 %r1, %r2, -1;", "match.all.sync.b64 %r1|%p1, %rd2, -1;",
            "match.any.sync.b64 %r1, %rd2, %r5;", "bar.warp.sync -1;", "bar.warp.sync %r5;",
            "activemask.b32 %r1;", "elect.sync %r1|%p1, %r5;"]
    out += ["barrier.sync.aligned 0;", "barrier.sync 1, 64;", "barrier.aligned.sync 0;",
            "barrier.cta.aligned.sync 2;", "barrier.arrive.aligned 1, 64;",
            "barrier.red.popc.aligned.u32 %r1, 0, %p1;", "barrier.red.and.pred %p2, 0, !%p1;",
            "bar.sync 0;", "bar.sync 1, 64;", "bar.arrive 1, 64;", "bar.red.or.pred %p2, 0, %p1;",
            "bar.red.popc.u32 %r1, 1, 64, %p1;"]
    return out


FAMILIES = [("wgmma", wgmma), ("mma/ldmatrix", mma), ("tensor", tensor),
            ("tensor-more", tensor_more),
            ("tensormap", tensormap), ("multimem", multimem), ("cvt", cvt),
            ("cache", cache), ("cluster", cluster), ("unified", unified),
            ("warp", warp)]


# ---- mutations ----------------------------------------------------------------------------

def split_insn(s):
    """'op.a.b {x}, y;' -> (['op', 'a', 'b'], operand text without ';')"""
    head, _, ops = s.partition(" ")
    # opcode words: split on '.', but keep '::' words whole
    return head.split("."), ops.rstrip(";")


def join(words, ops):
    return ".".join(words) + (" " + ops if ops else "") + ";"


def top_split(ops):
    """Split an operand list on top-level commas."""
    out, depth, cur = [], 0, ""
    for ch in ops:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def n_opcode_words(words):
    """How many leading words are the opcode (not modifiers)."""
    names = ["wgmma.mma_async", "wgmma", "setmaxnreg", "mma", "ldmatrix", "stmatrix", "movmatrix",
             "cp.reduce.async.bulk.tensor", "cp.async.bulk.prefetch.tensor", "cp.async.bulk.tensor",
             "cp.async.bulk.prefetch", "tensormap.replace", "tensormap.cp_fenceproxy", "bar.warp",
             "multimem.ld_reduce", "multimem.st", "multimem.red", "createpolicy", "barrier.cluster",
             "barrier.cta", "mbarrier"]
    joined = ".".join(words)
    for n in names:
        if joined.startswith(n + "."):
            k = n.count(".") + 1
            if n in ("wgmma", "createpolicy", "barrier.cluster", "barrier.cta", "mbarrier"):
                k += 1
            return k
    return 1


def mutate(insn, rng):
    words, ops = split_insn(insn)
    k = n_opcode_words(words)
    op, mods = words[:k], words[k:]
    out = []
    for _ in range(2):
        m = mods[:]
        rng.shuffle(m)
        out.append(join(op + m, ops))
    if mods:
        i = rng.randrange(len(mods))
        out.append(join(op + mods[:i] + mods[i + 1:], ops))
        i = rng.randrange(len(mods))
        out.append(join(op + mods[:i + 1] + mods[i:], ops))
        i = rng.randrange(len(mods))
        if mods[i] in KIND_OF:
            alt = rng.choice([w for w in KIND_OF[mods[i]] if w != mods[i]])
            out.append(join(op + mods[:i] + [alt] + mods[i + 1:], ops))
        j = rng.randrange(len(mods))
        if mods[j] in KIND_OF and j != i:
            alt = rng.choice([w for w in KIND_OF[mods[j]] if w != mods[j]])
            out.append(join(op + mods[:j] + [alt] + mods[j + 1:], ops))
    m = mods[:]
    m.insert(rng.randrange(len(m) + 1), rng.choice(FOREIGN))
    out.append(join(op + m, ops))
    ol = top_split(ops)
    if ol:
        out.append(join(words, ", ".join(ol[:-1])))
        out.append(join(words, ", ".join(ol + [rng.choice(["%r5", "%rd5", "0", "%p1", "1"])])))
        i = rng.randrange(len(ol))
        o = ol[i]
        if o.startswith("{"):
            elems = [e.strip() for e in o.strip("{}").split(",")]
            if len(elems) > 1:
                ol2 = ol[:i] + ["{" + ", ".join(elems[:-1]) + "}"] + ol[i + 1:]
                out.append(join(words, ", ".join(ol2)))
            ol2 = ol[:i] + ["{" + ", ".join(elems + ["%r7"]) + "}"] + ol[i + 1:]
            out.append(join(words, ", ".join(ol2)))
        else:
            alt = rng.choice(["%r5", "%rd5", "%f5", "%h5", "%p1", "7", "[%rd21]", "[smem]",
                              "{%r5}", "-1", "2"])
            out.append(join(words, ", ".join(ol[:i] + [alt] + ol[i + 1:])))
    return out


def forms():
    rng = random.Random(26)
    seen = set()
    for fam, fn in FAMILIES:
        for base in fn():
            cands = [(MAIN, base)] + [(rng.choice(OTHER), base)]
            cands += [(MAIN, m) for m in mutate(base, rng)]
            for (v, t), insn in cands:
                key = (v, t, insn)
                if key not in seen:
                    seen.add(key)
                    yield fam, v, t, insn


# ---- labelling ----------------------------------------------------------------------------

def assemble(job):
    """ptxas over one module of many instructions: {index: first message} of refused lines."""
    v, t, insns = job
    fd, path = tempfile.mkstemp(suffix=".ptx")
    with os.fdopen(fd, "w") as f:
        f.write(HEAD.format(v=v, t=t))
        for i in insns:
            f.write("  " + i + "\n")
        f.write(TAIL)
    try:
        p = subprocess.run([PTXAS, "-arch=" + t, path, "-o", os.devnull], capture_output=True,
                           text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:  # ptxas 13.0 runs away on some forms (%p1 as an address)
        return None
    finally:
        os.unlink(path)
    bad = {}
    for line in p.stderr.splitlines():
        m = re.search(r"line (\d+); (error|fatal)\s*:\s*(.*)", line)
        if m:
            bad.setdefault(int(m.group(1)) - FIRST_LINE, m.group(3).strip())
    if p.returncode and not bad:  # a refusal without a line, or ptxas died (a signal)
        said = (p.stderr.strip().splitlines() or ["ptxas exited %d" % p.returncode])[0]
        bad = {i: said for i in range(len(insns))}
    return bad


# A line ptxas always refuses, after the forms: a module with an error stops before code
# generation, which for a module of valid wgmma forms takes minutes and gigabytes.
SENTINEL = "mov.u32 %r1, sentinel_undeclared;"


def label_group(job):
    v, t, insns = job
    verdict = {}
    todo = list(range(len(insns)))
    while todo:
        bad = {}
        for s in range(0, len(todo), 100):
            chunk = todo[s:s + 100]
            named = assemble((v, t, [insns[j] for j in chunk] + [SENTINEL])) or {}
            for i, msg in named.items():
                if 0 <= i < len(chunk):
                    bad[chunk[i]] = msg
        verdict.update(bad)
        if not bad:
            break
        todo = [j for j in todo if j not in bad]
    # Some errors come from a later pass that a module with an error never reaches: each
    # form left is assembled alone.
    lost = set()
    for j in todo:
        named = assemble((v, t, [insns[j]]))
        if named is None:
            lost.add(j)
        elif named:
            verdict[j] = named.get(0) or next(iter(named.values()))
    return [(insns[j], verdict.get(j)) for j in range(len(insns)) if j not in lost]


def split_jobs(groups, size=300):
    """Jobs of at most `size` forms of one version and target, so the pool shares them."""
    for (v, t), g in sorted(groups.items()):
        for s in range(0, len(g), size):
            yield v, t, g[s:s + size]


def write_table(out, rows, script):
    """Write labelled rows (family, version, target, verdict, instruction, message) as a
    table of this folder, naming the script that made it."""
    with open(out, "w") as f:
        f.write("# family\tversion\ttarget\tverdict\tinstruction\tptxas (tests/ptxas_hopper/%s)\n"
                % script)
        for r in rows:
            f.write("\t".join(r) + "\n")
    print("%d forms, %d accepted" % (len(rows), sum(r[3] == "ok" for r in rows)))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "list":
        for fam, v, t, insn in forms():
            print("%s\t%s\t%s\t%s" % (fam, v, t, insn))
        return
    if len(sys.argv) < 2 or sys.argv[1] != "label":
        sys.exit(__doc__)
    out = sys.argv[sys.argv.index("-o") + 1] if "-o" in sys.argv else \
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "forms.tsv")
    only = sys.argv[sys.argv.index("--family") + 1].split(",") if "--family" in sys.argv else None
    groups = {}
    fam_of = {}
    for fam, v, t, insn in forms():
        if only and fam not in only:
            continue
        groups.setdefault((v, t), []).append(insn)
        fam_of[(v, t, insn)] = fam
    jobs = list(split_jobs(groups))
    with Pool(int(os.environ.get("JOBS", "2"))) as pool:
        results = pool.map(label_group, jobs)
    rows = []
    for (v, t, _), res in zip(jobs, results):
        for insn, msg in res:
            rows.append((fam_of[(v, t, insn)], v, t, "error" if msg else "ok", insn,
                         (msg or "").replace("\t", " ")))
    order = {name: i for i, (name, _) in enumerate(FAMILIES)}
    rows.sort(key=lambda r: order[r[0]])
    write_table(out, rows, "gen.py")


if __name__ == "__main__":
    main()
