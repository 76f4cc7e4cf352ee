#!/usr/bin/env python3
"""Cycles between the modules of one crate, read from the source's paths.

Usage: module-cycles.py CRATE_SRC... [--report-only PREFIX]...

For each crate's `src` folder, every `.rs` file is a node (its module path: `src/a/b.rs` and
`src/a/b/mod.rs` are `a::b`, `lib.rs` the root). A file imports another when its code (comments,
strings and `#[cfg(test)]` modules left out) names a path into it: `use crate::a::b::X`,
`super::b::X`, `self::b`, a child module by its name, `crate::a::X` written inline; the path's
longest prefix that is a file's module is the file it names. `mod x;` declarations are not
imports. Printed per crate:
  - cycles between top-level modules (`src/a.rs` or `src/a/` as one node, `lib.rs` the root);
  - cycles between files (each a strongly connected set of files, with one path around it).
Exits 1 on any cycle, except cycles between files all under a --report-only prefix (printed
as known, with the exit status left alone).
"""
import os
import re
import sys

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip(text):
    """The code without comments, string and char literals (kept as blanks, lines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    if text[i] == "\n":
                        out.append("\n")
                    i += 1
        elif re.match(r'b?r#*"', text[i:i + 40]) and (i == 0 or not re.match(r"\w", text[i - 1])):
            m = re.match(r'b?r(#*)"', text[i:])
            end = '"' + m.group(1)
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
        elif c == "'":
            m = re.match(r"'(\\(x..|u\{[0-9a-fA-F]*\}|.)|[^\\'])'", text[i:], re.S)
            if m:
                out.append("' '")
                i += m.end()
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def is_test_cfg(attribute):
    inner = attribute.replace(" ", "")
    return bool(re.search(r"\btest\b", inner)) and "not(test)" not in inner


def modules(src):
    """{module path tuple: file}, and the files declared only for tests."""
    found = {}
    for folder, _, files in os.walk(src):
        for name in files:
            if not name.endswith(".rs"):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, src)[:-3].split(os.sep)
            if rel[-1] in ("mod", "lib", "main") or rel == ["lib"]:
                rel = rel[:-1]
            found[tuple(rel)] = path
    return found


def expand_use(tree):
    """`a::{b, c::{d, e}}` -> ['a::b', 'a::c::d', 'a::c::e'] (without `as` renames)."""
    tree = re.sub(r"\s+as\s+" + IDENT, "", tree)
    tree = re.sub(r"\s+", "", tree)
    start = tree.find("{")
    if start < 0:
        return [tree]
    depth, parts, last = 0, [], start + 1
    for j in range(start, len(tree)):
        ch = tree[j]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                parts.append(tree[last:j])
                break
        elif ch == "," and depth == 1:
            parts.append(tree[last:j])
            last = j + 1
    prefix = tree[:start]
    out = []
    for part in parts:
        if part:
            out += [prefix + p for p in expand_use(part)]
    return out


def imports(path, module, mods):
    """The module paths (absolute) that a file's non-test code names."""
    code = strip(open(path, encoding="utf-8").read())
    # A visibility (`pub(in crate::a)`) names a module but imports nothing from it.
    code = re.sub(r"\bpub\s*\(\s*in\s+[^)]*\)", "pub", code)
    # Skip #[cfg(test)] items (modules and functions), and the files declared so.
    tokens = re.finditer(r"#\[cfg\(([^\]]*)\)\]|\bmod\s+(" + IDENT + r")\s*([{;])|\{|\}|\buse\s+([^;]*);|"
                         r"\b((?:crate|super|self|" + IDENT + r")(?:\s*::\s*" + IDENT + r")+)|;", code)
    stack = []  # (depth at which an inline module or skipped block opened, name or None=skip)
    depth = 0
    pending_test = False
    skip_depth = None
    test_files = set()
    found = []

    def current():
        return module + tuple(name for _, name in stack if name)

    def resolve(text):
        segments = [s for s in re.split(r"\s*::\s*", text) if s]
        if not segments:
            return None
        here = current()
        first = segments[0]
        if first == "crate":
            base, rest = (), segments[1:]
        elif first in ("super", "self"):
            base = here
            while segments and segments[0] in ("super", "self"):
                if segments.pop(0) == "super":
                    base = base[:-1]
            rest = segments
        elif here + (first,) in mods:
            base, rest = here, segments
        else:
            return None  # another crate, a type, a local name
        return base + tuple(s for s in rest if s != "*")

    for m in tokens:
        text = m.group(0)
        if skip_depth is not None:
            if text == "{":
                depth += 1
            elif text == "}":
                depth -= 1
                if depth == skip_depth:
                    skip_depth = None
            continue
        if m.group(1) is not None:
            pending_test = is_test_cfg(m.group(1))
            continue
        if m.group(2) is not None:
            if m.group(3) == ";":
                if pending_test:
                    test_files.add(current() + (m.group(2),))
            elif pending_test:
                skip_depth = depth
                depth += 1
            else:
                stack.append((depth, m.group(2)))
                depth += 1
            pending_test = False
            continue
        if text == "{":
            if pending_test:
                skip_depth = depth  # a #[cfg(test)] fn or impl
                pending_test = False
            depth += 1
            continue
        if text == "}":
            depth -= 1
            while stack and stack[-1][0] >= depth:
                stack.pop()
            continue
        if text == ";":
            pending_test = False
            continue
        if m.group(4) is not None:
            if pending_test:
                pending_test = False
                continue
            for item in expand_use(m.group(4)):
                target = resolve(item)
                if target is not None:
                    found.append(target)
            pending_test = False
            continue
        target = resolve(m.group(5))
        if target is not None:
            found.append(target)
    return found, test_files


