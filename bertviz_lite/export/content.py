"""What an exported site shows, computed once in Python by the app's own code (the module tree's HTML, the sunburst
figure, the tokenizer's pieces and the Tokens page's words), so that the site and the app never disagree."""
from __future__ import annotations

import datetime
import functools
from collections.abc import Callable, Iterator
from importlib.metadata import PackageNotFoundError, version

from ..analyses.all_layers import all_layers
from ..analyses.similarity import MAX_SENTENCES
from ..asking import ASK_WORDS
from ..closeness import ANOTHER_ROUTE, SAME_SUM
from ..errors import InputError, LoadError
from ..figures import parameter_sunburst
from ..figures.charts import WINDOW
from ..introspection.tree import fold_repeats, module_tree, sunburst_data, tree_html
from ..loading.vocabulary import SENTENCE_OF, unknown_note, vocabulary_note
from ..ops.asking import CHOICES, FEWEST
from ..stepthrough.trace import trace
from ..tour.lecture import LECTURE_STOPS
from ..tour.page_names import site_pages
from .steps import block_arrays, model_steps, module_weights, sentence_steps
from .analyses import analyses_words, contributions_page, lens_words, heads_page, lens_page, page as analyses_page, rollout_page
from .attention import attention_templates, attention_views
from .explanations import explanation_templates
from .matrices import matrix_templates
from .live import can_go_live, write_live
from .model_runs import attributions_page, contexts_page, interventions_page
from .screens import drawn, templates
from .similarity import compared_sentences, similarity, similarity_traces
from .site_words import SITE_WORDS
from .tour import HEAD as TOUR_HEAD, LAYER as TOUR_LAYER, TOKEN as TOUR_TOKEN, tour_chapters, tour_words


def site_content(loaded, texts: list[str], weights: bool = True, masked_lm: Callable[[], object] | None = None,
                 pairs: list[tuple[str, str]] = (), pairs_first: bool = False, live: bool = False) -> dict:
    """The site's data: a line about what it holds, the overview, each sentence's tokens (each text once) and the
    stepper's graphs; each sentence's numbers (`steps`, called by the writer: its parts, a script each: a block's
    sub-steps, the tour, the attention views; then what every view reads), and the weights the
    explanations read (`weights`: called by the writer, one module at a time, so that no more than one module's
    weights are held as text at once; none without `weights`, and the site says why where a cell needs them).
    `masked_lm()`: the same checkpoint loaded with its masked-LM head, for the Lens page (by default `loaded` where
    it is, else loaded when the first sentence's lens is computed). `pairs`: sentence pairs (A, B), each read as one
    input, [CLS] A [SEP] B [SEP], as the app reads its text and pair; the Similarity page compares the `texts`. The
    site opens on the first sentence: the first text, or with `pairs_first` the first pair (the app's lecture with a
    pair set reads the pair). `live`: the site also computes a sentence of its own in the browser (live.py; called
    by the writer with the site's folder, it gives the manifest the site's data carries)."""
    texts = list(dict.fromkeys(text.strip() for text in texts))  # each once
    pairs = list(dict.fromkeys((a.strip(), b.strip()) for a, b in pairs))
    if not (texts or pairs) or not all(texts) or not all(a and b for a, b in pairs):
        raise InputError("Give each --text a sentence, and each --pair two: an empty one has nothing to show.")
    singles = [(text, None) for text in texts]
    inputs = pairs + singles if pairs_first else singles + pairs  # (text, pair): what each sentence reads
    if len(inputs) > MAX_SENTENCES:  # before any work: the similarity compares at most this many
        raise InputError(f"A site holds at most {MAX_SENTENCES} sentences and pairs in all (the Similarity view "
                         f"compares them); got {len(inputs)}.")
    if live:
        can_go_live(loaded)  # before any sentence is traced
    lens_model = loaded_or_why(masked_lm or (lambda: with_masked_lm_head(loaded)))
    tree = module_tree(loaded.model)
    traces = [trace(loaded, text, pair) for text, pair in inputs]
    model = model_steps(loaded, traces[0], weights)
    compared_texts = compared_sentences(texts)  # a single sentence beside the default lecture's
    contexts = functools.cache(lambda: contexts_page(loaded))  # the same for every sentence: computed once
    compared = similarity_traces(loaded, compared_texts, live)
    return {
        "about": about(loaded, [text if pair is None else f"{text} | {pair}" for text, pair in inputs]),
        "overview": {"tree": tree_html(fold_repeats(tree)), "total": tree.total,
                     "architecture": type(loaded.model).__name__,
                     "sunburst": drawn(parameter_sunburst(sunburst_data(tree)))},
        "sentences": [sentence(t, text, pair) for t, (text, pair) in zip(traces, inputs)],
        "vocabulary": vocabulary_note(loaded),
        "model": model,
        "similarity": similarity(loaded, compared_texts, compared, live),
        "pages": site_pages(),  # the navigation: the app's names, in its order
        "lecture": [{"page": page, "title": title, "keys": dict(keys)} for page, title, keys in LECTURE_STOPS],
        "views": {"window": WINDOW, "tour": {"layer": TOUR_LAYER, "head": TOUR_HEAD, "token": TOUR_TOKEN,
                                             "words": tour_words(loaded, traces[0]) if live else None},
                  "analyses": ({**analyses_words(traces[0]), "lens": lens_words(lens_model(), traces[0].num_layers)}
                               if live else None),
                  "attention": attention_templates(traces[0].num_layers, traces[0].num_heads) if live else None,
                  "explanations": explanation_templates(), "matrices": matrix_templates()},
        "style": site_style(),
        "tolerances": {"same_sum": SAME_SUM.to_json(), "another_route": ANOTHER_ROUTE.to_json()},  # the checks' bounds
        "templates": templates(),
        "words": SITE_WORDS,  # what the site says of itself
        "asking": {"words": ASK_WORDS, "choices": CHOICES, "fewest": FEWEST},  # what is said around a question
        "steps": lambda: (sentence_scripts(loaded, t, lens_model, contexts) for t in traces),
        "weights": lambda: ((name, module_weights(loaded, name)) for name in model["weights"]),
        "live": (lambda folder: write_live(folder, loaded, traces[0], compared)) if live else None,
    }


