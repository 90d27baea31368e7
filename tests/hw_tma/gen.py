#!/usr/bin/env python3
"""gen.py - TMA corners asked of an H100 (issue #26): 16-byte-interleaved tensor maps over many
boxes, im2col maps with element strides > 1, and tensor prefetches whose box start breaks the
16-byte rule (2d/3d tile maps; then 1d, 5d, f64, swizzled, strided, 32-byte interleaved, im2col
and cache-hint forms, and maps of the wrong rank or mode: prefetch_more). Writes cases/NAME.json and data/NAME.arg1.bin in the format of
../../../shared/conformance/tensor (README there); h100run.py ran each on the GPU and left
h100/NAME.argK.bin and the outcome, merged into the case as h100.result.

Every global tensor holds u16 k at byte 2k (its own half-word index), so a dumped 16-byte
chunk names the bytes it came from. The load kernels (ptx/probes.ptx, from
conformance/tensor/ptx/tma.ptx) fill 8192 bytes of shared memory with 0xEE, expect 12288 + 0
transaction bytes so that info[0] = 12288 - the bytes the copy credited, and dump it all.
"""
import json, os

EXPECT = 12288
DT = {"UINT8": (0, 1), "UINT16": (1, 2), "UINT32": (2, 4), "FLOAT16": (6, 2), "FLOAT32": (7, 4),
      "FLOAT64": (8, 8)}


