"""The site's Similarity page: the exported sentences' vectors and every pair's cosine, and for each pair the cosine
split exactly into token pairs (why two sentences are similar), computed and drawn by the app's own analyses and
figures (analyses/similarity.py, analyses/similarity_split.py; figures similarity_heatmap, pair_split_heatmap)."""
from __future__ import annotations

from ..analyses.sentence_pooling import pooling_of
from ..analyses.similarity import WAY_FROM, vectors_of
from ..analyses.similarity_split import CAPTION, NOT_POOLED, STRONG_PAIR, split_traces
from ..figures import similarity_heatmap
from ..figures.outputs import SPLIT_PX, pair_split_heatmap
from ..stepthrough.trace import trace
from .screens import for_screens
from .steps import packed


def similarity(loaded, texts: list[str], live: bool = False) -> dict | None:
    """Each way of making a sentence vector with its cosine matrix, and each pair's split ("1,2": sentences 1 and
    2), of `texts` (the site's single sentences: a sentence pair is one input, not two sentences to compare); None
    for fewer than two, which have nothing to compare."""
    if len(texts) < 2 and not (live and texts):
        return None
    # each sentence traced once, as the model's pipeline reads it (as sentence_vectors and explain_similarity
    # trace it), for the cosines and every pair's split
    pooling = loaded.sentence_pooling
    traces = [trace(loaded, text, max_tokens=pooling and pooling.max_tokens) for text in texts]
    ways = vectors_of(loaded, traces)
    pooled = ways[0].trained_for_similarity
    matrices = [{"name": way.name, "how": way.how, "trained": way.trained_for_similarity,
                 "figure": for_screens(lambda lecture, way=way: similarity_heatmap(way.cosine(), texts,
                                                                                   f"cosine of {way.name}"))}
                for way in ways]
    pairs = {}
    for a in range(len(texts)):
        for b in range(a + 1, len(texts)):
            split = split_traces(traces[a], traces[b])
            title = f"Each pair's share of cosine({a + 1}, {b + 1}) = {split.cosine:.3f}"
            pairs[f"{a + 1},{b + 1}"] = {
                "caption": split.caption(pooled), "by_selection": split.by_selection,
                "figure": for_screens(lambda lecture, split=split, title=title: pair_split_heatmap(
                    split.pairs, split.tokens_a, split.tokens_b, title), SPLIT_PX)}
    return {"texts": texts, "matrices": matrices, "pairs": pairs, "source": loaded.source,
            "yours": yours(loaded, traces, ways) if live else None}


def yours(loaded, traces, ways) -> dict:
    """What a live site's browser needs to compare a sentence of the reader's own with the exported ones
    (frontend/src/similar.js): each exported sentence's last-layer token vectors as the pipeline reads them (and its
    pooler output), its tokens, how each way makes a vector, and the pooling the split follows."""
    pooling = pooling_of(loaded)
    return {"hidden": [packed(t.hidden_states[-1]) for t in traces], "tokens": [t.tokens for t in traces],
            "pooler": [None if t.pooler_output is None else packed(t.pooler_output) for t in traces],
            "ways": [{"name": way.name, "how": way.how, "trained": way.trained_for_similarity,
                      "from": WAY_FROM[way.name]} for way in ways],
            "modes": list(pooling.modes), "normalize": pooling.normalize,
            "most_tokens": min(pooling.max_tokens or loaded.max_tokens, loaded.max_tokens),
            "pooled": loaded.sentence_pooling is not None,
            "words": {"caption": CAPTION, "pair": STRONG_PAIR, "not_pooled": NOT_POOLED}}
