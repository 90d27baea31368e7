#!/usr/bin/env bash
# --cooperative: a grid sync of nvcc's cooperative_groups (tests/cooperative/grid_sync.cu,
# its PTX beside it) runs with every CTA of the grid at once, also on clusters, threads
# (--jobs keeps one, with a note) and a seeded schedule; without --cooperative the launch has
# no grid-sync workspace and the kernel traps, as on a GPU; a CTA that exits before the sync
# leaves the others in a deadlock, found without reaching the step limit; a grid larger than
# an H100 holds at once, and --ctas, are refused. Each case's exit status, stdout and stderr
# must be exactly tests/cooperative/CASE.txt (UPDATE=1 rewrites them).
# usage: cooperative.sh PTXI SOURCE_ROOT
set -u
ptxi=${1:?usage: cooperative.sh PTXI SOURCE_ROOT}; root=${2:?}
ptxi=$(cd "$(dirname "$ptxi")" && pwd)/$(basename "$ptxi")
cd "$root/tests/cooperative" || exit 2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
check() { # CASE ARGS...: ptxi run grid_sync.ptx ARGS
	local case=$1; shift
	local got
	got=$({ "$ptxi" run grid_sync.ptx "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; echo "status: $?"
		echo "--- stdout"; cat "$tmp/out"; echo "--- stderr"; cat "$tmp/err"; })
	if [ "${UPDATE:-}" = 1 ]; then
		printf '%s\n' "$got" >"$case.txt"
	elif ! diff -u "$case.txt" <(printf '%s\n' "$got"); then
		echo "FAIL: $case"
		fails=$((fails + 1))
	else
		echo "ok: $case"
	fi
}
# in.bin: 16 words 3i+1; out: the sum of the doubled words, then each CTA's neighbour's
args=(--block 64 --arg file:in.bin --arg buf:64 --arg buf:68 --dump 2:s32)
check sync --grid 8 "${args[@]}" --arg s32:-1 --cooperative
check sync.cluster --grid 8 --cluster 2 "${args[@]}" --arg s32:-1 --cooperative
check sync.seed --grid 16 "${args[@]}" --arg s32:-1 --cooperative --seed 5
check sync.jobs --grid 8 "${args[@]}" --arg s32:-1 --cooperative --jobs 2
check not-cooperative --grid 8 "${args[@]}" --arg s32:-1
check exits-early --grid 4 "${args[@]}" --arg s32:2 --cooperative
check too-large --grid 4225 "${args[@]}" --arg s32:-1 --cooperative
check too-large-shared --grid 265 --shared 100000 "${args[@]}" --arg s32:-1 --cooperative
check ctas --grid 8 "${args[@]}" --arg s32:-1 --cooperative --ctas 0-3
exit $((fails > 0))
