#!/usr/bin/env bash
# Side-by-side speed of the whole process: the Python reference
# (../shared/tools/pyref/run_ref.py) and `mapzoo build` on the same map.
#
#   scripts/bench_vs_reference.sh [MAP.yaml] [-- extra mapzoo build options]
#
# Default map: the Race Stack's f (free rule nonzero, profile racestack, as the
# reference reads it). Needs the reference venv: set PYREF_VENV (default
# $HOME/pyref-venv; see ../shared/tools/pyref/README.md to create it).
# Prints both wall-clock times and their ratio (mapzoo's run repeated, MAPZOO_RUNS).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data=${MAPZOO_DATA:-$root/../shared/data}
pyref=${PYREF:-$root/../shared/tools/pyref/run_ref.py}
venv=${PYREF_VENV:-$HOME/pyref-venv}
map=${1:-$data/racestack/f/f.yaml}
shift || true
[ "${1:-}" = "--" ] && shift
extra=("$@")
[ ${#extra[@]} -eq 0 ] && extra=(--free-rule nonzero --profile racestack)

[ -f "$map" ] || { echo "map not found: $map (set MAPZOO_DATA)" >&2; exit 2; }
[ -x "$venv/bin/python" ] || { echo "no Python reference venv at $venv (set PYREF_VENV; see $pyref's README)" >&2; exit 2; }

cargo build --release --quiet --manifest-path "$root/Cargo.toml"
bin=$root/target/release/mapzoo
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
t0=$(now)
"$venv/bin/python" "$pyref" "$map" --out "$tmp/ref.json" > "$tmp/ref.stdout" 2> "$tmp/ref.stderr"
t1=$(now)
py=$(awk "BEGIN{print $t1 - $t0}")
# mapzoo's run takes a few hundredths of a second, so one run is at the mercy of the machine's
# moment (and the first one after the reference's 15 s often runs slower): it runs
# MAPZOO_RUNS times (default 5) right after the reference, each into a new folder; the ratio is
# given for the first run and for the median
runs=${MAPZOO_RUNS:-5}
times=()
for i in $(seq "$runs"); do
  a=$(now)
  "$bin" build "$map" --out "$tmp/ours$i" --json "${extra[@]}" > "$tmp/ours$i.stdout"
  b=$(now)
  times+=("$(awk "BEGIN{print $b - $a}")")
done
first=${times[0]}
median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}')
printf 'reference (python): %8.3f s   %s\n' "$py" "$(cat "$tmp/ref.stdout")"
printf 'mapzoo build:       %8.3f s   %s\n' "$first" "$(cat "$tmp/ours1.stdout")"
printf 'mapzoo build, %d runs: %s s (median %.3f s)\n' "$runs" "$(printf '%.3f ' "${times[@]}")" "$median"
printf 'ratio: %.1fx (first run), %.1fx (median)\n' "$(awk "BEGIN{print $py / $first}")" "$(awk "BEGIN{print $py / $median}")"
