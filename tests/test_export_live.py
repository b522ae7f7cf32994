"""A live site (`export --live`, issue 46) in Chromium, served by a static server on loopback with every other origin
blocked: a sentence the export did not hold is tokenized and run in the browser (onnxruntime-web), and every
sub-step it computed is the PyTorch trace's within 1e-4 + 1e-5·|x|; the browser's tokenizer gives transformers' ids on 1,000+
texts; bad input is said in the page; a phone is told the model's size before fetching it."""
from __future__ import annotations

import base64
import functools
import hashlib
import os
import re
import threading
import urllib.parse
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest

from bertviz_lite import BUNDLED_MODEL, load_model, trace
from bertviz_lite.analyses.all_layers import all_layers
from bertviz_lite.closeness import ANOTHER_ROUTE
from bertviz_lite.analyses.contributions import layer_contributions
from bertviz_lite.export import site_content, write_site
from bertviz_lite.export.analyses import contributions_page, heads_page, rollout_page
from bertviz_lite.export.attention import attention_views
from bertviz_lite.export.content import continues_a_word
from bertviz_lite.export.tour import tour_chapters
from bertviz_lite.loading.readable_pieces import readable_pieces
from figure_json import differences, plain_figure
from readability import PHONE, problems
from test_export import MARKUP, data_of
from test_export_every_step import block_graphs, trace_steps
from other_browsers import evaluate, goto, journey, missing, wait
from tiers import browser, sampled_families
from tokenizer_corpus import corpus

CHROMIUM = "/usr/bin/chromium"
playwright = pytest.importorskip("playwright.sync_api")
ort = pytest.importorskip("onnxruntime")
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")
EXPORTED = "she sat on the river bank and watched the kayakers"
SECOND = "the bank raised its interest rates again this spring"  # the similarity compares the exported two
YOURS = ("a sentence with accents, café and naïve, and an emoji ☕ that the export never saw",
         " ".join(["the old man walked slowly along the river bank while the children played"] * 8))  # 100+ tokens
PAIR = ("is the bank open today?", "the river bank is flooded")


@pytest.fixture(scope="module")
def loaded():
    return load_model(BUNDLED_MODEL)


@pytest.fixture(scope="module")
def site(tmp_path_factory, loaded) -> Path:
    return write_site(tmp_path_factory.mktemp("live") / "site", site_content(loaded, [EXPORTED, SECOND], live=True))


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def served(site) -> str:
    """The site from a static server on loopback (as a static Space serves it)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/index.html"
    server.shutdown()


class Watched:
    """A browser context whose requests to any other origin are blocked and counted, and whose console errors and
    page errors are kept."""

    def __init__(self, chromium, origin: str, **options):
        self.context = chromium.new_context(**options)
        self.elsewhere, self.errors, self.fetched = [], [], []
        self.context.route("**/*", self.route)
        self.page = self.context.new_page()
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.origin = origin

    def route(self, route):
        url = route.request.url
        if url.startswith(self.origin) or url.startswith("file://") or url.startswith("data:"):
            self.fetched.append(url)
            return route.continue_()
        self.elsewhere.append(url)
        return route.abort()


@pytest.fixture(scope="module")
def chromium():
    with playwright.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def tab(chromium, served):
    """One lecture-hall laptop's tab: 1280×720, its cache kept from test to test (the model fetched once)."""
    watched = Watched(chromium, served.rsplit("/", 1)[0], viewport={"width": 1280, "height": 720})
    yield watched
    watched.context.close()


COMPUTED = """async ([text, pair]) => {
  const s = BVL.yours.find(text, pair), held = await BVL.lecture(BVL_SITE, BVL_SITE.sentences.indexOf(s));
  const arrays = {};
  for (const [name, a] of Object.entries(held.arrays)) {  // each array's bytes, as base64 (quick to hand over)
    const bytes = new Uint8Array(a.data.buffer, a.data.byteOffset, a.data.byteLength);
    let text = "";
    for (let k = 0; k < bytes.length; k += 8192) text += String.fromCharCode(...bytes.subarray(k, k + 8192));
    arrays[name] = { shape: a.shape, float: a.data instanceof Float32Array, data: btoa(text) };
  }
  return { live: s.live, tokens: s.tokens, ids: s.ids, sentences: s.sentences, continues: s.continues,
           notice: s.notice, checks: held.checks, arrays };
}"""


def computed(page, text: str, pair: str | None = None) -> dict:
    """What the browser computed for a sentence: its pieces and ids, each block's check, every array."""
    return unpacked(page.evaluate(COMPUTED, [text, pair]))


def unpacked(got: dict) -> dict:
    for a in got["arrays"].values():
        a["data"] = np.frombuffer(base64.b64decode(a["data"]), "<f4" if a["float"] else "<i4").reshape(a["shape"])
    return got


def worst_difference(got: dict, t) -> tuple[float, str, int]:
    """The sub-step farthest from the trace, as a fraction of its bound (closeness.ANOTHER_ROUTE: within 1e-4 + 1e-5·|x|, so
    at most 1 where every element agrees), its name, and how many sub-steps were compared."""
    expected = trace_steps(t)
    excess = {name: ANOTHER_ROUTE.excess(a["data"], expected[name]) for name, a in got["arrays"].items()
              if name in expected}
    worst = max(excess, key=excess.get)
    return excess[worst], worst, len(excess)


def open_link(page, served: str, page_name: str, keys: dict, drawn: str) -> None:
    page.goto(f"{served}#/{page_name}?{urllib.parse.urlencode(keys)}")
    page.wait_for_selector(f"{drawn}, [data-error]", timeout=180_000)


def test_the_live_folder_is_parts_under_10_mb_that_rebuild_the_model_with_every_sub_step(site, loaded):
    """Every file a static Space serves under 10 MB; the parts, joined in the manifest's order, are a model that
    onnxruntime in Python runs to the trace's numbers; every weight an explanation reads is indexed; licences."""
    live = data_of(site)["live"]
    folder = site / "live"
    assert max(p.stat().st_size for p in folder.iterdir()) < 10_000_000
    for part in [live["model"]["graph"], *live["model"]["data"], *live["runtime"]["wasm"]]:
        data = (site / part["path"]).read_bytes()
        assert len(data) == part["bytes"] and hashlib.sha256(data).hexdigest()[:16] == part["hash"]
    rebuilt = folder / "rebuilt"
    rebuilt.mkdir()
    try:
        (rebuilt / "model.onnx").write_bytes((site / live["model"]["graph"]["path"]).read_bytes())
        (rebuilt / live["model"]["data_name"]).write_bytes(b"".join((site / p["path"]).read_bytes()
                                                                    for p in live["model"]["data"]))
        session = ort.InferenceSession(str(rebuilt / "model.onnx"), providers=["CPUExecutionProvider"])
        t = trace(loaded, YOURS[0])
        tokens = t.token_data()
        outputs = session.run(live["outputs"], {name: getattr(tokens, name).numpy() for name in live["inputs"]})
    finally:
        for p in rebuilt.iterdir():
            p.unlink()
        rebuilt.rmdir()
    expected = trace_steps(t)
    assert all(ANOTHER_ROUTE.holds(v, expected[n]) for n, v in zip(live["outputs"], outputs) if n in expected)
    graphs = data_of(site)["model"]
    wanted = {n["module"] for b in graphs["blocks"] for n in b["nodes"] if n["op"] in ("linear", "lookup")}
    assert wanted <= set(live["weights"])
    licences = (folder / "LICENSES.md").read_text(encoding="utf-8")
    assert "onnxruntime-web 1.30.0" in licences and "MIT" in licences and "@huggingface/tokenizers 0.2.0" in licences
    assert "Apache License" in (folder / "LICENSE-tokenizers").read_text(encoding="utf-8")


