#!/usr/bin/env python3
"""Print the end of each failed test's output, read from meson's testlog.json.

`make test` calls this when `meson test` fails, so that the reason is the last thing a
CI log shows (CI keeps only the tail of a long log).
usage: failed_logs.py BUILD_DIR [LINES]"""
import json
import os
import sys

build = sys.argv[1]
keep = int(sys.argv[2]) if len(sys.argv) > 2 else 80
path = os.path.join(build, "meson-logs", "testlog.json")
try:
    runs = [json.loads(line) for line in open(path, encoding="utf-8", errors="replace")]
except OSError as e:
    sys.exit(f"failed_logs: cannot read {path}: {e.strerror}")
for t in runs:
    if t.get("result") in ("OK", "SKIP", "EXPECTEDFAIL"):
        continue
    out = ((t.get("stdout") or "") + (t.get("stderr") or "")).splitlines()
    print(f"==== {t['name']}: {t.get('result')} (exit {t.get('returncode')}), "
          f"the last {min(keep, len(out))} of {len(out)} lines ====")
    print("\n".join(out[-keep:]))
