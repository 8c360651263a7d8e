#!/usr/bin/env bash
# Whole-dataset speed: one `mapzoo build` batch over every map in the reference
# data (MapZoo's rebuilt maps, the Race Stack maps, the F1TENTH maps) on N jobs.
#
#   scripts/bench_dataset.sh [JOBS]     (default 2)
#
# Prints the number of maps, how many built, and the wall-clock time.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data=${MAPZOO_DATA:-$root/../shared/data}
jobs=${1:-2}
[ -d "$data" ] || { echo "reference data not found at $data (set MAPZOO_DATA)" >&2; exit 2; }
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
mapfile -t maps < <(ls "$data"/{mapzoo,racestack,f1tenth}/*/*.yaml 2>/dev/null \
    | grep -v -E '/(speed_scaling|ot_sectors)\.yaml$')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s.%N)
set +e
"$root/target/release/mapzoo" build "${maps[@]}" --out "$tmp" --jobs "$jobs" --json > "$tmp/records" 2> "$tmp/log"
set -e
end=$(date +%s.%N)
built=$(wc -l < "$tmp/records")
grep '^FAIL' "$tmp/log" || true
awk -v n="${#maps[@]}" -v b="$built" -v s="$start" -v e="$end" -v j="$jobs" \
    'BEGIN { printf "%d maps, %d built, %.2f s wall clock on %d jobs\n", n, b, e - s, j }'
