#!/usr/bin/env bash
# Whole-dataset speed.
#
#   scripts/bench_dataset.sh [JOBS]                      (default 2)
#     one `mapzoo build` batch over every map in the reference data (MapZoo's rebuilt maps,
#     the Race Stack maps, the F1TENTH maps) on JOBS jobs: the number of maps, how many
#     built, and the wall-clock time.
#
#   scripts/bench_dataset.sh generated [COUNT] [JOBS...]  (default 2000, jobs 1 2)
#     `mapzoo dataset build --count COUNT --seed 0` (generated tracks, default generator
#     options: lap 40-150 m, width 1.6-3.0 m, 0.05 m/px; IQP and SP lines) once per JOBS
#     value, each into a fresh folder, under /usr/bin/time -v: tracks built and failed,
#     tracks/s, tracks per core-hour (tracks/s x 3600 / jobs), tracks per CPU-hour (from the
#     user + system time: what a loaded machine does not distort) and peak memory (max RSS).
#     The figure to beat (issue 22): 10,000 tracks per core-hour.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
bin="$root/target/release/mapzoo"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ "${1:-}" = generated ]; then
    count=${2:-2000}
    shift $(( $# >= 2 ? 2 : $# ))
    jobs_list=("$@")
    [ ${#jobs_list[@]} -gt 0 ] || jobs_list=(1 2)
    [ -x /usr/bin/time ] || { echo "/usr/bin/time (GNU time) is needed for the peak memory" >&2; exit 2; }
    echo "$count generated tracks (seed 0...), $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
    for jobs in "${jobs_list[@]}"; do
        out="$tmp/zoo-$jobs"
        set +e
        /usr/bin/time -v -o "$tmp/time-$jobs" "$bin" dataset build --count "$count" --seed 0 \
            --out "$out" --jobs "$jobs" > "$tmp/out-$jobs" 2> "$tmp/log-$jobs"
        set -e
        wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0;
            for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$tmp/time-$jobs")
        rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tmp/time-$jobs")
        cpu=$(awk -F': ' '/(User|System) time \(seconds\)/ { s += $2 } END { print s }' "$tmp/time-$jobs")
        # status is the 4th column (name, source and seed of a generated track hold no comma)
        ok=$(awk -F, 'NR > 1 && $4 == "ok"' "$out/index.csv" | wc -l)
        failed=$(awk -F, 'NR > 1 && $4 == "failed"' "$out/index.csv" | wc -l)
        awk -v j="$jobs" -v w="$wall" -v ok="$ok" -v f="$failed" -v rss="$rss" -v cpu="$cpu" 'BEGIN {
            n = ok + f
            printf "jobs %d: %d tracks (%d ok, %d failed) in %.1f s: %.2f tracks/s, %.0f tracks per core-hour of wall time, %.0f per CPU-hour (user+sys %.1f s), peak memory %.0f MB\n",
                j, n, ok, f, w, n / w, n / w * 3600 / j, n / cpu * 3600, cpu, rss / 1024 }'
        rm -rf "$out"
    done
    exit 0
fi

data=${MAPZOO_DATA:-$root/../shared/data}
jobs=${1:-2}
[ -d "$data" ] || { echo "reference data not found at $data (set MAPZOO_DATA)" >&2; exit 2; }
mapfile -t maps < <(ls "$data"/{mapzoo,racestack,f1tenth}/*/*.yaml 2>/dev/null \
    | grep -v -E '/(speed_scaling|ot_sectors)\.yaml$')
start=$(date +%s.%N)
set +e
"$bin" build "${maps[@]}" --out "$tmp" --jobs "$jobs" --json > "$tmp/records" 2> "$tmp/log"
set -e
end=$(date +%s.%N)
built=$(wc -l < "$tmp/records")
grep '^FAIL' "$tmp/log" || true
awk -v n="${#maps[@]}" -v b="$built" -v s="$start" -v e="$end" -v j="$jobs" \
    'BEGIN { printf "%d maps, %d built, %.2f s wall clock on %d jobs\n", n, b, e - s, j }'
