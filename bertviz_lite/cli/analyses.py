"""The commands that say what the numbers mean: head fingerprints, rollout, contributions, the logit lens (or the
nearest pieces), two models compared, a word in two contexts."""
from __future__ import annotations

import json

from ..errors import BertvizLiteError
from .console import analysed, load, progress, state_name


def cmd_heads(args) -> None:
    from ..analyses.head_fingerprints import STATS, describe, head_fingerprints, striking_heads

    if not (done := analysed(args, "attention of every layer, statistics of every head", head_fingerprints)):
        return
    _, result = done
    print("Striking heads (at least half of the attention on one kind of token):")
    for found in striking_heads(result, most=12) or [None]:
        print(f"  {describe(*found)}" if found else "  none")
    for stat in STATS:
        grid = result.stats[stat]
        print(f"\n{stat}: rows are layers, columns heads")
        print("       " + "".join(f"{h:>6}" for h in range(grid.shape[1])))
        for layer, row in enumerate(grid):
            print(f"  {layer:>3}  " + "".join(f"{v:6.2f}" for v in row))


def cmd_rollout(args) -> None:
    from ..analyses.rollout import attention_rollout

    if not (done := analysed(args, "rolling attention out through every layer", lambda t: attention_rollout(t)[-1],
                             lambda t, rollout: {"tokens": t.tokens, "rollout": rollout.tolist()})):
        return
    t, rollout = done  # (T, T) after the last layer
    print("Attention rollout after the last layer: where each token's input mixture comes from (top 3)")
    width = max(map(len, t.tokens))
    for i, (token, row) in enumerate(zip(t.tokens, rollout)):
        top = row.argsort()[::-1][:3]
        print(f"  {i:>3} {token:<{width}}  " + "   ".join(f"{t.tokens[j]} {row[j]:.2f}" for j in top))


def cmd_contributions(args) -> None:
    from ..analyses.contributions import MIXING, mixing_ratios

    if not (done := analysed(args, "norm-based contributions of every layer", mixing_ratios)):
        return
    t, result = done
    shown = [name for name in MIXING if result.ratios[name] is not None]
    print("Mixing ratio per layer: the share of what reaches a token that comes from other tokens")
    print("layer " + "".join(f"{name:>18}" for name in shown))
    for layer in range(t.num_layers):
        print(f"{layer:>5} " + "".join(f"{result.ratios[name][layer]:18.3f}" for name in shown))
    if len(shown) < len(MIXING):
        print("(no norm_residual_ln: a pre-norm layer has no LayerNorm after the attention block's sum)")
    print(f"\nchecks, worst over all layers: max |Δ| = {result.max_abs_diff:.2e}")


def cmd_compare(args) -> None:
    from ..analyses.compare import compare_models

    if args.model_a.strip() == args.model_b.strip():
        raise BertvizLiteError("Name two different models to compare.")
    result = compare_models(load(args.model_a), load(args.model_b), args.text)
    if args.json:
        print(json.dumps(result.to_json()))
        return
    a, b = result.sources
    width = max(len(k) for k in result.configs[0])
    print(f"{'':<{width}}  {a:>28}  {b:>28}")
    for key, value in result.configs[0].items():
        mark = "  ← differs" if key in result.differences else ""
        print(f"{key:<{width}}  {str(value):>28}  {str(result.configs[1].get(key)):>28}{mark}")
    print(f"{'parameters':<{width}}  {result.totals[0]:>28,}  {result.totals[1]:>28,}")
    for source, groups, tok in zip(result.sources, result.groups, result.tokenizations):
        print(f"\n{source}: " + ", ".join(f"{g} {n:,}" for g, n in groups.items()))
        print(f"  {len(tok.tokens)} tokens: " + " ".join(tok.tokens))


def cmd_contexts(args) -> None:
    from ..analyses.contexts import words_in_contexts
    from ..stepthrough.trace import trace

    loaded = load(args.model)
    progress("running the model on each sentence")
    a, b = trace(loaded, args.sentence_a), trace(loaded, args.sentence_b)
    results = words_in_contexts(a, b, args.word)
    if args.json:
        print(json.dumps(results[0].to_json() if len(results) == 1 else [r.to_json() for r in results]))
        return
    print("Cosine of the word's vectors in the two sentences (1: the context changed nothing; Ethayarajh 2019)")
    print("after      " + "".join(f"{r.word[:12]:>14}" for r in results))
    for layer in range(a.num_layers + 1):
        print(f"{state_name(layer):<11}" + "".join(f"{r.cosines[layer]:14.3f}" for r in results))


def cmd_lens(args) -> None:
    from ..analyses.logit_lens import logit_lens, mlm_head_problem

    if args.nearest:
        return _nearest_pieces_command(args)
    if not (done := analysed(args, "the masked-LM head on every hidden state",
                             lambda t: logit_lens(t, args.position), task="masked-lm", refuse=mlm_head_problem)):
        return
    _, result = done
    print(f"Logit lens at position {result.position} ({result.tokens[result.position]}): top {len(result.layers[0])}")
    for layer, top in enumerate(result.layers):
        print(f"  {state_name(layer):>10}  " + "   ".join(f"{token} {prob:.3f}" for token, prob in top))
    print(f"\nlast layer vs the masked-LM model's own logits: max |Δ| = {result.max_abs_diff:.2e}")


def _nearest_pieces_command(args) -> None:
    from ..analyses.nearest_pieces import nearest_pieces

    if not (done := analysed(args, "the nearest vocabulary pieces of every hidden state",
                             lambda t: nearest_pieces(t, args.position))):
        return
    _, result = done
    print(f"Nearest vocabulary pieces at position {result.position} ({result.tokens[result.position]}), by cosine "
          f"with the word-embedding table (not a prediction)")
    for layer, nearest in enumerate(result.layers):
        print(f"  {state_name(layer):>10}  " + "   ".join(f"{piece} {cosine:.3f}" for piece, cosine in nearest))
