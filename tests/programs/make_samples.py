#!/usr/bin/env python3
"""Builds ptx_samples/nvcc/<name>.ptx (and ptx_samples/triton/*.ptx) from the generated PTX and
the H100 outputs in tests/programs/h100/: make_samples.py PTXDIR SAMPLEDIR TRITONSAMPLEDIR"""
import sys, os
here = os.path.dirname(os.path.abspath(__file__))
ptxdir, sdir, tdir = sys.argv[1:4]
os.makedirs(sdir, exist_ok=True); os.makedirs(tdir, exist_ok=True)
GPU = 'NVIDIA H100 80GB HBM3 (driver 580.159.04), run 2026-11-22 with gpu-launch'
for line in open(os.path.join(here, 'kernels.txt')):
    if line.startswith('#') or not line.strip(): continue
    n, k, g, b, c, w, ib = line.split()
    words = open(os.path.join(here, 'h100', n + '.txt')).read().split()
    assert len(words) == int(w), n
    run = f'--kernel {k} --grid {g} --block {b}' + (f' --cluster {c}' if c != '1' else '') + f' --arg buf:{int(w) * 4} --arg file:in_8192.bin --dump 0'
    hdr = [f'// From tests/programs/src/{n}.cu: nvcc (CUDA 13.0) -arch=sm_90 -ptx, unedited below the header.',
           f'// Expected words: that PTX run on an {GPU}',
           f'// (out = buf, in = in_8192.bin: byte i = (i*7+3)&0xff). Raw output: tests/programs/h100/{n}.txt',
           f'// run: {run}'] + [f'// expect: {x}' for x in words]
    open(os.path.join(sdir, n + '.ptx'), 'w').write('\n'.join(hdr) + '\n' + open(os.path.join(ptxdir, n + '.ptx')).read())
T = {'triton_gelu': ('triton_gelu-ptx.txt', '--block 128 --arg file:gelu_in.bin --arg buf:4096 --arg u32:1000 --dump 1',
                     'GELU (tanh form), x_ptr, y_ptr, n; BLOCK_SIZE 1024, 4 warps; n = 1000 masks the last 24'),
     'triton_softmax': ('triton_softmax-ptx.txt', '--grid 16 --block 128 --arg file:softmax_in.bin --arg buf:256 --arg u32:4 --arg u32:4 --arg u32:3 --dump 1',
                        'row softmax, in_ptr, out_ptr, in_row_stride, out_row_stride, n_cols; 16 rows of stride 4, n_cols = 3 (column 3 masked)')}
for n, (src, run, what) in T.items():
    words = open(os.path.join(here, 'h100', n + '.txt')).read().split()
    hdr = [f'// Triton-generated PTX (test data): stanford-cs336/spring2024-lectures, var/{src}',
           '// (commit d9aa202653b6b9ac372a1dbc34bf434c8564c0cd), from lecture_06.py; older Triton, so no',
           '// trailing scratch-pointer parameters. Copy in tests/programs/triton/. ' + what + '.',
           f'// Expected words: this PTX run on an {GPU.replace("gpu-launch", "tests/programs launch-args (same inputs)")}.',
           f'// run: {run}'] + [f'// expect: {x}' for x in words]
    open(os.path.join(tdir, n + '.ptx'), 'w').write('\n'.join(hdr) + '\n' + open(os.path.join(here, 'triton', n + '.ptx')).read())
