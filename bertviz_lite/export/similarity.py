"""The site's Similarity page: the exported sentences' vectors and every pair's cosine, and for each pair the cosine
split exactly into token pairs (why two sentences are similar), computed and drawn by the app's own analyses and
figures (analyses/similarity.py, analyses/similarity_split.py; figures similarity_heatmap, pair_split_heatmap)."""
from __future__ import annotations

from ..analyses.questions import closest_question, pair_question
from ..analyses.sentence_pooling import pooling_of, read_positions
from ..analyses.similarity import MAX_SENTENCES, vectors_of
from ..analyses.similarity_split import CAPTION, NOT_POOLED, STRONG_PAIR, STRONGEST, split_traces
from ..figures import similarity_heatmap
from ..figures.outputs import SPLIT_PX, pair_split_heatmap
from ..stepthrough.trace import trace
from ..tour.lecture import LECTURE_SENTENCES
from .analysis_figures import cosine_row_templates, split_forms
from .screens import for_screens

# The figures' titles (a typed sentence's on a live site fill the same: site_words.py)
COSINES_TITLE = "cosine of {name}"
SPLIT_TITLE = "Each pair's share of cosine({a}, {b}) = {cosine:.3f}"
YOURS = "yours"  # a typed sentence, as the figures name it beside the exported ones


def compared_sentences(texts: list[str]) -> list[str]:
    """The sentences the Similarity view compares: the site's single sentences; where it holds one, that one and the
    default lecture's (tour/lecture.py, as the app's Similarity page opens on them), so that the lecture's two
    Similarity stops show a figure rather than ask for a second sentence."""
    if len(texts) != 1:
        return texts
    return [*texts, *(s for s in LECTURE_SENTENCES if s != texts[0])][:MAX_SENTENCES]


def similarity_traces(loaded, texts: list[str], live: bool = False) -> list:
    """Each of `texts` (the site's single sentences: a sentence pair is one input, not two sentences to compare)
    traced once, as the model's sentence pipeline reads it (as sentence_vectors and explain_similarity trace it),
    for the cosines and every pair's split (and a typed sentence's, on a live site); none where fewer than two have
    nothing to compare."""
    if len(texts) < 2 and not (live and texts):
        return []
    pooling = loaded.sentence_pooling
    return [trace(loaded, text, max_tokens=pooling and pooling.max_tokens) for text in texts]


def similarity(loaded, texts: list[str], traces: list, live: bool = False) -> dict | None:
    """Each way of making a sentence vector with its cosine matrix, and each pair's split ("1,2": sentences 1 and
    2), of `texts` (`traces`: similarity_traces'); None where they have nothing to compare."""
    if not traces:
        return None
    ways = vectors_of(loaded, traces)
    pooled = ways[0].trained_for_similarity
    matrices = [{"name": way.name, "how": way.how, "trained": way.trained_for_similarity,
                 "figure": for_screens(lambda lecture, way=way: similarity_heatmap(
                     way.cosine(), texts, COSINES_TITLE.format(name=way.name)))}
                for way in ways]
    pairs = {}
    for a in range(len(texts)):
        for b in range(a + 1, len(texts)):
            split = split_traces(traces[a], traces[b])
            title = SPLIT_TITLE.format(a=a + 1, b=b + 1, cosine=split.cosine)
            question = pair_question(split.pairs, split.tokens_a, split.tokens_b, a + 1, b + 1, split.cosine)
            pairs[f"{a + 1},{b + 1}"] = {
                "caption": split.caption(pooled), "by_selection": split.by_selection,
                "question": None if question is None else question.to_json(),  # asked first (ask=1)
                "figure": for_screens(lambda lecture, split=split, title=title: pair_split_heatmap(
                    split.pairs, split.tokens_a, split.tokens_b, title), SPLIT_PX)}
    closest = closest_question(ways[0].cosine(), texts, pooled)  # asked first (ask=1), as the app asks it
    return {"texts": texts, "matrices": matrices, "pairs": pairs, "source": loaded.source,
            "question": None if closest is None else closest.to_json(),
            "yours": yours(loaded, traces, ways) if live else None}


def yours(loaded, traces, ways) -> dict:
    """What a live site's browser needs beside the similarity graph's numbers (export/analysis_graphs.py
    Similarity) to show a sentence of the reader's own against the exported ones (frontend/src/similar.js): their
    tokens and the positions of them the split reads, each way's name and words, the most tokens the pipeline
    reads, the caption's templates, and the figures (export/analysis_figures.py): its cosine with each exported
    sentence, and the split."""
    pooling = pooling_of(loaded)
    return {"tokens": [t.tokens for t in traces],
            "columns": [read_positions(pooling.modes, len(t.tokens)).tolist() for t in traces],
            "ways": [{"name": way.name, "how": way.how, "trained": way.trained_for_similarity} for way in ways],
            "most_tokens": min(pooling.max_tokens or loaded.max_tokens, loaded.max_tokens),
            "pooled": loaded.sentence_pooling is not None,
            "words": {"caption": CAPTION, "pair": STRONG_PAIR, "not_pooled": NOT_POOLED, "strongest": STRONGEST},
            "row": YOURS, "split": split_forms(), "cosines": cosine_row_templates(len(traces), YOURS)}
