"""mapzoo: occupancy-grid race-track maps to the complete MapZoo file set, from Python.

The library behind the ``mapzoo`` command (Rust, through a PyO3 extension), with results
as pandas DataFrames and numpy arrays::

    import mapzoo
    ts = mapzoo.build("f/f.yaml", profile="racestack", free_rule="nonzero",
                      start=(-5.024962, -22.778604, 2.983722))
    ts.lap_times          # {'iqp': 11.1778..., 'sp': 11.7476...}   seconds
    ts.iqp[["x_m", "y_m", "vx_mps"]]
    ts.write("out")       # out/f/: the same files as `mapzoo build f/f.yaml --out out`

Units are the files' units: metres (``*_m``, ``d_right``, ``d_left``, walls, map origin),
radians (``psi_rad``), 1/m (``kappa_radpm``), m/s (``vx_mps``), m/s² (``ax_mps2``),
seconds (lap times), metres per pixel (map resolution).

Long work (reading, building, writing, checking) runs without the GIL: several Python
threads build several maps at once. Errors are :class:`mapzoo.Error` subclasses
(:class:`MapError`, :class:`TrackError`, :class:`InputError`, :class:`SolverError`,
:class:`IoError`) whose message names the file and says what to do.
"""

from __future__ import annotations

import json
import os
from collections import OrderedDict
from pathlib import Path
from typing import (
    TYPE_CHECKING,
    Any,
    Dict,
    Iterable,
    Iterator,
    List,
    Mapping,
    NamedTuple,
    Optional,
    Sequence,
    Tuple,
    Union,
)

import numpy as np
import pandas as pd

from mapzoo import _mapzoo
from mapzoo._errors import Error, InputError, IoError, MapError, SolverError, TrackError

if TYPE_CHECKING:  # pragma: no cover
    import concurrent.futures

    import matplotlib.axes

__version__: str = _mapzoo.__version__

PathLike = Union[str, "os.PathLike[str]"]

#: The columns of every waypoint CSV (and of the JSON's waypoints), in file order.
COLUMNS: List[str] = list(_mapzoo.RawSet.columns())

#: The line names of a set: the centerline and the two racing lines.
LINES: Tuple[str, ...] = ("centerline", "iqp", "sp")

__all__ = [
    "COLUMNS",
    "LINES",
    "Error",
    "GeneratedMap",
    "InputError",
    "IoError",
    "MapError",
    "MapImage",
    "Record",
    "SolverError",
    "TrackError",
    "TrackSet",
    "ViewPage",
    "Walls",
    "build",
    "build_many",
    "check",
    "dataset",
    "generate",
    "load_dataset",
    "load_index",
    "raceline",
    "read_set",
    "sample",
    "validate",
]


# --- small value types -------------------------------------------------------------------


class MapImage(NamedTuple):
    """An occupancy map: ``image`` (height × width uint8, row 0 on top, 0 = wall,
    254/255 = free), ``resolution`` (metres per pixel) and ``origin`` (x m, y m, yaw rad
    of the bottom-left pixel, as the map-server YAML gives it)."""

    image: np.ndarray
    resolution: float
    origin: Tuple[float, float, float]

    @property
    def extent(self) -> Tuple[float, float, float, float]:
        """``(left, right, bottom, top)`` in metres, for ``matplotlib``'s ``imshow``."""
        h, w = self.image.shape
        x0, y0 = self.origin[0], self.origin[1]
        return (x0, x0 + w * self.resolution, y0, y0 + h * self.resolution)


class Walls(NamedTuple):
    """The track walls: ``right`` and ``left`` (in the driving direction), each an n × 2
    array of (x, y) metres, a closed polyline (the last point is not repeated)."""

    right: np.ndarray
    left: np.ndarray


class Record(Mapping[str, Any]):
    """A JSON record of the command line (``--json``) with attribute access:
    ``rec.track``, ``rec["track"]``; nested records and lists are wrapped too.
    ``rec.passed`` reads the key ``pass`` (a Python keyword). ``to_dict()`` gives plain data."""

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[str, Any]):
        object.__setattr__(self, "_data", dict(data))

    @staticmethod
    def _wrap(value: Any) -> Any:
        if isinstance(value, dict):
            return Record(value)
        if isinstance(value, list):
            return [Record._wrap(v) for v in value]
        return value

    def __getitem__(self, key: str) -> Any:
        return Record._wrap(self._data[key])

    def __getattr__(self, key: str) -> Any:
        data = object.__getattribute__(self, "_data")
        if key == "passed" and "pass" in data:
            key = "pass"
        try:
            return Record._wrap(data[key])
        except KeyError:
            raise AttributeError(key) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"Record({self._data!r})"

    def to_dict(self) -> Dict[str, Any]:
        """The record as plain dicts and lists (as ``json.loads`` of the CLI's line gives it)."""
        return json.loads(json.dumps(self._data))


