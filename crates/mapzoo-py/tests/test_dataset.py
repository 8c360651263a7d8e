"""Datasets from Python (issue 22): ``mapzoo.dataset`` in one process equals the command line;
on a real Dask cluster (``LocalCluster``, two worker processes) and on a process pool it
equals the single-process run byte for byte (except the build times); ``load_index`` and
``sample``; ``build_many(executor=)``.

The Dask test skips where ``dask.distributed`` is not installed, and fails instead when
``MAPZOO_REQUIRE_DASK`` is set (``.ci/run`` installs Dask and sets it)."""

from __future__ import annotations

import concurrent.futures
import json
import multiprocessing
import os
from pathlib import Path

import pandas as pd
import pytest

import mapzoo
from conftest import run

#: Small generated tracks, so a dataset builds in seconds.
SMALL = {"lap_length": 30.0, "resolution": 0.1}
SMALL_FLAGS = ["--lap-length", "30", "--resolution", "0.1"]


def _comparable(folder: Path) -> dict:
    """Every file under `folder`, the build times (`seconds`) left out of rows and index."""
    out = {}
    for p in sorted(folder.rglob("*")):
        if not p.is_file():
            continue
        rel = str(p.relative_to(folder))
        if rel.endswith(".jsonl") or (rel.startswith("rows/") and rel.endswith(".json")):
            lines = []
            for line in p.read_text().splitlines():
                v = json.loads(line)
                assert isinstance(v.pop("seconds"), float), rel
                lines.append(json.dumps(v))
            out[rel] = lines
        elif rel.startswith("index") and rel.endswith(".csv"):
            out[rel] = [line.rsplit(",", 1)[0] for line in p.read_text().splitlines()]
        else:
            out[rel] = p.read_bytes()
    return out


@pytest.fixture(scope="module")
def single(tmp_path_factory) -> Path:
    """A 5-track dataset built in this process."""
    out = tmp_path_factory.mktemp("single")
    df = mapzoo.dataset(out, count=5, seed=40, generator=SMALL, jobs=1)
    assert list(df["name"]) == [f"synth{s}" for s in range(40, 45)]
    return out


def test_one_process_equals_the_command_line(single, cli, tmp_path):
    run([*cli, "dataset", "build", "--out", str(tmp_path), "--count", "5", "--seed", "40", *SMALL_FLAGS])
    assert _comparable(tmp_path) == _comparable(single)


def test_dask_local_cluster_equals_the_single_process_run(single, tmp_path):
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        msg = "dask.distributed is not installed (pip install 'dask[distributed]')"
        if os.environ.get("MAPZOO_REQUIRE_DASK", "") not in ("", "0"):
            pytest.fail(msg + "; MAPZOO_REQUIRE_DASK is set, so this is a failure, not a skip")
        pytest.skip(msg)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            pids = set(client.run(os.getpid).values())
            assert len(pids) == 2 and os.getpid() not in pids, "two worker processes"
            df = mapzoo.dataset(
                tmp_path, count=5, seed=40, generator=SMALL, executor=client.get_executor(), shards=3, jobs=1
            )
    assert len(df) == 5
    assert _comparable(tmp_path) == _comparable(single)


def test_a_process_pool_equals_the_single_process_run_and_resumes(single, tmp_path):
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=ctx) as ex:
        mapzoo.dataset(tmp_path, count=5, seed=40, generator=SMALL, executor=ex, jobs=1)
        assert _comparable(tmp_path) == _comparable(single)
        # a damaged set is rebuilt by the next run, the others are left as they are
        (tmp_path / "sets" / "synth42" / "synth42_centerline.csv").write_text("damaged")
        before = (tmp_path / "rows" / "synth41.json").read_bytes()
        mapzoo.dataset(tmp_path, count=5, seed=40, generator=SMALL, executor=ex, jobs=1)
    assert _comparable(tmp_path) == _comparable(single)
    assert (tmp_path / "rows" / "synth41.json").read_bytes() == before


