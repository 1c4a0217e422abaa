"""Shared fixtures: the `carom` command-line binary, for comparing runs bit for bit."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def carom_bin() -> Path:
    """The `carom` binary: $CAROM_BIN, else the workspace's release or debug build,
    else built now (a fresh clone has none)."""
    env = os.environ.get("CAROM_BIN")
    if env:
        return Path(env)
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    for profile in ("release", "debug"):
        exe = target / profile / "carom"
        if exe.exists():
            return exe
    cargo = shutil.which("cargo")
    if cargo is None:
        pytest.skip("no carom binary and no cargo to build one")
    subprocess.run([cargo, "build", "-p", "carom-cli"], cwd=ROOT, check=True)
    return target / "debug" / "carom"
