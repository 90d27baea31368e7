#!/usr/bin/env python3
# gen_dict.py SRC_DIR > ptx.dict: a libFuzzer dictionary of PTX words, generated from the
# tables the interpreter itself uses: opcodes (ops.def), modifiers (mods.def), special
# registers (sreg.def), the lexer's directive keywords (grammar/ptx.re), the device runtime's
# functions (devrt.c: printf, assert, malloc) and wgmma's types (wgmma_form.h). Nothing is
# listed by hand but wgmma's shapes (a rule in wgmma_form.c, not a table: each input type's
# K with N at its ends) and the declarations those features need, so a new instruction
# reaches the fuzzers with its row.
import os, re, sys

src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', 'src')
def read(*path):
    return open(os.path.join(src, *path)).read()

words = []
for name, pattern in (('front/ops.def', r'^OP\(\w+,\s*"([^"]+)"'), ('front/mods.def', r'^MOD\(\w+,\s*"([^"]+)"'),
                      ('front/sreg.def', r'^SREG\(\w+,\s*"([^"]+)"')):
    words += re.findall(pattern, read(*name.split('/')), re.M)
# every directive the lexer names, also those of an alternation (".maxntid" | ".reqntid")
words += re.findall(r'"(\.[a-z_]+)"', read('..', 'grammar', 'ptx.re'))
# the device runtime's functions, called as nvcc calls them
for fn in re.findall(r'^\s*\{"(\w+)",\s*\d+,\s*\d+,', read('run', 'devrt.c'), re.M):
    words += [fn, '.extern .func (.param .b32 r) %s' % fn, 'call.uni (r), %s, (' % fn]
# wgmma's input types and shapes: M 64, K 8/16/32/256 by type, N from 8 to 256
types = re.findall(r'X\(\w+, "(\w+)", \d+\)', read('check', 'wgmma_form.h'))
words += ['.' + t for t in types]
words += ['.m64n%dk%d' % (n, k) for k in (8, 16, 32, 256) for n in (8, 24, 128, 256)]
# tensor maps and struct parameters: a 128-byte, 64-aligned .param; .b128 values
words += ['.param .align 64 .b8 ', '[128]',
          'mov.b128', '{%rd1, %rd2}', 'setmaxnreg.inc.sync.aligned.u32', '.sync.aligned']
seen = set()
for w in words:
    if w not in seen:
        seen.add(w)
        print('"%s"' % w.replace('\\', '\\\\').replace('"', '\\"'))
