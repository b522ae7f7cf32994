"""The commands that say why the model gives its output: two sentences' similarity split into token pairs, and
interventions (a head off, a token masked, a value zeroed) with their effect on every later layer."""
from __future__ import annotations

import json

from .console import load, progress, state_name, traced


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
        print("max pooling: a cell's max part is the dot product over the dimensions both tokens won, not a weighting")
    print("strongest pairs:")
    order = sorted(((abs(cells[i, j]), i, j) for i in range(len(rows)) for j in range(len(cols))), reverse=True)
    for _, i, j in order[:10]:
        print(f"  {rows[i]!r:>16} ↔ {cols[j]!r:<16} {cells[i, j]:+.4f}")


def cmd_intervene(args) -> None:
    from ..errors import InputError
    from ..intervening.edits import parse_edits
    from ..intervening.run import intervene
    from ..intervening.value_zeroing import value_zeroing

    edits = parse_edits(args.heads_off, args.mask, args.zero_value)
    if not edits and args.value_zeroing is None:
        raise InputError("Name an intervention: --heads-off L.H, --mask I or --zero-value L:J (or --value-zeroing L).")
    t = traced(args)
    result: dict = {"tokens": t.tokens}
    if edits:
        progress(f"running again with {edits.describe()}")
        run = intervene(t, edits)
        result = run.to_json()
    if args.value_zeroing is not None:
        t.graph("layers", args.value_zeroing)  # names the layers there are
        progress(f"zeroing each of the {len(t.tokens)} tokens' value vectors in layer {args.value_zeroing}")
        result["value_zeroing"] = value_zeroing(t, args.value_zeroing).tolist()
    if args.json:
        print(json.dumps(result))
        return
    if edits:
        print(f"{edits.describe()}: layers {run.first_changed_layer} to {t.num_layers - 1} run again")
        print("cosine distance of each token's hidden state, before vs after (the largest per state):")
        for state, row in enumerate(run.shift):
            top = row.argmax()
            print(f"  {state_name(state):>11}  largest {row[top]:.4f} at {top} {run.trace.tokens[top]!r}, "
                  f"mean {row.mean():.4f}")
    if args.value_zeroing is not None:
        print(f"\nvalue zeroing, layer {args.value_zeroing}: the token each token rests on most (its row's largest)")
        for i, row in enumerate(result["value_zeroing"]):
            j = max(range(len(row)), key=row.__getitem__)
            print(f"  {i:>3} {t.tokens[i]!r:>14} ← {j:>3} {t.tokens[j]!r} {row[j]:.3f}")


def cmd_attribute(args) -> None:
    from ..attributing.deletion import faithfulness, method_scores
    from ..attributing.gradients import attribute
    from ..attributing.targets import mlm_target, similarity_target
    from ..errors import InputError

    if args.mlm is not None:
        position, mark, token = args.mlm.partition(":")
        if not mark or not position.strip().isdigit() or not token:
            raise InputError(f"--mlm {args.mlm!r}: write POS:TOKEN, e.g. 3:sat (the mask token's position).")
        loaded = load(args.model, "masked-lm")
        target = mlm_target(loaded, args.text, int(position), token)
    else:
        loaded = load(args.model)
        target = similarity_target(loaded, args.text, args.similarity_to)
    progress(f"{args.method} on {target.describe}")
    result = attribute(target, args.method, args.steps, args.baseline)
    output = result.to_json()
    if args.deletion:
        progress("every method's ranking, then its deletion curve")
        output.update(faithfulness(target, method_scores(target, args.steps, args.baseline),
                                   args.baseline).to_json())
    if args.json:
        print(json.dumps(output))
        return
    print(f"{METHOD_WORDS[args.method]} of {target.describe}: f(x) = {result.f_x:.4f}, f(baseline) = "
          f"{result.f_baseline:.4f} ({args.baseline} tokens)")
    for token, score in zip(result.tokens, result.scores):
        print(f"  {token!r:>16} {score:+.4f}")
    print(f"Σ = {result.total:.4f}; f(x) − f(baseline) = {result.f_x - result.f_baseline:.4f}; gap "
          f"{result.completeness_gap:+.2e}" + ("" if args.method == "ig" else " (gradient × input is not complete)"))
    if args.deletion:
        print("\nAOPC per method (the mean fall of the target as its top tokens are replaced; larger is more faithful):")
        for method, value in sorted(output["aopc"].items(), key=lambda kv: -kv[1]):
            print(f"  {method:<28} {value:.4f}")


METHOD_WORDS = {"ig": "integrated gradients", "grad-input": "gradient × input"}
