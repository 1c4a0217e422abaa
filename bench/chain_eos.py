"""The hard-disk equation of state near melting by event-chain Monte Carlo.

Every point (number of disks, area fraction, start) is one run of the chain sampler
(or, with ``--model event``, of the event model: the cross-check of the two exact
methods) in a periodic square box of disks of diameter sigma = 1, advanced in rounds of
``--block`` units of the clock (displacement per disk) through ``carom.sweep``, each
round checkpointed to the point's state file. Each round's ``z`` is one block; the
first ``--equilibrate`` blocks are discarded, the rest averaged, their spread the
error. Run the command again and it resumes the unfinished rounds (bit for bit: the
state files hold the chain's stream), then writes the table and the plot.

Starts: ``ordered``, a triangular crystal of sqrt(N) rows of sqrt(N) disks, each row
offset by half a spacing, stretched to fill the square box (the rows are sqrt(3)/2
closer in a relaxed crystal); ``disordered``, the gas generator's jittered square grid
(no six-fold order: psi6 near 0 at the start; the square lattice melts within the first
block).

With ``--model event`` a point is one run of the event model from the ``disordered``
start (velocities from the gas generator, elastic, no thermostat), the clock is time and
``--block`` time units make a round; a round's ``beta P`` is its virial pressure over
its temperature (the state file's window is the round).

The points run on a dask.distributed ``LocalCluster`` (one worker process per core) by
default; ``--scheduler ADDRESS`` joins a running cluster (docs/dense.md shows the
Slurm variant) and ``--scheduler threads`` runs on local threads, as many points at
once as there are cores.

    python3 bench/chain_eos.py --sides 128,256 --dir bench/results/chain_eos

Tiny check (seconds): ``--sides 16 --fractions 0.70,0.71 --blocks 6 --equilibrate 2
--block 5``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import carom

# The published N = 256^2 values in a square box, beta P sigma^2: Engel et al. 2013
# (event-driven molecular dynamics) and Bernard and Krauth 2011 (event chains).
PUBLISHED = {
    0.698: (9.17059, 9.17080),
    0.702: (9.19144, 9.19240),
    0.708: (9.18226, 9.18178),
    0.714: (9.17563, 9.17582),
    0.720: (9.22350, 9.2266),
}

DEFAULT_FRACTIONS = {
    128: [0.698, 0.704, 0.708, 0.712, 0.716],
    256: [round(0.698 + 0.002 * k, 3) for k in range(12)],
}


def scenario(side: int, phi: float, start: str, block: float, model: str) -> dict:
    """The point's scenario: `side`^2 disks of radius 1/2 at area fraction `phi`."""
    n = side * side
    r = 0.5
    seed = 1 if start == "ordered" else 2
    if model == "event":
        # One sampling interval per round: the state file's pressure is the round's.
        physics = {"model": "event", "dt": block}
    else:
        physics = {
            "model": "chain",
            # The diagnostics' own blocks (z_error within a round): a tenth of a round.
            "dt": block / 10.0,
            "chain": {"seed": 1000 * side + seed},
        }
    name = f"{model} eos N={side}^2 phi={phi} {start}"
    if start == "disordered":
        return {
            "name": name,
            "table": {"boundary": "periodic"},
            "physics": physics,
            "generators": [
                {"kind": "gas", "n": n, "area_fraction": phi, "r": r, "seed": seed}
            ],
        }
    box = math.sqrt(n * math.pi * r * r / phi)
    a = box / side
    balls = [
        {"x": (i + 0.25 + 0.5 * (j % 2)) * a, "y": (j + 0.5) * a, "r": r}
        for j in range(side)
        for i in range(side)
    ]
    return {
        "name": name,
        "table": {"width": box, "height": box, "boundary": "periodic"},
        "physics": physics,
        "balls": balls,
    }


def prefix(args) -> str:
    """What the event model's files are named with, beside the chains'."""
    return "" if args.model == "chain" else f"{args.model}_"


def point_dir(root: str, side: int, phi: float, start: str, model: str) -> str:
    pre = "" if model == "chain" else f"{model}_"
    return os.path.join(root, f"{pre}n{side}_phi{phi:.3f}_{start}")