def test_a_runtime_that_cannot_be_fetched_or_is_not_the_pinned_one_is_said_and_no_site_is_written(
        capsys, tmp_path, monkeypatch):
    """The npm registry unreachable, or a tarball whose hash is not the pinned one: one line on stderr, exit 2, no
    site (and nothing of it in the runtime's cache)."""
    import io
    import urllib.error

    from cli_run import run_cli

    monkeypatch.setenv("BERTVIZ_LITE_RUNTIME", str(tmp_path / "cache"))
    for answer, said in ((urllib.error.URLError("no route to host"), "could not be reached"),
                         (io.BytesIO(b"not the package"), "is not the file bertviz-lite pins")):
        def urlopen(url, timeout=None, answer=answer):
            if isinstance(answer, Exception):
                raise answer
            return answer
        monkeypatch.setattr("urllib.request.urlopen", urlopen)
        code, out, err = run_cli(capsys, "export", BUNDLED_MODEL, "--text", "fine", "--live",
                                 "--out", str(tmp_path / "site"))
        errors = [line for line in err.splitlines() if line.startswith("error:")]
        assert code == 2 and len(errors) == 1 and said in errors[0] and "Traceback" not in err, err
        assert not (tmp_path / "site").exists() and not any((tmp_path / "cache").rglob("*.js"))


def test_a_sentence_typed_in_the_box_is_computed_in_the_browser_as_the_trace(tab, served, loaded):
    """Typed on the stepper and sent with Enter: the browser's every sub-step is the trace's within 1e-4 + 1e-5·|x|, each
    block's check against the model's own hidden states is ✔, the page says where the numbers come from, and a
    linear map's cell is explained from the model's own W (read from the same bytes the runtime ran)."""
    page = tab.page
    open_link(page, served, "layers", {"text": EXPORTED}, "#step-figure .main-svg")
    page.fill("#your-sentence", YOURS[0])
    page.press("#your-sentence", "Enter")
    page.wait_for_selector(".computed-here", timeout=180_000)
    page.wait_for_selector("#step-figure .main-svg")
    got = computed(page, YOURS[0])
    t = trace(loaded, YOURS[0])
    assert got["live"] and got["tokens"] == t.tokens and got["ids"] == t.input_ids.tolist()
    worst, where, compared = worst_difference(got, t)
    assert compared == 103 and worst <= 1, f"{where} is {worst:.2f} of its bound from the trace"
    assert all(holds for _, holds in got["checks"].values()), got["checks"]
    assert page.locator("p.ok").count() == 1 and "✔" in page.locator("p.ok").inner_text()
    assert page.input_value("#your-sentence") == YOURS[0]  # what was typed stays

    open_link(page, served, "layers", {"text": YOURS[0], "layer": 1, "step": "ffn.in", "cell": "2,100"}, ".formula")
    page.wait_for_selector(".result")
    assert page.locator(".result").get_attribute("class") == "result ok"
    assert not explained_badly(page, YOURS[0])  # a cell of every sub-step of the embeddings, layer 0, the pooler
    open_link(page, served, "layers", {"text": YOURS[0], "step": "embed.word", "cell": "3,7"}, ".formula")
    word = float(np.asarray(loaded.base.embeddings.word_embeddings.weight[t.input_ids[3], 7].detach()))
    formula = page.locator(".formula").inner_text()
    assert f"embeddings.word_embeddings.weight[{t.input_ids[3]}, 7] = {word:.4f}" in formula
    assert not tab.elsewhere and not tab.errors, (tab.elsewhere, tab.errors)


def test_a_deep_link_computes_a_long_sentence_and_a_pair_and_the_tokens_page_shows_them(tab, served, loaded):
    """A shared link's text= (100+ tokens) and a pair's text= and pair=: the trace's numbers, the Tokens page's
    chips, and a view that shows exported sentences only says so (never a blank view)."""
    page = tab.page
    for text, pair in ((YOURS[1], None), PAIR):
        keys = {"text": text, **({"pair": pair} if pair else {})}
        open_link(page, served, "tokens", keys, ".chip")
        t = trace(loaded, text, pair)
        got = computed(page, text, pair)
        assert got["sentences"] == [{None: "special", 0: "A", 1: "B"}[s] for s in t.sequence_ids]
        worst, where, _ = worst_difference(got, t)
        assert worst <= 1, f"{text[:20]}: {where} is {worst:.2f} of its bound from the trace"
        chips = [c.split("\n")[0] for c in page.locator(".chip").all_inner_texts()]
        assert chips == t.tokens and page.locator(".computed-here").count() == 1
    assert len(trace(loaded, YOURS[1]).tokens) > 100
    open_link(page, served, "architecture", {"text": "never typed before"}, "h1")  # the whole model's: no sentence
    assert "never typed before" not in page.locator("#view").inner_text()
    assert not tab.elsewhere and not tab.errors, (tab.elsewhere, tab.errors)


def tokenized_otherwise(page, loaded, texts) -> tuple[list, list]:
    """The texts the site's tokenization (the model's tokenizer.json read by Hugging Face's tokenizers for the web,
    cut to the model's length as the trace cuts, the longer sentence of a pair first) gives otherwise than
    transformers: the pieces as the app shows them, the ids, token types, sentences, the count cut, and which
    pieces go on a word (the tour counts them); and what the site gave."""
    got = page.evaluate("""async (texts) => {
      const out = [];
      for (const [text, pair] of texts) {
        const e = await BVL.tokenizing.tokenized(text, pair);
        out.push([e.tokens, e.ids, e.types, e.sentences, e.dropped, e.continues]);
      }
      return out;
    }""", texts)
    tokenizer = loaded.tokenizer
    wrong = []
    for (text, pair), shown in zip(texts, got):
        enc = tokenizer(text, pair, truncation=True, max_length=loaded.max_tokens)
        full = len(tokenizer(text, pair, truncation=False, verbose=False)["input_ids"])
        words, sentences = enc.word_ids(), enc.sequence_ids()
        types = enc["token_type_ids"] if "token_type_ids" in enc else [0] * len(enc["input_ids"])
        expected = [readable_pieces(tokenizer, tokenizer.convert_ids_to_tokens(enc["input_ids"])), enc["input_ids"],
                    types, [{None: "special", 0: "A", 1: "B"}[s] for s in sentences], full - len(enc["input_ids"]),
                    [i > 0 and s is not None and w is not None and w == words[i - 1]  # as continues_a_word
                     for i, (s, w) in enumerate(zip(sentences, words))]]
        if shown != expected:
            wrong.append((text[:60], pair and pair[:30]))
    return wrong, got


def test_the_browsers_tokenizer_gives_transformers_ids_on_a_thousand_texts(tab, served, loaded):
    """The site's tokenization against transformers' own, of every text of the corpus (`tokenized_otherwise`)."""
    texts = corpus()
    assert len(texts) >= 1000
    page = tab.page
    open_link(page, served, "overview", {}, "#sunburst .main-svg")
    wrong, got = tokenized_otherwise(page, loaded, texts)
    assert not wrong, f"{len(wrong)} of {len(texts)} differ, e.g. {wrong[:5]}"
    assert sum(len(ids) == loaded.max_tokens for _, ids, *_ in got) >= 40  # the long texts and pairs were cut


