"""The type stubs of the extension name every function and class it has, with the same
parameters, so editors and type checkers see the real API."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import mapzoo
from mapzoo import _mapzoo


def _stub():
    path = Path(mapzoo.__file__).with_name("_mapzoo.pyi")
    assert path.is_file(), "the wheel lacks _mapzoo.pyi"
    return ast.parse(path.read_text())


def test_stubs_list_every_function_and_class_with_its_parameters():
    tree = _stub()
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    public = {n for n in dir(_mapzoo) if not n.startswith("_")}
    assert public == set(funcs) | set(classes)
    for name, node in funcs.items():
        real = inspect.signature(getattr(_mapzoo, name))
        stub = [a.arg for a in node.args.args + node.args.kwonlyargs]
        assert stub == list(real.parameters), name
    for name, node in classes.items():
        members = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        real = {m for m in dir(getattr(_mapzoo, name)) if not m.startswith("_")}
        assert members == real, name


def test_the_public_functions_are_documented_with_units():
    for name in mapzoo.__all__:
        obj = getattr(mapzoo, name)
        if callable(obj) and not isinstance(obj, type) or name == "TrackSet":
            assert obj.__doc__ and len(obj.__doc__) > 40, name
    for fn in (mapzoo.build, mapzoo.raceline, mapzoo.generate):
        assert "metres" in fn.__doc__ or " m" in fn.__doc__, fn.__name__
