#!/usr/bin/env python3
"""Counts the public items of a crate from its rustdoc HTML (`cargo doc --no-deps -p
CRATE` first): modules, items (functions, types, traits, constants, statics) and the
inherent methods of public types. Usage: python3 .ci/public_items.py [CRATE]"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

crate = sys.argv[1] if len(sys.argv) > 1 else "carom"
root = Path(__file__).resolve().parents[1] / "target/doc" / crate.replace("-", "_")
items = re.findall(r'<li><a href="([^"]+\.html)"', (root / "all.html").read_text())
kinds = Counter(Path(i).name.split(".")[0] for i in items)
modules = sum(1 for _ in root.rglob("index.html"))
methods = 0
types = {root / i for i in items if Path(i).name.split(".")[0] in ("struct", "enum")}
for page in types:
    text = page.read_text()
    # inherent methods only: the section before the first trait implementation
    inherent = text.split('id="trait-implementations"')[0]
    methods += len(set(re.findall(r'id="method\.([A-Za-z0-9_]+)"', inherent)))
total = modules + len(items) + methods
print(
    f"{crate}: {modules} modules, {len(items)} items {dict(kinds)}, "
    f"{methods} inherent methods; {total} in all"
)
