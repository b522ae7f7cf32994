"""`bertviz-lite export` (issue 45, its first part): a folder that is a static site, written whole or not at all,
that opens from disk in Chromium with no request to any other origin, shows the overview and each sentence's tokens
as the app computes them, and shows a sentence holding markup as typed, never running it."""
from __future__ import annotations

import json
import os
import urllib.parse
from pathlib import Path

import plotly
import pytest

from bertviz_lite import BUNDLED_MODEL, load_model, trace
from bertviz_lite.export import site_content, write_site
from cli_run import run_cli

CHROMIUM = "/usr/bin/chromium"
MARKUP = '</script><img src=x onerror="document.title=\'ran\'"> "quotes" {{ x }} <!--'
TEXTS = ["she sat on the river bank and watched the kayakers", MARKUP]


@pytest.fixture(scope="module")
def content() -> dict:
    return site_content(load_model(BUNDLED_MODEL), TEXTS)


@pytest.fixture(scope="module")
def site(tmp_path_factory, content) -> Path:
    return write_site(tmp_path_factory.mktemp("export") / "site", content)


def data_of(site: Path) -> dict:
    script = (site / "data.js").read_text(encoding="utf-8")
    return json.loads(script.removeprefix("window.BVL_SITE = ").rstrip().removesuffix(";"))


def test_the_folder_is_a_static_space_with_plotly_from_the_package_and_no_other_host(site):
    from bertviz_lite.export.writing import ASSETS

    assert sorted(p.name for p in site.iterdir()) == sorted([".bertviz-lite-site", "README.md", "data.js",
                                                             "plotly.min.js", "sentences", "weights", *ASSETS])
    assert sorted(p.name for p in (site / "sentences").iterdir()) == ["0.js", "1.js"]
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


def test_an_interrupted_export_leaves_the_earlier_site_and_no_half_written_one(content, monkeypatch, tmp_path):
    from bertviz_lite.export import writing

    out = tmp_path / "site"
    write_site(out, content)
    before = (out / "data.js").read_bytes()

    def broken(folder, content):
        (folder / "index.html").write_text("half")
        raise KeyboardInterrupt

    monkeypatch.setattr(writing, "_fill", broken)
    with pytest.raises(KeyboardInterrupt):
        write_site(out, content)
    assert (out / "data.js").read_bytes() == before and (out / "index.html").read_text() != "half"
    assert [p.name for p in tmp_path.iterdir()] == ["site"]  # no staging folder left behind


def test_a_site_is_swapped_in_by_renames_and_an_interrupted_swap_puts_the_earlier_one_back(content, monkeypatch,
                                                                                           tmp_path):
    from bertviz_lite.export import writing

    out = tmp_path / "site"
    write_site(out, content)
    before = (out / "data.js").read_bytes()
    renames = []

    def interrupted(source, target):  # the new site's rename into place is cut short
        renames.append((source, target))
        if Path(target) == out and "-new-" in Path(source).name:
            raise KeyboardInterrupt
        os.rename(source, target)

    monkeypatch.setattr(writing.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_site(out, content)
    monkeypatch.undo()
    assert (out / "data.js").read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["site"]
    assert len(renames) == 3  # the earlier site aside, the new one (cut short), the earlier one back


def test_a_folder_that_is_not_a_site_is_never_emptied(capsys, tmp_path):
    (tmp_path / "notes.txt").write_text("a lecturer's own file")
    code, out, err = run_cli(capsys, "export", BUNDLED_MODEL, "--text", "fine", "--out", str(tmp_path))
    assert code == 2 and "holds other files" in err and (tmp_path / "notes.txt").read_text() == "a lecturer's own file"


@pytest.mark.parametrize("args,fragment", [
    (["--text", "  "], "empty"),
    (["--text", "fine"], "not in the local cache"),  # with the model below: unknown, offline
])
def test_bad_input_is_one_line_exit_2_and_no_site(capsys, tmp_path, args, fragment):
    model = BUNDLED_MODEL if fragment == "empty" else "nobody/nothing"
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
        page.goto(index + "#/layers?text=x")
        assert "not exported yet" in page.locator("#view").inner_text()
        browser.close()
    assert elsewhere == []
