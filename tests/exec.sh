#!/bin/bash
# ptxi exec on CUDA programs of our own (ptx_samples/programs/*.cu built here with nvcc
# -cudart shared -arch=sm_90a; driver.c with cc against ptxi's libcuda.so.1): each case's exit
# status, stdout and stderr must be exactly
# ptx_samples/programs/expect/CASE.txt (nvcc 13.0's PTX: diagnostics name its lines).
# Host addresses, which differ from run to run, read 0x(host); device memory at the other
# base (under AddressSanitizer) reads as at 0x700000000. Without nvcc: skipped (77). With a
# sanitized build, the sanitizer's runtime is preloaded (it must come first in a program
# that was not built with it).
# The programs do not depend on ptxi's build: PTXI_EXEC_PROGRAMS names a folder of them to
# share between builds (make test's sanitized run reuses the release run's), and they are
# built two at a time.
# usage: exec.sh PTXI SOURCE_ROOT BUILD_DIR    (UPDATE=1 rewrites the expectations)
set -u
ptxi=$(realpath "$1") root=$2 bin=${PTXI_EXEC_PROGRAMS:-$3/exec-programs}
src=$root/ptx_samples/programs
if ! command -v nvcc >/dev/null 2>&1; then
	echo "nvcc is not installed: the CUDA programs cannot be built, so ptxi exec is not tested"
	exit 77
fi
mkdir -p "$bin"
build() { # NAME SOURCE FLAGS...: built in the sources' folder, so that an assert names
	   # the file as the GPU run's build did (printf_assert.cu)
	local out=$bin/$1 cu=$2
	shift 2
	if [ ! -x "$out" ] || [ "$src/$cu" -nt "$out" ]; then
		rm -f "$out"
		(cd "$src" && nvcc "$@" -o "$out.tmp$$" "$cu" && mv "$out.tmp$$" "$out") >"$out.log" 2>&1
	fi
}
built() { # NAME...: each was built, else its compiler's log and a failure
	for p in "$@"; do
		[ -x "$bin/$p" ] || { cat "$bin/$p.log"; exit 1; }
	done
}
names=(saxpy streams cluster tma printf_assert race deadlock hostptr hostreg_edge unsupported ws_gemm
	cooperative graph runtime heap graph_api graph_update pool hostreg)
for ((i = 0; i < ${#names[@]}; i += 2)); do
	for p in "${names[@]:i:2}"; do build $p $p.cu -cudart shared -arch=sm_90a & done
	wait
done
build ws_gemm_bug ws_gemm.cu -cudart shared -arch=sm_90a -DSKIP_EMPTY_WAIT &
build saxpy_static saxpy.cu -arch=sm_90a &
wait
# driver.c: against CUDA's cuda.h where nvcc's include folder has it (it is a package of its
# own; driver_api.h stands in without it) and linked to ptxi's libcuda.so.1, not CUDA's stub
cuda_inc=$(nvcc --dryrun -c -x cu /dev/null 2>&1 | sed -n 's/^#\$ INCLUDES="-I\([^"]*\)".*/\1/p' |
	head -1)
lib=$(dirname "$ptxi")/src/host/cudart/libcudart.so.13
if [ ! -x "$bin/driver" ] || [ "$src/driver.c" -nt "$bin/driver" ]; then
	cc ${cuda_inc:+-I"$cuda_inc"} -o "$bin/driver" "$src/driver.c" \
		-L"$(dirname "$lib")" -l:libcuda.so.1 || exit 1
fi
if [ ! -x "$bin/driver_dlopen" ] || [ "$src/driver_dlopen.c" -nt "$bin/driver_dlopen" ]; then
	cc -o "$bin/driver_dlopen" "$src/driver_dlopen.c" -ldl || exit 1
fi
build saxpy_sass saxpy.cu -cudart shared -gencode arch=compute_90a,code=sm_90a
built "${names[@]}" ws_gemm_bug saxpy_static saxpy_sass

san=$(ldd "$lib" 2>/dev/null | grep -o '/[^ ]*lib[at]san[^ ]*' | head -1)
if [ -n "$san" ]; then
	export LD_PRELOAD=$san ASAN_OPTIONS=detect_leaks=0:${ASAN_OPTIONS:-}
fi
# each run's outputs in a folder of its own: two runs may share the programs' folder
outs=$(mktemp -d) || exit 1
trap 'rm -rf "$outs"' EXIT
fails=0
section() { # NAME: that section (stdout, stderr) of a status/stdout/stderr listing on stdin
	awk -v s="--- $1" '/^--- /{on = ($0 == s); next} on && !/^status: /'
}
# What a GPU printed (ptx_samples/programs/gpu/CASE.txt, measured): ptxi's stdout must be the
# same, and each line of the GPU's stderr must be in ptxi's (which adds the reports).
gpu_same() { # CASE OUTPUT
	local gpu=$src/gpu/$1.txt
	[ -f "$gpu" ] && [ "$1" != deadlock ] && [ "$1" != driver ] && [ "$1" != graph ] || return 0
	if ! diff -u <(section stdout <"$gpu") <(printf '%s\n' "$2" | section stdout); then
		echo "FAIL: $1: stdout is not what the GPU printed"
		fails=$((fails + 1))
	fi
	while IFS= read -r line; do
		if ! printf '%s\n' "$2" | section stderr | grep -qxF -- "$line"; then
			echo "FAIL: $1: the GPU's stderr line is missing: $line"
			fails=$((fails + 1))
		fi
	done < <(section stderr <"$gpu")
}
check() { # CASE PROGRAM [OPTIONS...]
	local case=$1 prog=$2
	shift 2
	local got
	got=$(cd "$bin" && { "$ptxi" exec "$@" "./$prog" >"$outs/out" 2>"$outs/err"; \
		echo "status: $?"; echo "--- stdout"; cat "$outs/out"; echo "--- stderr"; cat "$outs/err"; } |
		sed -E 's/0x500000([0-9a-f]{6})\b/0x700\1/g; s/0x[0-9a-f]{12}\b/0x(host)/g')
	gpu_same "$case" "$got"
	local want=$src/expect/$case.txt
	if [ "${UPDATE:-}" = 1 ]; then
		printf '%s\n' "$got" >"$want"
	elif ! diff -u "$want" <(printf '%s\n' "$got"); then
		echo "FAIL: $case"
		fails=$((fails + 1))
	else
		echo "ok: $case"
	fi
}
check saxpy saxpy
check heap heap
check streams streams
check cluster cluster
check tma tma
check printf_assert printf_assert
check race race
check race.no-race race --no-race
check race.exitcode race --error-exitcode 7
check race.json race --diagnostics json
check deadlock deadlock
check hostptr hostptr
check unsupported unsupported
check tma.trace tma --trace mbarrier --launch 2
check saxpy.static saxpy_static
check saxpy.sass saxpy_sass
check usage.option saxpy --no-such-option
check driver driver
check driver.dlopen driver_dlopen
check ws_gemm ws_gemm
check ws_gemm.bug ws_gemm_bug
check cooperative cooperative
check graph graph
check graph_api graph_api
check graph_update graph_update
check pool pool
check hostreg hostreg
check hostreg_edge hostreg_edge
HOSTREG_BEFORE=1 check hostreg_edge.before hostreg_edge
check runtime runtime
exit $((fails > 0))
