"""The exported site explains a cell in the browser (frontend/src/explain.js: its op's recipe, ops/recipe.py, worked
out by frontend/src/recipe.js): here it is held equal to the app's own `explain` on every step of every block of every family's tiny model, for cells at
the corners and the middle of each step, in the first and the last head: the same formula character for character,
the same terms, the same value recomputed from the stored inputs, and the app's own figure of the op's kind, as the
app styles it on each screen, leaf for leaf (export/explanations.py's templates, filled in the page); and each
family's stepper draws its scores,
its attention and its layer's output, a cell's value recomputed equal."""
from __future__ import annotations

import os

import numpy as np
import pytest

from bertviz_lite import BUNDLED_MODEL, load_model, trace
from bertviz_lite.explaining import explain
from bertviz_lite.export import site_content, write_site
from bertviz_lite.export.explanations import WIDTHS
from bertviz_lite.export.screens import drawn
from bertviz_lite.figures import explanation_figure
from bertviz_lite.figures.explanation import LECTURE_TOP, TOP
from bertviz_lite.figures.screens import styled
from figure_json import differences, plain_figure
from tiers import sampled_families

CHROMIUM = "/usr/bin/chromium"
TEXT = "the bank of the river, and the bank of the sea"

EXPLAIN_IN_PAGE = """async (cells) => {
  const lecture = await BVL.lecture(BVL_SITE, 0);
  const out = [];
  for (const c of cells) {
    try {
      const e = await BVL.explain(lecture, c.step, c.head, c.at);
      const figures = Object.fromEntries(["browse", "lecture", "phone"].map((screen) => [
        screen, BVL.explanationFigure(e, lecture.tokens, screen)]));
      out.push({formula: e.formula, value: e.value, recomputed: e.recomputed, terms: e.terms, labels: e.labels,
                figures});
    } catch (error) { out.push({error: String(error)}); }
  }
  return out;
}"""


def same_figures(shown: dict, e, tokens: list[str], where: str) -> None:
    """The browser's explanation figure on each screen is the app's, styled as the app's Layers page styles it
    (figures/explanation.py explanation_figure, figures/screens.py styled), leaf for leaf, to float32's precision."""
    for screen, js in shown.items():
        lecture = screen == "lecture"
        fig = explanation_figure(e, tokens, LECTURE_TOP if lecture else TOP)
        if fig is None:
            assert js is None, (where, screen)
            continue
        apps = plain_figure(drawn(styled(fig, WIDTHS[screen], lecture=lecture)))
        assert js is not None and not differences(plain_figure(js), apps), (where, screen,
                                                                           differences(plain_figure(js), apps)[:5])


