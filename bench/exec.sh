#!/usr/bin/env bash
# bench/exec.sh - what `ptxi exec` costs a CUDA program (issue #24's targets: at most 50 ms
# of start-up added, at least 5,000 launches a second of a small kernel).
#   start-up:  `ptxi exec ./launches 0` (no launch: runtime loaded, device made, the program
#              ends) against the program run on CUDA's own libcudart (no GPU needed: it
#              fails its first call and ends), medians of ROUNDS runs' CPU time
#   launches:  `ptxi exec ./launches 1000` less the start-up run: 1,000 launches of one warp
#              adding one to 32 ints, then one synchronisation
#   usage: bench/exec.sh [path/to/ptxi] [ROUNDS]     (needs nvcc to build launches.cu)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ptxi=$(realpath "${1:-build/ptxi}")
rounds=${2:-11}
command -v nvcc >/dev/null || { echo "exec.sh: needs nvcc to build bench/exec/launches.cu" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
nvcc -cudart shared -arch=sm_90a -o "$tmp/launches" "$here/exec/launches.cu"
cudart=$(dirname "$(realpath "$(command -v nvcc)")")/../lib64
median() { # COMMAND... : the median CPU time (user + system, the process and its
	   # children) of ROUNDS runs, in ms: wall time on a shared machine says more about
	   # the other processes than about this one
	python3 - "$rounds" "$@" <<'P'
import resource, subprocess, sys, time
n, cmd = int(sys.argv[1]), sys.argv[2:]
t, w = [], []
for _ in range(n):
    a = resource.getrusage(resource.RUSAGE_CHILDREN)
    s = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    w.append((time.perf_counter() - s) * 1e3)
    b = resource.getrusage(resource.RUSAGE_CHILDREN)
    t.append((b.ru_utime + b.ru_stime - a.ru_utime - a.ru_stime) * 1e3)
t.sort()
w.sort()
print("%.1f,%.1f" % (t[len(t) // 2], w[len(w) // 2]))
P
}
native=$(LD_LIBRARY_PATH=$cudart median "$tmp/launches" 0)
start=$(median "$ptxi" exec "$tmp/launches" 0)
many=$(median "$ptxi" exec "$tmp/launches" 1000)
"$ptxi" exec "$tmp/launches" 1000 2>&1 | grep -q "1000 launches: v\[31\] = 1000" ||
	{ echo "exec.sh: the 1,000 launches gave a wrong answer" >&2; exit 1; }
python3 - "$native" "$start" "$many" <<'P'
import sys
(native, native_w), (start, start_w), (many, many_w) = (map(float, a.split(",")) for a in sys.argv[1:])
print("CPU time, program on CUDA's libcudart (no GPU): %7.1f ms" % native)
print("CPU time, ptxi exec, no launch:                 %7.1f ms  (start-up added: %.1f ms; "
      "target <= 50)" % (start, start - native))
print("CPU time, ptxi exec, 1,000 launches:            %7.1f ms  (%.0f launches/s; "
      "target >= 5,000)" % (many, 1000 / max((many - start) / 1e3, 1e-6)))
print("wall time (the same runs): %.1f, %.1f, %.1f ms: start-up added %.1f ms, %.0f launches/s"
      % (native_w, start_w, many_w, start_w - native_w, 1000 / max((many_w - start_w) / 1e3, 1e-6)))
P
