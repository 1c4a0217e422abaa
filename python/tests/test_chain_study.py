"""The melting study's script (``bench/chain_eos.py``): its blocked error against the
exact error of a correlated series, and a study stopped and resumed giving the blocks
and states of one uninterrupted call."""

from __future__ import annotations

import importlib.util
import json
import math
import random
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "chain_eos.py"


def study():
    spec = importlib.util.spec_from_file_location("chain_eos", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_blocked_error_is_the_correlated_series_own():
    # AR(1), x' = rho x + noise of variance 1: the mean of n values has the variance
    # var (1 + rho) / (1 - rho) / n for n far above the correlation time, with
    # var = 1 / (1 - rho^2); at rho = 0.9 the naive error is 4.36 times too small.
    rho, n = 0.9, 1 << 16
    rng = random.Random(1)
    x, values = 0.0, []
    for _ in range(n):
        x = rho * x + rng.gauss(0.0, 1.0)
        values.append(x)
    exact = math.sqrt((1 + rho) / (1 - rho) / (1 - rho * rho) / n)
    m = sum(values) / n
    naive = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1) / n)
    err, block = study().blocked_error(values)
    assert naive < 0.3 * exact
    # The largest level with at least 8 blocks: each level's error is itself
    # uncertain by 1 / sqrt(2 (blocks - 1)), 27 % at 8 blocks and 4 % at 512; levels
    # with blocks well beyond the correlation time (10 values here) scatter about
    # the exact value, so their largest lies between the best level's lower side
    # (three of its deviations, less a bias of tau / block) and two deviations of
    # the noisiest above: 0.8 to 1.6.
    assert 0.8 * exact < err < 1.6 * exact, (err, exact, block)
    assert block >= 32


def test_a_study_stopped_and_resumed_is_one_uninterrupted_call(tmp_path):
    def run(where, *extra):
        subprocess.run(
            [
                sys.executable,
                str(SCRIPT),
                "--sides",
                "16",
                "--fractions",
                "0.70,0.71",
                "--blocks",
                "6",
                "--equilibrate",
                "2",
                "--block",
                "5",
                "--scheduler",
                "threads",
                "--dir",
                str(where),
                *extra,
            ],
            check=True,
            capture_output=True,
        )

    run(tmp_path / "parts", "--rounds", "3")
    run(tmp_path / "parts")
    run(tmp_path / "whole")
    points = sorted(p.name for p in (tmp_path / "whole").iterdir() if p.is_dir())
    assert len(points) == 4
    for point in points:
        logs = []
        for where in ("parts", "whole"):
            text = (tmp_path / where / point / "blocks.jsonl").read_text()
            rows = [json.loads(line) for line in text.splitlines()]
            # The CPU time is the machine's; everything else is the chain's.
            logs.append([{k: v for k, v in r.items() if k != "cpu_time"} for r in rows])
        assert len(logs[0]) == 6
        assert logs[0] == logs[1], point
    assert (tmp_path / "parts" / "table.md").read_text().count("| 16^2 |") == 4
