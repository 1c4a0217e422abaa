#!/usr/bin/env bash
# A profile-guided build of the command line and the benchmark, for the fastest runs on
# one's own machine: an instrumented build runs a training set, and the compiler then
# lays out and inlines the code by what the training measured. Results are those of the
# ordinary release build to the bit (profiles change which code is hot, never the
# arithmetic); docs/performance.md gives the measured speed-up.
#
#   bash bench/pgo.sh        # then: target/pgo/release/carom, target/pgo/release/carom-bench
#
# The training set is every preset under its own model, the event model on the gas at
# 20,000 balls at area fractions 0.3 and 0.6 and at 200,000 balls (not the benchmark's
# sizes, so that the benchmark measures runs the training did not see) and the spring
# model on the gas.
# Needs the toolchain's llvm-tools component (installed here through rustup if absent).
set -euo pipefail
cd "$(dirname "$0")/.."

sysroot=$(rustc --print sysroot)
host=$(rustc -vV | sed -n 's/^host: //p')
profdata="$sysroot/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ]; then
    rustup component add llvm-tools
fi

gen_dir=target/pgo-gen
raw="$PWD/target/pgo-raw"
merged="$PWD/target/pgo.profdata"

echo "pgo: instrumented build" >&2
RUSTFLAGS="-Cprofile-generate=$raw" \
    cargo build --release --target-dir "$gen_dir" -p carom-cli -p carom-bench
# Build scripts ran instrumented during the build: their profiles are not carom's.
rm -rf "$raw" "$merged"

echo "pgo: training" >&2
exe="$gen_dir/release/carom"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for preset in $("$exe" presets | cut -d' ' -f1); do
    "$exe" run "$preset" --time 20 --out "$tmp/$preset.json" -q
done
for area in 0.3 0.6; do
    "$exe" run gas --model event --dt 1 --time 40 --threads 1 -q \
        --set generators.0.n=20000 --set "generators.0.area_fraction=$area" \
        --out "$tmp/gas-$area.json"
done
# Above 2^17 balls the event model fetches the balls of the coming events ahead: a
# profile without such a run would lay that path out as cold.
"$exe" run gas --model event --dt 1 --time 4 --threads 1 -q \
    --set generators.0.n=200000 --out "$tmp/gas-large.json"
"$exe" run gas --time 2 -q --out "$tmp/gas-spring.json"

"$profdata" merge -o "$merged" "$raw"

echo "pgo: optimised build" >&2
RUSTFLAGS="-Cprofile-use=$merged" \
    cargo build --release --target-dir target/pgo -p carom-cli -p carom-bench
echo "pgo: built target/pgo/release/carom and target/pgo/release/carom-bench" >&2
