#!/usr/bin/env python3
"""Fails when the modules of src/ depend on each other in a cycle, or a folder reaches above
its layer.

A module is foo.c with foo.h (either may be missing: a header-only module, or a file with no
header) and its private header foo_priv.h, if any; a file foo_bar.c that includes foo_priv.h
is part of foo (a family sharing private internals: check_*.c, ir_*.c). PART_OF names the few
headers that belong to a module of another name. Module A depends on module B when one of A's
files includes one of B's headers, or one of A's .c files names a function that one of B's
.c files defines (so a header that declares the functions of several files, as exec.h does,
hides no dependency). Layers go one way (DESIGN.md, docs/internals.md): a cycle means two
modules that cannot be understood, tested or replaced apart.

The folders of src/ are layers too (LAYERS, bottom first): a file may include a header, or
call a function, of its own folder or of a folder in a layer below, never above.

Prints each cycle as "a -> b -> ... -> a" and each reach above a layer as "file: includes
header: ...", and exits 1; exits 0 when there is none. Usage: include_graph.py SRC_DIR
[--dot] (--dot prints the module graph instead).
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)\.h"', re.M)
# a function defined at the start of a line: return type, name, parameters, then its body
DEFINITION = re.compile(r'^([A-Za-z_][^\n;{}()#=]*?)\b([A-Za-z_]\w*)\(([^;{}]*?)\)\s*\{',
                        re.M)
IDENT = re.compile(r'\b[A-Za-z_]\w*\b')
TAG = re.compile(r'\b(?:struct|enum|union)\s+\w+')  # a type's tag, never a function
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
COMMENT_OR_STRING = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                               re.S)

# parse.h is the IR builder's interface to the grammar (grammar/ptx.y), implemented by ir*.c;
# wgmma.h is exec_wgmma.c's header
PART_OF = {'parse': 'ir', 'wgmma': 'exec_wgmma'}

# The folders from the bottom up; the folders of one layer may use each other. The runtime's
# three are one layer: the launch state (run/launch.h, prog.h) lies below the reports and
# the Hopper machinery, the handlers and the loop above them, so their order is the modules'
# (checked acyclic above), not the folders'.
LAYERS = [('support',), ('front',), ('check',), ('run', 'hopper', 'report'), ('host',),
          ('tool',)]
LAYER = {folder: i for i, folders in enumerate(LAYERS) for folder in folders}


def layers_text():
    return ' < '.join(', '.join(f) for f in LAYERS)


def module(stem, text=''):
    if stem.endswith('_priv'):
        stem = stem[:-len('_priv')]
    for inc in INCLUDE.findall(text):
        family = os.path.basename(inc)
        if family.endswith('_priv') and stem.startswith(family[:-len('_priv')] + '_'):
            stem = family[:-len('_priv')]
    return PART_OF.get(stem, stem)


def code_of(text):
    """The text without comments and string or character literals."""
    return COMMENT_OR_STRING.sub(' ', text)


def read_files(src):
    files = []
    for folder, _, names in sorted(os.walk(src)):
        for name in sorted(names):
            stem, ext = os.path.splitext(name)
            if ext in ('.c', '.h'):
                path = os.path.join(folder, name)
                with open(path, encoding='utf-8', errors='replace') as f:
                    text = f.read()
                rel = os.path.relpath(folder, src)
                files.append({'stem': stem, 'ext': ext, 'path': path, 'text': text,
                              'code': code_of(text), 'nocomment': COMMENT.sub(' ', text),
                              'folder': rel.split(os.sep)[0],
                              'module': module(stem, text)})
    return files


def definitions(files):
    """Function name -> the file defining it (non-static definitions in .c files), and
    each file's own static functions."""
    defs, statics = {}, {}
    for f in files:
        if f['ext'] != '.c':
            continue
        own = set()
        for ret, name, _ in DEFINITION.findall(f['code']):
            if name in ('if', 'for', 'while', 'switch', 'return', 'sizeof'):
                continue
            if re.search(r'\bstatic\b', ret):
                own.add(name)
            else:
                defs[name] = f
        statics[f['path']] = own
    return defs, statics


def graph(files):
    """Module -> {module it depends on: why}, and the file-level uses: (file, what, whose)."""
    headers = {f['stem']: f for f in files if f['ext'] == '.h'}
    defs, statics = definitions(files)
    deps, uses = {}, []
    for f in files:
        mod = deps.setdefault(f['module'], {})
        for inc in INCLUDE.findall(f['nocomment']):
            h = headers.get(os.path.basename(inc))
            if not h:
                continue
            uses.append((f, 'includes ' + inc + '.h', h))
            if h['module'] != f['module']:
                mod.setdefault(h['module'], f['path'] + ' includes ' + inc + '.h')
        if f['ext'] != '.c':
            continue
        seen = set()
        for name in IDENT.findall(TAG.sub(' ', f['code'])):
            d = defs.get(name)
            if not d or name in seen or name in statics[f['path']] or d is f:
                continue
            seen.add(name)
            uses.append((f, 'calls ' + name + ' (' + os.path.basename(d['path']) + ')', d))
            if d['module'] != f['module']:
                mod.setdefault(d['module'], f['path'] + ' calls ' + name)
    return deps, uses


def cycles(deps):
    """Each strongly connected component of more than one module, as one cycle through it."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(deps.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(deps):
        if v not in index:
            visit(v)
    return out


def one_cycle(deps, comp):
    """A shortest cycle through the component's first module, for the message."""
    members, start = set(comp), comp[0]
    prev, frontier = {start: None}, [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(deps.get(v, ())):
                if w == start:
                    path = [start]
                    while v is not None:
                        path.insert(1, v)
                        v = prev[v]
                    return path[:1] + path[2:] + [start] if len(path) > 1 else path
                if w in members and w not in prev:
                    prev[w] = v
                    nxt.append(w)
        frontier = nxt
    return comp


def above_layer(uses):
    """Each use of a file in a folder above the user's layer, as a message."""
    out = []
    for f, what, g in uses:
        a, b = LAYER.get(f['folder']), LAYER.get(g['folder'])
        if a is None or b is None or b <= a:
            continue
        out.append(f'{f["path"]}: {what}: {f["folder"]}/ may not use {g["folder"]}/, a layer '
                   f'above it (layers from the bottom: {layers_text()})')
    return out


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    files = read_files(sys.argv[1])
    deps, uses = graph(files)
    if '--dot' in sys.argv[2:]:
        print('digraph modules {')
        for m in sorted(deps):
            for d in sorted(deps[m]):
                print(f'  "{m}" -> "{d}";')
        print('}')
        return 0
    bad = False
    for comp in cycles(deps):
        path = one_cycle(deps, comp)
        print(f'include cycle among {len(comp)} modules ({", ".join(comp)}): '
              + ' -> '.join(path))
        for a, b in zip(path, path[1:]):
            print(f'  {a} -> {b}: {deps[a][b]}')
        bad = True
    unknown = sorted({f['folder'] for f in files if f['folder'] not in LAYER})
    for folder in unknown:
        print(f'{sys.argv[1]}/{folder}: a folder in no layer (add it to LAYERS in '
              f'{os.path.basename(__file__)} and docs/internals.md)')
        bad = True
    for msg in above_layer(uses):
        print(msg)
        bad = True
    if bad:
        return 1
    print(f'include graph: {len(deps)} modules, no cycle; every folder uses only its own '
          f'layer and those below ({layers_text()})')
    return 0


if __name__ == '__main__':
    sys.exit(main())