# --- helpers -----------------------------------------------------------------------------


def _path(p: Optional[PathLike]) -> Optional[str]:
    return None if p is None else os.fspath(p)


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float, np.integer, np.floating)):
        return repr(float(v)) if isinstance(v, (float, np.floating)) else str(int(v))
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, np.ndarray):
        v = v.tolist()
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise InputError(f"vehicle: cannot write {v!r} as a pipeline.toml value")


def _vehicle_toml(vehicle: Optional[Mapping[str, Any]]) -> Optional[str]:
    """A ``[raceline]`` table of pipeline.toml from a dict (``{"v_max": 12.0, "ggv": [...]}``)."""
    if vehicle is None:
        return None
    if not isinstance(vehicle, Mapping):
        raise InputError("vehicle: give a dict of [raceline] keys of pipeline.toml, e.g. {'v_max': 12.0}")
    lines = ["[raceline]"]
    for k, v in vehicle.items():
        lines.append(f"{k} = {_toml_value(v)}")
    return "\n".join(lines) + "\n"


def _options(
    profile: Optional[str],
    free_rule: Optional[str],
    config: Optional[PathLike],
    vehicle: Optional[Mapping[str, Any]],
    safety_width: Optional[float],
    safety_width_sp: Optional[float],
    lines: Optional[Sequence[str]] = None,
    racing_line: Optional[str] = None,
) -> Dict[str, Any]:
    """The pipeline options every building call takes, as the extension's ``options`` dict."""
    return {
        "profile": profile,
        "free_rule": free_rule,
        "config": _path(config),
        "vehicle_toml": _vehicle_toml(vehicle),
        "safety_width": safety_width,
        "safety_width_sp": safety_width_sp,
        "lines": _lines(lines),
        "racing_line": racing_line,
    }


def _lines(lines: Optional[Sequence[str]]) -> Optional[List[str]]:
    if lines is None:
        return None
    if isinstance(lines, str):
        lines = [x.strip() for x in lines.split(",")]
    return [str(x) for x in lines]


def _start(start: Optional[Sequence[float]]) -> Optional[Tuple[float, float, float]]:
    if start is None:
        return None
    s = tuple(float(v) for v in start)
    if len(s) != 3:
        raise InputError(f"start {start!r}: give (x, y, yaw): metres, metres, radians")
    return s  # type: ignore[return-value]


def _frame(n: int, ids: bytes, values: bytes) -> pd.DataFrame:
    arr = np.frombuffer(values, dtype="<f8").reshape(n, len(COLUMNS) - 1)
    df = pd.DataFrame(arr.copy(), columns=COLUMNS[1:])
    df.insert(0, COLUMNS[0], np.frombuffer(ids, dtype="<i8").astype(np.int64))
    return df


def _rebuilt_walls(c: pd.DataFrame) -> Walls:
    """Walls as centerline ± d_right / d_left along the normals of the closed polyline."""
    xy = c[["x_m", "y_m"]].to_numpy()
    if len(xy) > 1 and np.allclose(xy[0], xy[-1]):
        xy = xy[:-1]
        c = c.iloc[:-1]
    t = np.roll(xy, -1, axis=0) - np.roll(xy, 1, axis=0)
    t /= np.maximum(np.linalg.norm(t, axis=1, keepdims=True), 1e-12)
    right_normal = np.column_stack([t[:, 1], -t[:, 0]])
    right = xy + right_normal * c["d_right"].to_numpy()[:, None]
    left = xy - right_normal * c["d_left"].to_numpy()[:, None]
    return Walls(right, left)


# --- TrackSet ----------------------------------------------------------------------------


class ViewPage:
    """The page :meth:`TrackSet.view` wrote: ``path`` and ``html``; in Jupyter it shows inline
    (``_repr_html_``: the page in an isolated ``<iframe srcdoc>``)."""

    def __init__(self, path: Path, height: int = 900):
        self.path = Path(path)
        self.height = height

    @property
    def html(self) -> str:
        """The page's text."""
        return self.path.read_text(encoding="utf-8")

    def __repr__(self) -> str:
        return f"<mapzoo.ViewPage {str(self.path)!r}>"

    def _repr_html_(self) -> str:
        import html as _html

        return (
            f'<iframe srcdoc="{_html.escape(self.html, quote=True)}" '
            f'style="width:100%;height:{self.height}px;border:1px solid #ddd"></iframe>'
        )


