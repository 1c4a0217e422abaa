"""The paths of a shot on cloth: the `english-cloth` preset's two cue strikes into the
top cushion, one at the centre of the ball, one with right english, drawn from carom's
own recording.

    python3 examples/python/pool_shot.py [OUT.png]

Each path is drawn where the ball slides (solid) and where it rolls (thin): both balls
slide after the strike and after the cushion, whose nose above the equator turns their
spin, and the spun ball leaves the cushion at a wider angle.
"""

import sys

import matplotlib

matplotlib.use("Agg")
import carom  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def main(out: str) -> None:
    w = carom.World.load("english-cloth")
    r = w.radii.copy()
    rec = w.record(time=2.5, every=1)
    pos, vel, spin = rec["positions"], rec["velocities"], rec["spins"]
    fig, ax = plt.subplots(figsize=(8, 4.3))
    ax.set_facecolor("#1E6E4E")
    width, height = 2.54, 1.27
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)  # y down, as carom's pictures
    ax.set_aspect("equal")
    colours = ["#FFFFFF", "#F4D03F"]
    labels = ["centre ball", "right english (0.4 r)"]
    for i in range(len(r)):
        # Slip of the contact point with the cloth, u = v + r (wy, -wx).
        u = vel[:, i, :] + r[i] * np.stack([spin[:, i, 1], -spin[:, i, 0]], axis=1)
        speed = np.hypot(vel[:, i, 0], vel[:, i, 1])
        sliding = np.hypot(u[:, 0], u[:, 1]) > 1e-6 * (1 + speed)
        x, y = pos[:, i, 0], pos[:, i, 1]
        ax.plot(x, y, color=colours[i], lw=0.8, label=labels[i])
        xs, ys = np.where(sliding, x, np.nan), np.where(sliding, y, np.nan)
        ax.plot(xs, ys, color=colours[i], lw=3, alpha=0.8)
        ax.add_patch(plt.Circle((x[-1], y[-1]), r[i], color=colours[i]))
    ax.set_title("english-cloth: thick where a ball slides, thin where it rolls")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "english-cloth.png")
