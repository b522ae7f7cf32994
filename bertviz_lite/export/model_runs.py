"""The site's Interventions, Attributions and Contexts pages: the app's results that run the model again (a head
switched off, value zeroing, gradients, two other sentences), computed when the site is written by the app's own
code and worded by its own words (intervening/words.py, attributing/words.py, analyses/contexts.py), in the shape
of the analyses' pages (export/analyses.py), so that every stop of the lecture's Next shows a figure on a site
with no model.

A site cannot hold every intervention; it holds, for each layer, the heads whose switching off moves the last
layer's hidden states most on the sentence (`STRONGEST`, by the mean cosine distance over tokens: our choice of
"strongest", said on the page), and the lecture's own. Value zeroing is held for every layer. Attributions are the
app's defaults (integrated gradients of the cosine with the page's default sentence B) with every method's
deletion curve; Contexts is the app's first view (a word in two senses), which does not depend on the sentence.
"""
from __future__ import annotations

import itertools

import numpy as np

from ..analyses.contexts import CAPTION, DEFAULT_CONTEXTS, ends, lines_title, words_in_contexts
from ..analyses.output_change import output_change
from ..attributing.deletion import faithfulness, method_scores
from ..attributing.gradients import METHODS, attribute
from ..attributing.targets import target_for
from ..attributing.words import (AOPC_CAPTION, BARS_TITLE, DEFAULT_BASELINE, DEFAULT_STEPS, DELETION_TITLE, caption,
                                 completeness, gap_warning, verdict)
from ..figures import context_lines, matrices_side_by_side
from ..figures.attributions import attribution_bars, deletion_lines
from ..figures.outputs import shift_heatmap
from ..intervening.edits import Edits
from ..intervening.run import intervene
from ..intervening.value_zeroing import value_zeroing, value_zeroing_rollout
from ..intervening.words import (AXES, SENTENCE_COSINE, SHIFT_TITLE, head_label, headline, predictions,
                                 unchanged_attention, value_zeroing_caption, value_zeroing_titles)
from ..stepthrough.trace import trace
from ..tour.lecture import DEFAULT_OTHER, LECTURE_STOPS
from .analyses import Apart, item, kept_apart, page, picker
from .screens import WIDE_PX, for_screens

STRONGEST = 2  # heads a layer the site switches off, one at a time
PANEL_PX = 430  # the tallest a figure of two matrices is on a projector, as the app's Interventions page
HELD = ("This site holds, for each layer, the {count} heads whose switching off moves the last layer's hidden states "
        "most on this sentence (the mean cosine distance over its tokens){lecture}, each switched off alone, and "
        "value zeroing for every layer. The app switches off any heads together, masks tokens, zeroes one value "
        "vector, and shows each head's attention before and after.")


def lecture_heads(layers: int, heads: int) -> list[tuple[int, int]]:
    """The heads the lecture's Interventions stops switch off, where this model has them."""
    named = [dict(keys).get("off", "") for path, _, keys in LECTURE_STOPS if path == "intervene"]
    found = [tuple(int(n) for n in value.split(".")) for values in named for value in values.split(",") if value]
    return [(layer, head) for layer, head in found if layer < layers and head < heads]


def strongest_heads(t, count: int = STRONGEST) -> list[tuple[int, int]]:
    """Each layer's `count` heads whose switching off (alone) moves the last layer's states most, by the mean over
    tokens of the cosine distance; in order of layer, then strength."""
    moved = np.array([[intervene(t, Edits(heads_off=((layer, head),))).shift[-1].mean()  # (L, H)
                       for head in range(t.num_heads)] for layer in range(t.num_layers)])
    return [(layer, int(head)) for layer in range(t.num_layers)
            for head in np.argsort(-moved[layer], kind="stable")[:count]]