def sentence_scripts(loaded, t, masked_lm: Callable[[], object], contexts: Callable[[], tuple]
                     ) -> tuple[Iterator[tuple[str, object]], Callable[[], dict]]:
    """A sentence's scripts: its parts, each computed only when the writer asks for it (a block's sub-steps, the
    tour, the attention views, the analyses' pages, the pages that run the model again: model_runs.py), so that one
    part at a time is held as text; then what every view reads, with the checks the blocks gave on the way (each
    block computed once). `contexts()`: the Contexts page, the same for every sentence."""
    checks = {}

    def parts():
        yield from block_arrays(t, checks)
        yield "tour", tour_chapters(loaded, t)
        yield "attention", attention_views(t)
        layerwise = all_layers(t)
        for name, (page, apart) in (("heads", heads_page(t, layerwise)), ("rollout", rollout_page(t, layerwise)),
                                    ("contributions", contributions_page(t, layerwise)),
                                    ("lens", lens_of(masked_lm, t.text, t.pair)),
                                    ("intervene", interventions_page(t)), ("attribute", attributions_page(loaded, t)),
                                    ("contexts", contexts())):
            yield name, page
            yield from apart  # each token's or position's item, where the page keeps them apart

    return parts(), lambda: sentence_steps(loaded, t, checks)


def with_masked_lm_head(loaded):
    """`loaded` where it has its masked-LM head, else the same checkpoint loaded with it (as the app's Lens page
    loads it)."""
    from ..loading.loader import load_model

    return loaded if loaded.task == "masked-lm" else load_model(loaded.source, task="masked-lm")


def lens_of(masked_lm: Callable[[], object], text: str, pair: str | None):
    """The Lens page and its parts, or why there is none where the model with its masked-LM head cannot be had
    (`masked_lm()` gives the LoadError it met)."""
    model = masked_lm()
    if isinstance(model, LoadError):
        return analyses_page("lens", [], [], notes=[f"The lens needs the model with its masked-LM head: {model}"]), ()
    return lens_page(model, text, pair)


def loaded_or_why(load: Callable[[], object]) -> Callable[[], object]:
    """`load()` once: the model, or the LoadError it met (asked again for each sentence, it is not tried again)."""
    @functools.cache
    def once():
        try:
            return load()
        except LoadError as error:
            return error
    return once


def sentence(t, text: str, pair: str | None = None) -> dict:
    """One sentence (or sentence pair) as the app traces it: its pieces, ids and sentence letters, and the trace's
    notice where the model could not read it whole (a long text is cut to the model's length)."""
    return {"text": text, "pair": pair, "tokens": t.tokens, "ids": t.input_ids.tolist(),
            "sentences": [SENTENCE_OF[s] for s in t.sequence_ids], "continues": continues_a_word(t), "dropped": t.dropped_tokens,
            "notice": t.notice,
            "unknown": unknown_note(t.loaded.tokenizer, t.tokens)}


def continues_a_word(t) -> list[bool]:
    """Whether each token is a later piece of a word cut into pieces (the tour's tokens chapter counts them)."""
    return [i > 0 and s is not None and w is not None and w == t.word_ids[i - 1]
            for i, (s, w) in enumerate(zip(t.sequence_ids, t.word_ids))]


def site_style() -> dict:
    """What the site's browser reads of the app's visual language (figures/style.py): the figures' type size, and a
    token's axis label ("3 bank") as an expression. Every figure it draws is the app's own, styled in Python or a
    template filled (export/matrices.py, analysis_figures.py): colours, scales and sizes travel in those."""
    from ..figures import style
    from ..figures.style import AXIS_LABELS
    from ..ops.recipe import tree_of

    return {"font": style.FONT["size"], "token_labels": tree_of(AXIS_LABELS)}


SAID, MOST_SAID = 40, 3  # the about line names the first sentences, each cut to this many characters


def about(loaded, texts: list[str]) -> str:
    """The line every page of the site carries: the model, its weights, the sentences, who wrote it and when."""
    try:
        written_by = f"bertviz-lite {version('bertviz-lite')}"
    except PackageNotFoundError:  # run from a checkout that was not installed
        written_by = "bertviz-lite (from its source)"
    weights = "real pretrained weights" if loaded.weights_kind == "pretrained" else "random weights"
    said = ", ".join(f"“{text if len(text) <= SAID else text[:SAID - 1] + '…'}”" for text in texts[:MOST_SAID])
    more = f" and {len(texts) - MOST_SAID} more" if len(texts) > MOST_SAID else ""
    return (f"{loaded.source} ({weights}); {len(texts)} sentence{'s' if len(texts) != 1 else ''}: {said}{more}; "
            f"written by {written_by} on {datetime.date.today().isoformat()}.")
