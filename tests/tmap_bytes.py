#!/usr/bin/env python3
"""The two H100 tensor cases that dump a tensor map built or edited on the device
(tmap_build_f16_sw128, tmap_global_edit_f32), compared with the H100's bytes word for word
except the map's global address (its first two words): the address is where the device
buffer lies, which CUDA's allocator chooses per process (0x7fb2efe00200 on the H100) and
ptxi chooses its own way, so tensor/run.py, which compares every word, cannot pass them.
Every other byte of the map (NVIDIA's layout, written by tensormap.replace) and of the
loaded box must be the H100's. Also checks that tests/tmap_vectors.h (the driver's maps that
test_tmap encodes) is what tests/tmap_vectors.py makes from the cases.

usage: tmap_bytes.py PATH/TO/ptxi        (exit 77 when ../shared/conformance is absent)
"""
import json, os, subprocess, sys

CASES = ["tmap_build_f16_sw128", "tmap_global_edit_f32"]


def main():
    ptxi = os.path.abspath(sys.argv[1])
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.environ.get("PTXI_CONFORMANCE", os.path.join(here, "..", "..", "shared",
                                                           "conformance"))
    root = os.path.join(root, "tensor")
    if not os.path.exists(os.path.join(root, "run.py")):
        print("tmap_bytes: %s not found; skipped" % root)
        sys.exit(77)
    sys.path.insert(0, root)
    import run as runner
    bad = 0
    for name in CASES:
        with open(os.path.join(root, "cases", name + ".json")) as f:
            case = json.load(f)
        p = subprocess.run(runner.command(ptxi, root, case), capture_output=True, timeout=120)
        got = p.stdout.decode().split()
        want, skip = [], set()
        for o in case["outputs"]:
            with open(os.path.join(root, o["file"]), "rb") as f:
                data = f.read()
            if "map" in case["args"][o["arg"]]["what"]:
                skip |= {len(want), len(want) + 1}  # the map's global address
            want += runner.words(data)
        diff = [i for i, (w, g) in enumerate(zip(want, got)) if w != g.lower() and i not in skip]
        if p.returncode or len(got) != len(want) or diff:
            bad += 1
            print("FAIL %s: exit %d, %d of %d words, differing words %s" %
                  (name, p.returncode, len(got), len(want), diff[:8]))
        else:
            print("PASS %s (all %d words but the map's address)" % (name, len(want) - 2))
    made = subprocess.run([sys.executable, os.path.join(here, "tmap_vectors.py"),
                           os.path.join(root, "cases")], capture_output=True, text=True).stdout
    with open(os.path.join(here, "tmap_vectors.h")) as f:
        if f.read() != made:
            bad += 1
            print("FAIL tests/tmap_vectors.h is stale: "
                  "run tests/tmap_vectors.py > tests/tmap_vectors.h")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