class TrackSet:
    """A complete track set: built from a map (:func:`build`), computed from a centerline
    (:func:`raceline`) or read from a folder (:func:`read_set`).

    The lines are pandas DataFrames with exactly the CSV columns (:data:`COLUMNS`); their
    values are those of the set's files (CSVs with 8 decimals; the JSON's waypoints where
    the set has no CSV of that line)."""

    def __init__(self, raw: "_mapzoo.RawSet", folder: Optional[str] = None):
        self._raw = raw
        self._folder = folder if folder is not None else raw.folder
        self._cache: Dict[str, Optional[pd.DataFrame]] = {}

    def __repr__(self) -> str:
        laps = ", ".join(f"{k} {v:.4f} s" for k, v in self.lap_times.items() if v is not None)
        return f"<mapzoo.TrackSet {self.name!r}: {laps}>"

    @property
    def name(self) -> str:
        """Track name: the set folder's name and the prefix of its files."""
        return self._raw.name

    @property
    def folder(self) -> Optional[Path]:
        """The folder the set was read from or last written to, if any."""
        return None if self._folder is None else Path(self._folder)

    def line(self, name: str) -> Optional[pd.DataFrame]:
        """Line ``name`` (``centerline``, ``iqp``, ``sp``; ``json:centerline`` etc. for the
        JSON's waypoints) as a DataFrame, or None when the set lacks it. Columns: ``id``
        (int), ``s_m`` (arc length, m), ``d_m``, ``x_m``, ``y_m`` (m), ``d_right``,
        ``d_left`` (distance to the walls, m), ``psi_rad`` (heading, rad), ``kappa_radpm``
        (curvature, 1/m), ``vx_mps`` (speed, m/s), ``ax_mps2`` (acceleration, m/s²)."""
        if name not in self._cache:
            got = self._raw.line(name)
            self._cache[name] = None if got is None else _frame(*got)
        df = self._cache[name]
        return None if df is None else df.copy()

    @property
    def centerline(self) -> Optional[pd.DataFrame]:
        """The centerline (0.1 m spacing, d_right / d_left to the walls), a DataFrame."""
        return self.line("centerline")

    @property
    def iqp(self) -> Optional[pd.DataFrame]:
        """The iterative minimum-curvature racing line (``<T>_racing_line.csv``, or
        ``<T>_iqp.csv`` in a set that drives another line), a DataFrame."""
        return self.line("iqp")

    @property
    def mintime(self) -> Optional[pd.DataFrame]:
        """The minimum-lap-time line (``lines=("iqp", "sp", "mintime")``, ``<T>_mintime.csv``),
        a DataFrame; ``None`` when the set has none."""
        return self.line("mintime")

    @property
    def sp(self) -> Optional[pd.DataFrame]:
        """The shortest-path line (the JSON's ``global_traj_wpnts_sp``), a DataFrame."""
        return self.line("sp")

    @property
    def json_waypoints(self) -> Dict[str, pd.DataFrame]:
        """The waypoints of ``global_waypoints.json`` per line (empty when the set has none)."""
        out = {}
        for name in LINES:
            df = self.line(f"json:{name}")
            if df is not None:
                out[name] = df
        return out

    def array(self, name: str) -> Optional[np.ndarray]:
        """Line ``name`` as an n × 11 float64 array in :data:`COLUMNS` order (``id`` as float)."""
        df = self.line(name)
        return None if df is None else df.to_numpy(dtype=np.float64)

    def xy(self, name: str) -> Optional[np.ndarray]:
        """The (x, y) metres of line ``name``, an n × 2 array."""
        df = self.line(name)
        return None if df is None else df[["x_m", "y_m"]].to_numpy()

    @property
    def walls(self) -> Optional[Walls]:
        """Right and left walls, metres: the extraction's (built), the JSON's track bounds
        (read Race Stack sets), or the centerline ± d_right / d_left (CSV-only sets)."""
        got = self._raw.walls()
        if got is not None:
            r, l = (np.frombuffer(b, dtype="<f8").reshape(-1, 2).copy() for b in got)
            return Walls(r, l)
        c = self.centerline
        return None if c is None or len(c) < 3 else _rebuilt_walls(c)

    @property
    def lap_times(self) -> Dict[str, Optional[float]]:
        """Lap time per racing line (``iqp``, ``sp``, ``mintime`` if computed), seconds: computed, the JSON's
        ``map_info``, or from a CSV's speeds (TUM ``calc_t_profile``)."""
        return {k: lap for k, lap, _ in self._raw.figures()}

    @property
    def max_speeds(self) -> Dict[str, Optional[float]]:
        """Top speed per racing line, m/s."""
        return {k: v for k, _, v in self._raw.figures()}

    @property
    def speed_scaling(self) -> Optional[Dict[str, Any]]:
        """``speed_scaling.yaml``: ``global_limit`` and ``sectors`` (start, end waypoint
        indices of the racing line, ``scaling``, ``only_ftg``, ``no_ftg``), or None."""
        return self._raw.speed_scaling()

    @property
    def ot_sectors(self) -> Optional[Dict[str, Any]]:
        """``ot_sectors.yaml``: ``yeet_factor``, ``spline_len`` (waypoints),
        ``ot_sector_begin`` and ``sectors`` (start, end, ``ot_flag``), or None."""
        return self._raw.ot_sectors()

    @property
    def map(self) -> Optional[MapImage]:
        """The occupancy map (image, resolution m/px, origin), or None (a set from a centerline)."""
        got = self._raw.map()
        if got is None:
            return None
        w, h, gray, res, origin = got
        return MapImage(np.frombuffer(gray, dtype=np.uint8).reshape(h, w).copy(), res, origin)

    @property
    def record(self) -> Optional[Record]:
        """The CLI's ``--json`` record of this build (lap times, points, per-stage seconds),
        or None for a read set."""
        text = self._raw.record_json()
        if text is None:
            return None
        # as the CLI's line: a built track says "status": "ok" right after its seconds
        record: Dict[str, Any] = {}
        for key, value in json.loads(text).items():
            record[key] = value
            if key == "seconds":
                record["status"] = "ok"
        record.setdefault("status", "ok")
        return Record(record)

    @property
    def warnings(self) -> List[str]:
        """Warnings of the racing-line stages."""
        return list(self._raw.warnings)

    @property
    def files(self) -> List[str]:
        """The names of the files :meth:`write` writes, in set order."""
        return list(self._raw.file_names())

    def write(self, out: PathLike, *, force: bool = False) -> Path:
        """Writes the set as ``out/<name>/``, all files together (atomically), as
        ``mapzoo build --out`` does; ``force`` replaces an existing folder (else
        :class:`IoError`). Returns the folder."""
        folder = self._raw.write(os.fspath(out), force)
        self._folder = folder
        return Path(folder)

    def view(self, path: Optional[PathLike] = None) -> "ViewPage":
        """Writes the interactive page of ``mapzoo view`` (map, walls, every line coloured by
        speed, sectors, hover readout, linked v(s) / a_x(s) / kappa(s) plots; one
        self-contained HTML file) at ``path`` (default: ``<name>.html`` in a new temporary
        folder) and returns it as a :class:`ViewPage`, which Jupyter displays inline.

        A set without a folder (built in memory) is written to a temporary folder first; the
        page needs the set's map (a set from :func:`raceline` has none: :class:`InputError`)."""
        import tempfile

        out = (
            Path(path)
            if path is not None
            else Path(tempfile.mkdtemp(prefix="mapzoo-view-")) / f"{self.name}.html"
        )
        with tempfile.TemporaryDirectory(prefix="mapzoo-set-") as tmp:
            folder = self._folder if self._folder is not None else self._raw.write(tmp, False)
            code = _mapzoo.run_cli(["mapzoo", "view", os.fspath(folder), "-o", os.fspath(out)])
        if code != 0:
            raise InputError(
                f"{folder}: mapzoo view could not write {out} (exit {code}; its message is above)"
            )
        return ViewPage(out)

    def plot(
        self,
        ax: Optional["matplotlib.axes.Axes"] = None,
        *,
        lines: Iterable[str] = LINES,
        walls: bool = True,
        map: bool = True,
    ) -> "matplotlib.axes.Axes":
        """Draws the map, the walls and the lines (centerline, IQP, SP) on ``ax`` (a new
        figure if None), in metres, equal axes; returns ``ax``. Needs matplotlib
        (``pip install mapzoo[plot]``)."""
        try:
            import matplotlib.pyplot as plt
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("TrackSet.plot needs matplotlib: pip install matplotlib") from e
        if ax is None:
            _, ax = plt.subplots(figsize=(8, 8))
        m = self.map if map else None
        if m is not None:
            ax.imshow(m.image, cmap="gray", extent=m.extent, origin="upper", vmin=0, vmax=255)
        w = self.walls if walls else None
        if w is not None:
            for side, color in ((w.right, "tab:red"), (w.left, "tab:blue")):
                closed = np.vstack([side, side[:1]]) if len(side) else side
                ax.plot(closed[:, 0], closed[:, 1], color=color, lw=0.8)
        style = {
            "centerline": dict(color="gray", ls="--", lw=1.0, label="centerline"),
            "iqp": dict(color="tab:green", lw=1.5, label="IQP (racing line)"),
            "sp": dict(color="tab:orange", lw=1.2, label="SP (shortest path)"),
        }
        for name in lines:
            df = self.line(name)
            if df is not None:
                ax.plot(df["x_m"], df["y_m"], **style.get(name, dict(label=name)))
        ax.set_aspect("equal")
        ax.set_xlabel("x [m]")
        ax.set_ylabel("y [m]")
        ax.set_title(self.name)
        ax.legend(loc="best", fontsize="small")
        return ax


