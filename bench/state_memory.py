#!/usr/bin/env python3
"""Peak memory of a run with and without its output files.

Runs `carom run gas --model event --set generators.0.n=N --time T` with nothing
written, then the same with `--out` (the state file), `--trajectory` (a LAMMPS dump
of the first and last frames) and `--diagnostics` (the CSV), each in a fresh process,
alternating, several times, and reports the median peak resident set (the child's
`ru_maxrss`) of each and its ratio to the run that writes nothing. The output files
are streamed to disk as they are encoded, so they should cost little beyond the run.

    python3 bench/state_memory.py --exe target/release/carom --n 100000,1000000
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile


def peak_of(cmd, cwd):
    """Runs `cmd` in a child of a fresh child, and returns the grandchild's peak RSS
    in bytes: RUSAGE_CHILDREN of the middle process holds only that one run."""
    probe = (
        "import resource, subprocess, sys\n"
        "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
        "if r.returncode: sys.exit(r.returncode)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, *cmd], cwd=cwd, check=True,
        capture_output=True, text=True,
    )
    return int(out.stdout.split()[-1]) * 1024  # Linux reports kilobytes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--exe", default="target/release/carom")
    ap.add_argument("--n", default="1000000", help="ball counts, comma separated")
    ap.add_argument("--time", default="2")
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    exe = os.path.abspath(a.exe)
    if not os.path.exists(exe):
        sys.exit(f"{exe}: no such binary (cargo build --release -p carom-cli)")
    print(f"# peak resident set, median of {a.runs} runs each; load average "
          f"{os.getloadavg()[0]:.2f}")
    print("| N | run alone | with --out | ratio | with --out, --trajectory, "
          "--diagnostics | ratio |")
    print("|---:|---:|---:|---:|---:|---:|")
    for n in [int(x) for x in a.n.split(",")]:
        base = [exe, "run", "gas", "--model", "event", "--set",
                f"generators.0.n={n}", "--time", a.time, "-q"]
        variants = {
            "alone": base,
            "out": base + ["--out", "s.json"],
            "all": base + ["--out", "s.json", "--trajectory", "t.dump",
                           "--every", "1000000", "--diagnostics", "d.csv"],
        }
        peaks = {k: [] for k in variants}
        with tempfile.TemporaryDirectory() as d:
            for _ in range(a.runs):
                for k, cmd in variants.items():
                    peaks[k].append(peak_of(cmd, d))
        med = {k: statistics.median(v) for k, v in peaks.items()}
        mb = {k: v / 1e6 for k, v in med.items()}
        print(f"| {n:,} | {mb['alone']:.0f} MB | {mb['out']:.0f} MB | "
              f"{med['out'] / med['alone']:.3f} | {mb['all']:.0f} MB | "
              f"{med['all'] / med['alone']:.3f} |")


if __name__ == "__main__":
    main()
