"""`bertviz-lite` (or `python -m bertviz_lite`): parameters, traces, prefetching for lectures, and the benchmark.

  bertviz-lite params bert-base-uncased [--task masked-lm] [--json]
  bertviz-lite trace bert-base-uncased "this is a test sentence" [--pair "..."] [--json]
  bertviz-lite heads|rollout|contributions bert-base-uncased "the cat sat" [--pair "..."] [--json]
  bertviz-lite lens bert-base-uncased "the cat [MASK] on the mat" [--position N] [--json]
  bertviz-lite compare bert-base-uncased answerdotai/ModernBERT-base "the bank of the river" [--json]
  bertviz-lite contexts MODEL "i sat on the bank of the river" "i deposited money at the bank" --word bank [--json]
  bertviz-lite explain MODEL "TEXT" --step layers.2.attn.scores --head 3 --at 4,1 [--pair "..."] [--json]
  bertviz-lite diagram MODEL [--layer L] [--json]
  bertviz-lite prefetch bert-base-uncased roberta-base
  bertviz-lite bench [--json]

Errors are one line on stderr and a non-zero exit status (2 for a request the command cannot take, such as a step
or a cell that does not exist, as for any usage error). torch and transformers are imported only once the
command line has been read, so `--help` and usage errors answer at once; long commands say on stderr what
they are doing, and stdout carries only the result.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from .errors import BertvizLiteError, InputError
from .tasks import TASK_NAMES

PROG = "bertviz-lite"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, not argparse's usage block
        self.exit(2, f"error: {message} (see {PROG} --help)\n")


def progress(message: str) -> None:
    """What a long command is doing, on stderr (stdout keeps only the result, e.g. the JSON)."""
    print(f"… {message}", file=sys.stderr, flush=True)


def _load(model: str, task: str = "base"):
    """The model, saying what takes the time: importing torch and transformers, then loading."""
    start = time.perf_counter()
    progress(f"loading {model} ({task})")
    from .loading.loader import load_model

    loaded = load_model(model, task)
    progress(f"loaded {model}: {loaded.weights} weights from the {loaded.origin} in {time.perf_counter() - start:.1f} s")
    if loaded.warning:
        print(f"note: {loaded.warning}", file=sys.stderr)
    return loaded


def cmd_params(args) -> None:
    from .introspection.params import group_totals, parameter_table

    loaded = _load(args.model, args.task)
    table = parameter_table(loaded.model)
    groups = group_totals(table)
    total, trainable = int(table.numel.sum()), int(table.numel[table.trainable].sum())
    if args.json:
        print(json.dumps({
            "model": loaded.source, "architecture": type(loaded.model).__name__, "weights": loaded.weights,
            "total": total, "trainable": trainable, "groups": groups,
            "parameters": [{"name": r.name, "shape": list(r.shape), "numel": int(r.numel),
                            "trainable": bool(r.trainable)} for r in table.itertuples()],
        }))
        return
    print(f"{loaded.source}: {type(loaded.model).__name__} ({loaded.weights} weights)\n")
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
    t = _trace(args, args.task)
    loaded = t.loaded
    progress("stepping through every layer")
    diffs = t.check()
    if args.json:
        print(json.dumps({
            "model": loaded.source, "weights": loaded.weights, "tokens": t.tokens,
            "input_ids": t.input_ids.tolist(), "token_type_ids": t.token_type_ids.tolist(),
            "attention_mask": t.attention_mask.tolist(), "dropped_tokens": t.dropped_tokens,
            "num_layers": t.num_layers, "num_heads": t.num_heads,
            "embeddings_max_abs_diff": t.embeddings().max_abs_diff,
            "layers": [{"layer": i, "max_abs_diff": d} for i, d in enumerate(diffs)],
            "max_abs_diff": max(diffs),
        }))
        return
    print(f"{loaded.source} ({loaded.weights} weights): {len(t.tokens)} tokens\n")
    width = max(map(len, t.tokens))
    print(f"{'#':>4}  {'token':<{width}}  {'id':>6}  type")
    for i, (tok, tid, typ) in enumerate(zip(t.tokens, t.input_ids, t.token_type_ids)):
        print(f"{i:>4}  {tok:<{width}}  {tid:>6}  {typ}")
    print(f"\nembeddings: max |step-through - hidden_states[0]| = {t.embeddings().max_abs_diff:.2e}")
    for i, d in enumerate(diffs):
        print(f"layer {i:>2}: max |step-through - hidden_states[{i + 1}]| = {d:.2e}")


def _trace(args, task: str = "base", refuse=None):
    """The trace of args.text (and pair). `refuse(loaded)` names why an analysis cannot run on this model, or
    None: it is asked of the architecture first, before any weights are built or read, then of the model."""
    from .loading.loader import load_skeleton
    from .stepthrough.trace import trace

    if refuse is not None and (problem := refuse(load_skeleton(args.model, task))):
        raise InputError(problem)
    loaded = _load(args.model, task)
    if refuse is not None and (problem := refuse(loaded)):  # what only the checkpoint says (a head it lacks)
        raise InputError(problem)
    progress("running the model")
    t = trace(loaded, args.text, args.pair)
    if t.notice:
        print(f"note: {t.notice}", file=sys.stderr)
    return t


def _analyse(args, doing: str, compute, as_json=lambda t, result: result.to_json(), task: str = "base",
             refuse=None):
    """Trace, run one analysis and print its JSON when asked (then None); else (trace, result) to print."""
    t = _trace(args, task, refuse)
    progress(doing)
    result = compute(t)
    if args.json:
        print(json.dumps(as_json(t, result)))
        return None
    return t, result


def cmd_heads(args) -> None:
    from .analyses.head_fingerprints import STATS, describe, head_fingerprints, striking_heads

    if not (done := _analyse(args, "attention of every layer, statistics of every head", head_fingerprints)):
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
    from .analyses.rollout import attention_rollout

    if not (done := _analyse(args, "rolling attention out through every layer", lambda t: attention_rollout(t)[-1],
                             lambda t, rollout: {"tokens": t.tokens, "rollout": rollout.tolist()})):
        return
    t, rollout = done  # (T, T) after the last layer
    print("Attention rollout after the last layer: where each token's input mixture comes from (top 3)")
    width = max(map(len, t.tokens))
    for i, (token, row) in enumerate(zip(t.tokens, rollout)):
        top = row.argsort()[::-1][:3]
        print(f"  {i:>3} {token:<{width}}  " + "   ".join(f"{t.tokens[j]} {row[j]:.2f}" for j in top))


def cmd_contributions(args) -> None:
    from .analyses.contributions import MIXING, mixing_ratios

    if not (done := _analyse(args, "norm-based contributions of every layer", mixing_ratios)):
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
    from .analyses.compare import compare_models

    if args.model_a.strip() == args.model_b.strip():
        raise BertvizLiteError("Name two different models to compare.")
    result = compare_models(_load(args.model_a), _load(args.model_b), args.text)
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


def _state_name(i: int) -> str:
    """Hidden state i: the embeddings' output, then each layer's, layers counted from 0 as everywhere."""
    return "embeddings" if i == 0 else f"layer {i - 1}"


def cmd_contexts(args) -> None:
    from .analyses.contexts import words_in_contexts
    from .stepthrough.trace import trace

    loaded = _load(args.model)
    progress("running the model on each sentence")
    a, b = trace(loaded, args.sentence_a), trace(loaded, args.sentence_b)
    results = words_in_contexts(a, b, args.word)
    if args.json:
        print(json.dumps(results[0].to_json() if len(results) == 1 else [r.to_json() for r in results]))
        return
    print("Cosine of the word's vectors in the two sentences (1: the context changed nothing; Ethayarajh 2019)")
    print("after      " + "".join(f"{r.word[:12]:>14}" for r in results))
    for layer in range(a.num_layers + 1):
        print(f"{_state_name(layer):<11}" + "".join(f"{r.cosines[layer]:14.3f}" for r in results))


def cmd_lens(args) -> None:
    from .analyses.logit_lens import head_problem, logit_lens

    if args.nearest:
        return _nearest_pieces(args)
    if not (done := _analyse(args, "the masked-LM head on every hidden state",
                             lambda t: logit_lens(t, args.position), task="masked-lm", refuse=head_problem)):
        return
    _, result = done
    print(f"Logit lens at position {result.position} ({result.tokens[result.position]}): top {len(result.layers[0])}")
    for layer, top in enumerate(result.layers):
        print(f"  {_state_name(layer):>10}  " + "   ".join(f"{token} {prob:.3f}" for token, prob in top))
    print(f"\nlast layer vs the masked-LM model's own logits: max |Δ| = {result.max_abs_diff:.2e}")


def _nearest_pieces(args) -> None:
    from .analyses.nearest_pieces import nearest_pieces

    if not (done := _analyse(args, "the nearest vocabulary pieces of every hidden state",
                             lambda t: nearest_pieces(t, args.position))):
        return
    _, result = done
    print(f"Nearest vocabulary pieces at position {result.position} ({result.tokens[result.position]}), by cosine "
          f"with the word-embedding table (not a prediction)")
    for layer, nearest in enumerate(result.layers):
        print(f"  {_state_name(layer):>10}  " + "   ".join(f"{piece} {cosine:.3f}" for piece, cosine in nearest))


def cmd_explain(args) -> None:
    from .explaining import explain, parse_cell
    from .graph.names import parse_step_name

    try:
        parse_step_name(args.step)
    except ValueError:
        raise InputError(f"{args.step!r} is not a sub-step name: write block.step, for example layers.0.attn.scores "
                         f"(see {PROG} diagram MODEL for a layer's steps).") from None
    at = parse_cell(args.at)  # both checked before the model loads
    t = _trace(args)
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
    from .loading.loader import load_skeleton
    from .stepthrough.blocks import block_graph

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


def cmd_prefetch(args) -> None:
    from .loading.loader import prefetch

    for source in args.models:
        progress(f"fetching {source}")
        loaded = prefetch(source)
        print(f"{source}: ready for offline use ({loaded.origin}, {type(loaded.model).__name__})")


def cmd_bench(args) -> None:
    if args.load:  # the app under a crowd, in its own server process; this one times the raw forward it is told in
        from .benchmarks import load

        result = load.run(tabs=args.tabs, many=args.many, soak=args.soak, replicas=args.replicas, progress=progress)
        print(json.dumps(result) if args.json else load.report(result))
        return
    progress("importing torch and transformers")
    if args.devices:  # where a GPU would help; every CPU thread torch finds, unless --threads is given
        import torch

        from .benchmarks import devices

        if args.threads:
            torch.set_num_threads(args.threads)
        rows = devices.run(repeats=args.repeats, progress=progress)
        print(json.dumps(rows) if args.json else devices.report(rows))
        return
    from .benchmarks import speed  # it sets torch's thread count, so only this command imports it

    result = speed.run(threads=args.threads or 2, repeats=args.repeats, progress=progress)
    print(json.dumps(result) if args.json else speed.report(result))


def _quiet_transformers() -> None:
    """The CLI says what matters itself; transformers' load reports and bars would bury it."""
    from transformers.utils import logging

    logging.set_verbosity_error()
    logging.disable_progress_bar()