def sample_cells(t) -> list[dict]:
    """Three cells of every step (first, middle, last), in head 0 and the last head where the step has heads."""
    from bertviz_lite.export.steps import graphs

    cells = []
    for graph in graphs(t):
        for key, array in t.values(graph).items():
            node = graph.node(key)
            shape = array.shape[1:] if node.has_head_axis else array.shape
            heads = sorted({0, array.shape[0] - 1}) if node.has_head_axis else [None]
            corners = {tuple(0 for _ in shape), tuple(n // 2 for n in shape), tuple(n - 1 for n in shape)}
            cells += [{"step": graph.name(key), "head": head, "at": list(at)} for head in heads for at in sorted(corners)]
    return cells


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")
@pytest.mark.parametrize("family", sampled_families())
def test_the_browsers_explanation_of_a_cell_is_the_apps(family, every_tiny_dir, tmp_path):
    from playwright.sync_api import sync_playwright

    loaded = load_model(every_tiny_dir[family])
    site = write_site(tmp_path / "site", site_content(loaded, [TEXT]))
    t = trace(loaded, TEXT)
    cells = sample_cells(t)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        page.goto((site / "index.html").as_uri())
        shown = page.evaluate(EXPLAIN_IN_PAGE, cells)
        last = t.num_heads - 1  # the keys of the last query head: under grouped queries, a shared key/value head
        for step, head in (("attn.scores", 0), ("attn.probs", 0), ("attn.k", last), (t.graph("layers", 0).keys[-1], 0)):
            page.goto((site / "index.html").as_uri() + f"#/layers?layer=0&step={step}&head={head}&cell=1,1")
            page.wait_for_selector("#step-figure .main-svg")
            page.wait_for_selector(".result.ok")  # the clicked cell recomputed equal to the stored one
            if step == "attn.k" and t.num_key_value_heads < t.num_heads:
                assert "key/value head" in page.locator(".explained").inner_text()
        for analysis in ("heads", "rollout", "contributions", "lens"):  # each family's analyses, in the page
            page.goto((site / "index.html").as_uri() + f"#/{analysis}?layer=1")
            page.wait_for_selector(f"[id^=figure-{analysis}-] .main-svg, [data-point].note, [data-error]")  # this page's
            assert page.locator("[data-error]").count() == 0, f"{family} {analysis}"
            assert page.locator(".result.bad").count() == 0, f"{family} {analysis}"  # every check holds
        assert page.locator(".result.ok").count() == (0 if page.locator("[data-point].note").count() else 1)
        page.goto((site / "index.html").as_uri() + "#/contributions")
        page.wait_for_selector("[data-point] .main-svg")
        assert page.locator(".result.ok").count() == 2, family  # both checks against the model's own numbers
        browser.close()
    ops = set()
    for cell, js in zip(cells, shown):
        where = f"{family} {cell}"
        assert "error" not in js, f"{where}: {js.get('error')}"
        e = explain(t, cell["step"], cell["head"], tuple(cell["at"]))
        ops.add(e.op)
        assert js["formula"] == e.formula, where
        assert js["value"] == pytest.approx(e.value, rel=1e-7, abs=1e-30), where
        assert js["labels"] == {k: str(v) for k, v in e.labels.items()}, where
        assert [label for label, _ in js["terms"]] == [label for label, _ in e.terms], where
        np.testing.assert_allclose([v for _, v in js["terms"]], [v for _, v in e.terms], rtol=1e-9, atol=1e-12,
                                   err_msg=where)
        first = not any(cell["at"])  # a step's first cell on every screen, the others on a browser's (each styled
        # figure costs the test tens of ms in Python)
        same_figures({k: v for k, v in js["figures"].items() if first or k == "browse"}, e, t.tokens, where)
        if js["recomputed"] is None:  # computed by the model's own function at export: the page says so, no check
            assert e.op == "relative_positions", where
        else:
            assert js["recomputed"] == pytest.approx(e.recomputed, rel=1e-6, abs=1e-9), where
    assert {"linear", "softmax", "mask", "weighted_sum"} <= ops


NUMBERS_IN_PAGE = """(values) => values.map((v) => [BVL.fixed(v, 4), BVL.fixed(v, 3), BVL.general(v, 4), BVL.general(v, 6),
                                                    BVL.num(v)])"""


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")
def test_the_browser_writes_numbers_as_python_writes_them(tmp_path):
    """numbers.js's fixed, general and num against Python's own format and ops.worked.num, on exact ties (which
    Python rounds to even), values just off a tie, signs, tiny, large and masked numbers, and random floats."""
    from playwright.sync_api import sync_playwright

    from bertviz_lite.ops.worked import MASKED_BELOW, num

    edges = [0.00025, 0.12345, 0.00005, 0.03125, 0.5, 2.5, 1.5, 0.125, -0.03125, -0.00001, -0.0, 0.0, 1e-7,
             12345.678, 99999.5, 123456789.0, 2.8284271247461903, 4.898979485566356, 1e-12, 1e-05, MASKED_BELOW * 2,
             0.99995, 9999.99995]
    rng = np.random.default_rng(0)
    values = edges + [float(v) for v in rng.normal(0, 3, 300)] + [float(np.float32(v)) for v in rng.normal(0, 1, 300)]
    site = write_site(tmp_path / "site", site_content(load_model(BUNDLED_MODEL), ["a"]))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        page.goto((site / "index.html").as_uri())
        shown = page.evaluate(NUMBERS_IN_PAGE, values)
        browser.close()
    for value, js in zip(values, shown):
        assert js == [f"{value:.4f}", f"{value:.3f}", f"{value:.4g}", f"{value:.6g}", num(value)], value
