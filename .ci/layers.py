#!/usr/bin/env python3
"""Import cycles between source files, and imports that run up the engine's layers.

Each Rust file of a crate is a node; an edge a -> b means a names something of b
(`use crate::...`, `crate::x::y` in an expression, `super::...`). A cycle is a strongly
connected set of more than one file. For the engine crate (`crates/carom`) every file
also has a layer (the table below, DESIGN "Architecture"), and an edge from a lower
layer to a higher one is reported. Exit status 1 when anything is reported.

Usage: python3 .ci/layers.py [--graph | --dot]
  --graph prints every edge; --dot prints the engine's module groups and their imports
  as a graphviz graph, the picture of docs/architecture.md:
  python3 .ci/layers.py --dot | tred | dot -Tsvg -o docs/architecture.svg
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CRATES = sorted(p.parent for p in ROOT.glob("crates/*/src")) + [ROOT / "bench"]

# The engine's layers (DESIGN "Architecture"), each importing only those below it. A
# module names its own file and, for a directory, every file under it; a file that no
# entry names is reported.
ENGINE = ROOT / "crates/carom"
LAYER_NAMES = {1: "foundations", 2: "models", 3: "world", 4: "scenarios and files"}
LAYERS: dict[str, int] = {
    # 1. Foundations: table and boundaries, balls, physics parameters and their enums,
    # walls and times of impact, contact laws, errors, the random stream.
    "table": 1,
    "sheared": 1,
    "broadphase": 1,
    "order": 1,
    "balls": 1,
    "physics": 1,
    "thermostat": 1,
    "compression": 1,
    "walls": 1,
    "copying": 1,
    "times": 1,
    "contact": 1,
    "friction": 1,
    "rolling": 1,
    "cloth": 1,
    "cushion": 1,
    "cue": 1,
    "growing_contact": 1,
    "pendulum": 1,
    "elliptic": 1,
    "stress": 1,
    "event_log": 1,
    "hint": 1,
    "error": 1,
    "value_checks": 1,
    "random": 1,
    # 2. The models, each behind one small interface.
    "models": 2,
    # 3. The world: its state, the step, diagnostics, observables.
    "world": 3,
    "diagnostics": 3,
    "profiles": 3,
    # 4. Scenarios and files: scenario types, parsing, generators, presets, overrides,
    # state files, loading, the run session, compare.
    "scenario": 4,
    "parse": 4,
    "building": 4,
    "generators": 4,
    "sizes": 4,
    "dense_placement": 4,
    "presets": 4,
    "overrides": 4,
    "state": 4,
    "load": 4,
    "run": 4,
    "compare": 4,
}

# The picture's groups of modules (a module not named here is a group of its own).
GROUPS: dict[str, str] = {
    "table": "table and boundaries",
    "sheared": "table and boundaries",
    "broadphase": "table and boundaries",
    "order": "table and boundaries",
    "balls": "balls",
    "stress": "balls",
    "hint": "processor hints",
    "physics": "physics parameters",
    "thermostat": "physics parameters",
    "compression": "physics parameters",
    "walls": "walls, times of impact",
    "times": "walls, times of impact",
    "cushion": "walls, times of impact",
    "pendulum": "walls, times of impact",
    "elliptic": "walls, times of impact",
    "contact": "contact laws",
    "friction": "contact laws",
    "rolling": "contact laws",
    "cloth": "contact laws",
    "cue": "contact laws",
    "growing_contact": "contact laws",
    "error": "errors",
    "value_checks": "errors",
    "random": "random stream",
    "event_log": "event log",
    "models": "model interface",
    "models::calendar": "model interface",
    "models::cushions": "model interface",
    "models::impulse": "impulse",
    "models::spring": "spring",
    "models::simultaneous": "simultaneous",
    "models::event": "event",
    "models::growing_disks": "growing disks (event)",
    "world": "world, step",
    "diagnostics": "diagnostics, observables",
    "profiles": "diagnostics, observables",
    "scenario": "scenario types",
    "parse": "parsing, building",
    "building": "parsing, building",
    "generators": "generators",
    "sizes": "generators",
    "dense_placement": "generators",
    "presets": "presets, overrides",
    "overrides": "presets, overrides",
    "state": "state files",
    "load": "loading, run session",
    "run": "loading, run session",
    "compare": "compare",
}

PATH_RE = re.compile(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
USE_RE = re.compile(r"\buse\s+(crate|super|self)::([^;]*);", re.S)


def modules(src: Path) -> dict[tuple[str, ...], Path]:
    """Module path -> file, for every .rs file under src."""
    out: dict[tuple[str, ...], Path] = {}
    for f in src.rglob("*.rs"):
        rel = f.relative_to(src).with_suffix("")
        parts = tuple(rel.parts)
        if parts in (("lib",), ("main",)):
            parts = ()
        elif parts[-1] == "mod":
            parts = parts[:-1]
        out[parts] = f
    return out


def strip(text: str) -> str:
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    # test modules may reach anywhere (they are not part of the layering)
    return text


def expand_use(tree: str) -> list[list[str]]:
    """`a::{b, c::d}` -> [[a, b], [a, c, d]] (names only)."""
    tree = re.sub(r"\s+", "", tree)
    out: list[list[str]] = []

    def walk(prefix: list[str], s: str) -> None:
        if "{" not in s:
            for part in split_top(s):
                names = [n for n in part.split("::") if n]
                names = [n.split(" as ")[0] for n in names]
                out.append(prefix + names)
            return
        for part in split_top(s):
            if "{" in part:
                head, rest = part.split("{", 1)
                inner = rest[: rest.rfind("}")]
                walk(prefix + [n for n in head.split("::") if n], inner)
            else:
                walk(prefix, part)

    walk([], tree)
    return out


def split_top(s: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        parts.append(cur)
    return [p for p in parts if p]


def resolve(mods, here: tuple[str, ...], is_dir_mod: bool, kind: str, names: list[str]):
    if kind == "crate":
        base: tuple[str, ...] = ()
    else:
        # a file's own module path; `super` from `a/b.rs` (module a::b) is `a`
        base = here if kind == "self" else here[:-1]
    names = [n.replace("r#", "") for n in names]
    while names and names[0] == "super":
        base = base[:-1]
        names = names[1:]
    path = base + tuple(names)
    # the longest prefix that is a file
    for k in range(len(path), -1, -1):
        if path[:k] in mods:
            return path[:k]
    return None


def graph(src: Path):
    mods = modules(src)
    edges: dict[tuple[str, ...], set[tuple[str, ...]]] = {m: set() for m in mods}
    for m, f in mods.items():
        text = strip(f.read_text())
        # leave out #[cfg(test)] modules: tests may reach anywhere
        text = re.split(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text)[0]
        is_dir_mod = f.name == "mod.rs"
        refs: list[tuple[str, list[str]]] = []
        for kind, tree in USE_RE.findall(text):
            for names in expand_use(tree):
                refs.append((kind, names))
        for kind, tail in PATH_RE.findall(USE_RE.sub("", text)):
            refs.append((kind, [n for n in tail.split("::") if n]))
        for kind, names in refs:
            t = resolve(mods, m, is_dir_mod, kind, names)
            if t is None or t == m:
                continue
            # a parent module's file declares its children: naming a child is not
            # depending on the parent, and the parent's `mod` lines are not edges
            if m[: len(t)] == t and len(t) < len(m):
                # child naming an ancestor: a real edge (it uses the ancestor's items)
                pass
            edges[m].add(t)
    return mods, edges


def sccs(edges):
    index, low, on, stack, out, n = {}, {}, set(), [], [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
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
            out.append(comp)

    sys.setrecursionlimit(10000)
    for v in edges:
        if v not in index:
            visit(v)
    return out


def name(m):
    return "::".join(m) or "(root)"


def layer_of(m: tuple[str, ...]) -> int | None:
    """The layer of module m: its own entry, or its nearest ancestor's."""
    for k in range(len(m), 0, -1):
        layer = LAYERS.get("::".join(m[:k]))
        if layer is not None:
            return layer
    return None


