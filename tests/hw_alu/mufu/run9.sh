#!/bin/bash
# device side of meas9 (ptxi h9): run from the repo root with .hw9 carried
nvidia-smi -L
mkdir -p /tmp/m && rm -f /tmp/m/*
time .hw9/meas9 /tmp/m || exit 1
cp /tmp/m/tsum.txt $OUT/
X() { if command -v xz >/dev/null; then xz -T2 -6 -c "$1" > "$2"; else python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.compress(open(sys.argv[1],'rb').read(), preset=6))" "$1" "$2"; fi; }
for f in a b c d e; do X /tmp/m/$f.d2 $OUT/$f.d2.xz & done
X /tmp/m/t.rle $OUT/t.rle.xz &
X /tmp/m/val.bin $OUT/val.bin.xz &
wait
ls -la /tmp/m $OUT
