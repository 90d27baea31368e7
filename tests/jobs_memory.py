#!/usr/bin/env python3
"""--jobs keeps each cluster's reports until the clusters before it are shown. A program
that breaks a rule in every lane, every time round a loop (--keep-going) must not make that
log grow without bound: a cluster whose earlier ones are all shown shows its reports as it
goes (jobs.c, log_poll). Checks that --jobs 2 shows exactly what --jobs 1 shows, and that
its peak memory stays near one thread's (it was 1.1 GB against 6 MB before).
usage: jobs_memory.py PTXI REGRESS_DIR"""
import os
import resource
import subprocess
import sys
import tempfile

ptxi, regress = os.path.abspath(sys.argv[1]), sys.argv[2]
ARGS = ["run", "mbarrier-recycle.ptx", "--grid", "4", "--block", "64", "--max-steps", "80000",
        "--keep-going", "--no-race"]


def run(jobs):
    """stdout, stderr (the --jobs note left out), status, and the peak resident KiB of
    the runs so far (the kernel keeps the children's maximum: run the thrifty one first)"""
    p = subprocess.run([ptxi] + ARGS + ["--jobs", str(jobs)], cwd=regress,
                       capture_output=True, text=True, check=False)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    err = [l for l in p.stderr.splitlines() if not l.startswith("ptxi: note: --jobs")]
    return p.stdout, err, p.returncode, peak


out1, err1, rc1, peak1 = run(1)
out2, err2, rc2, peak2 = run(2)
fail = []
if (out1, err1, rc1) != (out2, err2, rc2):
    fail.append("--jobs 2 shows something else than --jobs 1")
if rc1 != 3 or not err1 or "step-limit" not in err1[-1]:
    fail.append(f"expected the step limit (status 3), got {rc1}: {err1[-1:] }")
limit = 2 * peak1 + 64 * 1024
if peak2 > limit:
    fail.append(f"--jobs 2 peaked at {peak2} KiB, over {limit} KiB (2 x --jobs 1's + 64 MiB)")
print(f"jobs-memory: --jobs 1 {peak1} KiB, --jobs 2 {peak2} KiB, same output: "
      f"{(out1, err1, rc1) == (out2, err2, rc2)}")

# The data-race detector's log of a cluster's global accesses (race_global.c) stays bounded
# too: 256 threads a CTA, 4 CTAs, each thread 300 x a load and a store of its word (a
# cluster logs 153,600 accesses; at most 16,384 are kept before it shows them).
LOOP = """.version 8.0
.target sm_90
.address_size 64
.visible .entry loop(.param .u64 out)
{
.reg .b32 %r<8>;
.reg .b64 %rd<4>;
.reg .pred %p<2>;
ld.param.u64 %rd1, [out];
mov.u32 %r1, %ctaid.x;
mov.u32 %r2, %tid.x;
mad.lo.u32 %r3, %r1, 256, %r2;
mul.wide.u32 %rd2, %r3, 4;
add.u64 %rd3, %rd1, %rd2;
mov.u32 %r4, 0;
L:
ld.global.u32 %r5, [%rd3];
add.u32 %r5, %r5, 1;
st.global.u32 [%rd3], %r5;
add.u32 %r4, %r4, 1;
setp.lt.u32 %p1, %r4, 300;
@%p1 bra L;
ret;
}
"""
with tempfile.TemporaryDirectory() as d:
    with open(os.path.join(d, "loop.ptx"), "w", encoding="utf-8") as f:
        f.write(LOOP)
    ARGS = ["run", "loop.ptx", "--grid", "4", "--block", "256", "--arg", "buf:4096",
            "--dump", "0:u32:2"]
    regress = d
    base = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    out1, err1, rc1, peak1 = run(1)
    out2, err2, rc2, peak2 = run(2)
    if (out1, err1, rc1) != (out2, err2, rc2) or rc1 != 0 or out1 != "300\n300\n":
        fail.append(f"detector: --jobs 2 shows something else than --jobs 1, or not 300: "
                    f"{out1!r} {out2!r} {err2[:2]}")
    if peak2 > max(peak1, base) + 64 * 1024:
        fail.append(f"detector: --jobs 2 peaked at {peak2} KiB, over --jobs 1's + 64 MiB")
    print(f"jobs-memory (detector, global loop): --jobs 2 peak {peak2} KiB, same output: "
          f"{(out1, err1, rc1) == (out2, err2, rc2)}")
for f in fail:
    print("FAIL:", f)
sys.exit(1 if fail else 0)