def owner(target, mods):
    """The file a module path points into: its longest prefix that is a file's module."""
    for k in range(len(target), -1, -1):
        if target[:k] in mods:
            return target[:k]
    return None


def sccs(nodes, edges):
    """Tarjan's strongly connected components with more than one node."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def a_cycle(group, edges):
    """One path around a strongly connected set: from its first node back to it."""
    inside = set(group)
    start = group[0]
    seen, queue = {start: None}, [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(edges.get(v, ())):
            if w == start:
                path = [v]
                while seen[path[-1]] is not None:
                    path.append(seen[path[-1]])
                return list(reversed(path)) + [start]
            if w in inside and w not in seen:
                seen[w] = v
                queue.append(w)
    return group


def main(argv):
    report_only, crates = [], []
    while argv:
        arg = argv.pop(0)
        if arg == "--report-only":
            report_only.append(os.path.normpath(argv.pop(0)))
        else:
            crates.append(arg)
    failed = False
    for src in crates:
        mods = modules(src)
        file_edges, tests = {}, set()
        for module, path in mods.items():
            found, test_files = imports(path, module, mods)
            tests |= test_files
            for target in found:
                to = owner(target, mods)
                if to is not None and to != module:
                    file_edges.setdefault(module, set()).add(to)
        for test in tests:
            file_edges.pop(test, None)
        names = lambda m: os.path.relpath(mods[m]) if m in mods else "::".join(m)
        top_edges = {}
        for a, targets in file_edges.items():
            for b in targets:
                ta, tb = a[:1], b[:1]
                if ta != tb:
                    top_edges.setdefault(ta, set()).add(tb)
        top_name = lambda t: (t[0] if t else "lib.rs (the root)")
        tops = {m[:1] for m in mods}
        top_cycles = sccs(tops, top_edges)
        file_cycles = sccs(set(mods) - tests, file_edges)
        print(f"{src}: {len(mods) - len(tests)} files, {sum(map(len, file_edges.values()))} imports between them, "
              f"{len(top_cycles)} cycles between top-level modules, {len(file_cycles)} between files", flush=True)
        for group in top_cycles:
            failed = True
            around = " -> ".join(top_name(t) for t in a_cycle(group, top_edges))
            members = "" if len(group) <= 2 else f" (all: {', '.join(top_name(t) for t in group)})"
            print(f"  MODULE CYCLE: {len(group)} modules: {around}{members}", file=sys.stderr, flush=True)
        for group in file_cycles:
            files = [names(m) for m in group]
            known = all(any(f == p or f.startswith(p + os.sep) for p in report_only) for f in files)
            label = "  known file cycle (reported, not failed)" if known else "  FILE CYCLE"
            if not known:
                failed = True
            around = " -> ".join(names(m) for m in a_cycle(group, file_edges))
            print(f"{label}: {len(group)} files: {around}" + ("" if len(group) <= 2 else f" (all: {', '.join(files)})"),
                  file=sys.stdout if known else sys.stderr, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