def cmd_serve(args) -> None:
    """`streamlit run app.py` in this process, after starting the warm-up of the views BVL_WARM names
    (serving/warmup.py): they land in the caches the pages read."""
    app = Path(__file__).resolve().parent.parent / "app.py"
    if not app.is_file():
        raise InputError(f"serve runs the app from a checkout of the repository: there is no {app}")
    os.chdir(app.parent)  # where .streamlit/config.toml is read from
    from .serving.warmup import views, warm_in_background
    from streamlit.web import cli as streamlit_cli

    warm_in_background(views(os.environ.get("BVL_WARM", "")))
    streamlit_cli.main(["run", str(app), *args.options], standalone_mode=True)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="See inside a BERT-style encoder (also: python -m bertviz_lite).")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("params", help="the named parameters with shapes, and the totals per group")
    p.add_argument("model", help="Hub id (bert-base-uncased) or local directory")
    p.add_argument("--task", choices=TASK_NAMES, default="base")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_params)

    p = sub.add_parser("trace", help="tokens, and every layer's step-through checked against the model")
    p.add_argument("model")
    p.add_argument("text")
    p.add_argument("--pair", help="a second sentence")
    p.add_argument("--task", choices=TASK_NAMES, default="base")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_trace)

    for name, run, text in (("heads", cmd_heads, "head fingerprints (Clark et al. 2019)"),
                            ("rollout", cmd_rollout, "attention rollout (Abnar & Zuidema 2020)"),
                            ("contributions", cmd_contributions,
                             "norm-based mixing ratios per layer (Kobayashi et al. 2020, 2021)"),
                            ("lens", cmd_lens, "logit lens through the masked-LM head")):
        p = sub.add_parser(name, help=text)
        p.add_argument("model")
        p.add_argument("text")
        p.add_argument("--pair", help="a second sentence")
        if name == "lens":
            p.add_argument("--position", type=int, help="the position to look at when the text has no [MASK]")
            p.add_argument("--nearest", action="store_true",
                           help="the vocabulary pieces nearest to each hidden state (cosine with the word-embedding "
                                "table) instead: for a model without a masked-LM head")
        p.add_argument("--json", action="store_true")
        p.set_defaults(run=run)

    p = sub.add_parser("compare", help="two models side by side: configs, parameters, tokenizations of one text")
    p.add_argument("model_a")
    p.add_argument("model_b")
    p.add_argument("text")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_compare)

    p = sub.add_parser("contexts", help="a word in two sentences: the cosine of its vectors after every layer "
                                        "(Ethayarajh 2019)")
    p.add_argument("model")
    p.add_argument("sentence_a")
    p.add_argument("sentence_b")
    p.add_argument("--word", nargs="+", required=True, help="a word in both sentences (or several)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_contexts)

    p = sub.add_parser("explain", help="one number of one sub-step, computed again from the numbers it comes from")
    p.add_argument("model")
    p.add_argument("text")
    p.add_argument("--step", required=True, help="a sub-step's global name, e.g. layers.2.attn.scores")
    p.add_argument("--head", type=int, help="the head, for steps with a head axis (default 0); the step's own: on "
                                             "the keys and values of grouped-query attention, the key/value head")
    p.add_argument("--at", required=True, help="the cell: query,key (e.g. 4,1) or token,dimension (e.g. 4,17)")
    p.add_argument("--pair", help="a second sentence")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_explain, input_status=2)

    p = sub.add_parser("diagram", help="a layer as its graph of named operations: nodes, ops and edges")
    p.add_argument("model")
    p.add_argument("--layer", type=int, default=0)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_diagram, input_status=2)

    p = sub.add_parser("prefetch", help="download models into the Hugging Face cache for offline use")
    p.add_argument("models", nargs="+")
    p.set_defaults(run=cmd_prefetch)

    p = sub.add_parser("serve", help="run the app (streamlit run app.py), warming the views that BVL_WARM names "
                                     "first (the Docker image's start command)")
    p.add_argument("options", nargs="*", help="after --, streamlit's own, e.g. -- --server.port=7860")
    p.set_defaults(run=cmd_serve)

    p = sub.add_parser("bench", help="speed and memory figures, measured side by side")
    p.add_argument("--threads", type=int, help="CPU threads (default: 2; with --devices, all)")
    p.add_argument("--repeats", type=int, default=9)
    p.add_argument("--devices", action="store_true",
                   help="instead: forward-pass time on the CPU vs a CUDA GPU, and the figure's time, for the "
                        "Scaling notes")
    p.add_argument("--load", action="store_true",
                   help="instead: start the app and open many sessions at once as browser tabs do (latency "
                        "percentiles, and the server's memory through a soak); run from the repository root")
    p.add_argument("--tabs", type=int, default=40, help="with --load: tabs opening one link at once")
    p.add_argument("--many", type=int, default=100, help="with --load: the larger burst on one link")
    p.add_argument("--soak", type=int, default=320, help="with --load: distinct sentences in the soak")
    p.add_argument("--replicas", type=int, default=0,
                   help="with --load: that many app processes behind HAProxy (deploy/haproxy.cfg), as the hall "
                        "reaches them through a balancer; needs haproxy installed")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_bench)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        _quiet_transformers()
        args.run(args)
    except BertvizLiteError as error:
        print(f"error: {error}", file=sys.stderr)
        return getattr(args, "input_status", 1) if isinstance(error, InputError) else 1
    except KeyboardInterrupt:
        return 130
    return 0
