#!/usr/bin/env bash
# The size and open time of `mapzoo view` over a 32-track dataset (issue 23): generates 32
# tracks (`mapzoo generate --seed 1..32`), builds them, writes one page of all and opens it in
# headless Chromium with #selftest (every track selected, hovered and toggled in turn).
# Usage: scripts/view_dataset.sh [MAPZOO_BINARY]   (default target/release/mapzoo)
set -euo pipefail
bin=${1:-target/release/mapzoo}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for seed in $(seq 1 32); do
    "$bin" generate --seed "$seed" --out "$work/maps" >/dev/null
done
"$bin" build "$work"/maps/*.yaml --out "$work/sets" >/dev/null
"$bin" view "$work"/sets/* -o "$work/dataset.html"
bytes=$(stat -c %s "$work/dataset.html")
echo "32 tracks: $bytes bytes ($((bytes / 1024)) KiB)"
browser=${MAPZOO_CHROMIUM:-$(command -v chromium || command -v chromium-browser)}
start=$(date +%s%N)
"$browser" --headless --no-sandbox --disable-gpu --window-size=1400,1000 --user-data-dir="$work/profile" \
    --dump-dom "file://$work/dataset.html" 2>/dev/null | grep -o 'data-first-draw-ms="[0-9]*"'
echo "chromium start, parse and first draw, wall clock: $((($(date +%s%N) - start) / 1000000)) ms"
"$browser" --headless --no-sandbox --disable-gpu --window-size=1400,1000 --user-data-dir="$work/profile" \
    --virtual-time-budget=600000 --dump-dom "file://$work/dataset.html#selftest&wp=50" 2>/dev/null \
    | grep -o '<pre id="selftest".*</pre>' | sed -e 's/<[^>]*>//g' -e 's/&amp;/\&/g' > "$work/selftest.json"
python3 - "$work/selftest.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("page errors:", r["errors"])
ts = r["tracks"]
worst = max(ts, key=lambda t: t["hover_ms"]["p95"])
big = max(ts, key=lambda t: t["waypoints"])
print(f"{len(ts)} tracks; largest {big['name']} ({big['waypoints']} waypoints): hover p50 {big['hover_ms']['p50']:.1f} ms, "
      f"p95 {big['hover_ms']['p95']:.1f} ms; slowest p95 {worst['hover_ms']['p95']:.1f} ms ({worst['name']}); "
      f"redraw max {max(t['redraw_ms'] for t in ts):.1f} ms")
PY
