"""``World.save`` never leaves a half-written file: a Python process killed with
SIGKILL at a random moment while saving leaves the target either the previous file or
the whole new one, byte for byte, and nothing else but the documented temporary
(``.carom-*.tmp``, hidden) in its directory."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import carom
import pytest

# Loads a 20,000-ball gas, says so, then saves its state over and over: a kill lands
# in a save (writing the temporary or renaming it) most of the time.
CHILD = """
import sys, carom
w = carom.World.load("gas", overrides={"generators.0.n": 20000})
print("ready", flush=True)
for _ in range(int(sys.argv[2])):
    w.save(sys.argv[1])
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is a unix signal")
def test_a_save_killed_at_a_random_moment_leaves_the_previous_or_the_new_file(tmp_path):
    target = tmp_path / "state.json"
    # The previous file, and the new bytes every save in the child writes (saving is
    # deterministic: the same world, the same bytes).
    carom.World.load("gas", overrides={"generators.0.n": 200}).save(target)
    previous = target.read_bytes()
    reference = tmp_path / "ref" / "state.json"
    reference.parent.mkdir()
    w = carom.World.load("gas", overrides={"generators.0.n": 20000})
    started = time.perf_counter()
    w.save(reference)
    one_save = time.perf_counter() - started
    new = reference.read_bytes()
    assert new != previous

    seed = int(os.environ.get("CAROM_KILL_SEED", time.time_ns()))
    rng = random.Random(seed)
    kinds = {"previous": 0, "new": 0, "temporaries": 0}
    for round in range(10):
        target.write_bytes(previous)
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(target), "50"],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert child.stdout.readline().strip() == "ready"
        # Every other round within the first save (before whose rename the previous
        # file must stand), the others over the first few saves (each replacing the
        # new file by itself).
        span = 1.2 * one_save if round % 2 == 0 else 4.0 * one_save
        time.sleep(rng.uniform(0.0, span))
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
        now = target.read_bytes()
        if now == previous:
            kinds["previous"] += 1
        else:
            assert now == new, (
                f"seed {seed} round {round}: {len(now)} bytes, neither the previous "
                f"({len(previous)}) nor the new file ({len(new)})"
            )
            kinds["new"] += 1
        for entry in tmp_path.iterdir():
            if entry.name in ("state.json", "ref"):
                continue
            assert entry.name.startswith(".carom-") and entry.name.endswith(".tmp"), (
                f"seed {seed}: {entry.name} left behind"
            )
            entry.unlink()
            kinds["temporaries"] += 1
    print(f"seed {seed}: one save {one_save:.3f} s; targets left {kinds}")
