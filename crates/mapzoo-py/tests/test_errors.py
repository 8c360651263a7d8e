"""Bad input raises the exception class of its kind, with the library's message naming the file."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import mapzoo
from conftest import F_OPTIONS


def test_the_classes_share_one_base():
    for cls in (mapzoo.MapError, mapzoo.TrackError, mapzoo.InputError, mapzoo.SolverError, mapzoo.IoError):
        assert issubclass(cls, mapzoo.Error)
    assert issubclass(mapzoo.InputError, ValueError)
    assert issubclass(mapzoo.IoError, OSError)


def _map_copy(data, tmp_path):
    src = data / "racestack" / "f"
    for name in ("f.png", "f.yaml"):
        shutil.copy(src / name, tmp_path / name)
    return tmp_path / "f.yaml"


def test_a_bad_yaml_field_is_an_input_error_naming_the_file_and_field(data, tmp_path):
    yaml = _map_copy(data, tmp_path)
    text = yaml.read_text()
    yaml.write_text("\n".join("resolution: -0.1" if l.startswith("resolution") else l for l in text.splitlines()) + "\n")
    with pytest.raises(mapzoo.InputError) as e:
        mapzoo.build(yaml, **F_OPTIONS)
    assert str(yaml) in str(e.value) and "resolution" in str(e.value)
    assert e.value.path == str(yaml)


def test_a_missing_map_is_an_io_error_naming_the_file(tmp_path):
    missing = tmp_path / "nowhere.yaml"
    with pytest.raises(mapzoo.IoError) as e:
        mapzoo.build(missing)
    assert str(missing) in str(e.value)


def test_a_map_without_a_track_is_a_map_error(data, tmp_path):
    yaml = _map_copy(data, tmp_path)
    # A black image: no free space at all.
    import zlib, struct

    def png(w, h):
        raw = b"".join(b"\x00" + bytes(w) for _ in range(h))
        chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
        return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")

    (tmp_path / "f.png").write_bytes(png(64, 64))
    with pytest.raises(mapzoo.MapError) as e:
        mapzoo.build(yaml)
    assert "f.png" in str(e.value) or "f.yaml" in str(e.value)


def test_a_bad_csv_cell_is_an_input_error_naming_the_file_and_line(data, tmp_path):
    dst = tmp_path / "Austin"
    shutil.copytree(data / "mapzoo" / "Austin", dst)
    csv = dst / "Austin_racing_line.csv"
    lines = csv.read_text().splitlines()
    cells = lines[5].split(";")
    cells[3] = "oops"
    lines[5] = ";".join(cells)
    csv.write_text("\n".join(lines) + "\n")
    with pytest.raises(mapzoo.InputError) as e:
        mapzoo.read_set(dst)
    assert str(csv) in str(e.value) and "6" in str(e.value)
    assert e.value.path == str(csv)


def test_a_folder_that_is_no_set_is_an_input_error(tmp_path):
    with pytest.raises(mapzoo.InputError, match=str(tmp_path)):
        mapzoo.read_set(tmp_path)
    with pytest.raises(mapzoo.InputError, match="not a folder"):
        mapzoo.read_set(tmp_path / "absent")
    with pytest.raises(mapzoo.InputError, match="not a folder"):
        mapzoo.load_dataset(tmp_path / "absent")


def test_bad_options_are_input_errors(data):
    yaml = data / "racestack" / "f" / "f.yaml"
    with pytest.raises(mapzoo.InputError, match="profile"):
        mapzoo.build(yaml, profile="fast")
    with pytest.raises(mapzoo.InputError, match="free_rule"):
        mapzoo.build(yaml, free_rule="all")
    with pytest.raises(mapzoo.InputError, match="start"):
        mapzoo.build(yaml, start=(1.0, float("nan"), 0.0))
    with pytest.raises(mapzoo.InputError, match="safety_width"):
        mapzoo.build(yaml, safety_width=-1.0)
    with pytest.raises(mapzoo.InputError, match="v_max|raceline"):
        mapzoo.build(yaml, vehicle={"v_max": -3.0})
    with pytest.raises(mapzoo.InputError, match="lap_tol"):
        mapzoo.check(data / "racestack" / "f", lap_tol=-1.0)


def test_a_config_file_with_a_bad_key_names_the_file(data, tmp_path):
    cfg = tmp_path / "bad.toml"
    cfg.write_text("[raceline]\nsafety_width = 'wide'\n")
    with pytest.raises(mapzoo.InputError) as e:
        mapzoo.build(data / "racestack" / "f" / "f.yaml", config=cfg)
    assert str(cfg) in str(e.value)


def test_a_degenerate_centerline_is_a_track_error():
    line = np.array([[0.0, 0.0, 1.0, 1.0], [1.0, 0.0, 1.0, 1.0]])
    with pytest.raises(mapzoo.TrackError):
        mapzoo.raceline(line)
    with pytest.raises(mapzoo.InputError, match="columns"):
        mapzoo.raceline(np.zeros((5, 3)))


def test_a_panic_is_a_mapzoo_error_not_a_panic_exception():
    from mapzoo import _mapzoo

    with pytest.raises(mapzoo.Error, match="internal error in mapzoo.*boom") as e:
        _mapzoo._panic_for_tests("boom")
    assert type(e.value) is mapzoo.Error
    # The interpreter goes on: the next call works.
    assert mapzoo.generate(1, lap_length=45.0).image.size > 0