@browser
def test_a_byte_level_vocabulary_is_tokenized_and_named_in_the_browser_as_the_app_names_it(chromium, tmp_path):
    """A byte-level BPE vocabulary (ModernBERT's real one, 50,280 pieces, shipped with the app) on a tiny ModernBERT
    as a live site: every text of the corpus gives transformers' ids, and each piece the name the app shows
    ("Ġthe" as "▁the", a character's lone bytes as <F0 9F>; export/live.py readable_names); then a typed sentence
    is computed as the trace."""
    import transformers
    from bertviz_lite.loading.real_tokenizers import real_tokenizer

    tokenizer = real_tokenizer("answerdotai/ModernBERT-base", 512)
    ids = {name: tokenizer.convert_tokens_to_ids(f"[{name.upper()}]") for name in ("cls", "sep", "pad", "mask")}
    config = transformers.ModernBertConfig(
        hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=37, max_position_embeddings=512,
        vocab_size=len(tokenizer), **{f"{name}_token_id": i for name, i in ids.items()},
        bos_token_id=ids["cls"], eos_token_id=ids["sep"])
    transformers.AutoModelForMaskedLM.from_config(config).save_pretrained(tmp_path / "model")
    tokenizer.save_pretrained(tmp_path / "model")
    loaded = load_model(str(tmp_path / "model"))
    site = write_site(tmp_path / "site", site_content(loaded, [EXPORTED], live=True))
    assert (site / "live" / "readable.json").stat().st_size < 2e6
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    watched = Watched(chromium, origin, viewport={"width": 1280, "height": 720})
    try:
        open_link(watched.page, f"{origin}/index.html", "overview", {}, "h1")
        texts = corpus()
        wrong, got = tokenized_otherwise(watched.page, loaded, texts)
        assert not wrong, f"{len(wrong)} of {len(texts)} differ, e.g. {wrong[:5]}"
        assert any("▁" in piece for tokens, *_ in got for piece in tokens)  # shown as the app shows them
        assert any(piece.startswith("<") and "\u00a0" in piece for tokens, *_ in got for piece in tokens)  # lone bytes
        open_link(watched.page, f"{origin}/index.html", "tokens", {"text": YOURS[0]}, ".chip")
        t = trace(loaded, YOURS[0])
        computed_here = computed(watched.page, YOURS[0])
        assert computed_here["tokens"] == t.tokens
        worst, where, _ = worst_difference(computed_here, t)
        assert worst <= 1, f"{where} is {worst:.2f} of its bound from the trace"
        assert not watched.elsewhere and not watched.errors, (watched.elsewhere, watched.errors)
    finally:
        watched.context.close()
        server.shutdown()


def test_your_sentence_beside_the_exported_ones_is_the_apps_similarity_and_split(tab, served, loaded):
    """The Similarity page of a sentence computed here: its cosine with each exported sentence, made the way the app
    makes the vectors (the checkpoint's pooling), within 1e-5 of the app's; its split with sentence 2 cell by cell
    within 1e-6 of the app's `split_traces`, the cells drawn, and the caption word for word."""
    from bertviz_lite.analyses.similarity import vectors_of
    from bertviz_lite.analyses.similarity_split import split_traces

    page = tab.page
    open_link(page, served, "similarity", {"text": YOURS[0], "with": "2"}, "#yours-split .main-svg")
    got = page.evaluate("""async (text) => {
      const s = BVL.yours.find(text, null), held = await BVL.lecture(BVL_SITE, BVL_SITE.sentences.indexOf(s));
      const c = await BVL.similar.compared(held, BVL_SITE.similarity.yours, 2);
      return { cosines: c.cosines, pairs: c.pair.cells, caption: c.text,
               drawn: document.getElementById("yours-split").data[0].z };
    }""", YOURS[0])
    most = loaded.sentence_pooling.max_tokens
    traces = [trace(loaded, text, max_tokens=most) for text in (YOURS[0], EXPORTED, SECOND)]
    expected = vectors_of(loaded, traces)[0].cosine()[0, 1:]
    np.testing.assert_allclose(got["cosines"][0], expected, atol=1e-5)
    split = split_traces(traces[0], traces[2])
    np.testing.assert_allclose(np.array(got["pairs"]), split.pairs, atol=1e-6)
    np.testing.assert_allclose(np.array(got["drawn"]), split.pairs, atol=1e-6)
    assert got["caption"] == split.caption(pooled=True)
    assert "computed in this browser" in page.locator("h1").first.inner_text()
    assert page.locator("#similarity-0.js-plotly-plot").count() == 1  # the site's own comparison still below
    assert not tab.elsewhere and not tab.errors, (tab.elsewhere, tab.errors)


def views_in_the_browser(page, t) -> dict:
    """attention_views.js's views of the trace `t`: its templates filled from the `views` graph run in the browser
    on the trace's own attention, each screen's figure as JSON."""
    probs = [base64.b64encode(np.ascontiguousarray(t.attention(layer), "<f4").tobytes()).decode()
             for layer in range(t.num_layers)]
    return page.evaluate("""async ([tokens, probs, shape]) => {
      const arrays = probs.map((b64) => ({ shape, data: new Float32Array(Uint8Array.from(atob(b64),
                                                                                          (c) => c.charCodeAt(0)).buffer) }));
      const sentence = { tokens, ids: {}, weights: async () => ({}),
                         array: (name) => arrays[Number(/^layers[.](\\d+)[.]attn[.]probs$/.exec(name)[1])] };
      const views = await BVL.attentionViews(sentence);
      const plain = (f) => JSON.parse(JSON.stringify(f, (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v)));
      const screens = (v) => ({ browse: plain(v.browse), lecture: plain(v.lecture), phone: plain(v.phone) });
      return { head: views.head.map((v) => ({ ...screens(v), scrolls: v.scrolls })), model: screens(views.model) };
    }""", [t.tokens, probs, list(t.attention(0).shape)])


def test_a_computed_sentences_head_and_model_views_are_the_apps_figures(tab, served, loaded):
    """attention_views.js, handed the trace's own attention, draws every layer's head view and the model view, for
    a browser, a projector and a phone, as export/attention.py draws an exported sentence's (the same JSON within
    float32's rounding): the app's templates filled from the `views` graph: a short sentence, a pair, and 100+
    tokens (lines kept to each query's strongest, thumbnails pooled). Then the Attention page of a typed sentence draws both, and a thumbnail opens Layers."""
    page = tab.page
    open_link(page, served, "overview", {}, "h1")
    for text, pair in ((EXPORTED, None), PAIR, (YOURS[1], None)):
        t = trace(loaded, text, pair)
        found = differences(views_in_the_browser(page, t), plain_figure(attention_views(t)))
        assert not found, f"{len(t.tokens)} tokens: " + "\n".join(found[:12])
    page.goto(f"{served}#/attention?" + urllib.parse.urlencode({"text": YOURS[0], "view": "model"}))
    page.wait_for_selector("#attention-figure .main-svg", timeout=180_000)
    assert page.locator(".computed-here").count() == 1
    page.locator("#attention-figure .scatterlayer .point").first.click(force=True)  # layer 0, head 0's thumbnail
    page.wait_for_selector("#stepper, .stepper, [data-point]", timeout=60_000)
    assert "/layers?" in page.url and "attn.probs" in urllib.parse.unquote(page.url)
    page.goto(f"{served}#/attention?" + urllib.parse.urlencode({"text": YOURS[0], "layer": "3"}))
    page.wait_for_selector("#attention-figure .main-svg", timeout=60_000)
    assert "Layer 3, all 12 heads" in page.locator("#attention-figure").inner_text()
    assert not tab.elsewhere and not tab.errors, (tab.elsewhere, tab.errors)


