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
for f in fail:
    print("FAIL:", f)
sys.exit(1 if fail else 0)