# --- functions ---------------------------------------------------------------------------


def build(
    map_yaml: PathLike,
    *,
    profile: Optional[str] = None,
    free_rule: Optional[str] = None,
    start: Optional[Sequence[float]] = None,
    reverse: bool = False,
    config: Optional[PathLike] = None,
    vehicle: Optional[Mapping[str, Any]] = None,
    safety_width: Optional[float] = None,
    safety_width_sp: Optional[float] = None,
    name: Optional[str] = None,
    out: Optional[PathLike] = None,
    force: bool = False,
    lines: Optional[Sequence[str]] = None,
    racing_line: Optional[str] = None,
) -> TrackSet:
    """Builds the complete set of one map (``mapzoo build``): centerline, walls, IQP and SP
    racing lines with speeds and lap times, sector files.

    - ``map_yaml``: the map-server YAML (its PNG next to it).
    - ``profile``: ``"mapzoo"`` (safety widths 1.2 / 1.2 m, the default) or ``"racestack"``
      (0.7 / 0.7 m).
    - ``free_rule``: ``"map-server"`` (the YAML's thresholds, default) or ``"nonzero"``
      (every non-black pixel, as the Race Stack reads its maps).
    - ``start``: ``(x, y, yaw)`` in metres, metres, radians: where waypoint 0 is and which
      way the car drives; default: the extraction's choice.
    - ``reverse``: drive the loop the other way round.
    - ``config``: a TOML file in the layout of ``pipeline.toml``.
    - ``vehicle``: keys of ``pipeline.toml``'s ``[raceline]`` table over the configuration
      (``{"v_max": 12.0, "mass": 3.5, "ggv": [[v, ax, ay], ...]}``; SI units).
    - ``safety_width`` / ``safety_width_sp``: of the IQP / SP line, metres.
    - ``name``: the track name (default: the YAML's file stem).
    - ``out``: also write the set as ``out/<name>/`` (``force`` replaces it).
    - ``lines``: the racing lines to compute, ``("iqp", "sp")`` (default) or
      ``("iqp", "sp", "mintime")``: the minimum-lap-time line too (``ts.line("mintime")``,
      ``ts.lap_times["mintime"]``, ``<T>_mintime.csv``).
    - ``racing_line``: the line the car drives, ``"iqp"`` (default), ``"mintime"`` (computed
      even if ``lines`` is not given) or ``"sp"``: it goes into ``<T>_racing_line.csv`` and the
      IQP slot of ``global_waypoints.json``, the sector files index it, and the IQP line is
      written as ``<T>_iqp.csv``.

    Raises :class:`MapError`, :class:`TrackError`, :class:`SolverError`,
    :class:`InputError` or :class:`IoError`."""
    raw, folder = _mapzoo.build(
        os.fspath(map_yaml),
        start=_start(start),
        reverse=reverse,
        name=name,
        out=_path(out),
        force=force,
        options=_options(profile, free_rule, config, vehicle, safety_width, safety_width_sp, lines, racing_line),
    )
    return TrackSet(raw, folder)


