"""The app in a student's hand (issue 55): the lecturer's link, opened on a phone or at 1280×720.

Controls show the view the figure shows: every page's deep link, opened in a fresh session, draws each of its
widgets at the link's value. A phone's first run is cut short by the next (the phone says its width:
app_pages/shell/screen.py); widgets set from the link only on the first run were drawn at their defaults there
("Lecture mode" off over a lecture, layer 0 over layer 2, bert-base-uncased over the bundled model's figures, an
empty sentence) on 9 of 15 pages. Each widget is read as the page shows it: a slider's value, a toggle's state, a
text box's words, the chosen option's words.

A tapped cell is explained on the screen: on a phone the explanation lies under the figure and its pickers, far
below the screen, and a tap seemed to do nothing; the result line is brought into view (app_pages/shell/into_view.py).
"""
from __future__ import annotations

import os
import urllib.parse

import pytest

from readability import PHONE, settle

CHROMIUM = "/usr/bin/chromium"
playwright = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")

MODEL = "sentence-transformers/all-MiniLM-L6-v2"
TEXT = "the old man walked slowly along the river bank"
SHARED = {"model_choice": "all-MiniLM-L6-v2", "text": TEXT, "lecture": True, "task": "base model (no task head)"}

# page: (its link's own keys, what each widget then shows, by the widget's key less "_w_"). A key's words are the
# page's own ("[CLS]" for stat=cls): a sentence or a number is shown as it is, a choice by its label.
LINKS = {
    "": ({}, {}),
    "tour": ({"chapter": "3", "token": "3", "head": "2"},
             {"chapter_pick": "3/", "token": "3 man", "head": "2"}),
    "architecture": ({}, {}),
    "tokens": ({"pair": "a second sentence"}, {"pair": "a second sentence"}),
    "layers": ({"layer": "2", "head": "3", "step": "attn.scores"},
               {"layer": "2", "head": "3", "stepper_Sub-step|pills_Sub-step": "Scores"}),
    "attention": ({"layer": "2", "horizontal": "1"}, {"layer": "2", "horizontal": True, "view": "Head view"}),
    "similarity": ({"sentences": "the cat sat\na dog ran\nthe kitten sat", "why": "1,3"},
                   {"sentences": "the cat sat\na dog ran\nthe kitten sat", "why": "1"}),
    "contexts": ({"sentence_a": "the bank of the river", "sentence_b": "money in the bank", "word": "bank"},
                 {"sentence_a": "the bank of the river", "sentence_b": "money in the bank", "word": "bank"}),
    "compare": ({"model_b": "bert-base-uncased", "head": "2"}, {"head": "2"}),
    "heads": ({"stat": "cls"}, {"stat": "[CLS]"}),
    "rollout": ({"layer": "3", "token": "2"}, {"layer": "3", "token": "2 old"}),
    "contributions": ({"layer": "2", "words": "1", "norm": "norm_residual"},
                      {"layer": "2", "words": True, "norm": "‖c + x‖ (residual)"}),
    "lens": ({"position": "3"}, {"position": "3"}),
    "intervene": ({"layer": "2", "head": "3", "vz": "1"}, {"layer": "2", "head": "3", "vz": True}),
    "attribute": ({"other": "the cat sat", "steps": "16", "baseline": "mask", "norms": "1"},
                  {"other": "the cat sat", "steps": "16", "baseline": "the mask token", "norms": True}),
}

READ = r"""() => {
  const shown = {};
  for (const el of document.querySelectorAll("[class*='st-key-_w']")) {
    const key = [...el.classList].find((c) => c.startsWith('st-key-_w')).replace(/^st-key-_wl?_/, '');
    const slider = el.querySelector('[role=slider]'), toggle = el.querySelector('input[type=checkbox]');
    const text = el.querySelector('textarea, input:not([role=combobox]):not([type=checkbox])');
    const select = el.querySelector('input[role=combobox]'), chosen = el.querySelectorAll('[aria-checked=true]');
    shown[key] = slider ? slider.getAttribute('aria-valuenow') : toggle ? toggle.checked
      : select ? select.value : text ? text.value
      : [...chosen].map((b) => b.textContent.trim()).join('|');
  }
  return shown;
}"""

EVERY_WIDGET_DRAWN = """() => [...document.querySelectorAll("[class*='st-key-_w']")].every((el) =>
  el.querySelector('[role=slider], input, textarea, button'))"""  # a widget is drawn into its keyed box
