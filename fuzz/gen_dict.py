#!/usr/bin/env python3
# gen_dict.py SRC_DIR > ptx.dict: a libFuzzer dictionary of PTX words, generated from the
# tables the interpreter itself uses: opcodes (ops.def), modifiers (mods.def), special
# registers (sreg.def), and the lexer's directive keywords (grammar/ptx.re). Nothing is
# listed by hand, so a new instruction reaches the fuzzers with its row.
import os, re, sys

src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', 'src')
words = []
for name, pattern in (('ops.def', r'^OP\(\w+,\s*"([^"]+)"'), ('mods.def', r'^MOD\(\w+,\s*"([^"]+)"'),
                      ('sreg.def', r'^SREG\(\w+,\s*"([^"]+)"')):
    for line in open(os.path.join(src, name)):
        m = re.match(pattern, line)
        if m:
            words.append(m.group(1))
lexer = os.path.join(src, '..', 'grammar', 'ptx.re')
for m in re.finditer(r'^\s*"(\.[a-z_]+)"\s*\{', open(lexer).read(), re.M):
    words.append(m.group(1))
seen = set()
for w in words:
    if w not in seen:
        seen.add(w)
        print('"%s"' % w.replace('\\', '\\\\').replace('"', '\\"'))