def build_many(
    map_yamls: Iterable[PathLike],
    *,
    jobs: int = 0,
    profile: Optional[str] = None,
    free_rule: Optional[str] = None,
    reverse: bool = False,
    config: Optional[PathLike] = None,
    vehicle: Optional[Mapping[str, Any]] = None,
    safety_width: Optional[float] = None,
    safety_width_sp: Optional[float] = None,
    out: Optional[PathLike] = None,
    force: bool = False,
    return_exceptions: bool = False,
    lines: Optional[Sequence[str]] = None,
    racing_line: Optional[str] = None,
    executor: Optional["concurrent.futures.Executor"] = None,
) -> List[Union[TrackSet, Error]]:
    """Builds many maps in parallel (``jobs`` threads, 0 = one per core), as
    ``mapzoo build A.yaml B.yaml ... --out OUT`` does: one failing map never stops the
    others. Returns the sets in the order of ``map_yamls``. If a map failed, raises its
    exception (the first failed one) after all ran, unless ``return_exceptions``: then
    the failed map's place holds its exception. Options as for :func:`build` (each map is
    named by its YAML's stem).

    ``executor``: any :class:`concurrent.futures.Executor` (a process pool, or a Dask
    ``Client.get_executor()``): one task per map, each building it on ``jobs`` threads in
    the worker and writing it to ``out`` (required: the workers write the sets, which are
    read back here; the paths must be the same on the workers)."""
    paths = [os.fspath(p) for p in map_yamls]
    opts = _options(profile, free_rule, config, vehicle, safety_width, safety_width_sp, lines, racing_line)
    if executor is not None:
        if out is None:
            raise InputError("build_many(executor=...) needs out=: the workers write the sets there")
        futures = [
            executor.submit(_build_task, [p], jobs, reverse, _path(out), force, opts) for p in paths
        ]
        results = [r for f in futures for r in f.result()]
    else:
        results = _mapzoo.build_many(
            paths,
            jobs=jobs,
            reverse=reverse,
            out=_path(out),
            force=force,
            options=opts,
        )
    sets: List[Union[TrackSet, Error]] = []
    for r in results:
        if isinstance(r, BaseException):
            if not return_exceptions:
                raise r
            sets.append(r)  # type: ignore[arg-type]
        elif isinstance(r, str):
            sets.append(read_set(r))
        else:
            raw, folder = r
            sets.append(TrackSet(raw, folder))
    return sets


