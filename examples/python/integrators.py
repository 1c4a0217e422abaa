"""The tutorial's integrator experiment: a ball bouncing on a spring floor.

Semi-implicit Euler keeps the bounce height, the averaged variants gain height, the
predicted-acceleration variant loses it, and velocity Verlet is the accurate choice.
Prints the highest point (smallest y: y points down; the ball starts at y = 80) of the
first and the last bounce over 200 time units, and the comparison table of
`carom compare`. (Run longer and the averaged variants throw the ball off the table:
the run then raises carom.SimulationError at its last good state.)

    python examples/python/integrators.py
"""

from __future__ import annotations

import carom
import numpy as np

INTEGRATORS = [
    "semi-implicit-euler",
    "average-velocity",
    "average-acceleration",
    "predicted-acceleration",
    "velocity-verlet",
]


def apexes(y: np.ndarray) -> np.ndarray:
    """Heights of the turning points at the top of each bounce (local minima of y)."""
    inner = (y[1:-1] < y[:-2]) & (y[1:-1] <= y[2:])
    return y[1:-1][inner]


def main() -> None:
    print(f"{'integrator':<24} {'first apex y':>12} {'last apex y':>12}")
    for name in INTEGRATORS:
        w = carom.World.load("level5", overrides={"physics.integrator": name})
        r = w.record(time=200.0, every=5)
        top = apexes(r["positions"][:, 0, 1])
        print(f"{name:<24} {top[0]:>12.3f} {top[-1]:>12.3f}")
    print()
    for row in carom.compare("level5", integrators=INTEGRATORS, time=200.0):
        print(f"{row['variant']:<36} energy drift {row['energy_drift']:+.3e}")


if __name__ == "__main__":
    main()
