#!/usr/bin/env python3
"""carom's event-chain sampler against the straight-chain C++ code of HistoricDisks
(jellyfysh/HistoricDisks, CPP/StraightECMC), side by side in one run, one thread each.

The peer is built from a local checkout whose path is given (its HighFive submodule at
v2.7.1, Boost and HDF5 from the system: on Debian `apt-get install cmake libboost-dev
libboost-system-dev libboost-serialization-dev libhdf5-dev`); none of its code is part
of carom. Both sample side^2 monodisperse disks at the same area fraction, started from
the triangular crystal fitted to the box (the peer's `crystal` shape; carom's
`chain_speed` example), and both count liftings (the peer calls them collisions). The
figure compared is liftings per CPU second: the peer's whole process (its set-up and
HDF5 output are a small part of a default-length run), and carom's timed chains on their
thread (after the example's warm-up); each with its own chain length rule. The median
over the rounds; the two alternate, so that load on a shared machine falls on both.

    python3 bench/chain_peer.py --peer ~/src/HistoricDisks/CPP/StraightECMC \\
        [--side 256] [--eta 0.708] [--rounds 3] [--seconds 30]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def build_peer(src: Path) -> Path:
    if (
        not (src / "CMakeLists.txt").is_file()
        or not (src / "HighFive" / "CMakeLists.txt").is_file()
    ):
        sys.exit(
            f"chain_peer: {src} is not a StraightECMC checkout with HighFive populated"
        )
    build = src / "build"
    subprocess.run(
        ["cmake", "-S", str(src), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    subprocess.run(
        ["cmake", "--build", str(build), "-j", "2"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    exe = src / "bin" / "StraightEcmc"
    if not exe.is_file():
        sys.exit(f"chain_peer: the build made no {exe}")
    return exe


def build_carom() -> Path:
    subprocess.run(
        [
            "cargo",
            "build",
            "--release",
            "-q",
            "-p",
            "carom",
            "--example",
            "chain_speed",
        ],
        check=True,
        cwd=ROOT,
    )
    return ROOT / "target" / "release" / "examples" / "chain_speed"


def child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_peer(exe: Path, side: int, eta: float) -> tuple[float, float]:
    """(liftings, CPU seconds) of one default-length peer run."""
    with tempfile.TemporaryDirectory() as tmp:
        before = child_cpu()
        out = subprocess.run(
            [
                str(exe),
                str(side),
                str(side),
                str(eta),
                "0",
                "1",
                "crystal",
                os.path.join(tmp, "out.h5"),
                os.path.join(tmp, "none.h5"),
            ],
            check=True,
            capture_output=True,
            text=True,
            cwd=tmp,
        ).stdout
        cpu = child_cpu() - before
    m = re.search(r"^(\d+) collisions", out, re.M)
    if not m:
        sys.exit("chain_peer: the peer printed no collision count:\n" + out[-2000:])
    return float(m.group(1)), cpu


def run_carom(
    exe: Path, side: int, eta: float, seconds: float
) -> tuple[float, float, float]:
    """(liftings, CPU seconds, bytes per disk) of one carom run."""
    args = [
        str(exe),
        "--sides",
        str(side),
        "--eta",
        str(eta),
        "--seconds",
        str(seconds),
    ]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    head, row = out.strip().splitlines()[:2]
    rec = dict(zip(head.split(","), row.split(","), strict=True))
    # The example's own count (timed chains only) over its own thread time.
    return float(rec["liftings"]), float(rec["cpu_s"]), float(rec["bytes_per_disk"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--peer",
        type=Path,
        required=True,
        help="the StraightECMC directory of a HistoricDisks checkout",
    )
    ap.add_argument(
        "--side", type=int, default=256, help="disks per side (N = side^2, even)"
    )
    ap.add_argument("--eta", type=float, default=0.708, help="area fraction")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument(
        "--seconds",
        type=float,
        default=30.0,
        help="carom's timed chains per round (wall seconds)",
    )
    a = ap.parse_args()
    peer, carom = build_peer(a.peer.expanduser().resolve()), build_carom()
    rates: dict[str, list[float]] = {"peer": [], "carom": []}
    for k in range(a.rounds):
        ev, cpu = run_peer(peer, a.side, a.eta)
        rates["peer"].append(ev / cpu)
        print(
            f"round {k + 1}: peer  {ev:.4g} liftings, {cpu:.1f} CPU s:"
            f" {ev / cpu:.4g}/s",
            flush=True,
        )
        ev, cpu, mem = run_carom(carom, a.side, a.eta, a.seconds)
        rates["carom"].append(ev / cpu)
        print(
            f"round {k + 1}: carom {ev:.4g} liftings, {cpu:.1f} CPU s: {ev / cpu:.4g}/s"
            f" ({mem:.0f} B/disk)",
            flush=True,
        )
    p, c = statistics.median(rates["peer"]), statistics.median(rates["carom"])
    print(
        f"\nN = {a.side}^2, area fraction {a.eta}, crystal start, one thread,"
        f" {a.rounds} rounds"
    )
    print("| code | liftings per CPU second (median) |\n|---|---:|")
    print(f"| HistoricDisks StraightECMC (-O3) | {p:.3g} |\n| carom chain | {c:.3g} |")
    print(f"ratio carom / peer: {c / p:.2f}")


if __name__ == "__main__":
    main()
