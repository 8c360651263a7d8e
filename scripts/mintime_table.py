#!/usr/bin/env python3
"""The 45 runs of README's min-time table (section "The minimum-lap-time line").

    scripts/mintime_table.py [--bin PATH] [--qp banded|clarabel] [--repeat N] [--only WORD]
                             [--data DIR] [--cpu N]

Each run is one `mapzoo` process with `--lines iqp,sp,mintime --json` (and `-v` for `build`),
into a fresh output folder:
  - `build` f1tenth/<T>/<T>_map.yaml, default profile (Montreal's map fails at the IQP with the
    default safety width and is left out);
  - `build` mapzoo/<T>/<T>.yaml for Austin, IMS, berlin, overtake_map;
  - `build` racestack/f/f.yaml with `--free-rule nonzero --profile racestack --start=...`;
  - `raceline` f1tenth/<T>/<T>_centerline.csv and mapzoo/<T>/<T>_centerline.csv;
  - `raceline` racestack/f/global_waypoints.json with `--profile racestack`.
It prints per run the IQP lap, the min-time lap reported (the JSON's `mintime_lap_s`), the lap at
0.02 m the iteration lowers and the QPs (kept steps) (`mintime_fine_lap_s`, `mintime_qps`,
`mintime_kept`), the min-time stage's seconds (`build -v`'s
`mintime_s`; for `raceline` not recorded) and the whole process's wall time, the least over
`--repeat` runs (the machine is shared: the load average is printed). `--qp` is passed through
(omitted: the configured default). `--cpu N` pins every run to core N with taskset.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

F1TENTH = ["Austin", "BrandsHatch", "Budapest", "Catalunya", "IMS", "Melbourne", "MexicoCity",
           "Montreal", "Monza", "MoscowRaceway", "Nuerburgring", "Oschersleben", "Sakhir",
           "SaoPaulo", "Sepang", "Shanghai", "Silverstone", "Spielberg"]
MAPZOO = ["Austin", "IMS", "berlin", "overtake_map"]
F_START = "--start=-5.024962,-22.778604,2.983722"


def runs(data):
    """(label, argv after the binary) for the 45 runs, in the README table's order."""
    out = []
    for t in F1TENTH:
        if t != "Montreal":
            out.append((f"build f1tenth/{t}",
                        ["build", f"{data}/f1tenth/{t}/{t}_map.yaml", "-v"]))
    for t in MAPZOO:
        out.append((f"build mapzoo/{t}", ["build", f"{data}/mapzoo/{t}/{t}.yaml", "-v"]))
    out.append(("build racestack/f", ["build", f"{data}/racestack/f/f.yaml", "-v",
                                      "--free-rule", "nonzero", "--profile", "racestack",
                                      F_START]))
    for t in F1TENTH:
        out.append((f"raceline f1tenth/{t}",
                    ["raceline", f"{data}/f1tenth/{t}/{t}_centerline.csv"]))
    for t in MAPZOO:
        out.append((f"raceline mapzoo/{t}",
                    ["raceline", f"{data}/mapzoo/{t}/{t}_centerline.csv"]))
    out.append(("raceline racestack/f (json)",
                ["raceline", f"{data}/racestack/f/global_waypoints.json", "--profile",
                 "racestack"]))
    return out


def run_once(binary, argv, qp, cpu, tmp):
    out = os.path.join(tmp, "out")
    shutil.rmtree(out, ignore_errors=True)
    cmd = [binary] + argv + ["--out", out, "--lines", "iqp,sp,mintime", "--json"]
    if qp:
        cmd += ["--qp", qp]
    if cpu is not None:
        cmd = ["taskset", "-c", str(cpu)] + cmd
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    rec = None
    for line in p.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            rec = json.loads(line)
    if rec is None or rec.get("status") != "ok" or "mintime_qps" not in rec:
        return None, p.stderr.strip()[-300:] or p.stdout.strip()[-300:]
    return dict(iqp=rec["iqp_lap_s"], lap=rec["mintime_lap_s"],
                fine=rec.get("mintime_fine_lap_s", float("nan")), qps=rec["mintime_qps"],
                kept=rec["mintime_kept"], is_iqp=rec["mintime_lap_s"] >= rec["iqp_lap_s"],
                stage=rec.get("mintime_s"), wall=wall), None


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--bin", default=os.path.join(root, "target", "release", "mapzoo"))
    ap.add_argument("--qp", choices=["banded", "clarabel"])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--only", default="")
    ap.add_argument("--data", default=os.environ.get(
        "MAPZOO_DATA", os.path.join(os.path.dirname(root), "shared", "data")))
    ap.add_argument("--cpu", type=int)
    a = ap.parse_args()
    if not os.path.isdir(a.data):
        a.data = "/work/shared/data"
    print(f"# {a.bin} --qp {a.qp or '(default)'}, min of {a.repeat}; "
          f"load average {open('/proc/loadavg').read().split()[:3]}", flush=True)
    print("| run | IQP lap | min-time lap (reported) | at 0.02 m | QPs (kept) "
          "| stage s | whole run s |")
    print("|---|---|---|---|---|---|---|")
    slowest = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for label, argv in runs(a.data):
            if a.only and a.only not in label:
                continue
            best, err = None, None
            for _ in range(max(1, a.repeat)):
                r, err = run_once(a.bin, argv, a.qp, a.cpu, tmp)
                if r is None:
                    break
                if best is None:
                    best = r
                best["wall"] = min(best["wall"], r["wall"])
                if r["stage"] is not None:
                    best["stage"] = min(best["stage"], r["stage"])
            if best is None:
                print(f"| {label} | failed: {err} |||||", flush=True)
                continue
            slowest = max(slowest, best["wall"])
            stage = "–" if best["stage"] is None else f"{best['stage']:.2f}"
            note = " (IQP)" if best["is_iqp"] else ""
            print(f"| {label} | {best['iqp']:.4f} | {best['lap']:.4f}{note} | {best['fine']:.4f} "
                  f"| {best['qps']} ({best['kept']}) | {stage} | {best['wall']:.2f} |",
                  flush=True)
    print(f"# slowest whole run {slowest:.2f} s; load average "
          f"{open('/proc/loadavg').read().split()[:3]}")


if __name__ == "__main__":
    sys.exit(main())
