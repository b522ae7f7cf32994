"""The readability check: every page as a lecturer shows it, in Debian's Chromium at 1280×720 in lecture mode, on
the bundled model and three of today's families (DeBERTa-v3, ModernBERT, EuroBERT with grouped queries), at about
8, 25 and 60 tokens, with cells chosen on the stepper and several tour chapters; `readability.problems` says what
a person would see wrong (overlapping text, type under 12 px, text cut off, the page's point below the fold, an
error).

`pytest tests/test_readability.py` runs a fast subset (every page on the bundled model at 25 tokens, and a few
views of each other family); the rest of the matrix is marked slow, so `pytest -m "" tests/test_readability.py`
runs it whole (about 250 views, 15-25 minutes on a 2-core machine). The first two tests prove that the check can fail: a page built to be broken is caught on every
count, and a clean one passes.
"""
from __future__ import annotations

import os
import urllib.parse
from pathlib import Path

import pytest

from readability import FOLD, problems, settle
from tiers import slow

CHROMIUM = "/usr/bin/chromium"
playwright = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")
ROOT = Path(__file__).resolve().parent.parent

BUNDLED = "sentence-transformers/all-MiniLM-L6-v2"
DEBERTA, MODERNBERT = "microsoft/deberta-v3-base", "answerdotai/ModernBERT-base"
EUROBERT_GQA = "eurobert-gqa"  # stands for a local directory the tests build (grouped queries: no such preset)
WORDS = ("the old man walked slowly along the river bank while the children played near the water and the dogs "
         "barked at the ducks that swam past the little wooden boat as the sun went down behind the hills and a "
         "cold wind began to blow across the quiet valley where nobody had lived for many years").split()


def sentence(tokens: int) -> str:
    """About `tokens` tokens: the words of a plain English text (specials take two)."""
    return " ".join(WORDS[: max(1, tokens - 2)])


