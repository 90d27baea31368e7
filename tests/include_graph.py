#!/usr/bin/env python3
"""Fails when the modules of src/ include each other in a cycle.

A module is foo.c with foo.h (either may be missing: a header-only module, or a file with no
header) and its private header foo_priv.h, if any; module A depends on module B when one of
A's files includes one of B's. PART_OF names the few headers that belong to a module of
another name. Layers go one way
(DESIGN.md, docs/internals.md): a cycle means two modules that cannot be understood, tested or
replaced apart. Prints each cycle found as "a -> b -> ... -> a" and exits 1; exits 0 when the
graph is acyclic. Usage: include_graph.py SRC_DIR [--dot] (--dot prints the graph instead).
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)\.h"', re.M)

# parse.h is the IR builder's interface to the grammar (grammar/ptx.y), implemented by ir*.c
PART_OF = {'parse': 'ir'}


def module(stem):
    if stem.endswith('_priv'):
        stem = stem[:-len('_priv')]
    return PART_OF.get(stem, stem)


def graph(src):
    deps = {}
    headers = set()
    files = []
    for folder, _, names in sorted(os.walk(src)):
        for name in sorted(names):
            stem, ext = os.path.splitext(name)
            if ext in ('.c', '.h'):
                files.append((stem, os.path.join(folder, name)))
            if ext == '.h':
                headers.add(stem)
    for stem, path in files:
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
        mod = deps.setdefault(module(stem), set())
        for inc in INCLUDE.findall(text):
            dep = os.path.basename(inc)
            if module(dep) != module(stem) and dep in headers:
                mod.add(module(dep))
    return deps


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


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    deps = graph(sys.argv[1])
    if '--dot' in sys.argv[2:]:
        print('digraph modules {')
        for m in sorted(deps):
            for d in sorted(deps[m]):
                print(f'  "{m}" -> "{d}";')
        print('}')
        return 0
    found = cycles(deps)
    for comp in found:
        path = one_cycle(deps, comp)
        print(f'include cycle among {len(comp)} modules ({", ".join(comp)}): '
              + ' -> '.join(path))
    if found:
        return 1
    print(f'include graph: {len(deps)} modules, no cycle')
    return 0


if __name__ == '__main__':
    sys.exit(main())
