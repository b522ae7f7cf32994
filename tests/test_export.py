"""`bertviz-lite export` (issue 45, its first part): a folder that is a static site, written whole or not at all,
that opens from disk in Chromium with no request to any other origin, shows the overview and each sentence's tokens
as the app computes them, and shows a sentence holding markup as typed, never running it."""
from __future__ import annotations

import json
import os
import urllib.parse
from pathlib import Path

import numpy as np
import plotly
import pytest

from bertviz_lite import BUNDLED_MODEL, load_model, trace
from bertviz_lite.export import site_content, write_site
from cli_run import run_cli

CHROMIUM = "/usr/bin/chromium"
MARKUP = ('</script><img src=x onerror="document.title=\'ran\'"> "quotes" {{ x }} <!-- <a href=https://example.com>x</a> '
          '<b>b</b> ![i](https://example.com/i.png)')
TEXTS = ["she sat on the river bank and watched the kayakers", MARKUP]


@pytest.fixture(scope="module")
def content() -> dict:
    return site_content(load_model(BUNDLED_MODEL), TEXTS)


@pytest.fixture(scope="module")
def site(tmp_path_factory, content) -> Path:
    return write_site(tmp_path_factory.mktemp("export") / "site", content)


@pytest.fixture
def light(content) -> dict:
    """The content without its sentences' parts and weights: a site that is written in a second, for the tests of
    how a site is swapped in (which write it again and again, whatever it holds)."""
    return {**content, "steps": lambda: iter(()), "weights": lambda: iter(())}


def data_of(site: Path) -> dict:
    script = (site / "data.js").read_text(encoding="utf-8")
    return json.loads(script.removeprefix("window.BVL_SITE = ").rstrip().removesuffix(";"))


def test_the_folder_is_a_static_space_with_plotly_from_the_package_and_no_other_host(site):
    from bertviz_lite.export.writing import ASSETS

    assert sorted(p.name for p in site.iterdir()) == sorted([".bertviz-lite-site", "README.md", "data.js",
                                                             "plotly.min.js", "fonts.css", "sentences", "weights",
                                                             *ASSETS])
    scripts = {p.name for p in (site / "sentences").iterdir()}
    for i in (0, 1):  # each sentence: what every view reads, each block's sub-steps, its tour, its attention views
        assert {f"{i}.js", f"{i}-embed.js", f"{i}-layers.0.js", f"{i}-layers.5.js", f"{i}-pooler.js", f"{i}-tour.js",
                f"{i}-attention.js"} <= scripts
    front = (site / "README.md").read_text(encoding="utf-8").split("---")[1]
    assert "sdk: static" in front and "app_file: index.html" in front
    packaged = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
    assert (site / "plotly.min.js").read_bytes() == packaged.read_bytes()
    for name in ASSETS:
        text = (site / name).read_text(encoding="utf-8")
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, name


def test_the_sites_numbers_are_the_traces_and_markup_cannot_end_its_script(site):
    script = (site / "data.js").read_text(encoding="utf-8")
    assert "</script" not in script.lower() and "<!--" not in script  # a sentence cannot close the data's script
    data = data_of(site)
    loaded = load_model(BUNDLED_MODEL)
    for text, shown in zip(TEXTS, data["sentences"]):
        t = trace(loaded, text)
        assert shown["text"] == text and shown["tokens"] == t.tokens and shown["ids"] == t.input_ids.tolist()
    assert data["overview"]["total"] == sum(p.numel() for p in loaded.model.parameters())
    assert BUNDLED_MODEL in data["about"] and "real pretrained weights" in data["about"]
    assert "2 sentences: “she sat on the river bank and watched t…”, “</script>" in data["about"]  # named
    readme = (site / "README.md").read_text(encoding="utf-8")
    assert "\n    " + data["about"] + "\n" in readme  # a Space's README shows the line in a code block, as typed


def test_an_interrupted_export_leaves_the_earlier_site_and_no_half_written_one(light, monkeypatch, tmp_path):
    from bertviz_lite.export import writing

    out = tmp_path / "site"
    write_site(out, light)
    before = (out / "data.js").read_bytes()

    def broken(folder, content, most_bytes=None):
        (folder / "index.html").write_text("half")
        raise KeyboardInterrupt

    monkeypatch.setattr(writing, "_fill", broken)
    with pytest.raises(KeyboardInterrupt):
        write_site(out, light)
    assert (out / "data.js").read_bytes() == before and (out / "index.html").read_text() != "half"
    assert [p.name for p in tmp_path.iterdir()] == ["site"]  # no staging folder left behind


