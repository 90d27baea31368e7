#!/bin/bash
cd "$(dirname "$0")"
nvidia-smi -L
mkdir -p /tmp/m && rm -f /tmp/m/*
CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
(for i in $(seq 0 18); do echo "== $(sed -n "$((i+1))p" sass/names.txt)"; $CUOBJ -sass sass/k$i.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/'; done) > $OUT/sass.txt 2>&1
time ./meas /tmp/m val_in.bin
cp /tmp/m/val_out.bin $OUT/
ls -la /tmp/m
for f in s1 s2 s3 s4; do
  if command -v xz >/dev/null; then xz -T4 -6 -c /tmp/m/$f.d2 > $OUT/$f.d2.xz &
  else python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.compress(open(sys.argv[1],'rb').read(), preset=6))" /tmp/m/$f.d2 $OUT/$f.d2.xz & fi
done
wait
ls -la $OUT
head -c 3000 $OUT/sass.txt
