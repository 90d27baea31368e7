#!/usr/bin/env python3
"""Writes the input files the samples read: make_inputs.py DIR
in_8192.bin: byte i = (i*7+3) & 0xff, exactly what gpu-launch puts in its `in` buffer.
gelu_in.bin: 1024 f32, x_i = ((i*37) % 1024 - 512) / 85.  softmax_in.bin: 16 rows x 4 f32, ((i*29) % 64 - 32) / 7."""
import struct, sys, os
d = sys.argv[1]; os.makedirs(d, exist_ok=True)
open(os.path.join(d, 'in_8192.bin'), 'wb').write(bytes(((i * 7 + 3) & 0xff) for i in range(8192)))
open(os.path.join(d, 'gelu_in.bin'), 'wb').write(struct.pack('<1024f', *[((i * 37) % 1024 - 512) / 85.0 for i in range(1024)]))
open(os.path.join(d, 'softmax_in.bin'), 'wb').write(struct.pack('<64f', *[((i * 29) % 64 - 32) / 7.0 for i in range(64)]))
