"""The project's readability check (tests/readability.py) over an exported site's views, as a lecturer shows them on
a 1280×720 projector in lecture mode and as a student opens them on a 390×844 phone, both the site's own links and
the lecturer's (lecture=1, issue 55): the site is held to what a person accepts, as the app is. Each view is held to
WCAG 2.2 AA's rules too, as axe-core checks them (tests/accessibility.py; in a browser's window as well). A tapped
cell's explanation comes onto the screen. A tour that asks first (ask=1) shows its figure on any choice, made by
keys, and says in words which was right."""
from __future__ import annotations

import json
import os
import time
import urllib.parse
from pathlib import Path

import pytest

from bertviz_lite import BUNDLED_MODEL, load_model
from bertviz_lite.asking import ASK_WORDS
from accessibility import (accessibility_grid, axe_problems, hovered, listed_lines, moving,
                           points_heard, skip_to_the_figure, small_controls, tab_to_a_grid, token_lines,
                           undescribed)
from bertviz_lite.export import site_content, write_site
from bertviz_lite.intervening.words import value_zeroing_titles
from readability import PHONE, problems
from test_export import CELL_CENTRE
from test_readability import WALKED_HEATMAP, sentence
from tiers import slow

CHROMIUM = "/usr/bin/chromium"
playwright = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")
LENGTHS = (10, 30)  # words of each exported sentence: the default lecture's and a longer one
VIEWS = ("overview", "tokens", "tour?chapter=1", "tour?chapter=2", "tour?chapter=8", "tour?chapter=19",
         "tour?chapter=20", "layers?layer=0&step=attn.scores&cell=1,2", "layers?step=attn.probs",
         "layers?layer=1&step=ffn.in&cell=2,100", "layers?step=ffn.act&cell=2,3", "layers?step=embed.norm&cell=1,5",
         "layers?step=pooler.out&cell=3", "attention?layer=2", "attention?view=model", "heads?stat=prev",
         "rollout?layer=5", "contributions?layer=2", "lens", "similarity", "similarity?why=1,2", "contexts",
         "intervene?off=0.2&layer=1", "attribute", "attribute?method=grad-input", "tour?chapter=8&ask=1",
         "heads?stat=prev&ask=1")  # (ask=1: a question, its
# figure held back)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    texts = [sentence(words) for words in LENGTHS]
    return write_site(tmp_path_factory.mktemp("readable") / "site", site_content(load_model(BUNDLED_MODEL), texts))


def views(lecture: bool) -> list:
    links = []
    for words in LENGTHS:
        for view in VIEWS:
            path, _, query = view.partition("?")
            keys = {"text": sentence(words), **dict(urllib.parse.parse_qsl(query)), **({"lecture": "1"} if lecture else {})}
            links.append((f"{path}-{words}w-{query}", f"#/{path}?{urllib.parse.urlencode(keys)}"))
    # the default lecture's length first (the first view in the default suite, the rest slow), the longer one by hand
    return [pytest.param((name, link), id=name, marks=() if i == 0 else (slow,) if f"-{LENGTHS[0]}w-" in name
                         else (slow, pytest.mark.matrix)) for i, (name, link) in enumerate(links)]


@pytest.fixture(scope="module")
def chromium():
    """One Chromium for the module (a launch per view cost about a third of each view's time); a context per view."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield browser
        browser.close()


def shown(chromium, site: Path, link: str, phone: bool, window: bool = False) -> list:
    """What the readability check and axe find on a view: on a phone, a projector, or (`window`) a browser's window
    of 1280×800, axe's and what moves with less motion asked for."""
    context = (chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True) if phone
               else chromium.new_context(viewport={"width": 1280, "height": 800 if window else 720},
                                         reduced_motion="reduce" if window else "no-preference"))
    try:
        page = context.new_page()
        page.goto((site / "index.html").as_uri() + link)
        page.wait_for_function("document.querySelector('[data-point]') || document.querySelector('[data-error]')")
        if "cell=" in link:  # the cell's explanation too (a linear map's reads its weights' script first)
            page.wait_for_function("(p => p && !p.textContent.includes('Reading the numbers'))"
                                   "(document.querySelector('.explanation-panel'))")
        page.wait_for_function("[...document.querySelectorAll('.js-plotly-plot')].every(p => p.querySelector('.main-svg'))")
        time.sleep(0.4)  # Plotly's last layout pass
        return ((moving(page) if window else problems(page, phone=phone)) + axe_problems(page) + undescribed(page)
                + (small_controls(page, "site") if phone else []))
    finally:
        context.close()


@pytest.mark.parametrize("view", views(lecture=True))
def test_a_site_view_is_readable_on_a_projector(chromium, site, view):
    found = shown(chromium, site, view[1], phone=False)
    assert not found, "\n".join(map(str, found))


@pytest.mark.parametrize("view", views(lecture=False))
def test_a_site_view_is_readable_on_a_phone(chromium, site, view):
    found = shown(chromium, site, view[1], phone=True)
    assert not found, "\n".join(map(str, found))


@pytest.mark.parametrize("view", views(lecture=True))
def test_the_lecturers_link_is_readable_on_a_phone(chromium, site, view):
    """A student opens the lecturer's link (lecture=1) on a phone: a narrow screen wins over the projector's
    styling (frontend/src/page.js screen), so every figure is the phone's."""
    found = shown(chromium, site, view[1], phone=True)
    assert not found, "\n".join(map(str, found))


@pytest.mark.parametrize("view", views(lecture=False))
def test_a_site_view_in_a_browsers_window_meets_wcag_aa(chromium, site, view):
    """The site's own links in a laptop's window (not lecture mode): axe finds no WCAG A or AA rule broken."""
    found = shown(chromium, site, view[1], phone=False, window=True)
    assert not found, "\n".join(map(str, found))


@pytest.mark.parametrize("phone", [False, True], ids=["projector", "phone"])
def test_a_site_asks_first_and_any_choice_made_by_keys_shows_the_figure_and_the_right_one(chromium, site, phone):
    """The tour's softmax chapter with ask=1, from disk: the question and its choices, no figure; every choice, made
    by Tab and Enter, shows the figure, and exactly one line says "right" in words (the chosen one "your choice");
    readable and passing axe once answered. On a projector the lecture's Next (Alt+Shift+N) shows the answer
    without a choice, then goes to the next chapter."""
    link = "#/tour?" + urllib.parse.urlencode({"text": sentence(LENGTHS[0]), "chapter": "8", "ask": "1",
                                               "lecture": "1"})
    viewport = dict(viewport=PHONE, is_mobile=True, has_touch=True) if phone else dict(viewport={"width": 1280,
                                                                                               "height": 720})
    for pick in range(4):
        context = chromium.new_context(**viewport)
        page = context.new_page()
        page.goto((site / "index.html").as_uri() + link)
        page.wait_for_selector(".choice")
        count = page.locator(".choice").count()
        assert 3 <= count <= 4 and page.locator("#tour-figure").count() == 0
        if pick >= count:
            break
        for _ in range(40):
            page.keyboard.press("Tab")
            if page.evaluate("[...document.querySelectorAll('.choice')].indexOf(document.activeElement)") == pick:
                break
        page.keyboard.press("Enter")
        page.wait_for_selector("#tour-figure .main-svg")
        lines = page.locator(".answer li").all_inner_texts()
        assert len([line for line in lines if " — right" in line]) == 1, lines
        assert " — your choice" in lines[pick], lines
        if pick == 0:
            time.sleep(0.4)  # Plotly's last layout pass
            found = problems(page, phone=phone) + axe_problems(page) + undescribed(page)
            assert not found, "\n".join(map(str, found))
        context.close()
    if phone:
        return
    page = chromium.new_page(viewport={"width": 1280, "height": 720})
    page.goto((site / "index.html").as_uri() + link)
    page.wait_for_selector(".choice")
    page.keyboard.press("Alt+Shift+N")  # the lecture's Next: the answer, with no choice
    page.wait_for_selector("#tour-figure .main-svg")
    assert page.get_by_text("Shown without a choice").count() == 1
    page.keyboard.press("Alt+Shift+N")  # then the next chapter, asking still
    page.wait_for_function("location.hash.includes('chapter=9') && location.hash.includes('ask=1')")
    page.goto((site / "index.html").as_uri() + link.replace("chapter=8", "chapter=20"))  # the tour's last: the
    page.wait_for_selector("a.next-view")  # lecture's next view, asking there too (as the app's links keep ask)
    assert "ask=1" in page.locator("a.next-view").get_attribute("href")
    page.close()
    page = chromium.new_page(viewport={"width": 1280, "height": 720})  # (a page that has not answered yet)
    page.goto((site / "index.html").as_uri() + link + "&hall=1")  # the lecturer's count: none on a static site
    page.wait_for_selector(".choice")
    assert page.get_by_text(ASK_WORDS["hall_static"]).count() == 1
    page.close()


def test_a_sites_heads_page_asks_which_head_as_the_app_asks(chromium, site):
    """The Heads view with ask=1 from disk asks the app's question (analyses/questions.py, on the trace's own
    fingerprint) of the link's layer; the grid and the striking heads wait for a choice, which shows them and one
    line that says "right"."""
    from bertviz_lite import trace
    from bertviz_lite.analyses.all_layers import all_layers
    from bertviz_lite.analyses.questions import head_question

    text = sentence(LENGTHS[0])
    expected = head_question(all_layers(trace(load_model(BUNDLED_MODEL), text)).fingerprints, "prev", 1)
    page = chromium.new_page(viewport={"width": 1280, "height": 720})
    page.goto((site / "index.html").as_uri() + "#/heads?" + urllib.parse.urlencode(
        {"text": text, "stat": "prev", "layer": "1", "ask": "1", "lecture": "1"}))
    page.wait_for_selector(".choice")
    assert page.locator(".choice").all_inner_texts() == [c.label for c in expected.choices]
    assert page.locator(".js-plotly-plot").count() == 0 and page.get_by_text("Striking heads").count() == 0
    page.locator(".choice").nth(expected.right).click()
    page.wait_for_selector(".js-plotly-plot .main-svg")
    lines = page.locator(".answer li").all_inner_texts()
    assert [line for line in lines if " — right" in line] == [expected.choices[expected.right].line
                                                             + " — right — your choice"]
    page.close()


@pytest.fixture(scope="module")
def compared_site(tmp_path_factory) -> Path:
    """A site of one sentence, which its Similarity view compares with the default lecture's six (a site of two has
    too few for a question of the closest), written without its sentence's parts (the view reads none)."""
    content = site_content(load_model(BUNDLED_MODEL), [sentence(LENGTHS[0])])
    return write_site(tmp_path_factory.mktemp("compared") / "site",
                      {**content, "steps": lambda: iter(()), "weights": lambda: iter(())})


@pytest.mark.parametrize("why", ["", "2,3"], ids=["closest", "pair"])  # 2, 3: the lecture's cat and kitten
def test_a_sites_similarity_asks_first_and_a_choice_shows_its_figures(chromium, compared_site, why):
    """The Similarity view with ask=1, from disk: the question the export asked with the app's function
    (analyses/questions.py: the sentence closest to the first, or a pair's token pair that adds most), its figures
    held back, readable and passing axe; a choice shows them and exactly one line that says "right"."""
    page = chromium.new_page(viewport={"width": 1280, "height": 720})
    page.goto((compared_site / "index.html").as_uri() + "#/similarity?" + urllib.parse.urlencode(
        {"ask": "1", "lecture": "1", **({"why": why} if why else {})}))
    page.wait_for_selector(".choice")
    found = problems(page) + axe_problems(page)
    assert not found, "\n".join(map(str, found))
    asked = page.evaluate(f"(d => ({'d.pairs[' + repr(why) + '].question' if why else 'd.question'}))"
                          "(BVL_SITE.similarity)")
    assert page.locator(".choice").all_inner_texts() == [c["label"] for c in asked["choices"]]
    assert page.locator(".js-plotly-plot").count() == 0
    page.locator(".choice").first.click()
    page.wait_for_selector("#similarity-0 .main-svg")
    lines = page.locator(".answer li").all_inner_texts()
    assert [line for line in lines if " — right" in line] == [
        next(c["line"] for c in asked["choices"] if c["right"]) + " — right"
        + (" — your choice" if asked["choices"][0]["right"] else "")]
    assert page.locator("#split-figure").count() == bool(why)
    page.close()


@pytest.mark.parametrize("screen", ["phone", "phone-lecture", "projector"])
def test_a_tapped_cell_is_explained_on_the_screen(chromium, site, screen):
    """On a phone the explanation lies under the figure, below the screen: a tap on a cell brings its result line
    onto the screen (it did nothing a reader could see, issue 55); at 1280×720 a click keeps it there."""
    phone = screen.startswith("phone")
    context = (chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True) if phone
               else chromium.new_context(viewport={"width": 1280, "height": 720}))
    try:
        page = context.new_page()
        keys = {"text": sentence(LENGTHS[0]), "step": "attn.probs", **({"lecture": "1"} if "lecture" in screen or
                                                                        not phone else {})}
        page.goto((site / "index.html").as_uri() + "#/layers?" + urllib.parse.urlencode(keys))
        page.wait_for_selector("#step-figure .main-svg")
        assert page.evaluate("document.body.classList.contains('lecture')") == (not phone)  # a projector's type
        x, y = page.evaluate(CELL_CENTRE, [3, 2])
        if phone:
            page.touchscreen.tap(x, y)
        else:
            page.mouse.click(x, y)
        page.wait_for_selector(".result")
        page.wait_for_function("new URLSearchParams(location.hash.split('?')[1]).get('cell') === '3,2'")
        time.sleep(0.3)
        box = page.locator(".result").bounding_box()
        height = PHONE["height"] if phone else 720
        assert box and 0 <= box["y"] and box["y"] + box["height"] <= height, (screen, box)
    finally:
        context.close()


@pytest.mark.slow
def test_a_twelve_layer_models_model_view_is_readable_on_a_phone(chromium, tmp_path):
    """bert-base's 12 layers × 12 heads (random weights here): the heads' numbers "10" and "11" ran into each other
    at the figure's type, and the view stood mostly empty, taller than its tiles."""
    site = write_site(tmp_path / "site", site_content(load_model("bert-base-uncased"), [sentence(10)], weights=False))
    link = f"#/attention?{urllib.parse.urlencode({'text': sentence(10), 'view': 'model'})}"
    found = shown(chromium, site, link, phone=True)
    assert not found, "\n".join(map(str, found))


@pytest.mark.parametrize("words", LENGTHS)
def test_a_keyboard_walks_the_steppers_matrix_and_a_screen_reader_reads_it(chromium, site, words):
    """Layers' attention matrix by keys alone (issue 56): Tab reaches the figure; it is a grid in the accessibility
    tree named by its title, the tokens its headers, each cell the hover's words with the number as shown (a window of
    rows and columns around the focused cell, at 12 tokens all of them); the arrow keys, End and Page Down move the
    focused cell, which is said in a polite live region; Enter explains it (the link gains cell=, as a click's) and
    says the explanation's result line; Escape closes it; the focus stays on the figure throughout."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        page.goto((site / "index.html").as_uri() + "#/layers?" + urllib.parse.urlencode(
            {"text": sentence(words), "step": "attn.probs"}))
        page.wait_for_selector("#step-figure .main-svg")
        for _ in range(80):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.id") == "step-figure":
                break
        else:
            pytest.fail("80 presses of Tab never reached the attention matrix")
        rules = page.evaluate("BVL.cellKeys")  # how far Page Down moves, how many rows the grid holds
        PAGE_ROWS, WINDOW = rules["PAGE_ROWS"], rules["WINDOW"]
        trace = page.evaluate("(t => ({ x: t.x, y: t.y, z: t.z, title: document.querySelector('#step-figure')"
                              ".layout.title.text }))(document.querySelector('#step-figure')._fullData[0])")
        n = len(trace["x"])
        said = lambda r, c: f"query {trace['y'][r]}, key {trace['x'][c]}, {trace['z'][r][c]:.4f}".replace("-", "−")
        grid = accessibility_grid(page)[trace["title"]]
        shown = min(n, WINDOW)
        assert grid["columnheader"] == ["", *trace["x"][:shown]] and grid["rowheader"] == trace["y"][:shown]
        assert grid["description"] == page.inner_text("#step-explains")  # the step's line on what it computes
        explains = grid["description"]
        assert grid["gridcell"][:shown] == [said(0, c) for c in range(shown)]
        live = "document.querySelector('[aria-live=polite]').textContent"
        assert page.evaluate(live) == said(0, 0)
        for key in ("ArrowDown", "ArrowRight", "End", "PageDown"):
            page.keyboard.press(key)
        row, column = min(n - 1, 1 + PAGE_ROWS), n - 1
        assert page.evaluate(live) == said(row, column)
        assert trace["y"][row] in accessibility_grid(page)[trace["title"]]["rowheader"]  # the window moved with it
        page.keyboard.press("Enter")
        page.wait_for_function("location.hash.includes('cell=')")
        page.wait_for_selector(".explanation-panel .result")
        keys = urllib.parse.parse_qs(page.evaluate("location.hash").split("?", 1)[1])
        assert keys["cell"] == [f"{row},{column}"]
        page.wait_for_function(f"{live} === document.querySelector('.explanation-panel .result').textContent")
        page.wait_for_selector(".explanation-panel .js-plotly-plot[aria-describedby]")
        heard = points_heard(page)  # the explanation's figure, not walked, described by its own point
        assert {role for role, *_ in heard} == {"grid", "figure"}
        for role, name, point, description in heard:
            assert description == (explains if name == trace["title"] else point) and description, name
        assert page.evaluate("document.activeElement.id") == "step-figure"
        page.keyboard.press("Escape")
        page.wait_for_function("!location.hash.includes('cell=')")
        page.wait_for_selector("#step-figure .main-svg")
        page.wait_for_function("document.activeElement.id === 'step-figure'")
        walk_by_shortcuts(page, live)
    finally:
        context.close()


def walk_by_shortcuts(page, live: str) -> None:
    """From the walked figure, Alt+Shift+→ and ← step to the next sub-step and back (their names said aloud), ↓ and ↑
    to the next layer and back, and in lecture mode Alt+Shift+N is Next: shortcuts.js's keys, pressed where the focus
    is."""
    options = page.evaluate("[...document.querySelectorAll('select[aria-label=Sub-step] option')].map(o => o.text)")
    here = page.evaluate("document.querySelector('select[aria-label=Sub-step]').selectedIndex")
    page.keyboard.press("Alt+Shift+ArrowRight")
    page.wait_for_function(f"document.querySelector('select[aria-label=Sub-step]')?.selectedIndex === {here + 1}")
    assert page.evaluate(live) == f"Sub-step: {options[here + 1]}"
    page.keyboard.press("Alt+Shift+ArrowLeft")
    page.wait_for_function(f"document.querySelector('select[aria-label=Sub-step]')?.selectedIndex === {here}")
    layer = "document.querySelector('select[aria-label=Layer]')?.selectedIndex"
    page.keyboard.press("Alt+Shift+ArrowDown")  # Layers' layer
    page.wait_for_function(f"{layer} === 1")
    assert page.evaluate(live) == "Layer: Layer 1"
    page.keyboard.press("Alt+Shift+ArrowUp")
    page.wait_for_function(f"{layer} === 0")
    page.goto(page.url + "&lecture=1")
    page.wait_for_selector(".next-view")
    ahead = page.evaluate("document.querySelector('.next-view').getAttribute('href')")
    assert page.evaluate("document.querySelector('.next-view').getAttribute('aria-keyshortcuts')") == "Alt+Shift+N"
    page.keyboard.press("Alt+Shift+N")
    page.wait_for_function(f"location.hash === {json.dumps(ahead)}")


WALKED = ("heads?stat=prev", "rollout?layer=5", "contributions?layer=2", "lens", "similarity?why=1,2",
          "intervene?off=0.2&layer=1", "tour?chapter=8")  # the analyses' matrices, Similarity's split, the tour's


def test_the_model_views_thumbnails_are_walked_by_keys_and_opened_by_enter(chromium, site):
    """The model view's thumbnails (a picture each, no numbers to read): Tab reaches the figure, a grid of layers ×
    heads in the accessibility tree; the arrows move between thumbnails, each said in its hover's words; Enter opens
    the focused one's matrix in Layers, as a click does."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        page.goto((site / "index.html").as_uri() + "#/attention?" + urllib.parse.urlencode(
            {"text": sentence(LENGTHS[0]), "view": "model"}))
        page.wait_for_selector("[role=grid] .main-svg", timeout=30_000)
        tab_to_a_grid(page, "the model view")
        title = page.evaluate("document.activeElement.getAttribute('aria-label')")
        grid = accessibility_grid(page)[title]
        layers, heads = page.evaluate("[+document.activeElement.getAttribute('aria-rowcount') - 1,"
                                      " +document.activeElement.getAttribute('aria-colcount') - 1]")
        assert (layers, heads) == (6, 12) and grid["gridcell"][0].startswith("layer 0, head 0")
        page.keyboard.press("ArrowDown")
        page.keyboard.press("End")
        assert page.evaluate("document.querySelector('[aria-live=polite]').textContent").startswith("layer 1, head 11")
        page.keyboard.press("Enter")
        page.wait_for_function("location.hash.startsWith('#/layers')")
        keys = urllib.parse.parse_qs(page.evaluate("location.hash").split("?", 1)[1])
        assert keys["layer"] == ["1"] and keys["head"] == ["11"]
    finally:
        context.close()


@pytest.mark.parametrize("view", WALKED)
def test_every_analysis_matrix_is_walked_by_keys_and_read_aloud(chromium, site, view):
    """Each page's first matrix (a heatmap whose hover names its value): Tab reaches it, the accessibility tree holds
    it as a grid named by its title, and ArrowDown then ArrowRight says the cell's hover words, its number as shown."""
    path, _, query = view.partition("?")
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        page.goto((site / "index.html").as_uri() + f"#/{path}?" + urllib.parse.urlencode(
            {"text": sentence(LENGTHS[0]), **dict(urllib.parse.parse_qsl(query))}))
        page.wait_for_selector("[role=grid] .main-svg", timeout=30_000)
        tab_to_a_grid(page, view)
        trace = page.evaluate(WALKED_HEATMAP)
        assert trace["title"] and trace["title"] in accessibility_grid(page)
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowRight")
        r, c = min(1, len(trace["y"]) - 1), min(1, len(trace["x"]) - 1)
        assert page.evaluate("document.querySelector('[aria-live=polite]').textContent") == hovered(
            trace["hovertemplate"], trace, r, c)
        page.keyboard.press("End")  # the last column of the figure's last matrix (matrices side by side: one grid)
        last = trace["last"]
        assert page.evaluate("document.querySelector('[aria-live=polite]').textContent") == hovered(
            last["hovertemplate"], last, r, len(last["x"]) - 1)
    finally:
        context.close()


def test_a_keyboard_walks_the_head_views_tokens_and_keeps_one_tokens_lines(chromium, site):
    """The head view by keys alone (issue 56): the first Tab stop, "Skip to the figure", reaches it, a grid of the
    tokens (rows) by side (query, key) in the accessibility tree; the arrows move between tokens and sides, each
    said with its lines as drawn (how many, the strongest first); Enter keeps the focused token's lines alone (the
    link gains focus=, as a click's) and lists them: every weight of transformers' own attention of at least 0.05
    there, at its tenth; Escape shows every line again, the focus kept on the figure; the next Tab reaches the heads'
    buttons, which hide a head's lines (and the grid says so)."""
    text, layer = sentence(LENGTHS[0]), 2
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        page.goto((site / "index.html").as_uri() + "#/attention?" + urllib.parse.urlencode(
            {"text": text, "layer": layer}))
        page.wait_for_selector("[role=grid] .main-svg", timeout=30_000)
        skip_to_the_figure(page)  # the first Tab stop
        title = page.evaluate("document.activeElement.getAttribute('aria-label')")
        grid = accessibility_grid(page)[title]
        tokens = load_model(BUNDLED_MODEL).tokenizer.tokenize(text)
        assert grid["columnheader"] == ["", "query", "key"] and grid["rowheader"][1:3] == [f"1 {tokens[0]}",
                                                                                           f"2 {tokens[1]}"]
        for key in ("ArrowDown", "ArrowDown", "ArrowRight"):
            page.keyboard.press(key)
        expected = token_lines(text, layer, "k", 2)
        live = "document.querySelector('[aria-live=polite]').textContent"
        assert page.evaluate(live).startswith(f"key 2 {tokens[1]}, click to keep only its lines: "
                                              f"{len(expected)} lines drawn; head ")
        page.keyboard.press("Enter")
        page.wait_for_function("location.hash.includes('focus=k2')")
        page.wait_for_selector(".lines-panel li")
        assert listed_lines(page.evaluate("[...document.querySelectorAll('.lines-panel li')].map(e => e.textContent)")
                            ) == expected
        page.wait_for_function("document.activeElement.getAttribute('role') === 'grid'")
        assert page.evaluate(live).startswith(f"key 2 {tokens[1]}")  # the focus back on the token picked
        page.keyboard.press("Escape")
        page.wait_for_function("!location.hash.includes('focus=')")
        page.wait_for_function("document.activeElement.getAttribute('role') === 'grid' && "
                               "!document.querySelector('.lines-panel')")
        page.keyboard.press("Tab")  # the heads' buttons under the view (Plotly's legend takes no keys)
        assert page.evaluate("document.activeElement.textContent") == "head 0"
        page.keyboard.press("Enter")  # head 0 hidden: the grid's words count the lines still drawn
        page.wait_for_function("document.activeElement.getAttribute('aria-pressed') === 'false'")
        key2 = next(cell for cell in accessibility_grid(page)[title]["gridcell"] if cell.startswith("key 2 "))
        assert f": {len([line for line in expected if line[0] != 'head 0'])} lines drawn; " in key2
    finally:
        context.close()


def test_matrices_side_by_side_are_walked_as_one_grid(chromium, site):
    """A figure of two matrices side by side (Interventions' value zeroing, and its rollout): one grid named by its
    panels' titles, walked across both: End says the last matrix's last column in its hover's words, Home the
    first's first."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        page.goto((site / "index.html").as_uri() + "#/intervene?" + urllib.parse.urlencode(
            {"text": sentence(LENGTHS[0]), "off": "0.2", "layer": "1"}))
        page.wait_for_selector("[role=grid] .main-svg", timeout=30_000)
        for _ in range(3):  # the page's grids, in order, until the one of two matrices
            tab_to_a_grid(page, "Interventions")
            trace = page.evaluate(WALKED_HEATMAP)
            if trace["last"] != {key: trace[key] for key in trace["last"]}:
                break
        else:
            pytest.fail("no figure of matrices side by side on Interventions")
        columns = len(trace["x"]) + len(trace["last"]["x"])
        assert page.evaluate("+document.activeElement.getAttribute('aria-colcount')") == columns + 1
        assert trace["title"] == " · ".join(value_zeroing_titles(1))  # the panels' titles
        live = "document.querySelector('[aria-live=polite]').textContent"
        page.keyboard.press("End")
        last = trace["last"]
        assert page.evaluate(live) == hovered(last["hovertemplate"], last, 0, len(last["x"]) - 1)
        page.keyboard.press("Home")
        assert page.evaluate(live) == hovered(trace["hovertemplate"], trace, 0, 0)
    finally:
        context.close()


ZOOMED = {"width": 640, "height": 400}  # a 1280×800 window at 200 % zoom, in CSS pixels (WCAG 1.4.4)


def test_a_site_zoomed_to_200_percent_loses_nothing(chromium, site):
    """A reader who zooms a 1280×800 window to 200 %: on the stepper, a cell's explanation, the head view, the tour,
    Heads and the similarity's split, the page does not scroll sideways and no figure's text is cut, overlapped or
    too small (the readability check as on a phone, its fold aside: a zoomed page scrolls down), and axe finds
    nothing."""
    context = chromium.new_context(viewport=ZOOMED, device_scale_factor=2)
    page = context.new_page()
    found = []
    try:
        for view in ("layers?step=attn.probs", "layers?layer=0&step=attn.scores&cell=1,2", "attention?layer=2",
                     "tour?chapter=8", "heads?stat=prev", "similarity?why=1,2"):
            path, _, query = view.partition("?")
            page.goto((site / "index.html").as_uri() + f"#/{path}?" + urllib.parse.urlencode(
                {"text": sentence(LENGTHS[0]), **dict(urllib.parse.parse_qsl(query))}))
            page.wait_for_function("document.querySelector('[data-point]') || document.querySelector('[data-error]')")
            page.wait_for_function("[...document.querySelectorAll('.js-plotly-plot')].every(p => p.querySelector("
                                   "'.main-svg'))")
            time.sleep(0.4)  # Plotly's last layout pass
            found += [f"{view}: {problem}" for problem in problems(page, phone=True) + axe_problems(page)
                      + undescribed(page)
                      if getattr(problem, "kind", "") != "fold"]
    finally:
        context.close()
    assert not found, "\n".join(map(str, found))


@pytest.mark.parametrize("step", ("attn.q", "ffn.in", "pooler.out"))
def test_every_kind_of_sub_step_is_explained_by_keys(chromium, site, step):
    """Layers' other kinds of sub-step by keys alone (a head's queries: tokens × a window of the head's dimensions;
    the feed-forward's: tokens × a window of its width; the pooler's one vector): from Skip to the figure, ArrowDown
    and ArrowRight move the focused cell, Enter explains it (the link gains its cell=, as a click's: the window's
    first column is its dimension 0, the vector's cell one number) and its result line is said; Escape closes it."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        page.goto((site / "index.html").as_uri() + "#/layers?" + urllib.parse.urlencode(
            {"text": sentence(LENGTHS[0]), "step": step}))
        page.wait_for_selector("#step-figure .main-svg")
        skip_to_the_figure(page)
        rows = page.evaluate("+document.activeElement.getAttribute('aria-rowcount') - 1")
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        page.wait_for_function("location.hash.includes('cell=')")
        keys = urllib.parse.parse_qs(page.evaluate("location.hash").split("?", 1)[1])
        assert keys["cell"] == (["1,1"] if rows > 1 else ["1"])
        page.wait_for_selector(".explanation-panel .result")
        live = "document.querySelector('[aria-live=polite]').textContent"
        page.wait_for_function(f"{live} === document.querySelector('.explanation-panel .result').textContent")
        page.keyboard.press("Escape")
        page.wait_for_function("!location.hash.includes('cell=')")
    finally:
        context.close()
