"""How much energy does a billiard break keep, as a function of the restitution?

Runs the `break` preset once per restitution (on local threads, or with --dask N on a
local dask cluster of N worker processes: the same code takes a dask-jobqueue
SLURMCluster's client on a real cluster), prints the table, and plots it with
matplotlib when it is installed.

    python examples/python/restitution_sweep.py [--plot sweep.png] [--dask 2]
"""

from __future__ import annotations

import argparse

import carom


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plot", default="restitution_sweep.png", help="PNG to write")
    ap.add_argument("--time", type=float, default=200.0, help="simulated time per run")
    ap.add_argument("--dask", type=int, metavar="N", help="run on N dask workers")
    args = ap.parse_args()
    if args.dask:
        from dask.distributed import Client, LocalCluster

        with (
            LocalCluster(n_workers=args.dask, threads_per_worker=1) as cluster,
            Client(cluster) as client,
        ):
            report(args, client)
    else:
        report(args, None)


def report(args: argparse.Namespace, executor: object) -> None:
    """Runs the sweep on `executor` (None: local threads), prints and plots it."""

    restitutions = [0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
    start = carom.World.load("break").diagnostics()["total_energy"]
    rows = carom.sweep(
        "break",
        {"physics.restitution": restitutions, "physics.model": ["simultaneous"]},
        time=args.time,
        executor=executor,
    )
    print(f"{'e':>5}  {'energy kept':>11}  {'collisions':>10}")
    kept = []
    for r in rows:
        kept.append(r["total_energy"] / start)
        print(
            f"{r['physics.restitution']:>5}  {kept[-1]:>11.4f}  {r['collisions']:>10}"
        )

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(matplotlib is not installed: no plot)")
        return
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.plot(restitutions, kept, "o-")
    ax.set_xlabel("restitution e")
    ax.set_ylabel(f"energy kept after t = {args.time:g}")
    ax.set_title("break, simultaneous model")
    fig.tight_layout()
    fig.savefig(args.plot, dpi=120)
    print(f"wrote {args.plot}")


if __name__ == "__main__":
    main()
