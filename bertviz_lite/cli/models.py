"""The commands about one model: its parameters, a trace checked layer by layer, one number explained, a layer's
graph."""
from __future__ import annotations

import json

from ..errors import InputError
from .console import PROG, load, progress, traced


def cmd_params(args) -> None:
    from ..introspection.params import group_totals, parameter_table

    loaded = load(args.model, args.task)
    table = parameter_table(loaded.model)
    groups = group_totals(table)
    total, trainable = int(table.numel.sum()), int(table.numel[table.trainable].sum())
    if args.json:
        print(json.dumps({
            "model": loaded.source, "architecture": type(loaded.model).__name__, "weights": loaded.weights_kind,
            "total": total, "trainable": trainable, "groups": groups,
            "parameters": [{"name": r.name, "shape": list(r.shape), "numel": int(r.numel),
                            "trainable": bool(r.trainable)} for r in table.itertuples()],
        }))
        return
    print(f"{loaded.source}: {type(loaded.model).__name__} ({loaded.weights_kind} weights)\n")
    shapes = [" × ".join(map(str, s)) for s in table["shape"]]
    name_w, shape_w = max(map(len, table["name"])), max(map(len, shapes))
    print(f"{'name':<{name_w}}  {'shape':>{shape_w}}  {'parameters':>12}")
    for name, shape, numel in zip(table["name"], shapes, table["numel"]):
        print(f"{name:<{name_w}}  {shape:>{shape_w}}  {numel:>12,}")
    print(f"\n{'group':<{name_w}}  {'parameters':>12}  share")
    for group, n in groups.items():
        print(f"{group:<{name_w}}  {n:>12,}  {n / total:6.1%}")
    print(f"{'total':<{name_w}}  {total:>12,}  over {len(table)} named parameters; trainable {trainable:,}")


def cmd_trace(args) -> None:
    t = traced(args, args.task)
    loaded = t.loaded
    progress("stepping through every layer")
    diffs = t.check()
    if args.json:
        print(json.dumps({
            "model": loaded.source, "weights": loaded.weights_kind, "tokens": t.tokens,
            "input_ids": t.input_ids.tolist(), "token_type_ids": t.token_type_ids.tolist(),
            "attention_mask": t.attention_mask.tolist(), "dropped_tokens": t.dropped_tokens,
            "num_layers": t.num_layers, "num_heads": t.num_heads,
            "embeddings_max_abs_diff": t.embeddings().max_abs_diff,
            "layers": [{"layer": i, "max_abs_diff": d} for i, d in enumerate(diffs)],
            "max_abs_diff": max(diffs),
        }))
        return
    print(f"{loaded.source} ({loaded.weights_kind} weights): {len(t.tokens)} tokens\n")
    width = max(map(len, t.tokens))
    print(f"{'#':>4}  {'token':<{width}}  {'id':>6}  type")
    for i, (tok, tid, typ) in enumerate(zip(t.tokens, t.input_ids, t.token_type_ids)):
        print(f"{i:>4}  {tok:<{width}}  {tid:>6}  {typ}")
    print(f"\nembeddings: max |step-through - hidden_states[0]| = {t.embeddings().max_abs_diff:.2e}")
    for i, d in enumerate(diffs):
        print(f"layer {i:>2}: max |step-through - hidden_states[{i + 1}]| = {d:.2e}")


def cmd_explain(args) -> None:
    from ..explaining import explain, parse_cell
    from ..graph.names import parse_step_name

    try:
        parse_step_name(args.step)
    except ValueError:
        raise InputError(f"{args.step!r} is not a sub-step name: write block.step, for example layers.0.attn.scores "
                         f"(see {PROG} diagram MODEL for a layer's steps).") from None
    at = parse_cell(args.at)  # both checked before the model loads
    t = traced(args)
    progress(f"explaining {args.step} at {args.at}")
    e = explain(t, args.step, args.head, at)
    if args.json:
        print(json.dumps(e.to_json()))
        return
    where = ", ".join(f"{k} {v}" for k, v in e.labels.items()) or ",".join(map(str, e.at))
    print(f"{e.step} ({e.title}){'' if e.head is None else f', head {e.head}'}, {where}: {e.value:.6g}")
    print(f"  {e.op}: {e.formula}")
    if e.terms:
        ranked = sorted(e.terms, key=lambda term: -abs(term[1]))
        for label, value in ranked[:10]:
            print(f"    {value:+12.6f}  {label}")
        if len(ranked) > 10:
            print(f"    {sum(v for _, v in ranked[10:]):+12.6f}  the other {len(ranked) - 10} terms")
    print(f"  recomputed from these numbers: {e.recomputed:.6g} (|Δ| = {e.abs_diff:.1e} from the stored value)")


def cmd_diagram(args) -> None:
    from ..loading.loader import load_skeleton
    from ..stepthrough.blocks import block_graph

    loaded = load_skeleton(args.model)  # the graph needs the architecture, not the weights
    graph = block_graph(loaded, "layers", args.layer)
    if args.json:
        print(json.dumps({"model": loaded.source, "family": loaded.family.name, **graph.to_json()}))
        return
    print(f"{loaded.source} ({loaded.family.name}), layer {args.layer}: {len(graph)} sub-steps")
    width = max(len(n.key) for n in graph)
    for n in graph:
        print(f"  {n.key:<{width}}  {n.op.name:<16} ← {', '.join(n.inputs) or '—'}"
              + (f"   [{n.module}]" if n.module else ""))