def read_blocks(path: str) -> list[dict]:
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def run_round(args, side, phi, start, target, executor) -> dict:
    """One round of one point through carom.sweep: on to clock `target`."""
    where = point_dir(args.dir, side, phi, start, args.model)
    src = scenario(side, phi, start, args.block, args.model)
    if args.model == "event":
        grid = {"physics.dt": [args.block]}
    else:
        grid = {"physics.chain.seed": [src["physics"]["chain"]["seed"]]}
    [res] = carom.sweep(src, grid, time=target, executor=executor, checkpoints=where)
    d = res
    if res["start_time"] >= target:
        # Written by an interrupted call before its block was logged: the state file's
        # diagnostics are that block's.
        with open(res["checkpoint"]) as f:
            d = json.load(f)["diagnostics"]
    if args.model == "event":
        beta_p = d["pressure"] / d["temperature"]
        z = beta_p * math.pi * 0.25 / phi
    else:
        z, beta_p = d["z"], d["beta_p"]
    return {
        "time": target,
        "z": z,
        "beta_p": beta_p,
        "psi6": d.get("psi6"),
        "cpu_time": res["cpu_time"],
    }


def blocked_error(values: list[float], least: int = 8) -> tuple[float, int]:
    """The standard error of the mean by blocking (Flyvbjerg and Petersen 1989): the
    rounds averaged in blocks of 1, 2, 4, ... rounds, each level's naive error, and
    the largest over the levels that keep at least `least` blocks, with its block
    length in rounds. Rounds shorter than the correlation time make the naive error
    too small; it grows with the block until the blocks are independent, and the
    largest level is that plateau (or, for a series too short to reach it, the best
    lower bound there is)."""
    best, size, v = (math.nan, 1), 1, list(values)
    while len(v) >= max(least, 2):
        n = len(v)
        m = sum(v) / n
        e = math.sqrt(sum((x - m) ** 2 for x in v) / (n - 1) / n)
        if not e <= best[0]:
            best = (e, size)
        v = [(v[2 * i] + v[2 * i + 1]) / 2 for i in range(n // 2)]
        size *= 2
    return best


def summarise(blocks: list[dict], equilibrate: int) -> dict:
    kept = [b["beta_p"] for b in blocks[equilibrate:]]
    n = len(kept)
    mean = sum(kept) / n if n else math.nan
    err, size = blocked_error(kept)
    return {
        "beta_p": mean,
        "error": err,
        "error_block": size,
        "blocks": n,
        "psi6": blocks[-1]["psi6"] if blocks else math.nan,
        "cpu_time": sum(b["cpu_time"] for b in blocks),
        "time": blocks[-1]["time"] if blocks else 0.0,
    }


def make_executor(scheduler: str):
    if scheduler == "threads":
        return None, None
    from dask.distributed import Client, LocalCluster

    if scheduler == "local":
        cluster = LocalCluster(threads_per_worker=1, processes=True)
        return Client(cluster), cluster
    return Client(scheduler), None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sides", default="128,256", help="sqrt(N) of each size")
    ap.add_argument(
        "--fractions", default=None, help="area fractions (default: per size)"
    )
    ap.add_argument("--model", default="chain", choices=["chain", "event"])
    ap.add_argument("--starts", default=None, help="default: both (event: disordered)")
    ap.add_argument("--block", type=float, default=2000.0, help="clock per block")
    ap.add_argument("--blocks", type=int, default=40, help="blocks per point in all")
    ap.add_argument("--equilibrate", type=int, default=10, help="blocks discarded")
    ap.add_argument("--dir", default="bench/results/chain_eos")
    ap.add_argument("--scheduler", default="local", help="local | threads | ADDRESS")
    ap.add_argument(
        "--rounds", type=int, default=None, help="stop after this many rounds"
    )
    args = ap.parse_args()
    sides = [int(s) for s in args.sides.split(",")]
    if args.starts is None:
        args.starts = "disordered" if args.model == "event" else "ordered,disordered"
    starts = args.starts.split(",")
    points = []
    for side in sides:
        fractions = (
            [float(f) for f in args.fractions.split(",")]
            if args.fractions
            else DEFAULT_FRACTIONS.get(side, [0.70, 0.71])
        )
        points += [(side, phi, start) for phi in fractions for start in starts]
    os.makedirs(args.dir, exist_ok=True)
    executor, cluster = make_executor(args.scheduler)
    done_rounds = 0
    try:
        for r in range(1, args.blocks + 1):
            if args.rounds is not None and done_rounds >= args.rounds:
                break
            todo = []
            for p in points:
                log = os.path.join(point_dir(args.dir, *p, args.model), "blocks.jsonl")
                if len(read_blocks(log)) < r:
                    todo.append(p)
            if not todo:
                continue
            target = r * args.block
            started, cpu = time.monotonic(), 0.0
            # On local threads, no more points at once than cores: each point's disks
            # are megabytes, and more runs than cores time-sliced on them would each
            # find the caches filled by the others (a 256^2 round took 145 CPU seconds
            # with all ten points at once on two cores, against about 100 alone). A
            # cluster schedules its own workers.
            workers = len(todo) if executor is not None else (os.cpu_count() or 1)
            with ThreadPoolExecutor(max_workers=min(len(todo), workers)) as pool:
                futures = {
                    p: pool.submit(run_round, args, *p, target, executor) for p in todo
                }
                for p, f in futures.items():
                    block = f.result()
                    cpu += block["cpu_time"]
                    log = os.path.join(
                        point_dir(args.dir, *p, args.model), "blocks.jsonl"
                    )
                    with open(log, "a") as out:
                        out.write(json.dumps(block) + "\n")
            done_rounds += 1
            print(
                f"round {r}/{args.blocks}: {len(todo)} points to t = {target} "
                f"({time.monotonic() - started:.0f} s wall, {cpu:.0f} CPU s)",
                flush=True,
            )
    finally:
        if executor is not None:
            executor.close()
        if cluster is not None:
            cluster.close()
    write_table(args, points)
    return 0


def write_table(args, points) -> None:
    rows = []
    for side, phi, start in points:
        blocks = read_blocks(
            os.path.join(
                point_dir(args.dir, side, phi, start, args.model), "blocks.jsonl"
            )
        )
        s = summarise(blocks, args.equilibrate)
        rows.append((side, phi, start, s, blocks))
    lines = [
        "| N | area fraction | start | beta P sigma^2 | error | error's block (rounds) "
        "| rounds kept | clock | psi6 | CPU s | published (Engel; Bernard-Krauth) |",
        "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for side, phi, start, s, _ in rows:
        pub = PUBLISHED.get(round(phi, 3)) if side == 256 else None
        lines.append(
            f"| {side}^2 | {phi:.3f} | {start} | {s['beta_p']:.5f} | {s['error']:.5f} "
            f"| {s['error_block']} | {s['blocks']} | {s['time']:g} | {s['psi6']:.3f} "
            f"| {s['cpu_time']:.1f} "
            f"| {'' if pub is None else f'{pub[0]}; {pub[1]}'} |"
        )
    table = "\n".join(lines) + "\n"
    with open(os.path.join(args.dir, f"{prefix(args)}table.md"), "w") as f:
        f.write(table)
    print(table)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed: no plot", file=sys.stderr)
        return
    fig, (eos, eq) = plt.subplots(1, 2, figsize=(11, 4.2))
    for side in sorted({p[0] for p in points}):
        for start, mark in (("ordered", "o"), ("disordered", "s")):
            sel = [(phi, s) for sd, phi, st, s, _ in rows if sd == side and st == start]
            if sel:
                eos.errorbar(
                    [phi for phi, _ in sel],
                    [s["beta_p"] for _, s in sel],
                    yerr=[s["error"] for _, s in sel],
                    marker=mark,
                    ls="-",
                    capsize=2,
                    label=f"N = {side}^2, {start}",
                )
    if any(p[0] == 256 for p in points):
        eos.plot(
            list(PUBLISHED),
            [v[0] for v in PUBLISHED.values()],
            "k+",
            label="Engel 2013",
        )
    eos.set_xlabel("area fraction")
    eos.set_ylabel("beta P sigma^2")
    eos.legend(fontsize=7)
    for side, phi, start, _, blocks in rows:
        eq.plot(
            [b["time"] for b in blocks],
            [b["beta_p"] for b in blocks],
            lw=0.8,
            label=f"{side}^2 {phi:.3f} {start}",
        )
    eq.axvline(args.equilibrate * args.block, color="grey", ls=":", lw=0.8)
    eq.set_xlabel("clock (displacement per disk)")
    eq.set_ylabel("block beta P sigma^2")
    eq.set_title("equilibration (left of the line discarded)", fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(args.dir, f"{prefix(args)}eos.png"), dpi=120)


if __name__ == "__main__":
    sys.exit(main())