def test_load_index_and_sample(single):
    df = mapzoo.load_index(single)
    assert isinstance(df, pd.DataFrame) and len(df) == 5
    for col in ("name", "seed", "status", "length_m", "width_min_m", "iqp_lap_s", "sp_lap_s", "checksum", "seconds"):
        assert col in df.columns, col
    assert (df["status"] == "ok").all()
    assert all(Path(d, f"{n}_centerline.csv").is_file() for d, n in zip(df["set_dir"], df["name"]))
    a = mapzoo.sample(df, 3, seed=7)
    assert list(a["name"]) == list(mapzoo.sample(single, 3, seed=7)["name"])
    assert len(set(a["name"])) == 3
    many = mapzoo.sample(df, 50, seed=1, replace=True)
    assert len(many) == 50 and set(many["name"]) <= set(df["name"])
    with pytest.raises(mapzoo.InputError, match="replace=True"):
        mapzoo.sample(df, 6)
    with pytest.raises(mapzoo.InputError, match="no dataset index"):
        mapzoo.load_index(single / "sets")


def test_failures_are_rows(tmp_path):
    df = mapzoo.dataset(tmp_path, count=2, seed=1, generator={"size": (20, 20)}, jobs=1)
    assert list(df["status"]) == ["failed", "failed"]
    assert list(df["error"]) == ["generate.does_not_fit"] * 2
    with pytest.raises(mapzoo.InputError, match="unknown"):
        mapzoo.dataset(tmp_path, count=1, seed=1, generator={"lenght": 3})


def test_build_many_on_an_executor_equals_in_process(tmp_path):
    maps = tmp_path / "maps"
    for s in (3, 4):
        mapzoo.generate(s, **SMALL).write(maps, f"m{s}")
    (maps / "bad.yaml").write_text("image: [broken\n")
    yamls = [maps / "m3.yaml", maps / "bad.yaml", maps / "m4.yaml"]
    here = mapzoo.build_many(yamls, out=tmp_path / "a", return_exceptions=True)
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=ctx) as ex:
        there = mapzoo.build_many(yamls, out=tmp_path / "b", return_exceptions=True, executor=ex)
        with pytest.raises(mapzoo.InputError, match="out="):
            mapzoo.build_many(yamls, executor=ex)
    assert isinstance(there[1], mapzoo.InputError) and "bad.yaml" in str(there[1])
    assert type(here[1]) is type(there[1])
    # the workers' sets are read back from `out`: the figures the files hold
    for a, b in ((here[0], there[0]), (here[2], there[2])):
        assert mapzoo.read_set(a.folder).lap_times == b.lap_times
    for name in ("m3", "m4"):
        fa = sorted(p.name for p in (tmp_path / "a" / name).iterdir())
        assert fa == sorted(p.name for p in (tmp_path / "b" / name).iterdir())
        for f in fa:
            assert (tmp_path / "a" / name / f).read_bytes() == (tmp_path / "b" / name / f).read_bytes(), f


def test_a_worker_killed_mid_run_leaves_nothing_a_resume_does_not_repair(single, tmp_path):
    """A worker process killed (SIGKILL) at several moments of its shard, then one resumed run:
    the single-process bytes."""
    import random
    import subprocess
    import sys
    import time

    code = (
        "import sys, mapzoo; "
        f"mapzoo.dataset(sys.argv[1], count=5, seed=40, generator={SMALL!r}, jobs=2)"
    )
    rng = random.Random(22)
    t = time.monotonic()
    subprocess.run([sys.executable, "-c", code, str(tmp_path / "timing")], check=True)
    span = time.monotonic() - t
    killed = 0
    for _ in range(6):
        # take a set away so the worker has work to do, then kill it somewhere in it
        victim = tmp_path / "ds" / "sets" / f"synth{rng.randrange(40, 45)}"
        if victim.is_dir():
            import shutil

            shutil.rmtree(victim)
        p = subprocess.Popen([sys.executable, "-c", code, str(tmp_path / "ds")])
        time.sleep(rng.uniform(0.2, span * 0.8))
        if p.poll() is None:
            p.kill()
            killed += 1
        p.wait()
    assert killed >= 3, f"only {killed} workers were killed before they finished"
    mapzoo.dataset(tmp_path / "ds", count=5, seed=40, generator=SMALL, jobs=2)
    assert _comparable(tmp_path / "ds") == _comparable(single)
