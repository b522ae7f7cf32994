"""The default lecture (app_pages/shell/pages.py): where a reader is, what comes next, and the pages' "Next" and link."""
from apptest import open_page

from bertviz_lite import BUNDLED_MODEL
from app_pages.shell.pages import LECTURE, following, position

SENTENCE = "the bank of the river"


def test_a_view_is_found_by_its_page_and_keys_and_the_next_follows_it():
    assert position("attention", {"view": "head", "layer": 2}) == 3
    assert position("attention", {"view": "model", "layer": 7}) == 4
    assert position("attention", {"view": "head", "layer": 7}) == 3  # another layer: still the page's first view
    assert position("compare", {}) is None and following("compare", {}) == LECTURE[0]
    assert following(LECTURE[-1].page.path, dict(LECTURE[-1].keys)) is None
    views = [following(v.page.path, dict(v.keys)) for v in LECTURE[:-1]]
    assert views == list(LECTURE[1:])  # every view leads to the one after it
    assert len({v.page.path for v in LECTURE}) >= 9  # the lecture goes across the pages


def test_next_keeps_the_sentence_and_shows_the_following_view():
    at = open_page("attention", model=BUNDLED_MODEL, text=SENTENCE, layer=2, lecture=1)
    (link,) = [c for c in at.code if "lecture=1" in c.value]
    assert "layer=2" in link.value and "text=the+bank+of+the+river" in link.value
    (ahead,) = [b for b in at.button if b.label.startswith("Next")]
    assert ahead.label == "Next: Every layer × head at once"
    ahead.click().run()
    assert not at.exception and at.session_state["view"] == "model" and at.query_params["view"] == "model"
    (ahead,) = [b for b in at.button if b.label.startswith("Next")]
    ahead.click().run()  # to another page, same model and sentence
    assert not at.exception and any("Striking heads" in m.value for m in at.markdown)
    assert at.session_state["text"] == SENTENCE and at.session_state["model"] == BUNDLED_MODEL


def test_without_lecture_mode_there_is_no_lecture_bar():
    at = open_page("attention", model=BUNDLED_MODEL, text=SENTENCE, layer=2)
    assert not [b for b in at.button if b.label.startswith("Next")] and not at.code


def test_the_lens_without_a_lens_still_offers_the_link_and_next():
    at = open_page("lens", model="distilbert-base-uncased", text=SENTENCE, lecture=1)  # random offline: a notice
    assert not at.exception and any("random weights" in i.value for i in at.info)
    assert [c for c in at.code if "lecture=1" in c.value]
    assert [b for b in at.button if b.label == "Next: A word in two contexts"]


def test_a_page_that_ends_early_still_draws_the_lecture_bar():
    at = open_page("similarity", model=BUNDLED_MODEL, sentences="", lecture=1)  # nothing to compare: it ends
    assert not at.exception and any("Type a few sentences" in i.value for i in at.info)
    assert [c for c in at.code if "lecture=1" in c.value]
    assert [b for b in at.button if b.label == "Next: Why two sentences are similar, pair by pair"]
    at = open_page("layers", model="no/such-model-anywhere", text=SENTENCE, lecture=1)  # cannot load: it ends
    assert not at.exception and at.error and [c for c in at.code if "lecture=1" in c.value]
    assert [b for b in at.button if b.label == "Next: Every head's lines"]


def test_the_lecture_ends_on_why_the_output_is_what_it_is():
    """Sentences as vectors -> why two are similar -> a head switched off -> attributions, the last view."""
    at = open_page("similarity", model=BUNDLED_MODEL, lecture=1)
    for title, keys in [("Why two sentences are similar, pair by pair", {"why": "1,2"}),
                        ("Switch a head off and watch what changes", {"off": "0.2", "layer": "1"}),
                        ("Which input tokens the output rests on", {"target": "similarity"})]:
        (ahead,) = [b for b in at.button if b.label.startswith("Next")]
        assert ahead.label == f"Next: {title}"
        ahead.click().run(timeout=120)
        assert not at.exception and not at.error, (title, [e.value for e in at.error])
        assert all(str(at.session_state[k]) == v for k, v in keys.items()), title
        assert [c for c in at.code if "lecture=1" in c.value], title
    assert any("integrated gradients" in m.value.lower() for m in at.markdown)
    assert not [b for b in at.button if b.label.startswith("Next")]  # the lecture's last view: it says it ends,
    (again,) = [b for b in at.button if b.label.startswith("The lecture ends here")]  # and starts it again
    assert again.label == f"The lecture ends here. Again from its first stop: {LECTURE[0].title}"
    again.click().run(timeout=120)
    assert not at.exception and [b for b in at.button if b.label == f"Next: {LECTURE[1].title}"]
    assert at.session_state["text"] != "" and at.session_state["model"] == BUNDLED_MODEL


def test_a_figure_is_drawn_at_a_phones_width_where_the_browser_says_it_is_a_phone(monkeypatch):
    """shell/screen.py: the width the browser reports (its JavaScript is exercised by the phone readability views in
    Chromium) sets the width figures are fitted to, on a phone only."""
    from app_pages.shell import screen

    monkeypatch.setattr(screen, "screen_px", lambda: None)  # not reported yet: a wide screen
    assert screen.drawn_px(808) == 808 and not screen.narrow()
    monkeypatch.setattr(screen, "screen_px", lambda: 390)
    assert screen.drawn_px(808) == 390 - screen.MARGIN_PX and screen.narrow()
    assert screen.drawn_px(300) == 300  # never wider than the page meant it
    monkeypatch.setattr(screen, "screen_px", lambda: 1280)
    assert screen.drawn_px(808) == 808 and not screen.narrow()


def test_a_stand_in_tokenizer_is_said_with_its_piece_count_in_the_banner():
    from bertviz_lite import load_model

    text = "the old man walked slowly along the river"
    at = open_page("tokens", model="microsoft/deberta-v3-base", text=text, lecture=1)
    pieces = len(load_model("microsoft/deberta-v3-base").tokenizer(text, add_special_tokens=False)["input_ids"])
    assert not at.exception
    assert any(f"this text's 8 words became {pieces} pieces" in w.value for w in at.warning), [w.value for w in at.warning]
