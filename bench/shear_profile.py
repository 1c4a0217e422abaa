"""Plots the shear preset's steady velocity profile.

    cargo run --release -p carom --example shear_profile > shear.txt
    python3 bench/shear_profile.py shear.txt docs/shear.png

The input is the example's output: a comment line with the lid's mean height, then
`height mean_vx/U samples` per bin up from the fixed bottom plate.
"""

import sys


def main(path, png):
    heights, profile = [], []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        h, v, _ = line.split()
        heights.append(float(h))
        profile.append(float(v))
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4, 4))
    ax.plot(profile, heights, "o-", ms=3)
    ax.set_xlabel("mean vx / U")
    ax.set_ylabel("height above the bottom plate")
    ax.set_title("shear preset, second half of the run")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(png, dpi=100)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
