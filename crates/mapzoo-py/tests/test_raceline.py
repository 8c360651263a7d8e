"""`mapzoo.raceline` from a DataFrame against `mapzoo raceline` on the CSV; `generate`; `plot`."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import mapzoo
from conftest import run, tree


def test_raceline_of_a_centerline_frame_is_the_cli_raceline(data, cli, tmp_path):
    src = data / "mapzoo" / "Austin" / "Austin_centerline.csv"
    centerline = mapzoo.read_set(src.parent).centerline
    ts = mapzoo.raceline(centerline, name="Austin")
    p = run([*cli, "raceline", str(src), "--out", str(tmp_path / "cli"), "--json"])
    rec = json.loads(p.stdout.strip().splitlines()[-1])
    assert ts.lap_times == {"iqp": rec["iqp_lap_s"], "sp": rec["sp_lap_s"]}
    assert ts.map is None and ts.walls is not None
    folder = ts.write(tmp_path / "py")
    assert tree(folder) == tree(tmp_path / "cli")
    # The frames are the files written.
    pd.testing.assert_frame_equal(
        ts.sp, pd.read_csv(folder / "Austin_sp.csv", sep=";", skipinitialspace=True), check_exact=True
    )


def test_raceline_takes_pandas_tum_and_array_forms_alike(data):
    c = mapzoo.read_set(data / "mapzoo" / "Austin").centerline
    a = mapzoo.raceline(c)
    b = mapzoo.raceline(c.to_numpy())
    tum = c[["x_m", "y_m", "d_right", "d_left"]].rename(
        columns={"d_right": "w_tr_right_m", "d_left": "w_tr_left_m"}
    )
    t = mapzoo.raceline(tum.assign(s_m=c["s_m"]))
    for other in (b, t):
        for line in ("iqp", "sp"):
            pd.testing.assert_frame_equal(a.line(line), other.line(line), check_exact=True)


def test_generate_is_the_cli_generate(cli, tmp_path):
    g = mapzoo.generate(7, lap_length=60.0, width=2.5)
    assert g.image.dtype == np.uint8 and g.image.shape == g.map.image.shape
    assert abs(g.lap_length - 60.0) < 1e-9
    assert g.truth.shape[1] == 3 and np.allclose(g.truth[:, 2], 2.5)
    yaml = g.write(tmp_path / "py", "t")
    run([*cli, "generate", "--seed", "7", "--lap-length", "60", "--width", "2.5", "--out", str(tmp_path / "cli"), "--name", "t"])
    assert tree(tmp_path / "py") == tree(tmp_path / "cli")
    assert yaml == tmp_path / "py" / "t.yaml" and "t.png" in yaml.read_text()
    # The same seed gives the same map; a generated map builds.
    assert np.array_equal(mapzoo.generate(7, lap_length=60.0, width=2.5).image, g.image)
    ts = mapzoo.build(yaml)
    assert ts.lap_times["iqp"] > 0 and ts.map.image.shape == g.image.shape


def test_plot_draws_map_walls_and_lines(data):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    ts = mapzoo.read_set(data / "racestack" / "f")
    ax = ts.plot()
    labels = [l.get_label() for l in ax.get_lines()]
    assert {"centerline", "IQP (racing line)", "SP (shortest path)"} <= set(labels)
    assert len(ax.get_images()) == 1
    assert len(ax.get_lines()) == 5  # two walls and three lines
    x0, x1, y0, y1 = ts.map.extent
    xs = ts.iqp["x_m"]
    assert x0 <= xs.min() and xs.max() <= x1