def interventions_page(t) -> tuple[dict, Apart]:
    """A head switched off (each held head alone) and its shift through every layer; value zeroing after each
    layer beside its rollout."""
    lecture = lecture_heads(t.num_layers, t.num_heads)
    held = sorted(set(strongest_heads(t)) | set(lecture))
    values = [f"{layer}.{head}" for layer, head in held]
    switched, apart_heads = kept_apart("intervene.off", (
        (value, lambda layer=layer, head=head: switched_off(t, layer, head))
        for (layer, head), value in zip(held, values)))
    maps = np.stack([value_zeroing(t, layer) for layer in range(t.num_layers)])  # (L, T, T)
    rolled = value_zeroing_rollout(maps)  # (L, T, T)
    zeroed, apart_maps = kept_apart("intervene.layer", (
        (str(layer), lambda layer=layer: zeroing(t.tokens, layer, maps[layer], rolled[layer]))
        for layer in range(t.num_layers)))
    first = next((f"{layer}.{head}" for layer, head in lecture), values[0])
    said = HELD.format(count=STRONGEST, lecture=f" and the lecture's {head_label(first)}" if lecture else "")
    pickers = [picker("off", [(v, head_label(v)) for v in values], first, "Head switched off"),
               picker("layer", [(str(layer), str(layer)) for layer in range(t.num_layers)], "0", "Layer to look at")]
    return (page("intervene", pickers, [{"by": ["off"], "items": switched}, {"by": ["layer"], "items": zeroed}],
                 side=[said], wide=True),
            itertools.chain(apart_heads, apart_maps))


def switched_off(t, layer: int, head: int) -> dict:
    """One head switched off: the headline, every layer's shift, what the model's output did."""
    edits = Edits(heads_off=((layer, head),))
    run = intervene(t, edits)
    change = output_change(t, run.trace)
    lines = [unchanged_attention(edits)]
    if change.sentence_cosine is not None:
        lines.append(f"{SENTENCE_COSINE}: {change.sentence_cosine:.4f}")
    if change.before:
        lines.append(predictions(change, t.tokens))
    figure = for_screens(lambda lecture: shift_heatmap(run.shift, run.trace.tokens, SHIFT_TITLE,
                                                       edits.unchanged_states, edits.masked), width=WIDE_PX)
    return item(figure, said=[headline(edits, t.tokens, run.shift)], lines=lines)


def zeroing(tokens: list[str], layer: int, mapped: np.ndarray, rolled: np.ndarray) -> dict:
    """A layer's value-zeroing map beside its rollout (one above the other on a phone)."""
    def drawn(per_row):
        return matrices_side_by_side(dict(zip(value_zeroing_titles(layer), (mapped, rolled))), tokens,
                                     colorbar="share", axes=AXES, per_row=per_row)
    return item(for_screens(lambda lecture: drawn(None), PANEL_PX, WIDE_PX, phone=lambda: drawn(1)),
                lines=[value_zeroing_caption(layer, len(tokens))])


def attributions_page(loaded, t) -> tuple[dict, Apart]:
    """The app's Attributions page at its defaults for the sentence's text: each method's attributions of the
    cosine with sentence B, and every method's deletion curve."""
    target = target_for(loaded, t.text, "similarity", DEFAULT_OTHER)
    results = {method: attribute(target, method, DEFAULT_STEPS, DEFAULT_BASELINE) for method in METHODS}
    found = faithfulness(target, method_scores(target, DEFAULT_STEPS, DEFAULT_BASELINE), DEFAULT_BASELINE)
    bars = {method: bars_item(result) for method, result in results.items()}
    curves = item(for_screens(lambda lecture: deletion_lines(found.curves, found.aopc, DELETION_TITLE.format(
        target=found.target), found.counts), width=WIDE_PX), said=[verdict(found)], lines=[AOPC_CAPTION])
    first = results["ig"]
    notes = [note for note in (first.notice, first.note) if note]
    return (page("attribute", [picker("method", list(METHODS.items()), "ig", "Method")],
                 [{"by": ["method"], "items": bars}, {"by": [], "items": {"": curves}}],
                 side=[caption(first.baseline)], notes=notes, wide=True), ())


def bars_item(result) -> dict:
    lines = [warning] if (warning := gap_warning(result)) else []
    return item(for_screens(lambda lecture: attribution_bars(result.scores, result.tokens, BARS_TITLE.format(
        method=METHODS[result.method].capitalize())), width=WIDE_PX), said=[completeness(result)], lines=lines)


def contexts_page(loaded) -> tuple[dict, Apart]:
    """The app's Contexts page at its first view: one word in two sentences (`DEFAULT_CONTEXTS`), layer by layer."""
    a, b, word = DEFAULT_CONTEXTS
    results = words_in_contexts(trace(loaded, a), trace(loaded, b), [word])
    sentences = [f"A: {a}", f"B: {b}"]
    figure = for_screens(lambda lecture: context_lines({r.word: r.cosines for r in results},
                                                       lines_title([r.word for r in results])))
    return page("contexts", [], [{"by": [], "items": {"": item(figure, lines=[*sentences, ends(results)])}}],
                side=[CAPTION, CONTEXTS_ELSEWHERE], any_sentence=True), ()


CONTEXTS_ELSEWHERE = "The app compares any word in any two sentences you type."
