#!/usr/bin/env python3
"""Writes docs/rules.md from src/report/rules.def and the samples under tests/rules/.

usage: python3 tests/rules/gen_rules_md.py > docs/rules.md   (from the project root)
Every rule of the table gets its row; the test columns list tests/rules/<name>/*.ptx that
break it (an '// expect error: ... [name]' line) and those that show the correct pattern
(ok_*.ptx). A rule without both is flagged, so the catalogue cannot fall behind the table.
"""
import glob
import os
import re
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
src = open(os.path.join(root, 'src', 'report', 'rules.def')).read()
src = re.sub(r'/\*.*?\*/', '', src, flags=re.S)
rules = []
for m in re.finditer(r'RULE\((\w+),\s*"([^"]*)",\s*"([^"]*)",\s*(RB_\w+),((?:\s*"[^"]*")+),((?:\s*"[^"]*")+)\)', src):
    join = lambda s: ''.join(re.findall(r'"([^"]*)"', s))
    rules.append((m.group(2), m.group(3), m.group(4), join(m.group(5)), join(m.group(6))))

samples = sorted(glob.glob(os.path.join(root, 'tests', 'rules', '**', '*.ptx'), recursive=True))
def rel(p):
    return os.path.relpath(p, os.path.join(root, 'tests', 'rules'))
broken = {}
for p in samples:
    for name in re.findall(r'^// expect (?:error|warning): \S+ .*\[([a-z0-9-]+)\]\s*$',
                           open(p).read(), re.M):
        broken.setdefault(name, []).append(rel(p))

out = sys.stdout
out.write('''# Run-time rules

Generated from `src/report/rules.def` by `tests/rules/gen_rules_md.py`; do not edit by hand.

Every rule the interpreter checks while a kernel runs. A broken rule prints

    FILE:LINE:COL: error: <what happened> [rule-name]

then the source line, the threads, the barrier state where one is involved, the rule's text
with its PTX ISA section, and what the hardware does next. The exit status is 1.

**On break** says what happens after the break: *faults* - the H100 faults or the result is
meaningless, and ptxi stops even with `--keep-going`; *carries on* - the H100 continues, and
with `--keep-going` so does ptxi, the way the last column says (without it, ptxi stops at the
first break). A wait rule that a polling loop would break on every iteration is reported once
per barrier. *warning* - a warning by default: reported as `warning:`, the exit status
stays 0 and the run carries on. Deadlocks (exit 3) are not rules; their report names the barrier, its state and
the waiting threads (`tests/rules/deadlock/`).

**Levels.** `--rule NAME=error|warning|off` (repeatable; `--rules FILE` reads one `NAME=LEVEL`
a line, `#` comments) sets a rule's level in `ptxi run`, and a static check's in `ptxi check`
and `ptxi run`: a warning is reported (`warning:`, JSON `"severity":"warning"`, SARIF
`"level":"warning"`) and leaves the exit status alone, the launch carrying on as the
hardware does; `off` is not reported. Rules where the hardware faults, and static checks of
what ptxas rejects, stay errors (`--rule` can only raise them); a misspelt name is an error
(`tests/severity.sh`).

Rule `data-race` (on by default; `--no-race` turns it off) follows the happens-before model
of `races.md`: which operations order which, and what the detector does not see.
Where ptxi follows the manual rather than the H100, see `hardware-vs-manual.md`.
Each rule has programs under `tests/rules/<rule-name>/`: some that break it, and `ok_*` ones
that show the correct pattern running clean (`tests/rules/README`).

| rule | ISA § | what it says | on break | next (H100 / `--keep-going`) | breaks it | correct pattern |
|---|---|---|---|---|---|---|
''')
missing = []
for name, sec, rb, text, after in rules:
    bad = broken.get(name, [])
    ok = [rel(p) for p in samples if rel(p).startswith(name + '/ok_')]
    if not bad or not ok:
        missing.append(name)
    cell = lambda l: '<br>'.join('`%s`' % x for x in l) or '**none**'
    out.write('| `%s` | %s | %s | %s | %s | %s | %s |\n' % (
        name, sec, text.replace('|', '\\|'), {'RB_FAULT': 'faults', 'RB_WARN': 'warning'}.get(rb, 'carries on'),
        after.replace('|', '\\|'), cell(bad), cell(ok)))
if missing:
    out.write('\nRules without a breaking and a correct sample: %s\n' % ', '.join(missing))
    sys.stderr.write('gen_rules_md: no samples for: %s\n' % ', '.join(missing))
    sys.exit(1)
