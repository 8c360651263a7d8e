"""The exceptions of mapzoo: one base class, a subclass per kind of failure.

Every exception carries the library's message, which names the file (and the field,
line or pixel) that is wrong and says what to do; ``path`` is that file or folder
when the error has one, else ``None``.
"""

from __future__ import annotations

from typing import Optional


class Error(Exception):
    """Base class of every mapzoo error. ``path``: the file or folder concerned, or None."""

    path: Optional[str] = None


class MapError(Error):
    """The occupancy map gives no track: no free space, no loop, a leaking wall, an
    ambiguous infield (extraction stages 1-6)."""


class TrackError(Error):
    """The centerline gives no racing line: too few or duplicate points, widths out of
    range, a track too tight or infeasible for the safety width (stages 7-11)."""


class InputError(Error, ValueError):
    """A file or argument is malformed: a bad YAML field, CSV cell, JSON key, image,
    configuration key, option value or track name."""


class SolverError(Error):
    """The QP solver failed or did not converge on a well-formed track."""


class IoError(Error, OSError):
    """Reading or writing a file failed, or the output folder exists (pass ``force=True``)."""


__all__ = ["Error", "MapError", "TrackError", "InputError", "SolverError", "IoError"]
