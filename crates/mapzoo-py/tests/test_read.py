"""`read_set`, `load_dataset`, `validate`, `check`: published sets as pandas reads them,
records as the command line prints them."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pandas as pd
import pytest

import mapzoo
from conftest import run, tree


def _csv(path):
    return pd.read_csv(path, sep=";", skipinitialspace=True)


def _mapzoo_sets(data):
    return sorted(d for d in (data / "mapzoo").iterdir() if any(d.glob("*_centerline.csv")))


def test_read_set_of_mapzoo_sets_equals_pandas(data):
    folders = _mapzoo_sets(data)
    assert folders
    for d in folders:
        ts = mapzoo.read_set(d)
        assert ts.name == d.name and ts.folder == d
        pd.testing.assert_frame_equal(ts.centerline, _csv(d / f"{d.name}_centerline.csv"), check_exact=True)
        rl = d / f"{d.name}_racing_line.csv"
        if rl.is_file():
            pd.testing.assert_frame_equal(ts.iqp, _csv(rl), check_exact=True)
        assert list(ts.centerline.columns) == mapzoo.COLUMNS


@pytest.mark.parametrize(
    "flavour",
    [
        "racestack",
        "racestack-ros2",
    ],
)
def test_read_set_of_race_stack_sets_equals_the_json(data, flavour):
    base = data / flavour
    assert base.is_dir()
    for d in sorted(p for p in base.iterdir() if (p / "global_waypoints.json").is_file()):
        ts = mapzoo.read_set(d)
        doc = json.loads((d / "global_waypoints.json").read_text())
        keys = {
            "centerline": "centerline_waypoints",
            "iqp": "global_traj_wpnts_iqp",
            "sp": "global_traj_wpnts_sp",
        }
        for line, key in keys.items():
            expected = pd.DataFrame(doc[key]["wpnts"])[mapzoo.COLUMNS]
            expected["id"] = expected["id"].astype("int64")
            expected = expected.astype({c: "float64" for c in mapzoo.COLUMNS[1:]})
            pd.testing.assert_frame_equal(ts.line(line), expected, check_exact=True)
            pd.testing.assert_frame_equal(ts.json_waypoints[line], expected, check_exact=True)
        info = doc["map_info_str"]["data"]
        # ROS 1 writes "%.4f", the ROS 2 planner round(x, 4): "5.821s"
        def figures(value: float) -> set:
            return {f"{value:.4f}", f"{round(value, 4)}"}

        assert any(f"IQP estimated lap time: {t}s" in info for t in figures(ts.lap_times["iqp"]))
        assert any(f"IQP maximum speed: {v}m/s" in info for v in figures(ts.max_speeds["iqp"]))
        # Sector files: the same sectors as the YAML (both flavours).
        if (d / "speed_scaling.yaml").is_file():
            sc = ts.speed_scaling
            assert sc is not None and len(sc["sectors"]) >= 1
            assert all(s["start"] <= s["end"] for s in sc["sectors"])
        if ts.walls is not None:
            assert ts.walls.right.shape[1] == 2 and len(ts.walls.left) > 0


def test_mapzoo_csv_lap_time_is_the_published_figure(data):
    """A MapZoo set has no JSON: its lap time comes from the racing line's speeds (TUM
    calc_t_profile), and agrees with the dataset's published.csv to its 4 decimals."""
    import csv

    with open(data / "mapzoo" / "published.csv", newline="") as f:
        rows = {r["track"]: r for r in csv.DictReader(f)}
    checked = 0
    for d in _mapzoo_sets(data):
        row = rows.get(d.name)
        if row is None or not row.get("iqp_lap_s") or not (d / f"{d.name}_racing_line.csv").is_file():
            continue
        ts = mapzoo.read_set(d)
        assert abs(ts.lap_times["iqp"] - float(row["iqp_lap_s"])) <= 0.5e-4 + 1e-12, d.name
        assert abs(ts.max_speeds["iqp"] - float(row["iqp_vmax"])) <= 0.5e-4 + 1e-12, d.name
        checked += 1
    assert checked > 0


def test_write_of_a_read_set_reads_back_equal(data, tmp_path):
    src = data / "mapzoo" / "Austin"
    ts = mapzoo.read_set(src)
    folder = ts.write(tmp_path)
    again = mapzoo.read_set(folder)
    for line in ("centerline", "iqp"):
        pd.testing.assert_frame_equal(ts.line(line), again.line(line), check_exact=True)
    assert again.speed_scaling == ts.speed_scaling and again.ot_sectors == ts.ot_sectors
    # The CSVs, the map and the sector files are written back byte for byte.
    for name in ("Austin_centerline.csv", "Austin_racing_line.csv", "Austin.png", "speed_scaling.yaml", "ot_sectors.yaml"):
        assert (folder / name).read_bytes() == (src / name).read_bytes(), name


def test_load_dataset_reads_every_set_in_order(data, tmp_path):
    ds = mapzoo.load_dataset(data / "mapzoo")
    names = [d.name for d in _mapzoo_sets(data)]
    assert list(ds) == names
    assert all(isinstance(v, mapzoo.TrackSet) and v.name == k for k, v in ds.items())
    (tmp_path / "notes").mkdir()
    shutil.copytree(data / "mapzoo" / "Austin", tmp_path / "Austin")
    assert list(mapzoo.load_dataset(tmp_path)) == ["Austin"]


def test_validate_is_the_cli_record(data, cli):
    for d in [data / "mapzoo" / "Austin", data / "racestack" / "f"]:
        rep = mapzoo.validate(d)
        out = run([*cli, "validate", str(d), "--json"], check=False)
        assert rep.to_dict() == json.loads(out.stdout)
        assert out.returncode == (0 if rep.ok else 1)
        assert all(c.status in ("pass", "fail", "skip") for c in rep.checks) or rep.checks


def test_check_is_the_cli_record(data, cli):
    d = data / "racestack" / "f"
    rep = mapzoo.check(d, profile="racestack", free_rule="nonzero")
    out = run([*cli, "check", str(d), "--profile", "racestack", "--free-rule", "nonzero", "--json"], check=False)
    expected = json.loads(out.stdout.strip().splitlines()[-1])
    got = rep.to_dict()
    # Explanations word remedies as API names here and as flags on the command line.
    assert len(got.pop("explanations")) == len(expected.pop("explanations"))
    assert got == expected
    assert rep.passed == rep["pass"] and out.returncode == (0 if rep.passed else 1)