def told_in_the_browser(page, t) -> list[dict]:
    """tour.js's chapters of the trace `t`, told from the trace's own numbers (the blocks the tour reads and the model's
    own hidden states, each block's and as the run's output that the sentence vector's graph reads), as a computed
    sentence's lecture holds them."""
    read = {name: packed_array(a) for name, a in trace_steps(t).items() if name.split(".")[0] in ("embed", "positions")
            or name.startswith("layers.0.")}
    sentence = {"text": t.text, "pair": t.pair, "tokens": t.tokens, "dropped": t.dropped_tokens,
                "sentences": [{None: "special", 0: "A", 1: "B"}[s] for s in t.sequence_ids],
                "continues": continues_a_word(t)}
    return page.evaluate("""async ([sentence, read, hidden]) => {
      const unpack = ([b64, shape, kind]) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)).buffer;
        return { shape, data: kind === "<i4" ? new Int32Array(bytes) : new Float32Array(bytes) };
      };
      const arrays = Object.fromEntries(Object.entries(read).map(([name, a]) => [name, unpack(a)]));
      const states = unpack(hidden), [, T, d] = states.shape, site = window.BVL_SITE;
      const outputs = site.model.blocks.filter((b) => b.block === "embed" || b.block === "layers")
        .map((b) => BVL.stepName(b, b.nodes[b.nodes.length - 1].key));
      const lecture = { model: site.model, tokens: sentence.tokens,
        array: (name) => (name === site.live.hidden_states ? states : arrays[site.live.sources[name] || name]),
        given: (name) => { const i = outputs.indexOf(name);
                           return { shape: [T, d], data: states.data.subarray(i * T * d, (i + 1) * T * d) }; } };
      const plain = (f) => JSON.parse(JSON.stringify(f, (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v)));
      return (await BVL.tour.tourOf(lecture, sentence)).map((c) => ({ kind: c.kind, title: c.title, step: c.step,
        lines: c.lines, drawn: Boolean(c.draw || c.figure), question: c.question,
        figure: c.figure && { browse: plain(c.figure.browse), lecture: plain(c.figure.lecture),
                              phone: plain(c.figure.phone) } }));
    }""", [sentence, read, packed_array(t.hidden_states)])


def test_a_computed_sentences_tour_says_what_the_apps_tour_says(tab, served, loaded):
    """tour.js, handed the trace's own numbers, gives every chapter of the tour with the words, numbers and question
    the app's tour gives (export/tour.py tour_chapters), word for word: a short sentence, one with accents and emoji,
    a pair (whose sentence vector is its first sentence's, run again in the browser) and 100+ tokens; each chapter
    with a figure in the app's has one here (the output chapter's, the app's own figure filled, on every screen).
    Then the Tour page of a typed sentence tells and draws a chapter."""
    page = tab.page
    open_link(page, served, "overview", {}, "h1")
    for text, pair in ((EXPORTED, None), (YOURS[0], None), PAIR, (YOURS[1], None)):
        t = trace(loaded, text, pair)
        expected = [{"kind": c["kind"], "title": c["title"], "step": c["step"], "lines": c["lines"],
                     "drawn": c["figure"] is not None, "question": c["question"]} for c in tour_chapters(loaded, t)]
        got = told_in_the_browser(page, t)
        assert len(got) == len(expected)
        figures = [c["figure"] for c in tour_chapters(loaded, t)]
        for ours, theirs, figure in zip(got, expected, figures):
            drawn = ours.pop("figure")  # the output chapter's: the app's own figure (a template filled)
            assert ours == theirs, f"{len(t.tokens)} tokens, {theirs['title']}"
            if drawn:
                found = [d for screen in drawn
                         for d in differences(plain_figure(drawn[screen]), plain_figure(figure[screen]))]
                assert not found, (theirs["title"], found[:8])
    softmax = next(i for i, c in enumerate(expected) if c["step"] == "layers.0.attn.probs") + 1
    page.goto(f"{served}#/tour?" + urllib.parse.urlencode({"text": YOURS[0], "chapter": str(softmax)}))
    page.wait_for_selector("#tour-figure .main-svg", timeout=180_000)
    shown = page.locator("#view").inner_text()
    assert page.locator(".computed-here").count() == 1 and "of its attention on" in shown
    assert not tab.elsewhere and not tab.errors, (tab.elsewhere, tab.errors)


