#!/usr/bin/env python3
"""Runs one tensor case (cases/NAME.json, the format of ../../../shared/conformance/tensor)
on a real GPU through the CUDA driver API (ctypes, libcuda.so.1): builds the buffers and the
tensor maps the case describes, launches its kernel, and writes each output buffer to
h100/NAME.argK.bin and the outcome (OK, ENCODE_ERROR: ..., KERNEL_ERROR ...) to
h100/NAME.result. One case a process, since a kernel fault leaves the context unusable.

usage: h100run.py CASE_DIR NAME
"""
import ctypes as C, json, os, sys, time

cu = C.CDLL("libcuda.so.1")
DT = {"UINT8": 0, "UINT16": 1, "UINT32": 2, "INT32": 3, "UINT64": 4, "INT64": 5, "FLOAT16": 6,
      "FLOAT32": 7, "FLOAT64": 8, "BFLOAT16": 9, "FLOAT32_FTZ": 10, "TFLOAT32": 11,
      "TFLOAT32_FTZ": 12}
IL = {"NONE": 0, "16B": 1, "32B": 2}
SW = {"NONE": 0, "32B": 1, "64B": 2, "128B": 3}
L2 = {"NONE": 0, "L2_64B": 1, "L2_128B": 2, "L2_256B": 3}
FILL = {"NONE": 0, "NAN_REQUEST_ZERO_FMA": 1}


def ck(r, what):
    if r != 0:
        s = C.c_char_p()
        cu.cuGetErrorString(r, C.byref(s))
        raise RuntimeError("%s: %s" % (what, s.value.decode() if s.value else r))


def main():
    root, name = sys.argv[1], sys.argv[2]
    case = json.load(open(os.path.join(root, "cases", name + ".json")))
    res = os.path.join(root, "h100", name + ".result")
    ck(cu.cuInit(0), "cuInit")
    dev, ctx, mod, fn = C.c_int(), C.c_void_p(), C.c_void_p(), C.c_void_p()
    ck(cu.cuDeviceGet(C.byref(dev), 0), "dev")
    ck(cu.cuDevicePrimaryCtxRetain(C.byref(ctx), dev), "ctx")
    ck(cu.cuCtxSetCurrent(ctx), "ctx current")
    src = open(os.path.join(root, case["ptx"]), "rb").read() + b"\0"
    ck(cu.cuModuleLoadData(C.byref(mod), src), "load")
    ck(cu.cuModuleGetFunction(C.byref(fn), mod, case["kernel"].encode()), "func")
    args = case["args"]
    dptr = {}
    for k, a in enumerate(args):
        if a["kind"] != "buffer":
            continue
        p = C.c_uint64()
        ck(cu.cuMemAlloc_v2(C.byref(p), a["bytes"] + 256), "alloc")
        ck(cu.cuMemsetD8_v2(p, 0, a["bytes"] + 256), "memset")
        if a.get("init"):
            data = open(os.path.join(root, a["init"]), "rb").read()
            ck(cu.cuMemcpyHtoD_v2(p, data, len(data)), "h2d")
        dptr[k] = p
    keep, params = [], []
    for k, a in enumerate(args):
        if a["kind"] == "buffer":
            v = C.c_uint64(dptr[k].value)
        elif a["kind"] == "scalar":
            v = {"u32": C.c_uint32, "s32": C.c_int32, "u64": C.c_uint64}[a["type"]](a["value"])
        else:
            v = (C.c_uint64 * 16)()
            g = a["global_address"]
            addr = C.c_void_p(dptr[g["arg"]].value + g.get("byte_offset", 0))
            r = a["rank"]
            dims = (C.c_uint64 * r)(*a["globalDim"])
            strides = (C.c_uint64 * max(r - 1, 1))(*(a["globalStrides"] or [0]))
            es = (C.c_uint32 * r)(*a["elementStrides"])
            tail = (IL[a["interleave"]], SW[a["swizzle"]], L2[a["l2Promotion"]], FILL[a["oobFill"]])
            if a.get("encode") == "cuTensorMapEncodeIm2col":
                lo = (C.c_int * 3)(*a["pixelBoxLowerCorner"])
                up = (C.c_int * 3)(*a["pixelBoxUpperCorner"])
                e = cu.cuTensorMapEncodeIm2col(v, DT[a["dtype"]], r, addr, dims, strides, lo, up,
                                               a["channelsPerPixel"], a["pixelsPerColumn"], es, *tail)
                what = "cuTensorMapEncodeIm2col"
            else:
                box = (C.c_uint32 * r)(*a["boxDim"])
                e = cu.cuTensorMapEncodeTiled(v, DT[a["dtype"]], r, addr, dims, strides, box, es, *tail)
                what = "cuTensorMapEncodeTiled"
            if e != 0:
                open(res, "w").write("ENCODE_ERROR: %s returned %d\n" % (what, e))
                return
        keep.append(v)
        params.append(C.cast(C.pointer(v), C.c_void_p))
    pa = (C.c_void_p * len(params))(*params)
    shm = case.get("dynamic_shared_bytes", 0)
    if shm > 48 * 1024:
        ck(cu.cuFuncSetAttribute(fn, 8, shm), "attr")
    g, b = case["grid"], case["block"]
    r = cu.cuLaunchKernel(fn, g[0], g[1], g[2], b[0], b[1], b[2], shm, None, pa, None)
    if r == 0:
        r = cu.cuCtxSynchronize()
    if r != 0:
        s = C.c_char_p()
        cu.cuGetErrorString(r, C.byref(s))
        open(res, "w").write("KERNEL_ERROR %s\n" % (s.value.decode() if s.value else r))
        return
    for o in case["outputs"]:
        a = args[o["arg"]]
        buf = C.create_string_buffer(a["bytes"])
        ck(cu.cuMemcpyDtoH_v2(buf, dptr[o["arg"]], a["bytes"]), "d2h")
        open(os.path.join(root, o["file"]), "wb").write(buf.raw)
    open(res, "w").write("OK\n")


if __name__ == "__main__":
    try:
        main()
    except RuntimeError as e:
        print("%s: %s" % (sys.argv[2], e))
        sys.exit(3)