def check_layers(mods, edges) -> int:
    """Reports each file without a layer and each import of a higher layer; returns
    how many problems it reported."""
    bad = 0
    for m in sorted(mods):
        if m != () and layer_of(m) is None:
            bad += 1
            where = mods[m].relative_to(ROOT)
            print(f"no layer: {where} (add it to LAYERS in .ci/layers.py)")
    for m in sorted(edges):
        lm = layer_of(m)
        for t in sorted(edges[m]):
            lt = layer_of(t)
            if lm is not None and lt is not None and lt > lm:
                bad += 1
                src, dst = mods[m].relative_to(ROOT), mods[t].relative_to(ROOT)
                print(
                    f"upward import: {src} ({lm} {LAYER_NAMES[lm]}) "
                    f"-> {dst} ({lt} {LAYER_NAMES[lt]})"
                )
    return bad


def group_of(m: tuple[str, ...]) -> str:
    for k in range(len(m), 0, -1):
        g = GROUPS.get("::".join(m[:k]))
        if g is not None:
            return g
    return "::".join(m)


def dot(mods, edges) -> str:
    """The engine's module groups, each layer a row (foundations at the bottom), with
    the imports from one layer's groups to a lower layer's (pipe through graphviz's
    `tred` to drop the implied ones)."""
    groups: dict[str, int] = {}
    for m in mods:
        if m != ():
            groups.setdefault(group_of(m), layer_of(m) or 0)
    links = sorted(
        {
            (group_of(m), group_of(t))
            for m, ts in edges.items()
            for t in ts
            if m != () and t != ()
        }
    )
    out = [
        "digraph carom {",
        '  rankdir=BT; newrank=true; nodesep=0.2; ranksep=1.1;',
        '  node [shape=box, style="rounded,filled", fillcolor=white,'
        ' fontname="Helvetica", fontsize=11];',
        '  edge [color="#8899aa", arrowsize=0.6];',
        '  users [label="carom-cli, carom-render, carom-viewer, carom-games,\\n'
        'carom-py (python/carom), bench, fuzz", fillcolor="#f3e8d0"];',
    ]
    fills = {1: "#e4eef8", 2: "#e6f2e2", 3: "#f5ecd9", 4: "#efe3f1"}
    for layer in sorted(LAYER_NAMES, reverse=True):
        out.append(f"  subgraph cluster_{layer} {{")
        out.append(
            f'    label="{layer}. {LAYER_NAMES[layer]}"; style=filled;'
            f' color="{fills[layer]}"; fontname="Helvetica";'
        )
        names = sorted(x for x, lay in groups.items() if lay == layer)
        out.append("    { rank=same; " + " ".join(f'"{g}";' for g in names) + " }")
        out.append("  }")
    for a, b in links:
        if groups[a] != groups[b]:
            out.append(f'  "{a}" -> "{b}";')
    out.append('  users -> "loading, run session" [color="#c09050", penwidth=1.5];')
    out.append('  users -> "world, step" [color="#c09050", penwidth=1.5];')
    out.append("}")
    return "\n".join(out)


def main() -> int:
    if "--dot" in sys.argv:
        mods, edges = graph(ENGINE / "src")
        print(dot(mods, edges))
        return 0
    show = "--graph" in sys.argv
    bad = 0
    for crate in CRATES:
        src = crate / "src"
        mods, edges = graph(src)
        # the crate root only declares and re-exports: it is no layer of its own
        root_free = {
            m: {t for t in ts if t != ()} for m, ts in edges.items() if m != ()
        }
        for comp in sccs(root_free):
            if len(comp) > 1:
                bad += 1
                files = sorted(str(mods[m].relative_to(ROOT)) for m in comp)
                print(f"cycle in {crate.name}: " + ", ".join(files))
        if crate == ENGINE:
            bad += check_layers(mods, root_free)
        if show:
            for m in sorted(root_free):
                for t in sorted(root_free[m]):
                    print(f"{crate.name}: {name(m)} -> {name(t)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
