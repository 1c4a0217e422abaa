"""Reading a trajectory into numpy: the mean squared displacement of a gas.

Records positions of a small random gas (without a Python loop per sample: the
arrays are filled by the engine), then computes how far balls travel on average.

    python examples/python/trajectory.py
"""

from __future__ import annotations

import carom
import numpy as np


def main() -> None:
    w = carom.World.load("gas", overrides={"generators.0.n": 2000})
    r = w.record(time=50.0, every=10)
    t, xy = r["time"], r["positions"]
    print(f"{len(w)} balls, {len(t)} samples, positions array {xy.shape} {xy.dtype}")
    msd = ((xy - xy[0]) ** 2).sum(axis=2).mean(axis=1)
    for k in range(0, len(t), max(1, len(t) // 8)):
        print(f"t = {t[k]:7.2f}   mean squared displacement {msd[k]:10.3f}")
    speeds = np.linalg.norm(r["velocities"][-1], axis=1)
    print(
        f"final mean speed {speeds.mean():.4f}, temperature-like KE/N "
        f"{w.diagnostics()['kinetic_energy'] / len(w):.4f}"
    )


if __name__ == "__main__":
    main()