def tensor(nbytes):
    return b"".join((i & 0xffff).to_bytes(2, "little") for i in range(nbytes // 2))


def tmap(dtype, dims, strides, estrides, interleave="NONE", swizzle="NONE", box=None,
         im2col=None):
    m = {"kind": "tensormap", "dtype": dtype, "dtype_enum": DT[dtype][0], "rank": len(dims),
         "global_address": {"arg": 1, "byte_offset": 0}, "globalDim": dims,
         "globalStrides": strides, "elementStrides": estrides, "interleave": interleave,
         "swizzle": swizzle, "l2Promotion": "NONE", "oobFill": "NONE"}
    if im2col:
        lower, upper, channels, pixels = im2col
        m.update(encode="cuTensorMapEncodeIm2col", pixelBoxLowerCorner=lower,
                 pixelBoxUpperCorner=upper, channelsPerPixel=channels, pixelsPerColumn=pixels)
    else:
        m.update(encode="cuTensorMapEncodeTiled", boxDim=box)
    return m


def scal(t, v, what):
    return {"kind": "scalar", "type": t, "value": v, "what": what}


def load_case(name, what, kernel, m, nbytes, coords, extra=0):
    nbytes = 4096  # room past the tensor's end: interleaved planes run on through memory
    c = (coords + [0] * 5)[:5]
    if extra:
        c[3 if kernel.endswith("3d") else 4] = extra
    args = [m, {"kind": "buffer", "bytes": nbytes, "init": "data/%s.arg1.bin" % name,
                "what": "global tensor"},
            {"kind": "buffer", "bytes": 8192, "init": None, "what": "shared memory dump"},
            {"kind": "buffer", "bytes": 8, "init": None, "what": "info: [0] 12288 - credited tx bytes, [1] 0x600D"}]
    args += [scal("s32", v, "c%d" % i) for i, v in enumerate(c)]
    args += [scal("u32", EXPECT, "expect_tx bytes"), scal("u32", 8192, "bytes dumped"),
             scal("u32", 0, "shared offset")]
    return {"name": name, "group": "hw_tma", "what": what, "ptx": "ptx/probes.ptx",
            "kernel": kernel, "grid": [1, 1, 1], "block": [128, 1, 1], "cluster": [1, 1, 1],
            "dynamic_shared_bytes": 9216, "args": args,
            "outputs": [{"arg": 2, "file": "h100/%s.arg2.bin" % name, "bytes": 8192},
                        {"arg": 3, "file": "h100/%s.arg3.bin" % name, "bytes": 8}]}


def prefetch_case(name, what, m, nbytes, coords):
    rank = m["rank"]
    c = (coords + [0] * 3)[:3]
    args = [m, {"kind": "buffer", "bytes": nbytes, "init": "data/%s.arg1.bin" % name,
                "what": "global tensor"},
            {"kind": "buffer", "bytes": 4, "init": None, "what": "0x600D once the prefetch passed"}]
    args += [scal("s32", v, "c%d" % i) for i, v in enumerate(c)]
    args[1], args[2] = args[2], args[1]  # kernel order: map, out, coords; the tensor last
    args[0]["global_address"]["arg"] = 5
    args.append(args.pop(2))
    return {"name": name, "group": "hw_tma", "what": what, "ptx": "ptx/probes.ptx",
            "kernel": "tma_prefetch_%dd" % rank, "grid": [1, 1, 1], "block": [32, 1, 1],
            "cluster": [1, 1, 1], "dynamic_shared_bytes": 0, "args": args,
            "outputs": [{"arg": 1, "file": "h100/%s.arg1.bin" % name, "bytes": 4}]}


def prefetch5_case(name, what, kernel, m, nbytes, coords):
    """A tensor prefetch through a kernel of five coordinates (ptx/mkptx.py's pf5): map, out,
    c0..c4, the tensor."""
    m["global_address"]["arg"] = 7
    c = (coords + [0] * 5)[:5]
    args = [m, {"kind": "buffer", "bytes": 4, "init": None, "what": "0x600D once the prefetch passed"}]
    args += [scal("s32", v, "c%d" % i) for i, v in enumerate(c)]
    args.append({"kind": "buffer", "bytes": nbytes, "init": "data/%s.arg7.bin" % name,
                 "what": "global tensor"})
    return {"name": name, "group": "hw_tma", "what": what, "ptx": "ptx/probes.ptx",
            "kernel": kernel, "grid": [1, 1, 1], "block": [32, 1, 1], "cluster": [1, 1, 1],
            "dynamic_shared_bytes": 0, "args": args,
            "outputs": [{"arg": 1, "file": "h100/%s.arg1.bin" % name, "bytes": 4}]}


def prefetch_more():
    """Tensor prefetches beyond 2d/3d tile maps: 1d and 5d, f64, a 128-byte swizzle, an element
    stride of 2, 32-byte interleave, im2col, the cache-hint form, and maps of another rank or
    mode than the instruction's."""
    C = []
    def pf(name, what, kernel, m, nbytes, coords):
        C.append((prefetch5_case(name, what, kernel, m, nbytes, coords), nbytes))
    for c0 in (1, 4):
        pf("pq1_f32_c%d" % c0, "prefetch.tensor 1d FLOAT32 {64} box [8] at (%d)" % c0,
           "tma_prefetch_1d5", tmap("FLOAT32", [64], [], [1], box=[8]), 256, [c0])
        pf("pq5_f32_c%d" % c0, "prefetch.tensor 5d FLOAT32 {16,2,2,2,2} box [8,1,1,1,1] at (%d, 1, 1, 1, 1)" % c0,
           "tma_prefetch_5d5", tmap("FLOAT32", [16, 2, 2, 2, 2], [64, 128, 256, 512], [1] * 5,
                                    box=[8, 1, 1, 1, 1]), 1024, [c0, 1, 1, 1, 1])
        pf("pq2_hint_f32_c%d" % c0, "prefetch.tensor 2d .L2::cache_hint FLOAT32 {16,8} box [8,4] at (%d, 0)" % c0,
           "tma_prefetch_2d_hint5", tmap("FLOAT32", [16, 8], [64], [1, 1], box=[8, 4]), 512, [c0, 0])
        pf("pq2_sw128_f32_c%d" % c0, "prefetch.tensor 2d FLOAT32 {32,8} swizzle 128B box [32,4] at (%d, 0)" % c0,
           "tma_prefetch_2d5", tmap("FLOAT32", [32, 8], [128], [1, 1], swizzle="128B", box=[32, 4]),
           1024, [c0, 0])
        pf("pq3_i2c_f32_c%d" % c0, "prefetch.tensor 3d im2col FLOAT32 {16,8,2}, 8 channels, 4 pixels at (%d, 0, 0)" % c0,
           "tma_prefetch_3d_im2col5", tmap("FLOAT32", [16, 8, 2], [64, 512], [1, 1, 1],
                                           im2col=([0], [0], 8, 4)), 1024, [c0, 0, 0])
    for c0 in (1, 2):
        pf("pq2_f64_c%d" % c0, "prefetch.tensor 2d FLOAT64 {16,8} box [4,4] at (%d, 0)" % c0,
           "tma_prefetch_2d5", tmap("FLOAT64", [16, 8], [128], [1, 1], box=[4, 4]), 1024, [c0, 0])
    for c0 in (2, 4):
        pf("pq2_es2_f32_c%d" % c0, "prefetch.tensor 2d FLOAT32 {16,8} element strides [2,1] box [8,4] at (%d, 0)" % c0,
           "tma_prefetch_2d5", tmap("FLOAT32", [16, 8], [64], [2, 1], box=[8, 4]), 512, [c0, 0])
    for c0 in (1, 2, 3):
        pf("pq3_il32_c%d" % c0, "prefetch.tensor 3d, interleave 32B (swizzle 32B) f16 {16,10,6}, box [16,4,2] at (%d, 0, 0)" % c0,
           "tma_prefetch_3d5", tmap("FLOAT16", [16, 10, 6], [32, 320], [1, 1, 1], "32B",
                                    swizzle="32B", box=[16, 4, 2]), 2048, [c0, 0, 0])
    pf("pq2_rank3", "prefetch.tensor 2d with a rank-3 FLOAT32 map {16,8,2} box [8,4,1] at (0, 0)",
       "tma_prefetch_2d5", tmap("FLOAT32", [16, 8, 2], [64, 512], [1, 1, 1], box=[8, 4, 1]),
       1024, [0, 0])
    pf("pq3_tile_on_i2c", "prefetch.tensor 3d .tile with an im2col FLOAT32 map {16,8,2} at (0, 0, 0)",
       "tma_prefetch_3d5", tmap("FLOAT32", [16, 8, 2], [64, 512], [1, 1, 1],
                                im2col=([0], [0], 8, 4)), 1024, [0, 0, 0])
    pf("pq3_i2c_on_tile", "prefetch.tensor 3d .im2col with a tile FLOAT32 map {16,8,2} box [8,4,1] at (0, 0, 0)",
       "tma_prefetch_3d_im2col5", tmap("FLOAT32", [16, 8, 2], [64, 512], [1, 1, 1],
                                       box=[8, 4, 1]), 1024, [0, 0, 0])
    return C


def cases():
    C = []
    # ---- 16-byte interleave: f16 {8, 10, 6} (one chunk a row), planes of 192 bytes ------
    for box, es, co in [([8, 4, 3], [1, 1, 1], [0, 0, 0]), ([8, 1, 2], [1, 1, 1], [0, 3, 1]),
                        ([8, 2, 2], [1, 1, 1], [0, 5, 2]), ([8, 8, 2], [1, 1, 1], [0, 4, 0]),
                        ([8, 10, 2], [1, 1, 1], [0, 0, 0]), ([8, 16, 2], [1, 1, 1], [0, 0, 1]),
                        ([8, 4, 2], [1, 1, 1], [0, -1, 0]), ([8, 4, 2], [1, 1, 1], [0, -3, 1]),
                        ([8, 4, 2], [1, 1, 1], [0, -4, 0]), ([8, 4, 2], [1, 1, 1], [0, 7, 0]),
                        ([8, 4, 2], [1, 1, 1], [0, 8, 3]), ([8, 4, 2], [1, 1, 1], [0, 0, -1]),
                        ([8, 4, 2], [1, 1, 1], [0, 0, 5]), ([8, 4, 2], [1, 1, 1], [0, 2, 6]),
                        ([8, 4, 2], [1, 1, 1], [8, 0, 0]), ([8, 4, 2], [1, 1, 1], [1, 0, 0]),
                        ([8, 4, 2], [1, 1, 1], [-8, 0, 0]), ([16, 4, 2], [1, 1, 1], [0, 0, 0]),
                        ([16, 2, 2], [1, 1, 1], [0, 3, 1]), ([24, 4, 1], [1, 1, 1], [0, 1, 0]),
                        ([8, 4, 4], [1, 2, 1], [0, 0, 0]), ([8, 4, 4], [1, 1, 2], [0, 1, 0]),
                        ([8, 8, 2], [1, 3, 1], [0, 1, 1]), ([8, 4, 2], [2, 1, 1], [0, 0, 0]),
                        ([8, 3, 3], [1, 1, 1], [0, 9, 0]), ([8, 6, 1], [1, 1, 1], [0, 6, 5])]:
        name = "il16_b%s_e%s_c%s" % ("x".join(map(str, box)), "x".join(map(str, es)),
                                     "_".join(str(v).replace("-", "m") for v in co))
        m = tmap("FLOAT16", [8, 10, 6], [16, 192], es, "16B", box=box)
        C.append((load_case(name, "interleave 16B f16 {8,10,6} strides {16,192}, box %s "
                            "element strides %s at %s" % (box, es, co), "tma_load_3d", m,
                            1280, co), 1280))
    # wider rows: f16 {16, 6, 4} (two chunks a row), rows of 32 bytes, planes of 224
    for box, co in [([16, 4, 2], [0, 0, 0]), ([8, 4, 2], [8, 1, 1]), ([16, 3, 2], [0, 4, 2]),
                    ([8, 2, 2], [0, 5, 0]), ([16, 4, 1], [8, 2, 3])]:
        name = "il16w_b%s_c%s" % ("x".join(map(str, box)), "_".join(map(str, co)))
        m = tmap("FLOAT16", [16, 6, 4], [32, 224], [1, 1, 1], "16B", box=box)
        C.append((load_case(name, "interleave 16B f16 {16,6,4} strides {32,224}, box %s at %s"
                            % (box, co), "tma_load_3d", m, 1024, co), 1024))
    # u8 and f32 interleaved: {16, 8, 3} u8 and {4, 8, 3} f32, rows of 16 bytes, planes of 160
    for dt, d0, box, co in [("UINT8", 16, [16, 4, 2], [0, 1, 1]), ("FLOAT32", 4, [4, 4, 2], [0, 2, 0]),
                            ("FLOAT32", 4, [8, 2, 2], [0, 3, 1]), ("UINT8", 16, [32, 2, 2], [0, 0, 0])]:
        name = "il16_%s_b%s_c%s" % (dt.lower(), "x".join(map(str, box)), "_".join(map(str, co)))
        m = tmap(dt, [d0, 8, 3], [16, 160], [1, 1, 1], "16B", box=box)
        C.append((load_case(name, "interleave 16B %s {%d,8,3} strides {16,160}, box %s at %s"
                            % (dt, d0, box, co), "tma_load_3d", m, 640, co), 640))
    # ---- im2col with element (traversal) strides ------------------------------------------
    # 3d NWC: f16 C=8, W=12, N=2 (rows of 16 bytes); the W offset in c3's slot
    for es, lo, up, px, co, off in [([1, 2, 1], [0], [0], 8, [0, 0, 0], 0),
                                    ([1, 2, 1], [0], [0], 12, [0, 1, 0], 0),
                                    ([1, 3, 1], [-1], [-1], 10, [0, -1, 0], 1),
                                    ([1, 2, 1], [-2], [2], 12, [0, -2, 1], 0),
                                    ([1, 4, 1], [0], [-4], 6, [0, 0, 0], 2),
                                    ([2, 2, 1], [0], [0], 8, [0, 0, 0], 0),
                                    ([1, 1, 2], [0], [0], 16, [0, 0, 0], 0),
                                    ([1, 2, 2], [0], [-2], 12, [0, 3, 0], 1)]:
        name = "i2c3_e%s_l%d_u%d_p%d_c%s_o%d" % ("x".join(map(str, es)), lo[0], up[0], px,
                                                 "_".join(map(str, co)), off)
        name = name.replace("-", "m")
        m = tmap("FLOAT16", [8, 12, 2], [16, 192], es, im2col=(lo, up, 8, px))
        C.append((load_case(name, "im2col 3d f16 {8,12,2}, element strides %s, pixel box "
                            "[%d, 12%+d), %d pixels of 8 channels from %s, W offset %d" %
                            (es, lo[0], up[0], px, co, off), "tma_im2col_3d", m, 384, co,
                            off & 0xffff), 384))
    # 4d NHWC: f16 C=8, W=6, H=5, N=2; offsets W | H << 16 in c4's slot
    for es, lo, up, px, co, off in [([1, 2, 2, 1], [0, 0], [0, 0], 12, [0, 0, 0, 0], (0, 0)),
                                    ([1, 2, 1, 1], [0, 0], [0, 0], 12, [0, 1, 0, 0], (0, 0)),
                                    ([1, 1, 2, 1], [-1, -1], [1, 0], 16, [0, -1, -1, 0], (1, 0)),
                                    ([1, 3, 2, 1], [0, 0], [-1, -1], 10, [0, 0, 1, 0], (0, 1)),
                                    ([1, 2, 2, 2], [0, 0], [0, 0], 16, [0, 2, 2, 0], (0, 0))]:
        name = "i2c4_e%s_l%s_u%s_p%d_c%s_o%s" % ("x".join(map(str, es)), "x".join(map(str, lo)),
                                                 "x".join(map(str, up)), px, "_".join(map(str, co)),
                                                 "x".join(map(str, off)))
        name = name.replace("-", "m")
        m = tmap("FLOAT16", [8, 6, 5, 2], [16, 96, 480], es, im2col=(lo, up, 8, px))
        C.append((load_case(name, "im2col 4d f16 {8,6,5,2}, element strides %s, pixel box "
                            "lower %s upper %s, %d pixels of 8 channels from %s, offsets %s" %
                            (es, lo, up, px, co, off), "tma_im2col_4d", m, 960, co,
                            (off[0] & 0xffff) | (off[1] & 0xffff) << 16), 960))
    # ---- tensor prefetch: box starts in dimension 0 ----------------------------------------
    for dt, c0, c1 in [("FLOAT32", 0, 0), ("FLOAT32", 4, 1), ("FLOAT32", 1, 0), ("FLOAT32", 2, 0),
                       ("FLOAT32", 3, 2), ("FLOAT32", -4, 0), ("FLOAT32", -1, 0),
                       ("FLOAT32", 64, 0), ("FLOAT32", 65, 0), ("FLOAT32", 1, -1),
                       ("FLOAT32", 1, 100), ("FLOAT32", 0, -5), ("FLOAT16", 4, 0),
                       ("FLOAT16", 8, 0), ("UINT8", 8, 0), ("UINT8", 16, 0)]:
        es = DT[dt][1]
        d0 = 256 // es
        name = "pf2_%s_c%s_%s" % (dt.lower(), str(c0).replace("-", "m"), str(c1).replace("-", "m"))
        m = tmap(dt, [d0 // 4, 8], [256], [1, 1], box=[16 // es * 2, 4])
        C.append((prefetch_case(name, "prefetch.tensor 2d %s {%d,8} box %s at (%d, %d)" %
                                (dt, d0 // 4, m["boxDim"], c0, c1), m, 2048, [c0, c1]), 2048))
    for c0 in (0, 1, 3, 8):
        name = "pf3_il16_c%d" % c0
        m = tmap("FLOAT16", [8, 10, 6], [16, 192], [1, 1, 1], "16B", box=[8, 4, 2])
        C.append((prefetch_case(name, "prefetch.tensor 3d, interleave 16B f16 {8,10,6}, box "
                                "[8,4,2] at (%d, 0, 0)" % c0, m, 1280, [c0, 0, 0]), 1280))
    return C + prefetch_more()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    for case, nbytes in cases():
        for a in case["args"]:
            if a["kind"] == "buffer" and a.get("init"):
                with open(os.path.join(here, a["init"]), "wb") as f:
                    f.write(tensor(a["bytes"]))
        p = os.path.join(here, "cases", case["name"] + ".json")
        old = json.load(open(p)) if os.path.exists(p) else {}
        if "h100" in old:
            case["h100"] = old["h100"]
        with open(p, "w") as f:
            json.dump(case, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
