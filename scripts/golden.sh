#!/usr/bin/env bash
# Byte-identity check for refactors: run a fixed list of commands with a mapzoo
# binary and print one "sha256  path" line per file they write, so two builds
# of mapzoo (before / after a change) can be compared with diff.
#
#   scripts/golden.sh [BIN] > manifest.txt
#   diff before.txt after.txt        # empty: every output byte is the same
#
# BIN defaults to target/release/mapzoo (built first). Covers: the Race Stack
# maps (f, hangar, circle, the ROS 2 sets), every F1TENTH and MapZoo map,
# generated maps of several kinds, `raceline` from the MapZoo centerlines and
# from a global_waypoints.json, `centerline`, `regen`, `render` and `demo`.
# Needs the reference data (../shared/data or $MAPZOO_DATA).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data=${MAPZOO_DATA:-$root/../shared/data}
[ -d "$data" ] || { echo "reference data not found at $data (set MAPZOO_DATA)" >&2; exit 2; }
if [ $# -ge 1 ]; then
    bin=$(realpath "$1")
else
    cargo build --release --quiet --manifest-path "$root/Cargo.toml"
    bin=$root/target/release/mapzoo
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() { "$bin" "$@" > /dev/null 2>&1 || true; }

rs=$data/racestack
run build "$rs/f/f.yaml" --out "$out/rs" --free-rule nonzero --profile racestack \
    --start=-5.024962,-22.778604,2.983722
run build "$rs/hangar/hangar.yaml" "$rs/circle/circle.yaml" --out "$out/rs" \
    --free-rule nonzero --profile racestack --jobs 1
run build "$data"/f1tenth/*/*_map.yaml --out "$out/f1tenth" --jobs 2
for t in "$data"/mapzoo/*/; do
    n=$(basename "$t")
    [ -f "$t/$n.yaml" ] && run build "$t/$n.yaml" --out "$out/mapzoo-maps"
    [ -f "$t/${n}_centerline.csv" ] && run raceline "$t/${n}_centerline.csv" --out "$out/mapzoo-cl/$n"
done
for t in "$data"/racestack-ros2/*/; do
    n=$(basename "$t")
    run build "$t/$n.yaml" --out "$out/ros2" --free-rule nonzero --profile racestack
done
mkdir -p "$out/centerline" "$out/render"
run raceline "$rs/f/global_waypoints.json" --out "$out/raceline-json" --profile racestack
run centerline "$rs/f/f.yaml" --out "$out/centerline/f.csv" --free-rule nonzero
for seed in 1 2 3; do
    run generate --seed "$seed" --out "$out/gen/$seed"
done
run generate --seed 4 --out "$out/gen/4" --obstacles 2 --spurs 2 --pockets 1 --anti-alias
run generate --seed 5 --out "$out/gen/5" --unknown-blobs 2 --lidar-rays 3 --specks 5 --noise 0.1
for seed in 1 2 3 4 5; do
    run build "$out"/gen/$seed/*.yaml --out "$out/gen-sets/$seed" --profile racestack
done
cp -r "$out/rs/f" "$out/regen-f"
run regen "$out/regen-f" --free-rule nonzero --profile racestack
run render "$out/rs/f" -o "$out/render/f.png"
run render --gallery "$out"/rs/* -o "$out/render/gallery.png"
(cd "$out" && run demo --out "$out/demo")

cd "$out"
find . -type f | LC_ALL=C sort | xargs sha256sum
