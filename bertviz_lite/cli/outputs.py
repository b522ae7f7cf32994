"""The commands that say why the model gives its output: two sentences' similarity split into token pairs."""
from __future__ import annotations

import json

from .console import load, progress


def cmd_explain_similarity(args) -> None:
    from ..analyses.similarity_split import split_traces, word_level_split
    from ..stepthrough.trace import trace

    loaded = load(args.model)
    pooling = loaded.sentence_pooling
    progress("running the model on each sentence")
    limit = pooling.max_tokens if pooling is not None else None
    a, b = trace(loaded, args.text_a, max_tokens=limit), trace(loaded, args.text_b, max_tokens=limit)
    split = split_traces(a, b)
    cells, rows, cols = (word_level_split(split, a, b) if args.words
                         else (split.pairs, split.tokens_a, split.tokens_b))
    if args.json:
        result = split.to_json()
        if args.words:
            result.update(words_a=rows, words_b=cols, word_pairs=cells.tolist())
        print(json.dumps(result))
        return
    how = "the checkpoint's own pooling" if pooling is not None else "the mean of the token vectors (a plain model)"
    print(f"cosine {split.cosine:.4f} ({'+'.join(split.pooling)} pooling, {how})")
    print(f"the {cells.size} cells add up to {float(cells.sum()):.4f}")
    if split.by_selection:
        print("max pooling: a cell is the dot product over the dimensions that both tokens won, not a weighting")
    print("strongest pairs:")
    order = sorted(((abs(cells[i, j]), i, j) for i in range(len(rows)) for j in range(len(cols))), reverse=True)
    for _, i, j in order[:10]:
        print(f"  {rows[i]!r:>16} ↔ {cols[j]!r:<16} {cells[i, j]:+.4f}")