def test_a_typed_sentence_is_asked_first_by_keys_on_a_projector_and_a_phone(tab, served, loaded):
    """A sentence typed on a live site, its tour with ask=1: the question the app asks of it (tour/questions.py),
    asked in the browser (asked.js), its figure held back; a choice made by Tab and Enter shows the figure and
    exactly one line that says "right", the app's right one; on a projector and on a phone's width."""
    from bertviz_lite.tour import chapters
    from bertviz_lite.tour.questions import chapter_question

    t = trace(loaded, YOURS[0])
    story = chapters(t, 0)
    number = next(i for i, c in enumerate(story) if c.step == "layers.0.attn.probs") + 1
    expected = chapter_question(t, story[number - 1], 0, 1)  # the site's tour: head 0, token 1
    page = tab.page
    link = f"{served}#/tour?" + urllib.parse.urlencode({"text": YOURS[0], "chapter": str(number), "ask": "1",
                                                         "lecture": "1"})
    for width, height in ((1280, 720), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto("about:blank")
        page.goto(link)
        page.wait_for_selector(".choice", timeout=180_000)
        assert page.locator(".choice").all_inner_texts() == [c.label for c in expected.choices]
        assert page.locator("#tour-figure").count() == 0
        for _ in range(40):
            page.keyboard.press("Tab")
            if page.evaluate("[...document.querySelectorAll('.choice')].indexOf(document.activeElement)") == 1:
                break
        page.keyboard.press("Enter")
        page.wait_for_selector("#tour-figure .main-svg", timeout=60_000)
        right = [line for line in page.locator(".answer li").all_inner_texts() if " — right" in line]
        assert right == [next(c.line for c in expected.choices if c.right) + " — right"
                         + (" — your choice" if expected.choices[1].right else "")]
    page.set_viewport_size({"width": 1280, "height": 720})
    assert not tab.elsewhere and not tab.errors, (tab.elsewhere, tab.errors)


def analysed_in_the_browser(page, t) -> dict:
    """analysed.js's Heads and Rollout pages of the trace `t`, from its own attention: each page's JSON with its
    figures left out, and the numbers it drew them from."""
    probs = [base64.b64encode(np.ascontiguousarray(t.attention(layer), "<f4").tobytes()).decode()
             for layer in range(t.num_layers)]
    return page.evaluate("""async ([tokens, ids, probs, shape]) => {
      const arrays = probs.map((b64) => ({ shape, data: new Float32Array(Uint8Array.from(atob(b64),
                                                                                          (c) => c.charCodeAt(0)).buffer) }));
      const lecture = { tokens, ids: { input_ids: ids }, model: BVL_SITE.model,
                        array: (name) => arrays[Number(name.split(".")[1])] };
      const plain = (page) => JSON.parse(JSON.stringify(page, (key, value) => (key === "figure" && value ? "drawn" : value)));
      const figure = (f) => JSON.parse(JSON.stringify(f, (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v)));
      const screens = (item) => ({ browse: figure(item.figure.browse), lecture: figure(item.figure.lecture),
                                   phone: figure(item.figure.phone) });
      const heads = await BVL.analysed.heads(lecture), rollout = await BVL.analysed.rollout(lecture);
      const grids = Object.fromEntries(Object.entries(heads.panels[0].items).map(([stat, item]) => [stat,
                                                                                                      screens(item)]));
      const rolled = { layer: screens(rollout.panels[0].items["1"]), token: screens(rollout.panels[1].items["1"]) };
      return { heads: plain(heads), rollout: plain(rollout), grids, rolled };
    }""", [t.tokens, t.input_ids.tolist(), probs, list(t.attention(0).shape)])


def without_figures(page: dict, apart) -> dict:
    """An exported page (export/analyses.py) with each item kept apart put back, and each figure said as drawn."""
    parts = dict(apart)
    panels = [{**panel, "items": {value: {**(parts[item["part"]] if "part" in item else item)}
                                  for value, item in panel["items"].items()}} for panel in page["panels"]]
    for panel in panels:
        for item in panel["items"].values():
            item["figure"] = item["figure"] and "drawn"
    return {**page, "panels": panels}


def test_a_computed_sentences_heads_and_rollout_are_the_apps(tab, served, loaded):
    """analysed.js, handed the trace's own attention, gives the Heads page (each head's fingerprint, Clark et al.
    2019) and the Rollout page (Abnar & Zuidema 2020) as export/analyses.py gives an exported sentence's: every
    statistic and rollout within float32's rounding, the pages' pickers, words and links the same, a figure where
    the app has one, and each statistic's grid the app's own figure (a template filled) on every screen. Then both
    pages of a typed sentence draw."""
    page = tab.page
    open_link(page, served, "overview", {}, "h1")
    for text, pair in ((EXPORTED, None), PAIR, (YOURS[1], None)):
        t = trace(loaded, text, pair)
        layerwise = all_layers(t)
        got = analysed_in_the_browser(page, t)
        for stat, grid in layerwise.fingerprints.stats.items():
            assert np.allclose(got["heads"]["numbers"][stat], grid, atol=1e-5, equal_nan=True), stat
        assert np.abs(np.array(got["rollout"]["numbers"]) - layerwise.rollout).max() <= 1e-5
        for name, make in (("heads", heads_page), ("rollout", rollout_page)):
            ours = {k: v for k, v in got[name].items() if k != "numbers"}
            assert ours == without_figures(*make(t, layerwise)), f"{len(t.tokens)} tokens: {name}"
        exported = heads_page(t, layerwise)[0]["panels"][0]["items"]  # the app's grids, as an exported sentence's
        for stat, screens in got["grids"].items():
            for screen, figure in screens.items():
                found = differences(figure, plain_figure(exported[stat]["figure"][screen]))
                assert not found, (stat, screen, found[:8])
        page_, apart = rollout_page(t, layerwise)  # the app's rollout after layer 1, and token 1's mixture
        exported = {"layer": page_["panels"][0]["items"]["1"], "token": dict(apart)["rollout.token.1"]}
        for what, screens in got["rolled"].items():
            for screen, figure in screens.items():
                found = differences(figure, plain_figure(exported[what]["figure"][screen]))
                assert not found, (what, screen, found[:8])
    for name, drawn in (("heads", "#figure-heads-0 .main-svg"), ("rollout", "#figure-rollout-1 .main-svg")):
        page.goto(f"{served}#/{name}?" + urllib.parse.urlencode({"text": YOURS[0]}))
        page.wait_for_selector(drawn, timeout=180_000)
        assert page.locator(".computed-here").count() == 1
    assert not tab.elsewhere and not tab.errors, (tab.elsewhere, tab.errors)


def packed_array(array) -> list:
    """An array for the page: its bytes in base64, its shape, its type."""
    array = np.asarray(array.detach() if hasattr(array, "detach") else array)
    kind = "<i4" if np.issubdtype(array.dtype, np.integer) else "<f4"
    return [base64.b64encode(np.ascontiguousarray(array, kind).tobytes()).decode(), list(array.shape), kind]


def contributions_in_the_browser(page, t) -> dict:
    """analysed.js's Contributions page of the trace `t`, from the trace's own layers (attention, values, outputs),
    the model's hidden states and its W_O: the page's JSON with its figures left out, and each layer's numbers."""
    steps = {name: packed_array(a) for name, a in trace_steps(t).items() if ".attn." in name}  # what it reads
    graphs = [g for g in block_graphs(t.loaded) if g.block == "layers"]
    outputs = {n.module for g in graphs for n in g if n.op.name == "linear"  # W_O: the map of the merged heads
               and any(i in g.keys and g.node(i).op.name == "merge_heads" for i in n.inputs)}
    linear = {m: t.loaded.base.get_submodule(m) for m in sorted(outputs)}
    weights = {m: [packed_array(w.weight), None if w.bias is None else packed_array(w.bias)] for m, w in linear.items()}
    return page.evaluate("""async ([tokens, steps, hidden, weights]) => {
      const unpack = async (packed) => {  // the browser's own base64 reader (a data: address): quick at 40 MB
        if (!packed) return null;
        const [b64, shape, kind] = packed;
        const bytes = await (await fetch(`data:application/octet-stream;base64,${b64}`)).arrayBuffer();
        return { shape, data: kind === "<i4" ? new Int32Array(bytes) : new Float32Array(bytes) };
      };
      const arrays = Object.fromEntries(await Promise.all(Object.entries(steps).map(async ([name, a]) => [name,
                                                                                            await unpack(a)])));
      for (const module of Object.keys(weights)) weights[module] = await Promise.all(weights[module].map(unpack));
      const states = await unpack(hidden), [, T, d] = states.shape, site = window.BVL_SITE;
      const outputs = site.model.blocks.filter((b) => b.block === "embed" || b.block === "layers")
        .map((b) => BVL.stepName(b, b.nodes[b.nodes.length - 1].key));
      const lecture = Object.assign(Object.create(BVL.Lecture.prototype), {
        site, model: site.model, tokens, arrays, decodedParameters: {},
        array: (name) => (name === site.live.hidden_states ? states : arrays[site.live.sources[name] || name]),
        given: (name) => { const i = outputs.indexOf(name);
                           return { shape: [T, d], data: states.data.subarray(i * T * d, (i + 1) * T * d) }; },
        weights: async (module) => ({ weight: weights[module][0], bias: weights[module][1] }) });
      const page = await BVL.analysed.contributions(lecture);
      const figure = (f) => JSON.parse(JSON.stringify(f, (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v)));
      const drawn = (item) => Object.fromEntries(["browse", "lecture", "phone"].map((s) => [s, figure(item.figure[s])]));
      const beside = Object.keys(page.panels[1].items).find((key) => key.startsWith("1,"));
      const figures = { attention: drawn(page.panels[0].items["1"]), [beside]: drawn(page.panels[1].items[beside]),
                        mixing: drawn(page.panels[2].items[""]) };
      return { ...JSON.parse(JSON.stringify(page, (key, value) => (key === "figure" && value ? "drawn" : value))),
               figures };
    }""", [t.tokens, steps, packed_array(t.hidden_states), weights])


def assert_contributions_are_the_apps(got: dict, t, label: str) -> None:
    """Every norm of every layer within float32's rounding of layer_contributions, and the page the same as
    contributions_page gives but for each check's largest difference (float rounding, its own in each); layer 1's
    panels and the mixing ratios the app's own figures on every screen."""
    masked = lambda checks: [[re.sub(r"= \S+e[-+−]\d+", "= …", said), holds] for said, holds in checks]  # noqa: E731
    for layer, ours in enumerate(got.pop("numbers")["results"]):
        theirs = layer_contributions(t, layer)
        for name in ("attention", "norm", "norm_residual", "norm_residual_ln"):
            expected = getattr(theirs, name)
            assert (ours[name] is None) == (expected is None), (label, name)
            if expected is not None:
                scale = max(1.0, float(np.abs(expected).max()))
                assert np.abs(np.array(ours[name]) - expected).max() <= 1e-5 * scale, (label, layer, name)
    exported, apart = contributions_page(t, all_layers(t))  # the app's figures: layer 1's panels, the mixing ratios
    for what, screens in got.pop("figures").items():
        item = exported["panels"][0 if what == "attention" else 2 if what == "mixing" else 1]["items"][
            "1" if what == "attention" else "" if what == "mixing" else what]
        for screen, figure in screens.items():
            found = differences(figure, plain_figure(item["figure"][screen]))
            assert not found, (label, what, screen, found[:8])
    expected = without_figures(exported, apart)
    for panel, theirs in zip(got["panels"], expected["panels"]):
        for item in list(panel["items"].values()) + list(theirs["items"].values()):
            assert all(holds for _, holds in item["checks"]), (label, item["checks"])
            item["checks"] = masked(item["checks"])
    assert got == expected, label


@pytest.mark.slow  # heavier than its neighbours, and every family's run checks it too
def test_a_computed_sentences_contributions_are_the_apps(tab, served, loaded):
    """analysed.js, handed the trace's own layers and the model's W_O, gives the Contributions page (Kobayashi et al.
    2020, 2021) as export/analyses.py gives an exported sentence's: every norm of every layer within float32's
    rounding of the app's, both checks holding, the pages' pickers, words, notes and figures the same (a check's
    largest difference is float rounding, its own in each: said, not compared). Then the page of a typed sentence
    draws, its checks against the run's own numbers holding."""
    page = tab.page
    open_link(page, served, "overview", {}, "h1")
    for text, pair in ((EXPORTED, None), PAIR, (YOURS[1], None)):
        t = trace(loaded, text, pair)
        assert_contributions_are_the_apps(contributions_in_the_browser(page, t), t, f"{len(t.tokens)} tokens")
    page.goto(f"{served}#/contributions?" + urllib.parse.urlencode({"text": YOURS[0], "layer": "2"}))
    page.wait_for_selector("#figure-contributions-0 .main-svg", timeout=180_000)
    results = page.locator(".result").all_inner_texts()
    assert len(results) == 2 and all(r.startswith("✔") for r in results), results
    assert page.locator(".computed-here").count() == 1
    assert not tab.elsewhere and not tab.errors, (tab.elsewhere, tab.errors)


@pytest.mark.slow
def test_a_computed_sentences_lens_is_the_apps_nearest_pieces(tab, served, loaded):
    """The bundled model has no trained masked-LM head: its Lens shows the vocabulary pieces nearest to each hidden
    state. analysed.js, handed the trace's hidden states and reading the word table from the live files, gives the
    page as export/analyses.py gives an exported sentence's: each position's pieces the app's, in its order, their
    cosines within float32's rounding; a sentence with [MASK] looks there alone. Then a typed sentence's Lens draws."""
    from bertviz_lite.export.analyses import lens_page
    from bertviz_lite.export.content import with_masked_lm_head

    masked_lm = with_masked_lm_head(loaded)
    page = tab.page
    open_link(page, served, "overview", {}, "h1")
    for text in (EXPORTED, "the river [MASK] was flooded"):
        t = trace(masked_lm, text)
        expected, apart = lens_page(masked_lm, text)
        got = page.evaluate("""async ([tokens, ids, hidden]) => {
          const bytes = await (await fetch(`data:application/octet-stream;base64,${hidden[0]}`)).arrayBuffer();
          const states = { shape: hidden[1], data: new Float32Array(bytes) }, [, T, d] = states.shape, site = BVL_SITE;
          const outputs = site.model.blocks.filter((b) => b.block === "embed" || b.block === "layers")
            .map((b) => BVL.stepName(b, b.nodes[b.nodes.length - 1].key));
          const lecture = Object.assign(Object.create(BVL.Lecture.prototype), {
            site, model: site.model, tokens, ids: { input_ids: ids }, decodedParameters: {}, arrays: {},
            array: (name) => { if (name !== site.live.hidden_states) throw new Error(name); return states; },
            given: (name) => { const i = outputs.indexOf(name);
                               return { shape: [T, d], data: states.data.subarray(i * T * d, (i + 1) * T * d) }; },
            weights: async (module) => ({ weight: await BVL.modelParts.stored(module, "weight") }) });
          const plain = (x) => JSON.parse(JSON.stringify(x, (key, value) => (key === "figure" && value ? "drawn" : value)));
          const shown = await BVL.analysed.lens(lecture), parts = {};
          for (const panel of shown.panels) {
            for (const item of Object.values(panel.items)) {
              if (item.part) parts[item.part] = plain(await BVL.analysed.lensItem(lecture, Number(item.part.split(".")[2])));
            }
          }
          return { page: plain(shown), parts };
        }""", [t.tokens, t.input_ids.tolist(), packed_array(t.hidden_states)])
        parts = dict(apart)
        numbers = [item.pop("numbers") for item in [*got["parts"].values(),
                                                     *(i for p in got["page"]["panels"] for i in p["items"].values())]
                   if "numbers" in item]
        assert numbers, text
        assert got["page"]["panels"] == [{**panel, "items": {value: ({"part": item["part"]} if "part" in item else
                                                                     {**item, "figure": "drawn"})
                                                             for value, item in panel["items"].items()}}
                                         for panel in expected["panels"]]
        assert {k: v for k, v in got["page"].items() if k != "panels"} == \
            {k: v for k, v in expected.items() if k != "panels"}
        from bertviz_lite.analyses.nearest_pieces import nearest_at
        positions = t.mask_positions[:1] or list(range(len(t.tokens)))
        for found, ours in zip(nearest_at(t, positions), numbers):
            assert [[p for p, _ in top] for top in ours] == [[p for p, _ in top] for top in found.layers], text
            assert np.abs(np.array([[c for _, c in top] for top in ours])
                          - np.array([[c for _, c in top] for top in found.layers])).max() <= 1e-5
        assert set(got["parts"]) == set(parts)
    page.goto(f"{served}#/lens?" + urllib.parse.urlencode({"text": YOURS[0], "position": "3"}))
    page.wait_for_selector("#figure-lens-0 .main-svg", timeout=180_000)
    assert page.locator(".computed-here").count() == 1
    assert not tab.elsewhere and not tab.errors, (tab.elsewhere, tab.errors)


@browser
@pytest.mark.parametrize("text, said", [
    ("", "The text is empty"),
    ("   ", "The text is empty"),
    (" ".join(["word"] * 5000), "the last 4,490 tokens were dropped"),
    ("?!... ,;: —", None),
    ("☕😀👍🏽", None),
    (MARKUP, None),
], ids=["empty", "spaces", "5000-words", "punctuation", "emoji", "markup"])
def test_bad_input_in_a_link_or_the_box_is_said_in_the_page(tab, served, loaded, text, said):
    page = tab.page
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    t = trace(loaded, text) if text.strip() else None
    for through in ("link", "box"):
        if through == "link":
            open_link(page, served, "tokens", {"text": text}, ".chip")
        else:  # typed on the stepper of an exported sentence: Enter opens the stepper on it
            open_link(page, served, "layers", {"text": EXPORTED}, "#step-figure .main-svg")
            page.fill("#your-sentence", text)
            page.press("#your-sentence", "Enter")
            page.wait_for_function("!document.querySelector('#step-figure') || !location.hash.includes('kayakers')")
            page.wait_for_selector("#step-figure .main-svg, [data-error]", timeout=60_000)
        shown = page.locator("#view").inner_text()
        assert shown.strip(), through
        if said:
            assert said in shown, through
        if t is not None and through == "link":
            chips = [c.split("\n")[0] for c in page.locator(".chip").all_inner_texts()]
            assert chips == t.tokens and page.locator(".sentence").first.inner_text() == text.strip()
        if t is not None and through == "box":
            assert page.locator("h1 .computed-here").count() == 1 and page.locator("p.ok").count() == 1
        assert page.locator("#view img").count() == 0 and page.title() != "ran" and not dialogs  # never run
    assert not tab.elsewhere and not tab.errors, (tab.elsewhere, tab.errors)


@browser
def test_a_phone_is_told_the_models_size_before_fetching_it_and_keeps_the_sites_sentences(chromium, served, site):
    phone = Watched(chromium, served.rsplit("/", 1)[0], viewport=PHONE, is_mobile=True, has_touch=True)
    page = phone.page
    try:
        live = data_of(site)["live"]
        size = round((live["model"]["bytes"] + live["runtime"]["bytes"]) / 1e6)
        open_link(page, served, "layers", {"text": YOURS[0]}, "button.fetch-model")
        assert f"({size} MB)" in page.locator("button.fetch-model").inner_text()
        assert not [url for url in phone.fetched if "/live/" in url]  # nothing of the model fetched yet
        open_link(page, served, "tokens", {"text": EXPORTED}, ".chip")  # the site's own sentences still work
        open_link(page, served, "layers", {"text": YOURS[0]}, "button.fetch-model")
        page.click("button.fetch-model")
        page.wait_for_selector("#step-figure .main-svg", timeout=180_000)
        assert page.locator(".computed-here").count() == 1
        assert not phone.elsewhere and not phone.errors, (phone.elsewhere, phone.errors)
    finally:
        phone.context.close()


@browser
def test_a_page_opened_from_disk_says_why_it_cannot_compute_and_keeps_its_sentences(chromium, site):
    disk = Watched(chromium, "file://", viewport={"width": 1280, "height": 720})
    try:
        disk.page.goto((site / "index.html").as_uri() + "#/tokens?" + urllib.parse.urlencode({"text": YOURS[0]}))
        disk.page.wait_for_selector("h1")
        assert "serve this folder" in disk.page.locator("#view").inner_text()
        disk.page.click(f"text={EXPORTED}")
        disk.page.wait_for_selector(".chip")
        assert not disk.elsewhere and not disk.errors, (disk.elsewhere, disk.errors)
    finally:
        disk.context.close()


READABLE_VIEWS = ("tokens", "layers?step=attn.probs", "layers?layer=1&step=ffn.in&cell=2,100", "attention?layer=2",
                  "attention?view=model", "tour?chapter=8", "tour?chapter=19", "tour?chapter=20", "heads",
                  "rollout?layer=5&token=3", "contributions?layer=2", "lens?position=2", "contexts", "similarity",
                  "similarity?with=2")


@browser
@pytest.mark.parametrize("words", (pytest.param(10, marks=pytest.mark.matrix), 30))  # 30 words in CI (a typed
# sentence's harder length); the default lecture's 10 by hand, as the exported site's views at their longer length
@pytest.mark.parametrize("screen", ("lecture", "phone-lecture", pytest.param("phone", marks=pytest.mark.matrix)))
def test_a_sentence_computed_here_is_readable_on_a_projector_and_a_phone(chromium, served, words, screen):
    """Every view of a typed sentence, one after another in one tab (as a reader goes from page to page: the
    sentence computed once), read by the readability check on a projector and on a phone: the lecturer's link
    (lecture=1, as a student opens it, issue 55) in CI, and the site's own links on a phone by hand (the phone draws
    the same figures: a narrow screen wins over the projector's styling)."""
    from test_readability import sentence

    phone, lecture = screen.startswith("phone"), screen.endswith("lecture")
    screen_options = (dict(viewport=PHONE, is_mobile=True, has_touch=True) if phone
                      else dict(viewport={"width": 1280, "height": 720}))
    watched = Watched(chromium, served.rsplit("/", 1)[0], **screen_options)
    page, found = watched.page, []
    try:
        for view in READABLE_VIEWS:
            path, _, query = view.partition("?")
            keys = {"text": sentence(words), **dict(urllib.parse.parse_qsl(query)),  # not exported: computed here
                    **({"lecture": "1"} if lecture else {})}
            page.evaluate("document.getElementById('view')?.replaceChildren()")  # the last view's figures gone
            page.goto(f"{served}#/{path}?{urllib.parse.urlencode(keys)}")
            page.wait_for_function("document.querySelector('button.fetch-model, [data-point], [data-error]')",
                                   timeout=180_000)
            if phone and page.locator("button.fetch-model").count():  # asked once, before the model is fetched
                page.click("button.fetch-model")
            page.wait_for_function("document.querySelector('[data-point]') || document.querySelector('[data-error]')",
                                   timeout=180_000)
            if "cell=" in view:
                page.wait_for_selector(".result")
            page.wait_for_function("[...document.querySelectorAll('.js-plotly-plot')]"
                                   ".every(p => p.querySelector('.main-svg'))")
            page.wait_for_timeout(400)  # Plotly's last layout pass
            found += [f"{view}: {problem}" for problem in problems(page, phone=phone)]
        assert not found, "\n".join(found)
    finally:
        watched.context.close()


def test_next_walks_the_lecture_on_a_typed_sentence_and_says_which_stops_it_leaves_out(tab, served):
    """A lecturer's link on a sentence typed in the hall: Next goes through every stop of the default lecture whose
    page computes a typed sentence (Contexts, the same for any sentence, read from the site), each showing a figure;
    the stops that run the model again (Interventions, Attributions) are passed over, and the bar where Next passes
    them says so; the lecture then ends on the sentence."""
    from bertviz_lite.tour.lecture import LECTURE_STOPS

    typed = "the hall typed this sentence about a river bank"
    page = tab.page
    open_link(page, served, "tokens", {"text": typed, "lecture": 1}, "#view .chip")
    shown = [stop for stop in LECTURE_STOPS[1:] if stop[0] not in ("intervene", "attribute")]
    for path, title, keys in shown:
        page.click("#next a")
        page.wait_for_function("p => location.hash.startsWith('#/' + p + '?')", arg=path)
        hash_keys = urllib.parse.parse_qs(page.evaluate("location.hash").split("?", 1)[1])
        assert hash_keys["text"] == [typed] and all(hash_keys[k] == [v] for k, v in keys), title
        page.wait_for_selector("#view .main-svg, #view .chip, [data-error]", timeout=180_000)
        assert not page.locator("[data-error]").count(), (title, page.locator("#view").inner_text())
        assert "Not in this site" not in page.locator("#view").inner_text(), title
        left = page.locator("#next .left-out")
        assert left.count() == (path == shown[-1][0] and keys == shown[-1][2]), title  # said where it passes them
    assert page.locator("#next .left-out").text_content().startswith(
        "Left out for your sentence: Interventions and Attributions (they run the model again")
    assert page.locator("#next a.lecture-end").count() == 1
    assert not tab.elsewhere and not tab.errors, (tab.elsewhere, tab.errors)


FAMILY_TEXTS = ("the cat sat on the mat, and the dog ran", "a bird flew over the river")


def explained_badly(page, text: str) -> list:
    """A cell of every sub-step of the embeddings, layer 0 and the pooler, explained in the browser (explain.js, the
    weights read back from the live files): those whose recomputed value is not the stored one, or that fail."""
    return page.evaluate("""async (text) => {
      const s = BVL.yours.find(text, null), held = await BVL.lecture(BVL_SITE, BVL_SITE.sentences.indexOf(s));
      const bad = [];
      for (const b of BVL_SITE.model.blocks.filter((b) => b.block !== "layers" || b.layer === 0)) {
        for (const n of b.nodes.filter((n) => n.op !== "input")) {
          const name = BVL.stepName(b, n.key), a = held.array(name);
          const cell = a.shape.slice(n.headed ? 1 : 0).map((k) => Math.min(1, k - 1));
          try {
            const e = await BVL.explain(held, name, n.headed ? 0 : null, cell);
            if (e.recomputed !== null && Math.abs(e.recomputed - e.value) > 1e-5 * Math.max(1, Math.abs(e.value))) {
              bad.push([name, e.value, e.recomputed]);
            }
          } catch (error) { bad.push([name, error.message]); }
        }
      }
      return bad;
    }""", text)


@pytest.mark.slow
@pytest.mark.parametrize("family", sampled_families(skip=("bert",))[1:])  # BERT's: the bundled model's site
def test_each_familys_live_site_computes_the_traces_numbers_in_the_browser(family, every_tiny_dir, chromium,
                                                                          tmp_path):
    """Every family's tiny model as a live site (its own tokenizer.json: WordPiece or SentencePiece), run by
    onnxruntime-web: the tokenizer's pieces and every sub-step of a sentence and a pair the export did not hold
    equal the trace's (a byte-level vocabulary's pieces named as the app names them); the tour's words and the head
    and model views are the app's."""
    loaded = load_model(every_tiny_dir[family])
    site = write_site(tmp_path / "site", site_content(loaded, ["the cat"], live=True))
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    watched = Watched(chromium, origin, viewport={"width": 1280, "height": 720})
    try:
        for text, pair in ((FAMILY_TEXTS[0], None), FAMILY_TEXTS):
            keys = {"text": text, **({"pair": pair} if pair else {})}
            open_link(watched.page, f"{origin}/index.html", "tokens", keys, ".chip")
            t = trace(loaded, text, pair)
            got = computed(watched.page, text, pair)
            assert got["tokens"] == t.tokens and got["ids"] == t.input_ids.tolist(), family
            assert got["continues"] == continues_a_word(t), family  # the tour counts the pieces that go on a word
            worst, where, _ = worst_difference(got, t)
            assert worst <= 1, f"{family}: {where} is {worst:.2f} of its bound from the trace"
            assert all(holds for _, holds in got["checks"].values()), (family, got["checks"])
        unexplained = explained_badly(watched.page, FAMILY_TEXTS[0])
        assert not unexplained, f"{family}: {unexplained}"
        t = trace(loaded, FAMILY_TEXTS[0])  # its own positions, score terms, grouped heads: told and drawn as the app's
        told = [{"kind": c["kind"], "title": c["title"], "step": c["step"], "lines": c["lines"],
                 "drawn": c["figure"] is not None, "question": c["question"]} for c in tour_chapters(loaded, t)]
        told_here = [{k: v for k, v in c.items() if k != "figure"} for c in told_in_the_browser(watched.page, t)]
        assert told_here == told, family
        found = differences(views_in_the_browser(watched.page, t), plain_figure(attention_views(t)))
        assert not found, f"{family}: " + "\n".join(found[:12])
        got, layerwise = analysed_in_the_browser(watched.page, t), all_layers(t)
        assert np.abs(np.array(got["rollout"]["numbers"]) - layerwise.rollout).max() <= 1e-5, family
        for name, make in (("heads", heads_page), ("rollout", rollout_page)):
            assert {k: v for k, v in got[name].items() if k != "numbers"} == without_figures(*make(t, layerwise)), \
                (family, name)
        assert_contributions_are_the_apps(contributions_in_the_browser(watched.page, t), t, family)
        if watched.page.evaluate("BVL_SITE.views.analyses.lens.mode") == "lens":  # a trained masked-LM head: the
            # Lens is not in the live files, and says where the sentence is shown
            open_link(watched.page, f"{origin}/index.html", "lens", {"text": FAMILY_TEXTS[0]}, "a.yours-link")
            assert "was computed in this browser" in watched.page.locator("#view").inner_text(), family
        assert not watched.elsewhere and not watched.errors, (watched.elsewhere, watched.errors)
    finally:
        watched.context.close()
        server.shutdown()


EXPORTED_ATTENTION = """async () => {
  const held = await BVL.lecture(BVL_SITE, 0), a = held.array("layers.0.attn.probs");
  return { probs: Array.from(a.data), shape: a.shape, check: document.querySelector("p.ok").textContent };
}"""
HEAD_VIEW = """async () => {
  const shown = document.querySelector("#attention-figure .js-plotly-plot, #attention-figure.js-plotly-plot");
  return [shown.layout.title.text, shown.layout.height];
}"""
HEADS = """async (text) => {
  const s = BVL.yours.find(text, null), held = await BVL.lecture(BVL_SITE, BVL_SITE.sentences.indexOf(s));
  return (await held.part("heads")).numbers;
}"""


@browser
@pytest.mark.parametrize("engine", ("firefox", "webkit"))
def test_the_site_from_disk_and_a_typed_sentence_are_the_apps_in_firefox_and_webkit(engine, site, served, loaded):
    """In Firefox (ESR) and WebKit (Safari's engine), as in Chromium: the site opened from disk shows an exported
    sentence's stepper with its check ✔ and the trace's numbers; a typed sentence on the served site is computed
    by onnxruntime-web, every sub-step within closeness.ANOTHER_ROUTE of the trace and every block's check ✔, its
    Heads page's fingerprints (the analysis graphs run in that engine) the app's, and its head view the app's figure
    (its template filled in that engine: the title and height it draws)."""
    if why := missing(engine):
        pytest.skip(why)
    keys = {"layer": 0, "step": "attn.probs"}
    results, errors = journey(engine, [
        goto(f"{site.as_uri()}/index.html#/layers?" + urllib.parse.urlencode({"text": EXPORTED, **keys})),
        wait("#step-figure .main-svg"), wait("p.ok"), evaluate(EXPORTED_ATTENTION),
        goto(f"{served}#/layers?" + urllib.parse.urlencode({"text": YOURS[0], **keys})),
        wait(".computed-here", 600), wait("#step-figure .main-svg"), evaluate(COMPUTED, [YOURS[0], None]),
        goto(f"{served}#/heads?" + urllib.parse.urlencode({"text": YOURS[0]})),
        wait("#figure-heads-0 .main-svg"), evaluate(HEADS, YOURS[0]),
        goto(f"{served}#/attention?" + urllib.parse.urlencode({"text": YOURS[0], "layer": "1"})),
        wait("#attention-figure .main-svg"), evaluate(HEAD_VIEW)])
    exported, typed, heads, head_view = results
    assert "✔" in exported["check"]
    assert np.array_equal(np.array(exported["probs"], np.float32).reshape(exported["shape"]),
                          trace(loaded, EXPORTED).attention(0))
    typed, t = unpacked(typed), trace(loaded, YOURS[0])
    assert typed["tokens"] == t.tokens
    worst, where, compared = worst_difference(typed, t)
    assert compared == 103 and worst <= 1, f"{engine}: {where} is {worst:.2f} of its bound from the trace"
    assert all(holds for _, holds in typed["checks"].values()), typed["checks"]
    for stat, grid in all_layers(t).fingerprints.stats.items():
        ANOTHER_ROUTE.assert_close(np.array(heads[stat]), grid, f"{engine}: {stat}")
    drawn = attention_views(t)["head"][1]["browse"]["layout"]  # the head view: the app's template, filled there
    assert head_view == [drawn["title"]["text"], drawn["height"]], engine
    assert not errors, errors