# after the run that placed the box: under load a toggle's box was read once before its checkbox was in it


def link(page: str) -> str:
    keys = {"model": MODEL, "text": TEXT, **LINKS[page][0], "lecture": "1"}
    return f"{page}?{urllib.parse.urlencode(keys)}"


def wrong(shown: dict, expected: dict) -> dict:
    """What a page shows other than the link says: each expected widget by its key (or any of a|b, the same control
    drawn as a select on a projector and as pills on a phone); a number, a sentence or a state exactly, a label
    as the start of what is shown (a token's number and its piece, a chapter's number and title)."""
    found = {}
    for keys, want in expected.items():
        key = next((k for k in keys.split("|") if k in shown), None)
        got = shown.get(key)
        ok = got == want if isinstance(want, bool) else isinstance(got, str) and (
            got == want if key in LINKS_TEXT else want in got)
        if not ok:
            found[keys] = got
    return found


LINKS_TEXT = {"text", "pair", "sentences", "sentence_a", "sentence_b", "word", "other", "layer", "steps"}  # shown
# exactly


SCREENS = {"phone": dict(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=3),
           "desktop": dict(viewport={"width": 1280, "height": 720})}


def test_the_check_finds_a_control_that_disagrees():
    shown = {"layer": "0", "lecture": False, "text": TEXT + " and more", "token": "3 man", "stat": "[SEP]"}
    expected = {"layer": "2", "lecture": True, "text": TEXT, "token": "3 man", "stat": "[CLS]", "head": "1"}
    assert wrong(shown, expected) == {"layer": "0", "lecture": False, "text": TEXT + " and more", "stat": "[SEP]",
                                      "head": None}


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("page", LINKS)
def test_every_control_shows_the_link(server, browser, page, screen):
    """A fresh session (a student's first page) on each screen: every widget the page draws at the link's value."""
    context = browser.new_context(**SCREENS[screen])
    try:
        tab = context.new_page()
        tab.goto(f"{server}/{link(page)}")
        settle(tab)
        tab.wait_for_function(EVERY_WIDGET_DRAWN, timeout=30_000)
        shown = tab.evaluate(READ)
    finally:
        context.close()
    expected = {**SHARED, **LINKS[page][1]}
    assert not wrong(shown, expected), (wrong(shown, expected), shown)


FIGURE = "[class*='st-key-point-figure'] .js-plotly-plot"  # the step's heatmap
CELL_CENTRE = """([row, column]) => {  // where cell (row, column) of the step's heatmap is on the screen
  const figure = document.querySelector("[class*='st-key-point-figure'] .js-plotly-plot");
  const box = figure.getBoundingClientRect(), x = figure._fullLayout.xaxis, y = figure._fullLayout.yaxis;
  return [box.left + x._offset + x.l2p(column), box.top + y._offset + y.l2p(row)];
}"""
RESULT = "[class*='st-key-cell-result']"


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_a_tapped_cell_is_explained_on_the_screen(server, browser, screen):
    """The lecturer's link to a step; a tap (a click at 1280×720) on a cell: its explanation's result line is on the
    screen, whole."""
    context = browser.new_context(**SCREENS[screen])
    try:
        tab = context.new_page()
        keys = {"model": MODEL, "text": TEXT, "step": "attn.probs", "lecture": "1"}
        tab.goto(f"{server}/layers?{urllib.parse.urlencode(keys)}")
        settle(tab)
        tab.wait_for_function(f"(() => {{ const f = document.querySelector({FIGURE!r});"  # drawn for this screen
                              f" return f && f._fullLayout && f.getBoundingClientRect().width <= innerWidth; }})()",
                              timeout=60_000)
        settle(tab)  # a phone's second run, for its width, done
        assert tab.locator(RESULT).count() == 0  # no cell yet
        x, y = tab.evaluate(CELL_CENTRE, [3, 2])
        if screen == "phone":
            tab.touchscreen.tap(x, y)
        else:
            tab.mouse.click(x, y)
        tab.wait_for_selector(RESULT)
        settle(tab)
        tab.wait_for_function(f"(() => {{ const r = document.querySelector(\"{RESULT}\").getBoundingClientRect();"
                              f" return r.top >= 0 && r.bottom <= innerHeight; }})()", timeout=10_000)
        assert "cell=3%2C2" in tab.url or "cell=3,2" in tab.url, tab.url
    finally:
        context.close()
