"""One source (issue 54): what the package's Python says and scales reaches a sentence typed on a live site with no
script edited. A copy of the package is changed in its Python alone, exported with --live by that copy, and the
typed sentence's page read in Chromium: the change shows, and the site's script is the committed bundle, byte for
byte."""
from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest

from test_export_live import CHROMIUM, EXPORTED, SECOND, YOURS, Quiet, Watched, chromium, open_link  # noqa: F401
from tiers import browser

PACKAGE = Path(__file__).resolve().parents[1] / "bertviz_lite"
CHANGES = {  # file in the package: (what it says today, what the copy says instead)
    "analyses/similarity_split.py": ('CAPTION = "**The {cells} cells add up to',
                                     'CAPTION = "**Changed in Python: the {cells} cells add up to'),
    "figures/style.py": ('"cosine": Scale(SIGNED, ends=(-1.0, 1.0)),', '"cosine": Scale(SIGNED, ends=(-0.5, 0.5)),'),
    "ops/attention.py": ('row="{where}, {me} puts {weight:.2f} of its attention on',
                         'row="{where}, {me} (changed in Python) puts {weight:.2f} of its attention on'),
    "stepthrough/words.py": ('CHECK = ("Recomputed by hand,', 'CHECK = ("Changed in Python: recomputed by hand,'),
    "tour/narration.py": ('"adds": "Every layer adds to the residual stream', '"adds": "Changed in Python: every layer adds to the residual stream'),
    "tour/chapters.py": ('TITLES = {"tokens": "The text becomes tokens"',
                         'TITLES = {"tokens": "Changed in Python: the text becomes tokens"'),
    "export/site_words.py": ('"tour_about": "This tour is about layer', '"tour_about": "Changed in Python: this tour is about layer'),
    "figures/attention_views.py": ('call("round", 120 + pitch * N)', 'call("round", 200 + pitch * N)'),  # a figure's size:
    # the head view's height, a rule the browser once had its own copy of
}

pytestmark = [browser, pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")]


def changed_copy(folder: Path) -> Path:
    """The package copied into `folder`, with CHANGES made in its Python (each must still be found as written)."""
    copy = folder / "bertviz_lite"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    for name, (today, instead) in CHANGES.items():
        text = (copy / name).read_text(encoding="utf-8")
        assert text.count(today) == 1, f"{name} no longer says {today!r}: update CHANGES"
        (copy / name).write_text(text.replace(today, instead), encoding="utf-8")
    return folder


def test_words_and_a_colour_range_changed_in_python_show_for_a_typed_sentence(tmp_path, chromium):
    """A narrator's sentence, a chapter's story and title, the stepper's check line, the similarity split's caption,
    a note of the site's own, the cosines' colour range and a figure's size (the head view's height)."""
    root = changed_copy(tmp_path / "copy")
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "bertviz_lite", "export", "sentence-transformers/all-MiniLM-L6-v2",
                           "--text", EXPORTED, "--text", SECOND, "--out", str(site), "--live"],
                          cwd=root, env={**os.environ, "PYTHONPATH": str(root)}, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (site / "site.js").read_bytes() == (PACKAGE / "export" / "assets" / "site.js").read_bytes()

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    watched = Watched(chromium, origin, viewport={"width": 1280, "height": 720})
    try:
        page = watched.page
        open_link(page, f"{origin}/index.html", "similarity", {"text": YOURS[0], "with": "1"},
                  "#yours-split .main-svg")
        page.wait_for_selector("#yours-cosines-0 .main-svg")
        assert "Changed in Python: the " in page.locator("#view").inner_text()  # the split's caption
        zmin, zmax = page.evaluate("() => [0, 1].map((k) => document.getElementById('yours-cosines-0').data[0]"
                                   "[k ? 'zmax' : 'zmin'])")
        assert (zmin, zmax) == (-0.5, 0.5)  # the typed sentence's cosines on the scale the copy's Python declares
        open_link(page, f"{origin}/index.html", "layers", {"text": YOURS[0]}, "p.ok")  # the stepper's check line
        assert page.locator("p.ok").inner_text().startswith("✔ Changed in Python: recomputed by hand")
        softmax = None
        for chapter in range(1, 30):  # the tour: the softmax's narrator and the residual stream's chapter
            open_link(page, f"{origin}/index.html", "tour", {"text": YOURS[0], "chapter": str(chapter)}, "#view h2")
            page.wait_for_function("k => (document.querySelector('#view .controls select') || {}).selectedIndex === k",
                                   arg=chapter - 1, timeout=60_000)  # this chapter's page, not the one before
            said = page.locator("#view .words").inner_text()  # the chapter's title and sentences
            assert "Changed in Python: this tour is about layer" in said  # the site's own note
            if chapter == 1:
                assert page.locator("#view h2").inner_text() == "Changed in Python: the text becomes tokens"
            if "the residual stream through every layer" in page.locator("#view h2").inner_text().lower():
                break
            if "of its attention on" in said:
                assert "(changed in Python) puts" in said
                softmax = chapter
        assert softmax and "Changed in Python: every layer adds to the residual stream" in said
        open_link(page, f"{origin}/index.html", "attention", {"text": YOURS[0], "layer": "0"},
                  "#attention-figure .main-svg")  # a short sentence's head view, as tall as the copy's rule says
        height, rows = page.evaluate("() => { const f = document.querySelector('#attention-figure .js-plotly-plot, "
                                     "#attention-figure.js-plotly-plot'); return [f.layout.height, "
                                     "f.data[f.data.length - 1].text.length]; }")
        assert height == 200 + 24 * rows > 460  # the copy's rule: 200 px and a 24-px row a token
        assert not watched.errors, watched.errors
    finally:
        watched.context.close()
        server.shutdown()
