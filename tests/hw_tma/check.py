#!/usr/bin/env python3
"""check.py - runs the TMA cases of tests/hw_tma (gen.py) through ptxi and compares every output
buffer with the GPU's bytes (h100/), as ../shared/conformance/tensor/run.py does for the
conformance cases (the same case format), so that this test stands alone.

usage: check.py PTXI [NAME...]   prints one FAIL line per case that differs, then
                                 "hw-tma: N passed, M failed"; fails if any failed.
Expected: result OK: exit 0 and the GPU's bytes; KERNEL_ERROR: exit 1 (the GPU faulted).
"""
import json, os, subprocess, sys

TYPES = {"UINT8": "u8", "UINT16": "u16", "UINT32": "u32", "FLOAT16": "f16", "FLOAT32": "f32",
         "FLOAT64": "f64"}
HERE = os.path.dirname(os.path.abspath(__file__))


def x(v):
    return "x".join(str(i) for i in v)


def tmap(a):
    g = a["global_address"]
    p = ["buf=%d" % g["arg"], "type=" + TYPES[a["dtype"]], "dims=" + x(a["globalDim"])]
    if a["rank"] > 1:
        p.append("strides=" + x(a["globalStrides"]))
    if a["encode"] == "cuTensorMapEncodeIm2col":
        p += ["mode=im2col", "lower=" + x(a["pixelBoxLowerCorner"]),
              "upper=" + x(a["pixelBoxUpperCorner"]), "channels=%d" % a["channelsPerPixel"],
              "pixels=%d" % a["pixelsPerColumn"]]
    else:
        p.append("box=" + x(a["boxDim"]))
    low = {"NONE": "none"}
    p += ["estrides=" + x(a["elementStrides"]),
          "interleave=" + low.get(a["interleave"], a["interleave"]),
          "swizzle=" + low.get(a["swizzle"], a["swizzle"]), "l2=none", "fill=zero"]
    return "tmap:" + ",".join(p)


def check(ptxi, case):
    cmd = [ptxi, "run", os.path.join(HERE, case["ptx"]), "--kernel", case["kernel"],
           "--grid", "1", "--block", str(case["block"][0]),
           "--shared", str(case["dynamic_shared_bytes"])]
    for a in case["args"]:
        if a["kind"] == "buffer":
            spec = ("file:" + os.path.join(HERE, a["init"])) if a.get("init") else "buf:%d" % a["bytes"]
        elif a["kind"] == "scalar":
            spec = "%s:%d" % (a["type"], a["value"])
        else:
            spec = tmap(a)
        cmd += ["--arg", spec]
    for o in case["outputs"]:
        cmd += ["--dump", str(o["arg"])]
    p = subprocess.run(cmd, capture_output=True, timeout=120)
    err = (p.stderr.decode(errors="replace").strip().splitlines() or [""])[0][:160]
    result = case["h100"]["result"]
    if result.startswith("KERNEL_ERROR"):
        return None if p.returncode == 1 else "exit %d, expected 1 (the GPU faulted: %s)" % (p.returncode, result)
    if p.returncode:
        return "exit %d: %s" % (p.returncode, err)
    want = []
    for o in case["outputs"]:
        data = open(os.path.join(HERE, o["file"]), "rb").read()
        want += ["%08x" % int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]
    got = [w.lower() for w in p.stdout.decode().split()]
    if got != want:
        bad = [i for i, (a, b) in enumerate(zip(want, got)) if a != b]
        return "%d words differ (of %d/%d); first at %s" % (len(bad), len(got), len(want), bad[:1])
    return None


def main():
    ptxi = os.path.abspath(sys.argv[1])
    names = sys.argv[2:] or sorted(n[:-5] for n in os.listdir(os.path.join(HERE, "cases")))
    npass = nfail = 0
    for n in names:
        why = check(ptxi, json.load(open(os.path.join(HERE, "cases", n + ".json"))))
        if why:
            nfail += 1
            print("FAIL %s: %s" % (n, why))
        else:
            npass += 1
    print("hw-tma: %d passed, %d failed" % (npass, nfail))
    sys.exit(1 if nfail else 0)


if __name__ == "__main__":
    main()
