"""`mapzoo.build` and `build_many` against the command line: the same lap times, the same files."""

from __future__ import annotations

import json
import threading
import time

import pandas as pd
import pytest

import mapzoo
from conftest import F_FLAGS, F_OPTIONS, run, tree


def test_build_of_f_gives_the_cli_lap_times_and_files(data, cli, tmp_path):
    yaml = data / "racestack" / "f" / "f.yaml"
    ts = mapzoo.build(yaml, out=tmp_path / "py", **F_OPTIONS)
    out = run([*cli, "build", str(yaml), "--out", str(tmp_path / "cli"), *F_FLAGS, "--json"])
    rec = json.loads(out.stdout.strip().splitlines()[-1])

    assert ts.lap_times == {"iqp": rec["iqp_lap_s"], "sp": rec["sp_lap_s"]}
    assert ts.max_speeds == {"iqp": rec["iqp_vmax"], "sp": rec["sp_vmax"]}
    ours = ts.record.to_dict()
    timing = [k for k in rec if k == "seconds" or k.endswith("_s") and not k.endswith("lap_s")]
    for k in timing:
        rec.pop(k)
        ours.pop(k)
    assert ours == rec
    assert tree(tmp_path / "py") == tree(tmp_path / "cli")
    assert sorted(ts.files) == sorted(p.name for p in (tmp_path / "cli" / "f").iterdir())
    assert ts.folder == tmp_path / "py" / "f"

    # The published set of f states the same lap times (DESIGN §4 parity), to its 4 decimals.
    published = mapzoo.read_set(data / "racestack" / "f")
    for line in ("iqp", "sp"):
        assert round(ts.lap_times[line], 4) == round(published.lap_times[line], 4)


def test_built_frames_are_the_written_files(data, tmp_path):
    yaml = data / "racestack" / "f" / "f.yaml"
    ts = mapzoo.build(yaml, **F_OPTIONS)
    assert ts.folder is None
    folder = ts.write(tmp_path)
    assert folder == tmp_path / "f"
    read = lambda name: pd.read_csv(folder / name, sep=";", skipinitialspace=True)
    pd.testing.assert_frame_equal(ts.centerline, read("f_centerline.csv"), check_exact=True)
    pd.testing.assert_frame_equal(ts.iqp, read("f_racing_line.csv"), check_exact=True)
    again = mapzoo.read_set(folder)
    for line in ("centerline", "iqp", "sp"):
        pd.testing.assert_frame_equal(ts.line(line), again.line(line), check_exact=True)
    # The JSON's map_info states lap times with 4 decimals.
    assert again.lap_times == {k: round(v, 4) for k, v in ts.lap_times.items()}
    # A second write without force refuses and names the folder; force replaces.
    with pytest.raises(mapzoo.IoError, match="f") as e:
        ts.write(tmp_path)
    assert e.value.path == str(folder)
    assert ts.write(tmp_path, force=True) == folder


def test_build_many_equals_the_cli_batch(data, cli, tmp_path):
    maps = [
        data / "racestack" / "f" / "f.yaml",
        data / "mapzoo" / "Austin" / "Austin.yaml",
        data / "mapzoo" / "IMS" / "IMS.yaml",
    ]
    sets = mapzoo.build_many(maps, jobs=2, out=tmp_path / "py", return_exceptions=True)
    p = run(
        [*cli, "build", *map(str, maps), "--out", str(tmp_path / "cli"), "--json", "--jobs", "2"],
        check=False,
    )
    records = {r["track"]: r for r in map(json.loads, p.stdout.split("\n")[:-1])}
    built = {s.name: s for s in sets if isinstance(s, mapzoo.TrackSet)}
    failed = [s for s in sets if not isinstance(s, mapzoo.TrackSet)]
    assert set(built) == set(records), p.stderr
    assert p.returncode == (1 if failed else 0)
    assert len(built) >= 2, f"too few maps built to compare: {failed}"
    assert [s.name for s in sets if isinstance(s, mapzoo.TrackSet)] == [
        m.stem for m in maps if m.stem in built
    ]
    for name, s in built.items():
        assert s.lap_times == {"iqp": records[name]["iqp_lap_s"], "sp": records[name]["sp_lap_s"]}
    assert tree(tmp_path / "py") == tree(tmp_path / "cli")


def test_build_many_raises_the_failed_maps_error_after_the_others(data, tmp_path):
    good = data / "racestack" / "f" / "f.yaml"
    bad = tmp_path / "broken.yaml"
    bad.write_text("image: broken.png\nresolution: 0.05\norigin: [0, 0, 0]\n")
    with pytest.raises(mapzoo.Error, match="broken"):
        mapzoo.build_many([good, bad], out=tmp_path / "out", **{k: v for k, v in F_OPTIONS.items() if k != "start"})
    # The good map was still built and written.
    assert (tmp_path / "out" / "f" / "global_waypoints.json").is_file()
    sets = mapzoo.build_many([good, bad], return_exceptions=True, free_rule="nonzero", profile="racestack")
    assert isinstance(sets[0], mapzoo.TrackSet) and isinstance(sets[1], mapzoo.Error)