def _build_task(
    paths: List[str], jobs: int, reverse: bool, out: str, force: bool, options: Dict[str, Any]
) -> List[Union[str, BaseException]]:
    """One executor task of :func:`build_many`: builds ``paths`` into ``out`` in the worker;
    the folder of each built set, or its exception (mapzoo's exceptions pickle with their
    message and ``path``)."""
    results = _mapzoo.build_many(paths, jobs=jobs, reverse=reverse, out=out, force=force, options=options)
    return [r if isinstance(r, BaseException) else r[1] for r in results]


# --- datasets (issue 22) -----------------------------------------------------------------


def _dataset_task(
    out: str,
    shard: Tuple[int, int],
    spec: Dict[str, Any],
    jobs: int,
    options: Dict[str, Any],
) -> List[str]:
    """One executor task of :func:`dataset`: builds one shard in the worker's process; its
    index rows as JSON texts."""
    return list(_mapzoo.dataset_shard(out, shard, jobs=jobs, options=options, **spec))


def dataset(
    out: PathLike,
    *,
    count: Optional[int] = None,
    seed: Optional[int] = None,
    maps: Optional[PathLike] = None,
    generator: Optional[Mapping[str, Any]] = None,
    shards: Optional[int] = None,
    executor: Optional["concurrent.futures.Executor"] = None,
    jobs: int = 0,
    profile: Optional[str] = None,
    free_rule: Optional[str] = None,
    config: Optional[PathLike] = None,
    vehicle: Optional[Mapping[str, Any]] = None,
    safety_width: Optional[float] = None,
    safety_width_sp: Optional[float] = None,
    lines: Optional[Sequence[str]] = None,
    racing_line: Optional[str] = None,
) -> pd.DataFrame:
    """Builds a dataset into ``out`` as ``mapzoo dataset build`` does: ``count`` tracks
    generated from ``seed`` on (``generator``: the options of :func:`generate`, e.g.
    ``{"lap_length": 60, "width_min": 1.8}``), or the maps of the folder ``maps``; writes
    ``out/index.csv`` and ``out/index.jsonl`` and returns the index (:func:`load_index`).
    A rerun skips every complete set; a failed track is a row, never an exception.

    ``executor``: any :class:`concurrent.futures.Executor` (``ProcessPoolExecutor``, a Dask
    ``Client.get_executor()``, …): the tracks are split into ``shards`` (default: 4 per
    worker the executor reports, else 8) and each task builds one shard in its worker
    (``jobs`` threads) and returns its rows; ``out`` must be the same path on every worker
    (a shared file system). The index is byte for byte the one of a single-process run
    (except the ``seconds`` column). Options as for :func:`build`."""
    opts = _options(profile, free_rule, config, vehicle, safety_width, safety_width_sp, lines, racing_line)
    spec: Dict[str, Any] = {
        "count": count,
        "seed": seed,
        "maps": _path(maps),
        "generator": dict(generator) if generator is not None else None,
    }
    out_s = os.fspath(out)
    if executor is None:
        rows = _dataset_task(out_s, (1, 1), spec, jobs, opts)
    else:
        n = shards or max(1, 4 * int(getattr(executor, "_max_workers", 0) or 2))
        if n < 1:
            raise InputError(f"shards={shards}: give at least 1")
        futures = [
            executor.submit(_dataset_task, out_s, (k, n), spec, jobs, opts) for k in range(1, n + 1)
        ]
        rows = [r for f in futures for r in f.result()]
    names = [json.loads(r)["name"] for r in rows]
    if len(set(names)) != len(names):
        raise Error("two tasks built the same track; was the executor given one spec?")
    _mapzoo.dataset_index(out_s, names)
    return load_index(out_s)


def load_index(folder: PathLike) -> pd.DataFrame:
    """The index of a dataset folder (``index.jsonl``, as ``mapzoo dataset build`` or
    :func:`dataset` wrote it) as a DataFrame: one row per track, the columns of
    ``index.csv`` plus ``files`` (file name → checksum) and ``set_dir`` (the set's folder)."""
    base = Path(folder)
    path = base / "index.jsonl"
    if not path.is_file():
        shards = sorted(base.glob("index-*-of-*.jsonl"))
        hint = (
            "; the shards are not merged yet: run `mapzoo dataset merge " + str(base) + "`"
            if shards
            else "; build it with `mapzoo dataset build` or mapzoo.dataset()"
        )
        raise InputError(f"{path}: no dataset index{hint}")
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    df = pd.DataFrame.from_records(records)
    if len(df):
        df["set_dir"] = [str(base / "sets" / n) for n in df["name"]]
    return df


