#!/usr/bin/env python3
"""Python `mapzoo.build` against the `mapzoo` command on the same maps (issue 13).

Usage: python scripts/py_bench.py [--cli PATH] [--runs N] [--data DIR]

For each map (the Race Stack's f, read as the Race Stack reads it, and MapZoo's Austin, a
MapZoo-size track) it times, as the median of N runs:
  cli      the whole command `mapzoo build MAP --out TMP --force` (a process per run),
  py+write `mapzoo.build(MAP, out=TMP, force=True)` in this process (the same work),
  py       `mapzoo.build(MAP)` (the set in memory, no files),
  frames   `mapzoo.build(MAP)` and then its three DataFrames and the map as numpy,
and prints the overhead of py+write against cli. The command defaults to $MAPZOO_BIN, else
the `mapzoo` on PATH (the wheel's command when run in its venv; a cargo-built binary is the
fairer reference: build it with `cargo build --release`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import mapzoo

REPO = Path(__file__).resolve().parents[1]


def median_time(fn, runs):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", default=os.environ.get("MAPZOO_BIN") or shutil.which("mapzoo"))
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--data", default=os.environ.get("MAPZOO_DATA") or str(REPO.parent / "shared" / "data"))
    args = ap.parse_args()
    if not args.cli:
        sys.exit("no mapzoo command: pass --cli PATH or set MAPZOO_BIN")
    data = Path(args.data)
    maps = [
        (
            "f",
            data / "racestack" / "f" / "f.yaml",
            dict(profile="racestack", free_rule="nonzero", start=(-5.024962, -22.778604, 2.983722)),
            ["--profile", "racestack", "--free-rule", "nonzero", "--start=-5.024962,-22.778604,2.983722"],
        ),
        ("Austin", data / "mapzoo" / "Austin" / "Austin.yaml", {}, []),
    ]
    print(f"command: {args.cli}; mapzoo {mapzoo.__version__}; median of {args.runs} runs; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"{'map':<8} {'cli s':>8} {'py+write s':>11} {'py s':>8} {'frames s':>9} {'overhead':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, yaml, opts, flags in maps:
            if not yaml.is_file():
                print(f"{name:<8} missing: {yaml}")
                continue
            cmd = [args.cli, "build", str(yaml), "--out", f"{tmp}/cli", "--force", *flags]

            def cli():
                subprocess.run(cmd, check=True, capture_output=True)

            def py_write():
                mapzoo.build(yaml, out=f"{tmp}/py", force=True, **opts)

            def py():
                mapzoo.build(yaml, **opts)

            def frames():
                ts = mapzoo.build(yaml, **opts)
                ts.centerline, ts.iqp, ts.sp, ts.map

            cli(), py_write()  # warm the file cache
            # Interleave the runs so a change in machine load hits both alike.
            c, w, p, fr = [], [], [], []
            for _ in range(args.runs):
                c.append(median_time(cli, 1))
                w.append(median_time(py_write, 1))
                p.append(median_time(py, 1))
                fr.append(median_time(frames, 1))
            c, w, p, fr = map(statistics.median, (c, w, p, fr))
            print(f"{name:<8} {c:>8.4f} {w:>11.4f} {p:>8.4f} {fr:>9.4f} {100 * (w - c) / c:>8.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
