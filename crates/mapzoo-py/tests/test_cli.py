"""The `mapzoo` command the wheel installs: the Rust command line, with its exit codes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import mapzoo
from conftest import F_FLAGS, run, tree


def _installed():
    exe = Path(sys.executable).parent / "mapzoo"
    assert exe.is_file(), "pip install did not install the mapzoo command"
    return str(exe)


def test_the_installed_command_is_the_cli(data, cli, tmp_path):
    exe = _installed()
    assert run([exe, "--version"]).stdout.strip() == f"mapzoo {mapzoo.__version__}"
    yaml = data / "racestack" / "f" / "f.yaml"
    run([exe, "build", str(yaml), "--out", str(tmp_path / "a"), *F_FLAGS])
    run([*cli, "build", str(yaml), "--out", str(tmp_path / "b"), *F_FLAGS])
    assert tree(tmp_path / "a") == tree(tmp_path / "b")
    # python -m mapzoo is the same command
    p = run([sys.executable, "-m", "mapzoo", "validate", str(tmp_path / "a" / "f")])
    assert "ok" in p.stdout


def test_exit_codes_and_messages_are_the_cli_ones(tmp_path, cli):
    exe = _installed()
    missing = tmp_path / "missing.yaml"
    for cmd in ([], ["build", str(missing), "--out", str(tmp_path)], ["frobnicate"], ["validate", str(tmp_path)]):
        a = subprocess.run([exe, *cmd], capture_output=True, text=True)
        b = subprocess.run([*cli, *cmd], capture_output=True, text=True)
        assert a.returncode == b.returncode and a.returncode != 0, cmd
        assert a.stderr == b.stderr and a.stdout == b.stdout, cmd
    for cmd in (["--help"], ["build", "--help"]):
        assert run([exe, *cmd]).stdout == run([*cli, *cmd]).stdout, cmd
    a = subprocess.run([exe, "build", str(missing), "--out", str(tmp_path)], capture_output=True, text=True)
    assert str(missing) in a.stderr
