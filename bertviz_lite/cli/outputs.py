"""The commands that say why the model gives its output: two sentences' similarity split into token pairs."""
from __future__ import annotations

import json

from .console import load, progress


def cmd_explain_similarity(args) -> None:
    from ..analyses.similarity_split import explain_similarity

    loaded = load(args.model)
    progress("running the model on each sentence")
    split = explain_similarity(loaded, args.text_a, args.text_b, args.words)
    if args.json:
        print(json.dumps(split.to_json()))
        return
    pooling = loaded.sentence_pooling
    cells, rows, cols = split.pairs, split.tokens_a, split.tokens_b
    how = "the checkpoint's own pooling" if pooling is not None else "the mean of the token vectors (a plain model)"
    print(f"cosine {split.cosine:.4f} ({'+'.join(split.pooling)} pooling, {how})")
    print(f"the {cells.size} cells add up to {float(cells.sum()):.4f}")
    if split.by_selection:
        print("max pooling: a cell is the dot product over the dimensions that both tokens won, not a weighting")
    print("strongest pairs:")
    order = sorted(((abs(cells[i, j]), i, j) for i in range(len(rows)) for j in range(len(cols))), reverse=True)
    for _, i, j in order[:10]:
        print(f"  {rows[i]!r:>16} ↔ {cols[j]!r:<16} {cells[i, j]:+.4f}")