def _best_of(n, fn):
    best = float("inf")
    for _ in range(n):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def test_builds_in_threads_run_in_parallel(data, tmp_path):
    """The GIL is released during a build: four builds in four threads take clearly less
    wall time than four in a row (< 0.8×), as the library's own parallel batch does.
    Where the machine has no idle core (other work keeps every core busy: the Rust batch
    itself gains little), the threads must still be about as fast as that batch."""
    import os
    import shutil

    if (os.cpu_count() or 1) < 2:
        pytest.skip("needs 2 cores")
    src = data / "mapzoo" / "Austin"
    yamls = []
    for i in range(4):
        shutil.copy(src / "Austin.png", tmp_path / f"a{i}.png")
        text = (src / "Austin.yaml").read_text().replace("Austin.png", f"a{i}.png")
        (tmp_path / f"a{i}.yaml").write_text(text)
        yamls.append(tmp_path / f"a{i}.yaml")
    mapzoo.build(yamls[0])  # warm the file cache

    def in_a_row():
        for y in yamls:
            mapzoo.build(y)

    def in_threads():
        threads = [threading.Thread(target=mapzoo.build, args=(y,)) for y in yamls]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    serial = _best_of(3, in_a_row)
    parallel = _best_of(3, in_threads)
    batch = _best_of(3, lambda: mapzoo.build_many(yamls, jobs=4))
    note = f"4 threads {parallel:.3f} s, in a row {serial:.3f} s, Rust batch {batch:.3f} s"
    # where the library's own batch shows idle cores (clearly faster than in a row), the
    # threads must be clearly faster too; near the edge (a loaded machine) they are held to
    # the batch, which measures what the machine can give at that moment
    if batch < 0.7 * serial:
        assert parallel < 0.8 * serial, note
    else:
        print(f"no idle core: {note}")
        assert parallel < 1.25 * batch, note


def test_python_runs_while_a_build_holds_no_gil(data):
    yaml = data / "mapzoo" / "Austin" / "Austin.yaml"
    done = threading.Event()
    ticks = 0

    def work():
        mapzoo.build(yaml)
        done.set()

    t = threading.Thread(target=work)
    t.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    t.join()
    # A build of Austin takes ~0.3 s: with the GIL held the loop would barely tick.
    assert ticks > 20


def test_vehicle_and_reverse_are_the_cli_config_and_reverse(data, cli, tmp_path):
    """`vehicle` is the [raceline] table of a --config file; `reverse` is --reverse."""
    yaml = data / "racestack" / "f" / "f.yaml"
    opts = {k: v for k, v in F_OPTIONS.items() if k != "start"}
    ts = mapzoo.build(yaml, vehicle={"v_max": 8.0, "mass": 3.9}, reverse=True, out=tmp_path / "py", **opts)
    cfg = tmp_path / "slow.toml"
    cfg.write_text("[raceline]\nv_max = 8.0\nmass = 3.9\n")
    flags = ["--profile", "racestack", "--free-rule", "nonzero", "--reverse", "--config", str(cfg)]
    run([*cli, "build", str(yaml), "--out", str(tmp_path / "cli"), *flags])
    assert tree(tmp_path / "py") == tree(tmp_path / "cli")
    assert max(ts.max_speeds.values()) <= 8.0 + 1e-9
    fast = mapzoo.build(yaml, reverse=True, **opts)
    assert all(ts.lap_times[k] > fast.lap_times[k] for k in ("iqp", "sp"))
    # The same keys from a config file give the same set.
    again = mapzoo.build(yaml, config=cfg, reverse=True, **opts)
    assert again.lap_times == ts.lap_times


def test_racing_line_mintime_is_the_cli_racing_line_mintime(data, cli, tmp_path):
    """``racing_line="mintime"`` gives the files of ``--racing-line mintime`` byte for byte; the
    set holds the IQP, SP and min-time lines under their own names, and the min-time lap is
    the one the JSON's IQP slot states."""
    yaml = data / "racestack" / "f" / "f.yaml"
    ts = mapzoo.build(yaml, out=tmp_path / "py", racing_line="mintime", **F_OPTIONS)
    out = run(
        [*cli, "build", str(yaml), "--out", str(tmp_path / "cli"), *F_FLAGS,
         "--racing-line", "mintime", "--json"]
    )
    rec = json.loads(out.stdout.strip().splitlines()[-1])
    assert rec["racing_line"] == "mintime"
    assert ts.lap_times == {
        "iqp": rec["iqp_lap_s"], "sp": rec["sp_lap_s"], "mintime": rec["mintime_lap_s"]
    }
    assert ts.lap_times["mintime"] < ts.lap_times["iqp"]
    assert tree(tmp_path / "py") == tree(tmp_path / "cli")
    assert {"f_iqp.csv", "f_mintime.csv"} <= set(ts.files)

    again = mapzoo.read_set(tmp_path / "py" / "f")
    for line in ("iqp", "mintime"):
        pd.testing.assert_frame_equal(ts.line(line), again.line(line), check_exact=True)
    assert round(again.lap_times["sp"], 4) == round(ts.lap_times["sp"], 4)
    # the IQP and min-time figures come from their own CSVs, not from the JSON's IQP slot
    assert list(again.lap_times) == ["iqp", "sp", "mintime"]
    for line in ("iqp", "mintime"):
        assert abs(again.lap_times[line] - ts.lap_times[line]) < 1e-3
    json_iqp_slot = again.line("json:iqp")
    assert len(json_iqp_slot) == len(ts.mintime)

    # lines= alone adds the line but drives the IQP line; a contradiction is an InputError.
    plain = mapzoo.build(yaml, lines=("iqp", "sp", "mintime"), **F_OPTIONS)
    assert "f_iqp.csv" not in plain.files and "f_mintime.csv" in plain.files
    with pytest.raises(mapzoo.InputError, match="racing_line"):
        mapzoo.build(yaml, lines=("iqp", "sp"), racing_line="mintime", **F_OPTIONS)
