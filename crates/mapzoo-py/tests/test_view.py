"""`TrackSet.view`: the interactive page of `mapzoo view` from Python (issue 23)."""

from __future__ import annotations

import json
import re

import mapzoo


def _page_data(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="mz-data">(.*?)</script>', html, re.S)
    assert m, "no data blob in the page"
    return json.loads(m.group(1))


def test_view_of_a_read_set_holds_its_lines_and_shows_inline(data, tmp_path):
    ts = mapzoo.read_set(data / "mapzoo" / "Austin")
    page = ts.view(tmp_path / "austin.html")
    assert page.path == tmp_path / "austin.html" and page.path.is_file()
    html = page.html
    assert "http://" not in html and "https://" not in html, "the page must not load anything"
    track = _page_data(html)["tracks"][0]
    assert track["name"] == "Austin"
    iqp = next(line for line in track["lines"] if line["name"] == "iqp")
    # the page's numbers are the set's, to the millimetre and the cm/s
    assert len(iqp["x"]) == len(ts.iqp)
    for col, key, decimals in [("x_m", "x", 3), ("y_m", "y", 3), ("vx_mps", "v", 2)]:
        want = [round(v, decimals) for v in ts.iqp[col]]
        assert max(abs(a - b) for a, b in zip(iqp[key], want)) < 0.6 * 10**-decimals, col
    shown = page._repr_html_()
    assert shown.startswith("<iframe srcdoc=") and "&lt;script" in shown


def test_view_of_a_built_set_writes_it_first(data, tmp_path):
    ts = mapzoo.build(str(data / "racestack" / "f" / "f.yaml"), profile="racestack",
                      free_rule="nonzero", start=(-5.024962, -22.778604, 2.983722))
    page = ts.view()
    assert page.path.name == "f.html" and page.path.is_file()
    names = [line["name"] for line in _page_data(page.html)["tracks"][0]["lines"]]
    assert names == ["iqp", "sp"]
