"""Python runs keep their golden bits: every preset under every model, run from Python
in one call and saved, hashes as pinned in tests/golden_states.tsv before code moved
between the engine's modules. (The command line's runs are pinned by
crates/carom-cli/tests/golden.rs; a run sampled along the way, as `--trajectory
--every 20` samples, is a different computation for the event model, hence two
manifests.) `CAROM_BLESS=1` rewrites the manifest when a change of results is meant."""

from __future__ import annotations

import os
from pathlib import Path

import carom

HERE = Path(__file__).parent
MANIFEST = HERE / "golden_states.tsv"
CLI_MANIFEST = HERE.parents[1] / "crates/carom-cli/tests/golden/runs.tsv"


def fnv1a(data: bytes) -> str:
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def cases():
    """The command line's golden cases that run to their end (the same presets,
    models and step counts)."""
    for row in CLI_MANIFEST.read_text().splitlines()[1:]:
        preset, model, steps, status = row.split("\t")[:4]
        if status == "0":
            yield preset, model, int(steps)


def state_hash(tmp_path, preset, model, steps):
    w = carom.World.load(preset, model=model)
    w.run(steps=steps)
    out = tmp_path / f"{preset}-{model}.json"
    w.save(out)
    return fnv1a(out.read_bytes())


def test_python_states_keep_golden_bits(tmp_path):
    got = {(p, m): state_hash(tmp_path, p, m, n) for p, m, n in cases()}
    lines = [f"{p}\t{m}\t{h}" for (p, m), h in got.items()]
    if os.environ.get("CAROM_BLESS"):
        MANIFEST.write_text("preset\tmodel\tstate\n" + "\n".join(lines) + "\n")
        return
    want = {}
    for row in MANIFEST.read_text().splitlines()[1:]:
        p, m, h = row.split("\t")
        want[(p, m)] = h
    changed = [f"{p} {m}" for (p, m) in got if want.get((p, m)) != got[(p, m)]]
    assert not changed and set(want) == set(got), f"changed: {changed}"