def sample(
    index: Union[pd.DataFrame, PathLike], n: int, seed: Optional[int] = None, *, replace: bool = False
) -> pd.DataFrame:
    """``n`` tracks drawn from a dataset index (a DataFrame of :func:`load_index`, or the
    dataset folder), only those that built (``status == "ok"``): the same ``seed`` gives
    the same tracks. ``replace``: draw with replacement (more episodes than tracks). Each
    row's ``set_dir`` is the set to load (:func:`read_set`) or hand to a simulator."""
    df = index if isinstance(index, pd.DataFrame) else load_index(index)
    ok = df[df["status"] == "ok"]
    if not replace and n > len(ok):
        raise InputError(f"sample: {n} tracks asked for, the index has {len(ok)} that built; pass replace=True")
    rng = np.random.default_rng(seed)
    picks = rng.choice(len(ok), size=n, replace=replace)
    return ok.iloc[picks].reset_index(drop=True)


def read_set(folder: PathLike) -> TrackSet:
    """Reads a set folder: MapZoo (``<T>_centerline.csv``, ``<T>_racing_line.csv``, map,
    sector files) or Race Stack (``global_waypoints.json``, map, sector files; ROS 1 or
    ROS 2 sector files). Raises :class:`InputError` (naming the file) on a malformed file."""
    return TrackSet(_mapzoo.read_set(os.fspath(folder)))


def load_dataset(root: PathLike) -> "OrderedDict[str, TrackSet]":
    """Every track set under ``root`` (a MapZoo checkout: one folder per track), by folder
    name in sorted order. Folders without a centerline CSV or ``global_waypoints.json``
    are skipped."""
    base = Path(root)
    if not base.is_dir():
        raise InputError(f"{base}: not a folder; give the root of a MapZoo checkout")
    out: "OrderedDict[str, TrackSet]" = OrderedDict()
    for d in sorted(p for p in base.iterdir() if p.is_dir() and not p.name.startswith(".")):
        if (d / "global_waypoints.json").is_file() or any(d.glob("*_centerline.csv")):
            ts = read_set(d)
            out[d.name] = ts
    return out


_TUM = {"x_m": "x_m", "y_m": "y_m", "w_tr_right_m": "d_right", "w_tr_left_m": "d_left"}


def _centerline_values(centerline: Any) -> np.ndarray:
    """An n × 10 float64 array (the CSV columns after ``id``) from a DataFrame with the CSV
    columns (or TUM's ``x_m, y_m, w_tr_right_m, w_tr_left_m``), a :class:`TrackSet`, or an
    array with 11 (CSV), 10 (CSV without id) or 4 (TUM) columns."""
    if isinstance(centerline, TrackSet):
        centerline = centerline.centerline
    if isinstance(centerline, pd.DataFrame):
        df = centerline.rename(columns=lambda c: str(c).lstrip("# ").strip())
        if "d_right" not in df.columns and "w_tr_right_m" in df.columns:
            df = df.rename(columns=_TUM)
        missing = [c for c in ("x_m", "y_m", "d_right", "d_left") if c not in df.columns]
        if missing:
            raise InputError(
                f"centerline: missing column(s) {missing}; give the CSV columns {COLUMNS} "
                "or TUM's x_m, y_m, w_tr_right_m, w_tr_left_m"
            )
        n = len(df)
        arr = np.zeros((n, len(COLUMNS) - 1))
        for j, c in enumerate(COLUMNS[1:]):
            if c in df.columns:
                arr[:, j] = df[c].to_numpy(dtype=np.float64)
        if "s_m" not in df.columns and n > 1:
            xy = arr[:, 2:4]
            arr[1:, 0] = np.cumsum(np.linalg.norm(np.diff(xy, axis=0), axis=1))
        return arr
    arr = np.asarray(centerline, dtype=np.float64)
    if arr.ndim != 2 or arr.shape[1] not in (4, 10, 11):
        raise InputError(
            f"centerline: an array of shape {arr.shape}; give n × 11 (CSV columns), "
            "n × 10 (without id) or n × 4 (TUM x_m, y_m, w_tr_right_m, w_tr_left_m)"
        )
    if arr.shape[1] == 4:
        df = pd.DataFrame(arr, columns=list(_TUM))
        return _centerline_values(df)
    return np.ascontiguousarray(arr[:, 1:] if arr.shape[1] == 11 else arr)


