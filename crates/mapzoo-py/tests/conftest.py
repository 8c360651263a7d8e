"""Fixtures of the mapzoo Python tests: the reference data, the command line, temporary folders.

The reference data is ``$MAPZOO_DATA``, else ``shared/data`` beside an ancestor of the
repository (the project's ``../shared/data``), as the Rust tests find it. Where it is absent
the tests that need it skip, or fail when ``MAPZOO_REQUIRE_DATA`` is set (CI sets it).

The command line the API is compared with is ``$MAPZOO_BIN`` (CI points it at the binary
``cargo test`` built), else the ``mapzoo`` command the wheel installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

REPO = Path(__file__).resolve().parents[3]

#: The Race Stack's f as the Race Stack reads it, in its published direction.
F_OPTIONS = dict(
    profile="racestack",
    free_rule="nonzero",
    start=(-5.024962, -22.778604, 2.983722),
)
F_FLAGS = [
    "--free-rule",
    "nonzero",
    "--profile",
    "racestack",
    "--start=-5.024962,-22.778604,2.983722",
]


def _reference_data():
    env = os.environ.get("MAPZOO_DATA")
    if env and Path(env).is_dir():
        return Path(env)
    for a in [REPO, *REPO.parents]:
        d = a / "shared" / "data"
        if d.is_dir():
            return d
    return None


def _required() -> bool:
    v = os.environ.get("MAPZOO_REQUIRE_DATA", "")
    return v not in ("", "0")


@pytest.fixture(scope="session")
def data() -> Path:
    """The reference data folder (skip, or fail under MAPZOO_REQUIRE_DATA, when absent)."""
    d = _reference_data()
    if d is None:
        msg = "reference data not found (set MAPZOO_DATA or provide ../shared/data)"
        if _required():
            pytest.fail(msg + "; MAPZOO_REQUIRE_DATA is set, so this is a failure, not a skip")
        pytest.skip(msg)
    return d


@pytest.fixture(scope="session")
def cli() -> List[str]:
    """The command line to compare with: $MAPZOO_BIN, else the installed `mapzoo` command."""
    exe = os.environ.get("MAPZOO_BIN")
    if exe:
        assert Path(exe).is_file(), f"MAPZOO_BIN={exe} is not a file"
        return [exe]
    beside = Path(sys.executable).parent / "mapzoo"
    found = str(beside) if beside.is_file() else shutil.which("mapzoo")
    assert found, "the `mapzoo` command is not installed (pip install crates/mapzoo-py)"
    return [found]


def run(cmd: List[str], check: bool = True) -> subprocess.CompletedProcess:
    """Runs a command, capturing text output; with `check`, asserts exit code 0."""
    p = subprocess.run(cmd, capture_output=True, text=True)
    if check:
        assert p.returncode == 0, f"{cmd} exited {p.returncode}: {p.stderr}"
    return p


def tree(folder: Path) -> dict:
    """Every file under `folder` as relative path -> bytes."""
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }
