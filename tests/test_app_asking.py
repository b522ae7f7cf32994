"""The app's questions in Chromium (issue 57): on a projector (1280×720) and a phone (390×844), a tour chapter with
`ask=1` holds its figure back until a choice, every choice shows it, exactly one choice is said to be right, in
words; by keyboard too; the lecture's Next goes question → answer → next chapter; and the page stays readable
and passes axe while it asks and once it has answered."""
import os

import pytest

from accessibility import axe_problems
from readability import PHONE, problems, settle
from test_browser import CHROMIUM, ROOT
from tiers import browser

playwright = pytest.importorskip("playwright.sync_api")
pytestmark = [browser, pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")]
SOFTMAX = "tour?chapter=8&ask=1&lecture=1"  # the bundled model's tour: which token 'fox' attends to most
STEP_FIGURE = ".js-plotly-plot:not(.st-key-tour_diagram_layers\\.0\\.attn\\.probs .js-plotly-plot)"
RIGHT_LINES = "[class*='st-key-answer'] li"


@pytest.fixture(scope="module")
def server():
    from bertviz_lite.benchmarks.app_process import Server

    app = Server(ROOT)
    yield app.url
    app.stop()


@pytest.fixture(scope="module")
def chromium():
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield browser
        finally:
            browser.close()


def step_figures(page) -> int:
    """The chapter's own figures on screen (the block's diagram, under a question, is not one)."""
    return page.evaluate("""() => [...document.querySelectorAll('.js-plotly-plot')]
        .filter(p => !p.closest('[class*="st-key-scrolls-diagram"]')).length""")


def choices(page):
    return page.locator("[class*='st-key-choice_'] button")


def said_right(page) -> list[str]:
    """The answer's lines that say "right" in words."""
    return [line for line in page.locator(RIGHT_LINES).all_inner_texts() if " — right" in line]


def asks_then_shows(page, url: str, pick: int, phone: bool) -> None:
    page.goto(url)
    settle(page)
    assert choices(page).count() == 4 and step_figures(page) == 0  # the question, its figure held back
    assert not problems(page, phone=phone) and not axe_problems(page)
    top = choices(page).nth(3).bounding_box()
    assert top["y"] + top["height"] <= (PHONE["height"] if phone else 720), top  # every choice on the first screen
    choices(page).nth(pick).click()
    settle(page)
    assert step_figures(page) == 1 and choices(page).count() == 0
    assert len(said_right(page)) == 1 and said_right(page)[0].startswith("'brown': 1.00")
    assert page.locator(RIGHT_LINES).filter(has_text="your choice").count() == 1


def test_a_projector_asks_shows_on_a_choice_made_by_keys_and_goes_on_with_next(server, chromium):
    page = chromium.new_page(viewport={"width": 1280, "height": 720})
    page.goto(f"{server}/{SOFTMAX}")
    settle(page)
    assert choices(page).count() == 4 and step_figures(page) == 0
    assert not problems(page) and not axe_problems(page)
    for _ in range(60):  # by keys alone: Tab to the second choice, Enter
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.innerText.trim()") == "'brown'":
            break
    else:
        pytest.fail("Tab never reached the choice 'brown'")
    page.keyboard.press("Enter")
    settle(page)
    figure = page.locator(".js-plotly-plot").first.bounding_box()
    assert step_figures(page) == 1 and figure["y"] + figure["height"] <= 720  # the figure, whole on the screen
    assert said_right(page) == ["'brown': 1.00 — right — your choice"]
    assert page.get_by_text("You chose 'brown': right.").count() == 1
    assert not problems(page) and not axe_problems(page)
    page.keyboard.press("Alt+Shift+N")  # the lecture's Next: the next chapter, whose question waits
    settle(page)
    assert "chapter=9" in page.url
    page.goto(f"{server}/{SOFTMAX}".replace("chapter=8", "chapter=7"))  # a question no one has answered here
    settle(page)
    page.get_by_role("button", name="Show the answer").click()  # the lecturer's Next before a choice
    settle(page)
    assert len(said_right(page)) == 1 and page.get_by_text("Shown without a choice").count() == 1
    assert page.get_by_role("button", name="Next chapter: Layer 0: Attention (softmax)").count() == 1
    page.close()


@pytest.mark.parametrize("pick", range(4))
def test_every_choice_on_a_phone_shows_the_figure_and_which_was_right(server, chromium, pick):
    context = chromium.new_context(viewport={"width": PHONE["width"], "height": PHONE["height"]}, is_mobile=True,
                                   has_touch=True)
    asks_then_shows(context.new_page(), f"{server}/{SOFTMAX}", pick, phone=True)
    context.close()