def test_a_site_is_swapped_in_by_renames_and_an_interrupted_swap_puts_the_earlier_one_back(light, monkeypatch,
                                                                                           tmp_path):
    from bertviz_lite.export import writing

    out = tmp_path / "site"
    write_site(out, light)
    before = (out / "data.js").read_bytes()
    renames = []

    def interrupted(source, target):  # the new site's rename into place is cut short
        renames.append((source, target))
        if Path(target) == out and "-new-" in Path(source).name:
            raise KeyboardInterrupt
        os.rename(source, target)

    monkeypatch.setattr(writing.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_site(out, light)
    monkeypatch.undo()
    assert (out / "data.js").read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["site"]
    assert len(renames) == 3  # the earlier site aside, the new one (cut short), the earlier one back


def test_a_folder_that_is_not_a_site_is_never_emptied(capsys, tmp_path):
    (tmp_path / "notes.txt").write_text("a lecturer's own file")
    code, out, err = run_cli(capsys, "export", BUNDLED_MODEL, "--text", "fine", "--out", str(tmp_path))
    assert code == 2 and "holds other files" in err and (tmp_path / "notes.txt").read_text() == "a lecturer's own file"


@pytest.mark.parametrize("args,fragment", [
    (["--text", "  "], "empty"),
    (["--pair", "a sentence", " "], "empty"),
    ([], "empty"),  # neither --text nor --pair
    (["--text", "fine"], "not in the local cache"),  # with the model below: unknown, offline
    ([arg for i in range(9) for arg in ("--text", f"sentence {i}")], "at most 8 sentences"),
])
def test_bad_input_is_one_line_exit_2_and_no_site(capsys, tmp_path, args, fragment):
    model = "nobody/nothing" if fragment == "not in the local cache" else BUNDLED_MODEL
    code, out, err = run_cli(capsys, "export", model, *args, "--out", str(tmp_path / "site"))
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert code == 2 and out == "" and len(errors) == 1 and fragment in errors[0] and "Traceback" not in err
    assert not list(tmp_path.iterdir())


def test_a_text_longer_than_the_model_reads_is_cut_and_the_site_says_so():
    loaded = load_model(BUNDLED_MODEL)
    long = " ".join(["word"] * 5000)
    shown = site_content(loaded, [long])["sentences"][0]
    assert len(shown["tokens"]) == trace(loaded, long).max_tokens  # cut to what the model reads, as the app cuts it
    assert shown["notice"] and "dropped" in shown["notice"]


def test_an_unwritable_folder_is_one_line_exit_2(capsys, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    code, out, err = run_cli(capsys, "export", BUNDLED_MODEL, "--text", "fine", "--out", str(blocker / "site"))
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert code == 2 and out == "" and len(errors) == 1 and "Cannot write the site" in errors[0]
    assert "Traceback" not in err


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")
def test_the_site_opens_from_disk_with_every_other_origin_blocked_and_runs_no_sentence(site):
    from playwright.sync_api import sync_playwright

    data = data_of(site)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        elsewhere, dialogs = [], []
        page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file://")
                   else (elsewhere.append(route.request.url), route.abort()))
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        index = (site / "index.html").as_uri()
        page.goto(index)
        page.wait_for_selector("#sunburst .main-svg")  # the sunburst drawn by plotly.js from the site's own copy
        assert page.locator(".tree details").count() > 0 and BUNDLED_MODEL in page.locator("#about").inner_text()

        page.goto(index + "#/tokens?" + urllib.parse.urlencode({"text": MARKUP}))  # the app's keys, as in a link
        page.wait_for_selector(".chip")
        assert page.locator(".sentence").inner_text() == MARKUP  # as typed
        assert page.locator("img").count() == 0 and page.title() != "ran" and not dialogs  # never run
        chips = page.locator(".chip").all_inner_texts()
        assert [chip.split("\n")[0] for chip in chips] == data["sentences"][1]["tokens"]

        page.goto(index + "#/tokens?lecture=1&text=" + urllib.parse.quote_plus(TEXTS[0]))  # a lecture's link
        page.wait_for_selector("body.lecture .chip")
        assert all("lecture=1" in href for href in page.locator("nav a").evaluate_all("as => as.map(a => a.href)"))
        assert page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") >= 20

        page.goto(index + "#/tokens?text=a+sentence+it+does+not+hold")
        assert "not \"a sentence it does not hold\"" in page.locator("#view").inner_text()
        page.goto(index + "#/compare?text=" + urllib.parse.quote_plus(TEXTS[0]))  # a view the model must compute
        assert "needs the model itself (it runs two models side by side" in page.locator("#view").inner_text()
        page.goto(index + "#/architecture")  # the app's Architecture page: the overview's tree and sunburst
        page.wait_for_selector("#sunburst .main-svg")
        assert "every named parameter" in page.locator(".note").inner_text()
        browser.close()
    assert elsewhere == []


CELL_CENTRE = """([row, column]) => {  // where cell (row, column) of the step's heatmap is on the page
  const figure = document.getElementById("step-figure"), box = figure.getBoundingClientRect();
  const x = figure._fullLayout.xaxis, y = figure._fullLayout.yaxis;
  return [box.left + x._offset + x.l2p(column), box.top + y._offset + y.l2p(row)];
}"""


def shown_numbers(page) -> np.ndarray:
    z = page.evaluate("document.getElementById('step-figure').data[0].z")
    return np.array([[np.nan if v is None else v for v in row] for row in z], dtype=np.float64)


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")
def test_the_stepper_walks_every_sub_step_of_a_layer_and_explains_a_clicked_cell_as_the_app(site):
    """◀ ▶ in the browser walk layer 1's sub-steps, each figure's numbers are the trace's (head 2, the first 64
    dimensions); a click on a cell explains it with the app's formula and shows the value recomputed equal; the
    hover says the cell's value."""
    from playwright.sync_api import sync_playwright

    from bertviz_lite.explaining import explain
    from bertviz_lite.ops import MASKED_BELOW, key_head

    loaded = load_model(BUNDLED_MODEL)
    t = trace(loaded, TEXTS[0])
    steps, head = t.layer(1), 2
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file://")
                   else route.abort())
        index = (site / "index.html").as_uri()
        keys = {"text": TEXTS[0], "layer": 1, "head": head, "step": steps.graph.keys[0]}
        page.goto(index + "#/layers?" + urllib.parse.urlencode(keys))
        for i, key in enumerate(steps.graph.keys):
            page.wait_for_function(f"location.hash.includes('step={urllib.parse.quote(key)}') && "
                                   "document.querySelector('#step-figure:not([data-was]) .main-svg')")  # the new
            # step's figure: the last one may stay a moment after the address changed (a busy machine)
            array = steps[key]
            if steps.node(key).has_head_axis:
                array = array[key_head(head, t.num_heads, array.shape[0])]
            expected = np.where(array <= MASKED_BELOW, np.nan, array)[:, :64]
            np.testing.assert_allclose(shown_numbers(page), expected, rtol=1e-6, equal_nan=True, err_msg=key)
            if i < len(steps.graph.keys) - 1:
                page.evaluate("document.getElementById('step-figure').dataset.was = ''")
                page.click("button.next.step")
        assert page.locator("button.next.step").is_disabled()

        page.goto(index + "#/layers?" + urllib.parse.urlencode({**keys, "step": "attn.scores"}))
        page.wait_for_selector("#step-figure .main-svg")
        x, y = page.evaluate(CELL_CENTRE, [2, 4])
        page.mouse.move(x, y)
        page.wait_for_selector(".hovertext")
        assert f"{steps['attn.scores'][head, 2, 4]:.4f}" in page.locator(".hovertext").text_content()
        page.mouse.click(x, y)
        page.wait_for_selector(".formula")
        e = explain(t, "layers.1.attn.scores", head, (2, 4))
        assert page.locator(".formula").inner_text() == f"{e.op}: {e.formula}"
        assert "cell=2%2C4" in page.evaluate("location.hash") or "cell=2,4" in page.evaluate("location.hash")
        assert page.locator(".result.ok").inner_text().startswith(f"✔ From these numbers: {e.recomputed:.6g}")

        page.goto(index + "#/layers?" + urllib.parse.urlencode({**keys, "step": "ffn.in", "cell": "3,100"}))
        page.wait_for_selector(".formula")  # a linear map's explanation reads its weights' script
        e = explain(t, "layers.1.ffn.in", None, (3, 100))
        assert page.locator(".formula").inner_text() == f"{e.op}: {e.formula}"
        browser.close()


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")
def test_every_chapter_of_the_tour_opens_with_the_apps_words(site):
    """The site's tour is the app's (export/tour.py): each chapter's title and sentences as narrate() tells them,
    its figure drawn where it has one, ▶ to the next."""
    from playwright.sync_api import sync_playwright

    from bertviz_lite.export.tour import HEAD, LAYER, TOKEN
    from bertviz_lite.tour import chapters, narrate

    t = trace(load_model(BUNDLED_MODEL), TEXTS[0])
    story = chapters(t, LAYER)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto((site / "index.html").as_uri() + "#/tour?" + urllib.parse.urlencode({"text": TEXTS[0]}))
        for number, chapter in enumerate(story, start=1):
            page.wait_for_function(f"location.hash.includes('chapter={number}') || {number} === 1")
            page.wait_for_function("t => document.querySelector('.words h2')?.textContent === t", arg=chapter.title)
            if chapter.kind == "step":
                page.wait_for_selector("#tour-figure .main-svg")
                assert page.evaluate("document.body.scrollWidth") <= 390  # no sideways scroll on a phone
            words = page.locator(".words p").all_inner_texts()
            told = narrate(t, chapter, HEAD, TOKEN) if chapter.kind != "output" else []
            assert all(line.replace("**", "") in words for line in told), chapter.title
            if number < len(story):
                page.click("button.next.chapter")
        assert page.locator("button.next.chapter").is_disabled()
        browser.close()


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")
def test_next_walks_the_default_lecture_on_the_same_sentence(site):
    """In lecture mode the site's Next goes through the app's default lecture (tour/lecture.py), stop by stop, on
    the sentence it started from, on a projector and on a phone; every stop shows a figure (the tokens' chips on
    the tour's first chapter), none says it needs the model; the last stop says the lecture ends and links its first."""
    from playwright.sync_api import sync_playwright

    from bertviz_lite.tour.lecture import LECTURE_STOPS
    from bertviz_lite.tour.page_names import site_pages

    screens = {"projector": dict(viewport={"width": 1280, "height": 720}),
               "phone": dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for screen, options in screens.items():
            page = browser.new_context(**options).new_page()
            page.goto((site / "index.html").as_uri() + "#/tokens?" + urllib.parse.urlencode({"text": TEXTS[0],
                                                                                             "lecture": 1}))
            page.wait_for_selector("#view .chip")
            assert page.locator("#pages a").all_text_contents() == list(site_pages().values())  # the app's names
            walked = []
            for path, title, keys in LECTURE_STOPS[1:]:
                page.click("#next a")
                page.wait_for_function("p => location.hash.startsWith('#/' + p + '?')", arg=path)
                hash_keys = urllib.parse.parse_qs(page.evaluate("location.hash").split("?", 1)[1])
                assert hash_keys["text"] == [TEXTS[0]] and hash_keys["lecture"] == ["1"], title
                assert all(hash_keys[k] == [v] for k, v in keys), title
                page.wait_for_selector("#view .main-svg, #view .chip", timeout=30_000)  # a figure drawn (the tour's
                # first chapter: the tokens)
                assert "needs the model" not in page.locator("#view").inner_text(), (screen, title)
                walked.append(path)
            assert walked == [path for path, _, _ in LECTURE_STOPS[1:]]
            assert page.locator("#next a.next-view:not(.lecture-end)").count() == 0  # the last stop: no Next, and
            again = page.locator("#next a.lecture-end")  # the lecture says it ends, and starts again on the sentence
            assert again.text_content() == f"The lecture ends here. Again from its first stop: {LECTURE_STOPS[0][1]}"
            again.click()
            page.wait_for_function("p => location.hash.startsWith('#/' + p + '?')", arg=LECTURE_STOPS[0][0])
            assert urllib.parse.parse_qs(page.evaluate("location.hash").split("?", 1)[1])["text"] == [TEXTS[0]]
            page.context.close()
        browser.close()


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")
def test_the_head_view_and_the_model_view_are_the_apps_and_a_thumbnail_opens_its_head(site):
    """The site's Attention page draws the app's head view of each layer (a line per weight, a legend entry per
    head) and its model view; a click on a thumbnail opens that layer and head in the stepper."""
    from playwright.sync_api import sync_playwright

    from bertviz_lite.analyses.attention_views import head_view_of

    t = trace(load_model(BUNDLED_MODEL), TEXTS[0])
    lines = head_view_of(t, 2, list(range(t.num_heads))).lines
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        index = (site / "index.html").as_uri()
        page.goto(index + "#/attention?" + urllib.parse.urlencode({"text": TEXTS[0], "layer": 2}))
        page.wait_for_selector("#attention-figure .main-svg")
        drawn = page.evaluate("document.getElementById('attention-figure').data.map(d => d.name)")
        assert {f"head {h}" for h in range(t.num_heads)} <= set(drawn)
        segments = page.evaluate("""document.getElementById('attention-figure')._fullData
            .filter(d => d.mode === 'lines').reduce((n, d) => n + Array.from(d.x).filter(Number.isNaN).length, 0)""")
        assert segments == len(lines.weight) > 0  # every line of the app's view (each ends in a break)

        page.goto(index + "#/attention?" + urllib.parse.urlencode({"text": TEXTS[0], "view": "model"}))
        page.wait_for_selector("#attention-figure .main-svg")
        page.evaluate("""() => { const f = document.getElementById('attention-figure');
            const i = f.data.findIndex(d => Array.isArray(d.customdata));
            f.emit('plotly_click', {points: [{customdata: f.data[i].customdata[0 + 3 * 1]}]}); }""")
        page.wait_for_function("location.hash.startsWith('#/layers')")
        assert "step=attn.probs" in page.evaluate("location.hash")
        browser.close()


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")
def test_similarity_shows_the_apps_cosines_and_a_pairs_split(site):
    """The Similarity page holds the exported sentences' cosines and, for why=1,2, the app's exact split of their
    cosine into token pairs (its cells, its check line)."""
    from playwright.sync_api import sync_playwright

    from bertviz_lite.analyses.similarity import sentence_vectors
    from bertviz_lite.analyses.similarity_split import explain_similarity

    loaded = load_model(BUNDLED_MODEL)
    split = explain_similarity(loaded, *TEXTS)
    cosine = sentence_vectors(loaded, TEXTS)[0].cosine()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto((site / "index.html").as_uri() + "#/similarity?why=1,2")
        page.wait_for_selector("#split-figure .main-svg")
        cells = page.evaluate("Array.from(document.getElementById('split-figure')._fullData[0].z, r => Array.from(r))")
        np.testing.assert_allclose(cells, split.pairs, rtol=1e-5, atol=1e-8)
        assert split.caption(True).replace("**", "") in page.locator("#view").inner_text()
        shown = page.evaluate("Array.from(document.getElementById('similarity-0')._fullData[0].z, r => Array.from(r))")
        np.testing.assert_allclose(shown, cosine, rtol=1e-5)
        assert page.evaluate("document.body.scrollWidth") <= 390
        ticks = page.locator("#similarity-0 .ytick text").all_text_contents()
        assert any("</script><img" in tick for tick in ticks)  # a sentence's markup drawn as text (cut at two lines),
        assert page.locator("#view a[href^='https://example.com']").count() == 0  # never a link to another host
        browser.close()


def test_the_apps_lecture_mode_offers_the_lecture_as_a_zipped_site_without_the_weights(tmp_path):
    """Lecture mode's sidebar has "Download this lecture as a site"; what it gives (`site_zip`) is a .zip of one
    folder that is a whole site of the sentence, without the weights' scripts, and the site says why where a linear
    map's cell would need them."""
    import io
    import zipfile

    from apptest import open_page

    from bertviz_lite.export import site_zip

    at = open_page("tokens", model=BUNDLED_MODEL, text=TEXTS[0], lecture="1")
    assert any(b.proto.label == "Download this lecture as a site" for b in at.get("download_button"))
    at = open_page("tokens", model=BUNDLED_MODEL, text=TEXTS[0])
    assert not any(b.proto.label == "Download this lecture as a site" for b in at.get("download_button"))

    data = site_zip(load_model(BUNDLED_MODEL), [TEXTS[0]])
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = archive.namelist()
        archive.extractall(tmp_path)
    assert {"lecture-site/index.html", "lecture-site/plotly.min.js", "lecture-site/sentences/0.js"} <= set(names)
    assert not any(name.startswith("lecture-site/weights/") and name.endswith(".js") for name in names)
    assert len(data) < 12 * 1024 * 1024
    model = json.loads((tmp_path / "lecture-site" / "data.js").read_text(encoding="utf-8")
                       .removeprefix("window.BVL_SITE = ").rstrip().removesuffix(";"))["model"]
    assert model["weights"] == [] and model["weights_left_out"]
    if os.path.exists(CHROMIUM):
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page()
            page.goto((tmp_path / "lecture-site" / "index.html").as_uri() + "#/layers?" +
                      urllib.parse.urlencode({"text": TEXTS[0], "step": "ffn.in", "cell": "1,2"}))
            page.wait_for_selector("text=written without the model's weights")
            browser.close()


def test_the_site_says_how_many_pieces_became_unknown_as_the_tokens_page_does():
    from bertviz_lite.loading.vocabulary import unknown_note

    loaded = load_model(BUNDLED_MODEL)
    text = "the 🦜 sat by the 🛶 on the river"
    shown = site_content(loaded, [text])["sentences"][0]
    t = trace(loaded, text)
    assert t.tokens.count("[UNK]") == 2
    assert shown["unknown"] == unknown_note(loaded.tokenizer, t.tokens) == ("2 piece(s) are not in the vocabulary "
                                                                            "and became [UNK].")
    assert site_content(loaded, [TEXTS[0]])["sentences"][0]["unknown"] is None


def test_a_site_of_one_sentence_compares_it_with_the_default_lectures_sentences():
    """The lecture's two Similarity stops show a figure on a site of one sentence (they asked for a second one): it
    is compared with the sentences the app's Similarity page opens on; a site of two compares its own."""
    from bertviz_lite.tour.lecture import LECTURE_SENTENCES

    loaded = load_model(BUNDLED_MODEL)
    one = site_content(loaded, [TEXTS[0]])["similarity"]
    assert one["texts"] == [TEXTS[0], *LECTURE_SENTENCES] and "1,2" in one["pairs"]
    assert site_content(loaded, TEXTS[:2])["similarity"]["texts"] == TEXTS[:2]


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")
def test_the_site_works_from_a_static_server_on_loopback_and_asks_no_other_host(site):
    """The same folder served by a static server (Python's, on loopback), as a Space serves it: the stepper draws, a
    linear map's cell reads its weights' script over HTTP and is explained as the app explains it, the tour opens;
    a request to any other origin is blocked and fails the test."""
    import threading
    from functools import partial
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    from playwright.sync_api import sync_playwright

    from bertviz_lite.explaining import explain

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    t = trace(load_model(BUNDLED_MODEL), TEXTS[0])
    elsewhere = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.route("**/*", lambda route: route.continue_() if route.request.url.startswith(origin + "/")
                       else (elsewhere.append(route.request.url), route.abort()))
            keys = {"text": TEXTS[0], "layer": 3, "step": "ffn.out", "cell": "2,7"}
            page.goto(f"{origin}/index.html#/layers?" + urllib.parse.urlencode(keys))
            page.wait_for_selector("#step-figure .main-svg")
            page.wait_for_selector(".formula")
            e = explain(t, "layers.3.ffn.out", None, (2, 7))
            assert page.locator(".formula").inner_text() == f"{e.op}: {e.formula}"
            assert page.locator(".result.ok").count() == 1
            page.goto(f"{origin}/index.html#/tour?" + urllib.parse.urlencode({"text": TEXTS[0], "chapter": 8}))
            page.wait_for_selector("#tour-figure .main-svg")
            browser.close()
    finally:
        server.shutdown()
    assert elsewhere == []


def test_a_site_past_its_budget_is_said_and_not_written(content, tmp_path):
    """A site whose scripts would pass the bytes it may take (the app's download: a few sentences of a base-sized
    model) ends with a message, and neither it nor its staging folder is left."""
    from bertviz_lite.errors import InputError

    with pytest.raises(InputError, match="would pass 1 MB"):
        write_site(tmp_path / "site", content, most_bytes=2**20)
    assert list(tmp_path.iterdir()) == []


def test_the_sites_figures_take_plotlys_template_even_where_streamlit_made_its_own_the_default(monkeypatch):
    """A figure takes the default template when it is made, and importing Streamlit makes that Streamlit's (without
    the automatic margins): the app's download and a test run beside the app's would draw another layout."""
    import plotly.graph_objects as go
    import plotly.io as pio
    from streamlit.elements.lib.streamlit_plotly_theme import configure_streamlit_plotly_theme

    configure_streamlit_plotly_theme()
    monkeypatch.setattr(pio.templates, "default", "streamlit")
    shown = site_content(load_model(BUNDLED_MODEL), TEXTS)
    plotlys = json.loads(go.Figure(layout=dict(template="plotly")).to_json())["layout"]["template"]
    figures = [shown["overview"]["sunburst"], *shown["similarity"]["matrices"][0]["figure"].values()]
    assert all(figure["template"] == "plotly" and "template" not in figure["layout"] for figure in figures)
    assert shown["templates"] == {"plotly": plotlys}  # held once, not in each figure


ANALYSIS_FIGURES = """id => [...document.querySelectorAll(`[id^="figure-${id}-"]`)].map(div => {
  const trace = div._fullData[0];  // as drawn: the figure's typed arrays decoded
  return {z: trace.z ? Array.from(trace.z, (row) => Array.from(row)) : null, text: trace.text || null,
          title: div._fullLayout.title.text};
})"""


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")
def test_the_analyses_pages_show_the_apps_numbers_and_their_words(site):
    """Heads, Rollout, Contributions and Lens: the figure a link asks for holds the app's analysis of the sentence
    (all_layers, layer_contributions, nearest_pieces on the model loaded with its masked-LM head), with the app's
    words and checks; a striking head opens in the stepper; a layer past the model's last is said."""
    from playwright.sync_api import sync_playwright

    from bertviz_lite.analyses.all_layers import all_layers
    from bertviz_lite.analyses.contributions import layer_contributions
    from bertviz_lite.analyses.nearest_pieces import nearest_pieces
    from bertviz_lite.analyses.page_views import contribution_checks, mixing_said, nearest_note, striking

    loaded = load_model(BUNDLED_MODEL)
    t = trace(loaded, TEXTS[0])
    layerwise, contributions = all_layers(t), layer_contributions(t, 1)
    near = nearest_pieces(trace(load_model(BUNDLED_MODEL, task="masked-lm"), TEXTS[0]), 3)
    found, _ = striking(layerwise.fingerprints)
    text = urllib.parse.quote_plus(TEXTS[0])
    index = (site / "index.html").as_uri()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1280, "height": 720})

        def figures(part: str, keys: str) -> list[dict]:
            page.goto(f"{index}#/{part}?text={text}&{keys}")
            page.wait_for_function("p => document.getElementById(`figure-${p}-0`) && [...document.querySelectorAll("
                                   "'.figure')].every(div => div.querySelector('.main-svg'))", arg=part)
            return page.evaluate(ANALYSIS_FIGURES, part)

        grid, = figures("heads", "stat=cls")
        np.testing.assert_allclose(grid["z"], layerwise.fingerprints.stats["cls"], atol=1e-6)
        assert grid["title"] == "Attention to [CLS], every layer × head"
        links = page.locator(".open-link")
        assert links.count() == len(found) > 0
        links.first.click()
        page.wait_for_function("location.hash.startsWith('#/layers?')")
        opened = urllib.parse.parse_qs(page.evaluate("location.hash").split("?", 1)[1])
        assert (opened["layer"], opened["head"], opened["step"]) == ([str(found[0][0])], [str(found[0][1])],
                                                                     ["attn.probs"])

        matrix, mixture = figures("rollout", "layer=3&token=2")
        np.testing.assert_allclose(matrix["z"], layerwise.rollout[3], atol=1e-6)
        np.testing.assert_allclose(mixture["z"], layerwise.rollout[:, 2], atol=1e-6)
        assert mixture["title"] == f"Where '{t.tokens[2]}' comes from, layer by layer"

        attention, norm, mixing = figures("contributions", "layer=1&norm=norm")
        np.testing.assert_allclose(attention["z"], contributions.attention, atol=1e-6)
        np.testing.assert_allclose(norm["z"], contributions.norm, atol=1e-5)
        np.testing.assert_allclose(mixing_lines_y(page), [layerwise.mixing.ratios[k] for k in
                                                          ("attention", "norm", "norm_residual", "norm_residual_ln")],
                                   atol=1e-6)
        shown = page.locator("#view").inner_text()
        assert mixing_said(contributions, 1).strip("*") in shown
        assert all(f"✔ {said}" in shown and holds for said, holds in contribution_checks(contributions, 1))

        lens, = figures("lens", "position=3")
        assert lens["text"] == [[f"{piece}<br>{c:.2f}" for piece, c in top] for top in near.layers]
        assert nearest_note(loaded.source) in page.locator("#view").inner_text()

        figures("rollout", "layer=99")
        assert "There is no layer \"99\"" in page.locator("#view").inner_text()
        np.testing.assert_allclose(page.evaluate(ANALYSIS_FIGURES, "rollout")[0]["z"], layerwise.rollout[-1],
                                   atol=1e-6)
        browser.close()