def views(model: str, tokens: int) -> list[str]:
    """Every page of one model at one length, as a lecture link; architecture and overview once per model."""
    text, short = sentence(tokens), sentence(max(6, tokens // 3))
    family_steps = {DEBERTA: ["step=attn.c2p&cell=1,2"], MODERNBERT: ["step=attn.q_rot&cell=1,2"],
                    EUROBERT_GQA: ["step=attn.k&cell=1,2"]}.get(model, [])
    sentences = "sentences=" + urllib.parse.quote_plus("\n".join([text, short, " ".join(reversed(text.split()))]))
    pages = ["tokens", "layers", "layers?step=attn.scores&cell=1,2", "layers?step=ffn.act&cell=2,3",
             *[f"layers?{s}" for s in family_steps], "tour?chapter=1", "tour?chapter=3", "tour?chapter=8",
             "tour?chapter=11", "attention", "attention?view=model", "heads", "rollout", "contributions",
             f"lens?position={min(3, tokens - 2)}",
             f"similarity?{sentences}", f"similarity?{sentences}&why=1,2", "intervene?off=0.2&layer=1",
             f"intervene?mask=2&zero=1:{min(4, tokens - 1)}&vz=1&layer=1", "attribute?faithful=1",
             "contexts?sentence_a=" + urllib.parse.quote_plus("by the bank " + text) + "&sentence_b=" +
             urllib.parse.quote_plus("the bank " + short) + "&word=bank",
             f"compare?model_b={BUNDLED if model != BUNDLED else 'bert-base-uncased'}"]
    if tokens == 25:
        pages += ["", "architecture"]
    return [link(page, model, text) for page in pages]


def link(page: str, model: str, text: str) -> str:
    path, _, query = page.partition("?")
    keys = dict(urllib.parse.parse_qsl(query))
    keys = {"model": model, "text": text, **keys, "lecture": "1"}
    return path + "?" + urllib.parse.urlencode(keys)


def matrix() -> list:
    """Every page × four families × three lengths, as pytest parameters: the subset (every page on the bundled model
    at 25 tokens, and a few views of each other family) in the default suite, the rest marked slow."""
    subset = views(BUNDLED, 25) + [link("layers?step=attn.c2p&cell=1,2", DEBERTA, sentence(8)),
                                   link("tour?chapter=3", DEBERTA, sentence(25)),
                                   link("layers?step=attn.q_rot", MODERNBERT, sentence(60)),
                                   link("tokens", MODERNBERT, sentence(8)),
                                   link("layers?step=attn.k&cell=1,2", EUROBERT_GQA, sentence(25))]
    whole = [v for model in (BUNDLED, DEBERTA, MODERNBERT, EUROBERT_GQA) for n in (8, 25, 60) for v in views(model, n)]
    every = list(dict.fromkeys(subset + whole))  # the subset first, each view once
    return [pytest.param(view, id=view_id(view), marks=() if view in subset else slow) for view in every]


@pytest.fixture(scope="module")
def eurobert_gqa(tmp_path_factory) -> str:
    """EuroBERT-210m's layer with grouped queries (12 query heads reading 4 key/value heads, as EuroBERT-610m and
    -2.1B group theirs), 4 layers and a narrower width so that it loads fast; its stand-in tokenizer."""
    import torch
    from transformers import AutoConfig, AutoModelForMaskedLM

    from bertviz_lite.families import family_for_config
    from bertviz_lite.loading.offline_tokenizer import build_tokenizer
    from bertviz_lite.loading.presets import preset_config

    config = AutoConfig.for_model(**{**preset_config("EuroBERT/EuroBERT-210m"), "num_hidden_layers": 4,
                                     "hidden_size": 384, "intermediate_size": 1024, "num_key_value_heads": 4})
    directory = tmp_path_factory.mktemp("eurobert-gqa")
    torch.manual_seed(0)
    AutoModelForMaskedLM.from_config(config).save_pretrained(directory)
    family = family_for_config(config)
    build_tokenizer(family.tokenizer, family.max_tokens(config)).save_pretrained(directory)
    return str(directory)


@pytest.fixture(scope="module")
def server():
    from bertviz_lite.benchmarks.app_process import Server

    app = Server(ROOT)
    yield app.url
    app.stop()


@pytest.fixture(scope="module")
def page():
    """One 1280×720 tab for the whole module: a projector's screen."""
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield browser.new_page(viewport={"width": 1280, "height": FOLD})
        finally:
            browser.close()


BROKEN = """<html><body style='font-family:sans-serif'>
<p style='font-size:9px'>words too small to read</p>
<div style='width:90px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis;font-size:16px'>14/17 Feed-forward
activation</div>
<div style='height:900px'></div>
<div class='st-key-point-figure'>{figure}</div>{labels}
<div data-testid='stException'>Traceback: boom</div></body></html>"""


def crowded_labels():
    """60 rotated labels in 400 px, every one written."""
    import plotly.graph_objects as go

    labels = [f"{i} token{i}" for i in range(60)]
    fig = go.Figure(go.Bar(x=labels, y=list(range(60))))
    fig.update_xaxes(tickangle=-60, dtick=1, tickfont_size=16)
    return fig.update_layout(width=400, height=300, margin=dict(l=10, r=10, t=10, b=10))


def broken_figure():
    """Numbers that run together, a label at 9 px, a title past the figure's edge."""
    import plotly.graph_objects as go

    fig = go.Figure(go.Scatter(x=[0, 1], y=[0, 1]))
    fig.update_layout(width=400, height=300, margin=dict(l=10, r=10, t=10, b=10), annotations=[
        dict(x=0.5, y=0.5, xref="paper", yref="paper", text="-10.76", showarrow=False, font_size=16),
        dict(x=0.52, y=0.5, xref="paper", yref="paper", text="-10.35", showarrow=False, font_size=16),
        dict(x=0.2, y=0.9, xref="paper", yref="paper", text="tiny", showarrow=False, font_size=9),
        dict(x=1.6, y=0.9, xref="paper", yref="paper", text="a title past the edge", showarrow=False)])
    return fig


def clean_figure():
    import plotly.graph_objects as go

    labels = ["0 [CLS]", "1 the", "2 cat", "3 sat", "4 [SEP]"]
    fig = go.Figure(go.Heatmap(z=[[0.1 * (i + j) for j in range(5)] for i in range(5)], x=labels, y=labels,
                               texttemplate="%{z:.2f}", textfont_size=14))
    fig.update_xaxes(tickangle=-60, dtick=1, tickfont_size=16)
    fig.update_yaxes(dtick=1, tickfont_size=16)
    return fig.update_layout(width=600, height=500, title="layer 0, head 0: Attention (softmax)", font_size=16)


def plot_html(fig) -> str:
    return fig.to_html(include_plotlyjs=True, full_html=False)  # plotly.js inline: no network


def test_the_check_catches_a_broken_page(page):
    page.set_content(BROKEN.format(figure=plot_html(broken_figure()), labels=plot_html(crowded_labels())))
    page.wait_for_selector(".main-svg")
    found = problems(page)
    kinds = {p.kind for p in found}
    assert kinds == {"overlap", "small", "cut", "fold", "error"}, found
    text = "\n".join(map(str, found))
    for needle in ("'-10.76' and '-10.35'", "'tiny' at 9.0 px", "'words too small to read' at 9.0 px",
                   "'a title past the edge' past the figure's edge", "14/17 Feed-forward", "st-key-point-figure",
                   "Traceback: boom"):
        assert needle in text, (needle, text)
    rotated = [p for p in found if p.kind == "overlap"][1]
    assert "token" in rotated.what  # the rotated labels too, read as rotated boxes


def test_the_check_passes_a_clean_page(page):
    page.set_content(f"<html><body style='font-family:sans-serif;font-size:16px'><p>A readable page.</p>"
                     f"<div class='st-key-point-figure'>{plot_html(clean_figure())}</div></body></html>")
    page.wait_for_selector(".main-svg")
    assert problems(page) == []


def view_id(view: str) -> str:
    """A view's short name for the test's id: model, tokens, page and its own keys ("DeBERTa-8-layers-step=...")."""
    path, _, query = view.partition("?")
    keys = dict(urllib.parse.parse_qsl(query))
    names = {BUNDLED: "MiniLM", DEBERTA: "DeBERTa", MODERNBERT: "ModernBERT", EUROBERT_GQA: "EuroBERT-GQA"}
    model = names[keys["model"]]
    tokens = len(keys.pop("text").split()) + 2
    own = "&".join(f"{k}={v}" for k, v in keys.items() if k in ("step", "cell", "chapter", "view", "position"))
    return f"{model}-{tokens}-{path or 'overview'}" + (f"-{own}" if own else "")


@pytest.mark.parametrize("view", matrix())
def test_readable_on_a_projector(server, page, eurobert_gqa, view):
    page.goto(f"{server}/{view.replace('model=' + EUROBERT_GQA, 'model=' + urllib.parse.quote_plus(eurobert_gqa))}")
    settle(page)
    found = problems(page)
    assert not found, "\n".join(map(str, found))
