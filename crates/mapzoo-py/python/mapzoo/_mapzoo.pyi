"""Type stubs of the extension module ``mapzoo._mapzoo`` (Rust, PyO3).

The public API is :mod:`mapzoo`; this module keeps to plain values (bytes of
little-endian int64 / float64, tuples, dicts, JSON text) that ``mapzoo`` turns into
DataFrames, numpy arrays and records. Every function that reads, builds or writes
releases the GIL. Errors are ``mapzoo.Error`` subclasses.
"""

from typing import Dict, List, Optional, Sequence, Tuple, Union

__version__: str

_Map = Tuple[int, int, bytes, float, Tuple[float, float, float]]

class RawSet:
    """A track set held in Rust: its files, lines, map and walls."""

    @property
    def name(self) -> str: ...
    @property
    def folder(self) -> Optional[str]: ...
    @property
    def warnings(self) -> List[str]: ...
    @staticmethod
    def columns() -> List[str]:
        """The waypoint CSV columns, in file order (``id`` first)."""
    def line_names(self) -> List[str]: ...
    def line(self, name: str) -> Optional[Tuple[int, bytes, bytes]]:
        """``(n, ids: n int64, values: n × 10 float64)`` of line ``name`` (``centerline``,
        ``iqp``, ``sp``, ``json:<line>``), or None."""
    def figures(self) -> List[Tuple[str, Optional[float], Optional[float]]]:
        """``(line, lap time s, top speed m/s)`` per racing line."""
    def walls(self) -> Optional[Tuple[bytes, bytes]]:
        """Right and left walls as float64 (x, y) pairs, metres, or None."""
    def map(self) -> Optional[_Map]:
        """``(width, height, gray row 0 on top, resolution m/px, origin (x m, y m, yaw rad))``."""
    def record_json(self) -> Optional[str]:
        """The CLI's ``--json`` record of a build or raceline, or None for a read set."""
    def speed_scaling(self) -> Optional[Dict[str, object]]: ...
    def ot_sectors(self) -> Optional[Dict[str, object]]: ...
    def file_names(self) -> List[str]: ...
    def write(self, out: str, force: bool = False) -> str:
        """Writes ``out/<name>/`` atomically; returns the folder."""

class RawSynth:
    """A generated map."""

    @property
    def lap_length(self) -> float: ...
    def image(self) -> _Map: ...
    def yaml(self) -> str: ...
    def truth_centerline(self) -> List[Tuple[float, float, float]]:
        """``(x m, y m, width m)`` per point of the true centerline."""
    def write(self, folder: str, name: str) -> Tuple[str, str]:
        """Writes ``<name>.png`` and ``<name>.yaml``; their paths."""

Options = Dict[str, object]
"""The pipeline options of a call: ``profile``, ``free_rule``, ``config`` (a path),
``vehicle_toml`` (a ``[raceline]`` table), ``safety_width``, ``safety_width_sp``, ``lines``
(names), ``racing_line``; an absent key or None keeps the default."""

def build(
    map_yaml: str,
    *,
    start: Optional[Tuple[float, float, float]] = None,
    reverse: bool = False,
    name: Optional[str] = None,
    out: Optional[str] = None,
    force: bool = False,
    options: Optional[Options] = None,
) -> Tuple[RawSet, Optional[str]]: ...
def build_many(
    map_yamls: Sequence[str],
    *,
    jobs: int = 0,
    reverse: bool = False,
    out: Optional[str] = None,
    force: bool = False,
    options: Optional[Options] = None,
) -> List[Union[Tuple[RawSet, Optional[str]], BaseException]]: ...
def read_set(folder: str) -> RawSet: ...
def raceline(
    values: bytes,
    n: int,
    *,
    track: str = "track",
    walls: Optional[Tuple[List[Tuple[float, float]], List[Tuple[float, float]]]] = None,
    options: Optional[Options] = None,
) -> RawSet: ...
def validate(folder: str) -> str:
    """The JSON record of ``mapzoo validate --json``."""
def check(
    folder: str,
    *,
    from_centerline: bool = False,
    lap_tol: float = 0.01,
    published: Optional[str] = None,
    options: Optional[Options] = None,
) -> str:
    """The JSON record of ``mapzoo check --json``."""
def generate(
    seed: int,
    *,
    lap_length: Optional[float] = None,
    width: Optional[float] = None,
    width_min: float = 1.6,
    width_max: float = 3.0,
    resolution: float = 0.05,
    margin: float = 2.0,
    size: Optional[Tuple[int, int]] = None,
    obstacles: int = 0,
    spurs: int = 0,
    pockets: int = 0,
    gap_width: Optional[float] = None,
    anti_alias: Optional[float] = None,
    noise: float = 0.0,
) -> RawSynth: ...
def dataset_shard(
    out: str,
    shard: Tuple[int, int],
    *,
    count: Optional[int] = None,
    seed: Optional[int] = None,
    maps: Optional[str] = None,
    generator: Optional[Dict[str, object]] = None,
    jobs: int = 0,
    options: Optional[Options] = None,
) -> List[str]:
    """Builds shard (K, N) of a dataset into ``out``; its index rows as JSON texts."""
def dataset_index(out: str, names: List[str], stem: str = "index") -> Tuple[str, str]:
    """Writes ``out/<stem>.csv`` and ``.jsonl`` of ``names`` from their row files."""
def run_cli(argv: List[str]) -> int:
    """The ``mapzoo`` command line on ``argv`` (program name first); its exit code."""