def mixing_lines_y(page) -> list:
    return page.evaluate("document.getElementById('figure-contributions-2')._fullData.map(line => Array.from(line.y))")


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")
def test_a_sentence_pair_is_one_input_as_the_apps_text_and_pair(capsys, tmp_path):
    """--pair A B: the site reads [CLS] A [SEP] B [SEP] as the app reads its text and pair, and a link names it by
    text= and pair=; A alone is another sentence, which this site does not hold."""
    from playwright.sync_api import sync_playwright

    a, b = "she sat on the bank", "the bank was closed"
    code, out, err = run_cli(capsys, "export", BUNDLED_MODEL, "--pair", a, b, "--out", str(tmp_path / "site"))
    assert code == 0, err
    t = trace(load_model(BUNDLED_MODEL), a, b)
    shown = data_of(tmp_path / "site")["sentences"]
    assert [(s["text"], s["pair"], s["tokens"]) for s in shown] == [(a, b, t.tokens)]
    index = (tmp_path / "site" / "index.html").as_uri()
    keys = urllib.parse.urlencode({"text": a, "pair": b, "lecture": 1})
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(f"{index}#/tokens?{keys}")
        page.wait_for_selector(".chip")
        assert page.locator(".chip.B").count() == list(t.sequence_ids).count(1) > 0  # sentence B's pieces
        assert page.locator(".sentence").all_inner_texts() == [a, b]
        page.click("#next a")  # the lecture goes on with the same pair
        page.wait_for_function("location.hash.startsWith('#/tour?')")
        assert urllib.parse.parse_qs(page.evaluate("location.hash").split("?", 1)[1])["pair"] == [b]
        page.goto(f"{index}#/layers?{keys}&layer=0&step=attn.probs")
        page.wait_for_selector("#step-figure .main-svg")
        np.testing.assert_allclose(shown_numbers(page), t.layer(0)["attn.probs"][0], atol=1e-6)
        page.goto(f"{index}#/tokens?" + urllib.parse.urlencode({"text": a}))
        assert "Not in this site" in page.locator("#view").inner_text()
        page.goto(f"{index}#/similarity")
        page.wait_for_selector(".note")
        assert "fewer than two single sentences" in page.locator("#view").inner_text()
        browser.close()