def raceline(
    centerline: Any,
    *,
    name: str = "track",
    walls: Optional[Tuple[Any, Any]] = None,
    profile: Optional[str] = None,
    config: Optional[PathLike] = None,
    vehicle: Optional[Mapping[str, Any]] = None,
    safety_width: Optional[float] = None,
    safety_width_sp: Optional[float] = None,
    lines: Optional[Sequence[str]] = None,
    racing_line: Optional[str] = None,
) -> TrackSet:
    """The racing lines of an existing centerline (``mapzoo raceline``): IQP and SP with
    velocity profiles and lap times.

    ``centerline``: a DataFrame with the CSV columns (at least ``x_m``, ``y_m``,
    ``d_right``, ``d_left`` in metres; e.g. ``read_set(...).centerline`` or a
    ``pd.read_csv`` of a ``*_centerline.csv``) or TUM's columns, a :class:`TrackSet`, or an
    array (see :data:`COLUMNS`). ``walls``: ``(right, left)`` n × 2 arrays in metres;
    default: rebuilt as centerline ± d_right / d_left. Other options as for :func:`build`.
    The result has no map; :meth:`TrackSet.write` writes the CSVs and the JSON."""
    values = np.ascontiguousarray(_centerline_values(centerline), dtype="<f8")
    w = None
    if walls is not None:
        r, l = (np.asarray(x, dtype=np.float64).reshape(-1, 2) for x in walls)
        w = ([tuple(p) for p in r.tolist()], [tuple(p) for p in l.tolist()])
    raw = _mapzoo.raceline(
        values.tobytes(),
        values.shape[0],
        track=name,
        walls=w,
        options=_options(profile, None, config, vehicle, safety_width, safety_width_sp, lines, racing_line),
    )
    return TrackSet(raw)


def validate(folder: PathLike) -> Record:
    """The dataset's checklist on a set folder (``mapzoo validate --json``): ``dir``,
    ``layout``, ``ok``, and ``checks`` (each ``name``, ``status`` pass / fail / skip,
    ``detail``)."""
    return Record(json.loads(_mapzoo.validate(os.fspath(folder))))


def check(
    folder: PathLike,
    *,
    from_centerline: bool = False,
    lap_tol: float = 0.01,
    published: Optional[PathLike] = None,
    profile: Optional[str] = None,
    free_rule: Optional[str] = None,
    config: Optional[PathLike] = None,
    vehicle: Optional[Mapping[str, Any]] = None,
    safety_width: Optional[float] = None,
    safety_width_sp: Optional[float] = None,
) -> Record:
    """Rebuilds a published set from its own map (or, with ``from_centerline``, from its
    centerline) and compares (``mapzoo check --json``): published and regenerated lap
    times (s) and speeds (m/s), differences in %, line distances (m), explanations and
    ``pass`` (``report.passed``). ``lap_tol``: allowed lap-time difference, a fraction.
    ``published``: a ``published.csv`` with the published figures."""
    return Record(
        json.loads(
            _mapzoo.check(
                os.fspath(folder),
                from_centerline=from_centerline,
                lap_tol=lap_tol,
                published=_path(published),
                options=_options(profile, free_rule, config, vehicle, safety_width, safety_width_sp),
            )
        )
    )


class GeneratedMap:
    """A synthetic track map from :func:`generate`: ``map`` (a :class:`MapImage`),
    ``yaml`` (the map-server YAML text), ``lap_length`` (m), ``truth`` (the true
    centerline: n × 3 array of x m, y m, width m) and :meth:`write`."""

    def __init__(self, raw: "_mapzoo.RawSynth"):
        self._raw = raw
        w, h, gray, res, origin = raw.image()
        self.map = MapImage(np.frombuffer(gray, dtype=np.uint8).reshape(h, w).copy(), res, origin)
        self.yaml: str = raw.yaml()
        self.lap_length: float = raw.lap_length
        self.truth: np.ndarray = np.asarray(raw.truth_centerline(), dtype=np.float64).reshape(-1, 3)

    @property
    def image(self) -> np.ndarray:
        """The map image: height × width uint8, row 0 on top."""
        return self.map.image

    def write(self, folder: PathLike, name: str) -> Path:
        """Writes ``<name>.png`` and ``<name>.yaml`` into ``folder``; returns the YAML's path
        (ready for :func:`build`)."""
        _, yaml = self._raw.write(os.fspath(folder), name)
        return Path(yaml)

    def __repr__(self) -> str:
        h, w = self.map.image.shape
        return f"<mapzoo.GeneratedMap {w}×{h} px, {self.map.resolution} m/px, lap {self.lap_length:.1f} m>"


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
) -> GeneratedMap:
    """A random synthetic track map (``mapzoo generate``): the same seed and options give
    the same map. ``lap_length`` m (default drawn from 40-150 m); ``width`` m (constant)
    or a smooth width between ``width_min`` and ``width_max`` m; ``resolution`` m/px;
    ``margin`` m of wall around the track; ``size`` (width, height) px; ``obstacles``,
    ``spurs``, ``pockets``: how many; ``gap_width`` m: open the outer wall (the map leaks);
    ``anti_alias`` px of gray ramp at wall edges; ``noise``: probability of a random gray
    pixel away from the track."""
    return GeneratedMap(
        _mapzoo.generate(
            seed,
            lap_length=lap_length,
            width=width,
            width_min=width_min,
            width_max=width_max,
            resolution=resolution,
            margin=margin,
            size=size,
            obstacles=obstacles,
            spurs=spurs,
            pockets=pockets,
            gap_width=gap_width,
            anti_alias=anti_alias,
            noise=noise,
        )
    )
