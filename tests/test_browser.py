"""A real browser (Debian's Chromium through Playwright) opens deep links to every page of the running app and
checks each renders without an exception box. .ci/run installs both; elsewhere the test is skipped."""
import csv
import io
import os
import time
from pathlib import Path

import pytest

from bertviz_lite.benchmarks.app_process import Server

from readability import settle
from tiers import browser

CHROMIUM = "/usr/bin/chromium"
playwright = pytest.importorskip("playwright.sync_api")
pytestmark = [browser, pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")]
ROOT = Path(__file__).resolve().parent.parent
BUNDLED = "sentence-transformers/all-MiniLM-L6-v2"
LINKS = ["layers?layer=3&head=2", "", "architecture", "tokens?pair=the+cat+sat+on+the+mat", "layers?layer=3&head=2",
         "layers?step=embed.norm", "layers?step=pooler.out&pair=a+dog", "layers?model=roberta-base&step=ffn.act",
         "tokens?model=no-such%2Fmodel", "similarity", f"similarity?model={BUNDLED}&sentences=a+cat%0Aa+dog",
         f"layers?model={BUNDLED}&step=pooler.out&text=a+cat&pair=a+dog", f"heads?model={BUNDLED}&stat=cls",
         f"rollout?model={BUNDLED}&layer=2&words=1&lecture=1", f"contributions?model={BUNDLED}&layer=1",
         "lens?text=the+cat+%5BMASK%5D+sat", f"lens?model={BUNDLED}&text=the+%5BMASK%5D+sat", "heads"]


@pytest.fixture(scope="module")
def server():
    """The app on a free loopback port, as `bench --load` starts it."""
    app = Server(ROOT)
    yield app.url
    app.stop()


def wait_idle(page) -> None:
    page.wait_for_selector("[data-testid='stApp']", timeout=120_000)
    for _ in range(2):  # a run can be followed at once by a second one
        time.sleep(0.3)
        page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']", timeout=120_000)


@pytest.fixture
def page():
    """A 1280×720 tab in headless Chromium: a projector's screen."""
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield browser.new_page(viewport={"width": 1280, "height": 720}, accept_downloads=True)
        finally:
            browser.close()


def test_deep_links_render_without_exceptions(server, page):
    for link in LINKS:
        page.goto(f"{server}/{link}")
        wait_idle(page)
        # something shown (lecture mode has no page title): waited for, as a page's figure may be drawn after the
        # run that wait_idle saw end (a rollout lecture link showed nothing yet, once in a full run, 2026-11-27)
        page.wait_for_selector("h1, [data-testid='stAlert'], .js-plotly-plot", timeout=60_000)
        assert page.locator("[data-testid='stException']").count() == 0, link


def test_lecture_link_fits_a_projector_and_steps_forward(server, page):
    page.goto(f"{server}/layers?layer=2&step=attn.probs&lecture=1")
    settle(page)  # the charts drawn and laid out: measured mid-layout on a busy machine, the heatmap lay at y 996
    assert page.locator("[data-testid='stSidebar'][data-collapsed='true']").count() == 1
    heading = page.get_by_text("step 7 of 17: Attention (softmax)")
    heatmap = page.locator(".js-plotly-plot").first
    for element in (heading, heatmap):  # the step and its figure share the first screen
        box = element.bounding_box()
        assert box is not None and box["y"] + min(box["height"], 400) <= 720, box
    assert float(page.evaluate("getComputedStyle(document.documentElement).fontSize")[:-2]) >= 20
    page.get_by_role("button", name="▶").last.click()
    page.get_by_text("step 8 of 17: Context per head").wait_for(timeout=120_000)  # the rerun may start after wait_idle looks
    wait_idle(page)
    assert "step=attn.head_context" in page.url and "lecture=1" in page.url
    assert page.get_by_text("step 8 of 17: Context per head").count() == 1


def test_random_weights_switch_to_the_bundled_model_in_one_click(server, page):
    page.goto(f"{server}/layers?model=bert-base-uncased&text=the+bank+of+the+river&layer=4&head=2&step=attn.probs")
    wait_idle(page)
    assert page.get_by_text("Random weights").count() == 1
    page.get_by_role("button", name="Show real attention patterns").click()
    wait_idle(page)
    assert page.get_by_text("Random weights").count() == 0
    assert "all-MiniLM-L6-v2" in page.url and "layer=4" in page.url and "head=2" in page.url
    assert page.get_by_text("layer 4, head 2: Attention (softmax)").count() == 1
    assert page.locator("[data-testid='stException']").count() == 0


def test_todays_encoders_in_lecture_mode(server, page):
    """DeBERTa's three terms and ModernBERT's local layer, as a lecturer opens them on a 1280×720 projector."""
    text = "the+quick+brown+fox+jumps+over+the+lazy+dog"
    page.goto(f"{server}/layers?model=microsoft/deberta-v3-base&text={text}&layer=2&head=3&step=attn.c2p&lecture=1")
    wait_idle(page)
    assert page.locator("[data-testid='stException']").count() == 0
    assert page.get_by_text("step 8 of 21: Content → position").count() == 1
    heatmap = page.locator(".st-key-point-figure").bounding_box()
    assert heatmap is not None and heatmap["y"] + 200 <= 720, heatmap  # the step's own heatmap on the first screen
    assert page.get_by_text("scores = c2c + c2p + p2c").count() == 1  # the three terms side by side, under it
    page.get_by_role("button", name="▶").last.click()
    page.get_by_text("step 9 of 21: Position → content").wait_for(timeout=120_000)  # the rerun may start after wait_idle looks
    wait_idle(page)
    assert "step=attn.p2c" in page.url and page.get_by_text("step 9 of 21: Position → content").count() == 1

    page.goto(f"{server}/layers?model=answerdotai/ModernBERT-base&text={text}&layer=1&step=attn.probs&lecture=1")
    wait_idle(page)
    assert page.locator("[data-testid='stException']").count() == 0
    assert page.get_by_text("step 11 of 21: Attention (softmax)").count() == 1
    assert page.get_by_text("Layer 1 is local").count() == 1
    assert page.locator(".js-plotly-plot").count() >= 1


def test_compare_and_contexts_lecture_links(server, page):
    """Two heatmaps side by side on the first 1280×720 screen; the word-in-context chart with the bundled model."""
    page.goto(f"{server}/compare?model={BUNDLED}&model_b=bert-base-uncased&text=the+bank+of+the+river&lecture=1")
    wait_idle(page)
    assert page.locator("[data-testid='stException']").count() == 0
    for side in "AB":  # each model's head, drawn (Plotly draws after the run ends: wait for its SVG)
        page.wait_for_selector(f".st-key-point-{side} .main-svg", timeout=60_000)
    boxes = [page.locator(f".st-key-point-{side} .js-plotly-plot").bounding_box() for side in "AB"]
    assert all(box["y"] + 250 <= 720 for box in boxes), boxes  # both start high enough to be seen at once
    assert abs(boxes[0]["y"] - boxes[1]["y"]) < 5 and boxes[1]["x"] > boxes[0]["x"] + 400  # side by side

    page.goto(f"{server}/contexts?model={BUNDLED}&lecture=1")
    wait_idle(page)
    assert page.locator("[data-testid='stException']").count() == 0
    assert page.locator(".js-plotly-plot").count() == 1
    assert page.get_by_text("bank: 0.988 → 0.786").count() == 1


def test_a_tab_that_waits_its_turn_says_so_then_draws_its_page(server, page):
    """A hall opening at once: the tab that comes last sees how many are ahead of it, then its page."""
    import asyncio
    import threading
    import urllib.parse

    from bertviz_lite.benchmarks.load import crowd, sentence

    views = [("layers", f"model=bert-base-uncased&text={urllib.parse.quote_plus(sentence(i, 400))}&layer=1")
             for i in range(8)]
    hall = threading.Thread(target=lambda: asyncio.run(crowd(server, views, len(views), "a hall")))
    hall.start()
    time.sleep(1.0)  # the hall's tabs are in line before this one
    page.goto(f"{server}/layers?model=bert-base-uncased&text=the+bank+of+the+river&lecture=1")
    page.wait_for_selector("text=ahead of you", timeout=60_000)
    page.wait_for_selector("text=Recomputed by hand", timeout=180_000)
    assert page.locator("text=ahead of you").count() == 0, "the waiting notice stayed on the drawn page"
    assert page.locator("[data-testid='stException']").count() == 0
    hall.join(180)


def on_screen(page, plot_index: int, x: float, y: float) -> tuple[float, float]:
    """Where data coordinates (x, y) of a Plotly chart are on the page."""
    plot = page.locator(".js-plotly-plot").nth(plot_index)
    area = plot.locator(".nsewdrag").first.bounding_box()
    (x0, x1), (y0, y1) = plot.evaluate("g => [g._fullLayout.xaxis.range, g._fullLayout.yaxis.range]")
    return (area["x"] + area["width"] * (x - x0) / (x1 - x0),  # a y range runs from the bottom up
            area["y"] + area["height"] * (y1 - y) / (y1 - y0))


def click_at(page, plot_index: int, x: float, y: float) -> None:
    """Click a Plotly chart at data coordinates (x, y), as a person clicks a cell or a box."""
    page.mouse.click(*on_screen(page, plot_index, x, y))


def plot_kinds(page, *wanted: str) -> list[str]:
    """The page's Plotly figures in order, each by its kind (a diagram, else its first trace's type), once Plotly has
    drawn every one `wanted` names (it draws after the script's run ends)."""
    script = ("gs => gs.map(g => (g.layout && g.layout.meta && g.layout.meta.kind) || "
              "(g.data && g.data[0] && g.data[0].type))")
    page.wait_for_function(f"({script})([...document.querySelectorAll('.js-plotly-plot')])"
                           f".filter(k => {list(wanted)!r}.includes(k)).length >= {len(wanted)}", timeout=60_000)
    return page.locator(".js-plotly-plot").evaluate_all(script)


def test_a_click_explains_a_cell_and_a_box_goes_to_its_step(server, page):
    """Lecture mode at 1280×720: click a cell of the scores, see where its number comes from beside the heatmap,
    both on the screen;
    click the softmax's box in the diagram, and the stepper goes there keeping the cell."""
    page.goto(f"{server}/layers?model={BUNDLED}&text=the+bank+of+the+river&layer=2&head=3&step=attn.scores&lecture=1")
    wait_idle(page)
    kinds = plot_kinds(page, "heatmap", "diagram")
    heatmap, diagram = kinds.index("heatmap"), kinds.index("diagram")
    assert heatmap < diagram  # on a projector the step's figure comes first, the diagram under it
    page.mouse.move(*on_screen(page, heatmap, 4, 2))  # the cell's value on hover, from its click target
    value = page.locator(".js-plotly-plot").nth(heatmap).evaluate("g => g._fullData[0].z[2][4]")
    page.wait_for_selector(".hoverlayer .hovertext", timeout=10_000)
    hover = page.locator(".hoverlayer .hovertext").first.text_content()
    assert f"{value:.4f}" in hover and "click to explain" in hover  # the click target's hover, not the heatmap's
    click_at(page, heatmap, 4, 2)  # key 4, query 2 (category axes count cells from 0)
    wait_idle(page)
    assert "cell=2%2C4" in page.url or "cell=2,4" in page.url
    formula = page.get_by_text("q_2 · k_4 / 5.657").first
    types = page.locator(".js-plotly-plot").evaluate_all("gs => gs.map(g => g.data[0].type)")
    figure = page.locator(".js-plotly-plot").nth(types.index("heatmap")).bounding_box()
    box = formula.bounding_box()
    assert box is not None and box["y"] < 720 and box["x"] >= figure["x"] + figure["width"], (box, figure)  # beside it
    assert figure["y"] + figure["height"] <= 720  # the whole figure on the projector's screen
    assert page.locator("[data-testid='stMain']").get_by_text("From these numbers").count() == 1  # shown once (a
    # screen reader's live region, outside the page's main part, says it too: shell/into_view.py)
    diagram = plot_kinds(page, "diagram", "waterfall").index("diagram")  # the explanation's figures stand before it
    keys = page.locator(".js-plotly-plot").nth(diagram).evaluate("g => g.data[g.data.length - 1].customdata")
    boxes = page.locator(".js-plotly-plot").nth(diagram).evaluate(
        "g => [g.data[g.data.length - 1].x, g.data[g.data.length - 1].y]")
    i = keys.index("attn.probs")
    page.locator(".js-plotly-plot").nth(diagram).scroll_into_view_if_needed()  # under the figure and its words
    click_at(page, diagram, boxes[0][i], boxes[1][i])
    wait_idle(page)
    assert "step=" not in page.url  # attn.probs is the default step
    assert page.get_by_text("Attention (softmax), head 3, query 2 bank, key 4 the").count() >= 1
    assert page.get_by_text("exp(").count() >= 1  # the same cell, explained as a softmax


def test_attention_head_view_keeps_a_clicked_tokens_lines_and_the_model_view_opens_a_head(server, page):
    """Lecture mode at 1280×720: the head view fits the screen; a click on 'bank' keeps its lines and writes their
    numbers; in the model view a click on layer 2, head 5 opens that head alone in the head view."""
    page.goto(f"{server}/attention?model={BUNDLED}&text=the+bank+of+the+river&layer=1&heads=3&lecture=1")
    wait_idle(page)
    figure = page.locator(".js-plotly-plot").first
    box = figure.bounding_box()
    assert box["y"] + box["height"] <= 720 and page.locator("[data-testid='stException']").count() == 0
    click_at(page, 0, 0, 2)  # the query column (x = 0), token 2: 'bank'
    wait_idle(page)
    assert "focus=q2" in page.url
    numbers = page.locator(".js-plotly-plot").first.evaluate("g => (g.layout.annotations || []).map(a => a.text)")
    assert numbers and all(float(n) >= 0.05 for n in numbers)
    assert page.get_by_text("What query 2 'bank' puts on each key").count() == 1
    page.goto(f"{server}/attention?model={BUNDLED}&text=the+bank+of+the+river&view=model&lecture=1")
    wait_idle(page)
    targets = page.locator(".js-plotly-plot").first.evaluate("g => [g.data[1].x, g.data[1].y, g.data[1].customdata]")
    i = [list(c) for c in targets[2]].index([2, 5])
    click_at(page, 0, targets[0][i], targets[1][i])
    wait_idle(page)
    assert "heads=5" in page.url and "layer=2" in page.url and "view=" not in page.url  # the head view, head 5
    assert page.get_by_text("Layer 2, head 5").count() >= 1


def test_tour_chapter_fits_a_projector_and_steps_forward(server, page):
    """A tour chapter at 1280×720 in lecture mode: stepper, narration and the step's figure whole on one screen,
    the block's diagram under them (issue 44: the point first, the diagram folded below it); ▶ goes to the next
    chapter, and the URL says which."""
    page.goto(f"{server}/tour?chapter=8&lecture=1")
    wait_idle(page)
    assert page.get_by_text("'fox' puts 1.00 of its attention on 'brown'").count() == 1
    page.wait_for_function("document.querySelectorAll('.js-plotly-plot').length >= 2", timeout=60_000)  # drawn
    plots = page.locator(".js-plotly-plot")
    assert plots.count() == 2  # the step's figure, then the diagram
    figure, diagram = plots.nth(0).bounding_box(), plots.nth(1).bounding_box()
    assert figure["y"] + figure["height"] <= 720, figure  # whole
    assert figure["y"] + figure["height"] <= diagram["y"] < 720, diagram  # under it, its top still on the screen
    page.get_by_role("button", name="▶").click()
    wait_idle(page)
    assert "chapter=9" in page.url and page.get_by_text("Context per head").count() >= 1


def readme_lecture_links() -> list[str]:
    """The README's lecture links that name the bundled model: real weights with no network."""
    import re

    text = (ROOT / "README.md").read_text()
    links = re.findall(r"http://localhost:8501/(\S*lecture=1)", text)
    return sorted({link for link in links if f"model={BUNDLED}" in link})


HEATMAPS_WITHOUT_COLOUR_BAR = """() => [...document.querySelectorAll('.js-plotly-plot')].flatMap(gd =>
    (gd._fullData || []).filter(t => t.type === 'heatmap' && t.visible !== false
        && !(t.coloraxis ? gd._fullLayout[t.coloraxis].showscale : t.showscale))
      .map(t => (gd.layout.title && gd.layout.title.text) || t.name || 'untitled'))"""
HEATMAPS = """() => [...document.querySelectorAll('.js-plotly-plot')].flatMap(gd => gd._fullData || [])
    .filter(t => t.type === 'heatmap').length"""


def test_every_readme_lecture_link_reads_on_a_projector(server, page):
    """Each page's lecture link at 1280×720 on real weights: nothing wider than the screen, the page's first figure
    starting above the fold, and a colour bar on every heatmap."""
    links, heatmaps = readme_lecture_links(), 0
    assert len(links) >= 10
    for link in links:
        page.goto(f"{server}/{link}")
        wait_idle(page)
        assert page.locator("[data-testid='stException']").count() == 0, link
        # only Compare's second model may be random: no second real model can be had with no network
        assert page.get_by_text("Random weights").count() == ("model_b=" in link), link
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280, link
        figures = page.locator(".js-plotly-plot")
        if figures.count():
            top = figures.first.bounding_box()
            assert top is not None and top["y"] < 720, (link, top)
        assert page.evaluate(HEATMAPS_WITHOUT_COLOUR_BAR) == [], link
        heatmaps += page.evaluate(HEATMAPS)
    assert heatmaps >= 10  # the check above looked at real heatmaps


def test_a_lecture_goes_on_with_next_and_offers_the_link_to_its_view(server, page):
    page.goto(f"{server}/heads?model={BUNDLED}&text=the+bank+of+the+river&lecture=1")
    wait_idle(page)
    page.locator("[data-testid='stCode']").filter(has_text="lecture=1").wait_for(timeout=60_000)  # the link
    page.get_by_role("button", name="Next: Attention through the layers").click()
    page.wait_for_url("**/rollout?**", timeout=120_000)
    wait_idle(page)
    assert "text=the+bank+of+the+river" in page.url and "lecture=1" in page.url
    assert page.locator("[data-testid='stException']").count() == 0
    assert page.get_by_role("button", name="Next: What really reaches a token").count() == 1


def test_a_views_csv_downloads_after_its_page_let_go_of_its_model(server, page):
    """A download's numbers are made when it is clicked, after the page ended and let go of its trace and model
    (guarded.trace_or_stop): the model view's CSV takes them from the caches again."""
    page.goto(f"{server}/attention?view=model&model={BUNDLED}&text=the+cat+sat")
    wait_idle(page)
    with page.expect_download(timeout=60_000) as download:
        page.get_by_role("button", name="Download the numbers (CSV)").click()
    rows = list(csv.DictReader(io.StringIO(Path(download.value.path()).read_text())))
    per_query = {}
    for row in rows:
        where = (row["layer"], row["head"], row["query block"])
        per_query[where] = per_query.get(where, 0.0) + float(row["share"])
    assert len(per_query) == 6 * 12 * 5  # MiniLM-L6: 6 layers × 12 heads × 5 tokens ([CLS] the cat sat [SEP])
    assert all(abs(total - 1) < 1e-4 for total in per_query.values())  # each query's weights, summed over keys
