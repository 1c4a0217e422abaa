#!/usr/bin/env bash
# Two builds of the command line on a scene with many fixed walls, in turn (A B A B ...),
# one thread each: prints each run's user CPU seconds and the median ratio A/B. Used for
# the row "moving walls cost nothing in scenes without them" (docs/granular.md), with B
# built at the commit before moving walls (e1948f6) and A at today's.
#
#   bash bench/walls_rate.sh NEW/carom OLD/carom galton spring 40000 [RUNS]
#
# Arguments: the two binaries, a preset, a model, steps, and the runs of each (9).
set -euo pipefail
a=$1 b=$2 preset=$3 model=$4 steps=$5 runs=${6:-9}
cpu() { /usr/bin/time -f %U "$1" run "$preset" --model "$model" --steps "$steps" \
    --threads 1 -q 2>&1 >/dev/null | tail -n 1; }
ratios=()
for _ in $(seq "$runs"); do
    ta=$(cpu "$a")
    tb=$(cpu "$b")
    ratios+=("$(echo "$ta $tb" | awk '{ printf "%.4f", $1 / $2 }')")
    echo "A $ta s  B $tb s  A/B ${ratios[-1]}"
done
printf '%s\n' "${ratios[@]}" | sort -g |
    awk '{ v[NR] = $1 } END { printf "median A/B %.3f (min %.3f, max %.3f) over %d pairs\n",
        v[int((NR + 1) / 2)], v[1], v[NR], NR }'