def test_the_sites_lens_looks_at_the_mask_and_keeps_each_positions_lens_apart(tiny_dirs):
    """With a [MASK] the site's lens is the app's, at the mask and with no picker; without one, every position's
    lens (each a part of its own, read when shown) is logit_lens at that position."""
    from bertviz_lite.analyses.logit_lens import logit_lens
    from bertviz_lite.analyses.page_views import lens_check
    from bertviz_lite.export.analyses import lens_page

    loaded = load_model(tiny_dirs["bert"], "masked-lm")
    masked, apart = lens_page(loaded, "the cat [MASK] on the mat")
    lens = logit_lens(trace(loaded, "the cat [MASK] on the mat"))
    assert masked["pickers"] == [] and list(apart) == []
    shown = masked["panels"][0]["items"][""]
    assert shown["checks"] == [list(lens_check(lens.max_abs_diff, lens.holds))] and shown["figure"]["browse"]["data"][0]["text"] \
        == [[f"{token}<br>{p:.2f}" for token, p in top] for top in lens.layers]

    page, apart = lens_page(loaded, "the cat sat")
    t = trace(loaded, "the cat sat")
    assert [v for v, _ in page["pickers"][0]["options"]] == [str(i) for i in range(len(t.tokens))]
    parts = dict(apart)
    assert page["panels"][0]["items"] == {str(i): {"part": f"lens.position.{i}"} for i in range(len(t.tokens))}
    for i in range(len(t.tokens)):
        expected = logit_lens(t, position=i)
        assert parts[f"lens.position.{i}"]["figure"]["browse"]["data"][0]["text"] == \
            [[f"{token}<br>{p:.2f}" for token, p in top] for top in expected.layers]
