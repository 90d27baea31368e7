#!/usr/bin/env bash
# Runs docs/tutorial.md as written: in every ```console block, each "$ COMMAND" line runs
# (from a scratch directory that sees the project's ptx_samples/, with `ptxi` the built
# binary) and what follows it, up to the next "$" line, is its output (stdout and stderr),
# exactly; a "..." line ends the comparison there, and "(exit status N)" checks the status.
# With UPDATE=1 it writes what the commands print back into the document instead (then
# read the diff: every change must be one you meant).
set -u
ptxi=${1:?usage: tutorial.sh PTXI SOURCE_ROOT}; root=${2:?}
ptxi=$(cd "$(dirname "$ptxi")" && pwd)/$(basename "$ptxi")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin" "$tmp/work" && ln -s "$ptxi" "$tmp/bin/ptxi" && ln -s "$root/ptx_samples" "$tmp/work/ptx_samples"
python3 - "$root/docs/tutorial.md" "$tmp" <<'PY'
import os, re, subprocess, sys
doc, tmp = sys.argv[1], sys.argv[2]
env = dict(os.environ, PATH=tmp + "/bin:" + os.environ["PATH"], NO_COLOR="1")
text = open(doc).read()
blocks = re.findall(r"```console\n(.*?)```", text, re.S)
fails = runs = 0
update = os.environ.get("UPDATE") == "1"
for block in blocks:
    new = []
    cmds, cur = [], None
    for line in block.splitlines():
        if line.startswith("$ "):
            cur = [line[2:], []]
            cmds.append(cur)
        elif cur:
            cur[1].append(line)
    for cmd, want in cmds:
        runs += 1
        p = subprocess.run(cmd, shell=True, cwd=tmp + "/work", env=env, text=True,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=300)
        got = p.stdout.splitlines()
        status = None
        if want and want[-1].startswith("(exit status "):
            status = int(want.pop()[13:-1])
        if status is None and p.returncode != 0:
            status = 0
        ok = status is None or p.returncode == status
        if "..." in want:
            n = want.index("...")
            ok = ok and got[:n] == want[:n]
        else:
            ok = ok and got == want
        if update:
            keep = got[:want.index("...")] + ["..."] if "..." in want else got
            new += ["$ " + cmd] + keep + (["(exit status %d)" % p.returncode] if p.returncode else [])
        elif not ok:
            fails += 1
            print("FAIL: $ %s (exit %d)" % (cmd, p.returncode))
            print("  wanted:\n    " + "\n    ".join(want[:12]))
            print("  got:\n    " + "\n    ".join(got[:12]))
    if update:
        text = text.replace("```console\n" + block + "```", "```console\n" + "\n".join(new) + "\n```", 1)
if update:
    open(doc, "w").write(text)
print("tutorial: %d commands, %d failed" % (runs, fails))
sys.exit(1 if fails or not runs else 0)
PY
