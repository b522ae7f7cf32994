"""`bertviz-lite` (or `python -m bertviz_lite`): parameters, traces, prefetching for lectures, and the benchmark.

  bertviz-lite params bert-base-uncased [--task masked-lm] [--json]
  bertviz-lite trace bert-base-uncased "this is a test sentence" [--pair "..."] [--json]
  bertviz-lite heads|rollout|contributions bert-base-uncased "the cat sat" [--pair "..."] [--json]
  bertviz-lite lens bert-base-uncased "the cat [MASK] on the mat" [--position N] [--json]
  bertviz-lite compare bert-base-uncased answerdotai/ModernBERT-base "the bank of the river" [--json]
  bertviz-lite contexts MODEL "i sat on the bank of the river" "i deposited money at the bank" --word bank [--json]
  bertviz-lite explain-similarity MODEL "the cat sat on the mat" "a kitten was sitting on the rug" [--json]
  bertviz-lite intervene MODEL "TEXT" [--heads-off 2.3,4.1] [--mask 5] [--zero-value 3:4] [--value-zeroing L] [--json]
  bertviz-lite attribute MODEL "TEXT" (--similarity-to "B" | --mlm POS:TOKEN) [--method ig|grad-input] [--deletion] [--json]
  bertviz-lite explain MODEL "TEXT" --step layers.2.attn.scores --head 3 --at 4,1 [--pair "..."] [--json]
  bertviz-lite diagram MODEL [--layer L] [--json]
  bertviz-lite prefetch bert-base-uncased roberta-base
  bertviz-lite export MODEL --text "the bank of the river" [--text "..."] [--pair "A" "B"] --out site
  bertviz-lite bench [--json]

Errors are one line on stderr and a non-zero exit status (2 for a request the command cannot take, such as a step
or a cell that does not exist, as for any usage error). torch and transformers are imported only once the
command line has been read, so `--help` and usage errors answer at once; long commands say on stderr what
they are doing, and stdout carries only the result.
"""
from __future__ import annotations

import argparse
import sys

from ..errors import BertvizLiteError, InputError
from ..tasks import TASK_NAMES
from .analyses import cmd_compare, cmd_contexts, cmd_contributions, cmd_heads, cmd_lens, cmd_rollout
from .outputs import cmd_attribute, cmd_explain_similarity, cmd_intervene
from .console import PROG, Parser, quiet_transformers
from .models import cmd_diagram, cmd_explain, cmd_params, cmd_trace
from .exporting import cmd_export, cmd_runtime
from .running import cmd_bench, cmd_prefetch, cmd_serve


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog=PROG, description="See inside a BERT-style encoder (also: python -m bertviz_lite).")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

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

    p = sub.add_parser("explain-similarity", help="two sentences' cosine split exactly into token pairs, pooled as "
                                                  "the checkpoint pools")
    p.add_argument("model")
    p.add_argument("text_a")
    p.add_argument("text_b")
    p.add_argument("--words", action="store_true", help="add the pieces of each word up (the cells still add up)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_explain_similarity, input_status=2)

    p = sub.add_parser("intervene", help="switch a head off, mask a token or zero a value, and see how far every "
                                         "token's hidden state moves in each later layer")
    p.add_argument("model")
    p.add_argument("text")
    p.add_argument("--heads-off", default="", help="layer.head,... e.g. 2.3,4.1")
    p.add_argument("--mask", default="", help="token positions, e.g. 5")
    p.add_argument("--zero-value", default="", help="layer:token,... e.g. 3:4 (value zeroing)")
    p.add_argument("--pair", help="a second sentence")
    p.add_argument("--value-zeroing", type=int, metavar="L",
                   help="instead (or as well): layer L's value-zeroing map of the model's own run, T runs of the "
                        "layer (Mohebbi et al. 2023)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_intervene, input_status=2)

    p = sub.add_parser("attribute", help="which tokens an output rests on: integrated gradients or gradient × input, "
                                         "and every method's deletion curve")
    p.add_argument("model")
    p.add_argument("text", help="the sentence explained (sentence A for --similarity-to)")
    target = p.add_mutually_exclusive_group(required=True)
    target.add_argument("--similarity-to", metavar="TEXT_B", help="the target: the cosine with sentence B")
    target.add_argument("--mlm", metavar="POS:TOKEN", help="the target: the masked-LM logit of TOKEN at the mask "
                                                           "token at POS")
    p.add_argument("--method", choices=["ig", "grad-input"], default="ig")
    p.add_argument("--steps", type=int, default=32, help="integrated gradients' steps (default 32)")
    p.add_argument("--baseline", choices=["pad", "mask"], default="pad",
                   help="what replaces each non-special token in the baseline and the deletion curves")
    p.add_argument("--deletion", action="store_true", help="also every method's deletion curve and AOPC")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_attribute, input_status=2)

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

    p = sub.add_parser("export", help="a lecture as a static site that needs no server: open its index.html from "
                                      "disk, or serve the folder from any static host (a free static Space)")
    p.add_argument("model")
    p.add_argument("--text", action="append", default=[], help="a sentence; repeat for more")
    p.add_argument("--pair", action="append", nargs=2, metavar=("A", "B"), default=[],
                   help="a sentence pair read as one input, [CLS] A [SEP] B [SEP] (as the app's text and pair); "
                        "repeat for more")
    p.add_argument("--out", required=True, help="the site's folder (replaced whole once the site is written)")
    p.add_argument("--no-weights", action="store_true",
                   help="leave the weights' scripts out (a linear map's cell is then explained by the app): the "
                        "site is then its sentences' scripts and the page, for a large model")
    p.add_argument("--live", action="store_true",
                   help="the site also computes a sentence of the reader's own in the browser: the model, every "
                        "sub-step an output, as ONNX in parts of under 10 MB, run by onnxruntime-web (fetched once "
                        "from the npm registry: see `runtime`); the site must then be served over http(s)")
    p.set_defaults(run=cmd_export, input_status=2)

    p = sub.add_parser("runtime", help="fetch the browser's runtime for `export --live` (onnxruntime-web and "
                                       "Hugging Face's tokenizers for the web, pinned) from the npm registry into "
                                       "the cache, for exporting offline later")
    p.set_defaults(run=cmd_runtime, input_status=2)

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
    p.add_argument("--site", action="store_true",
                   help="instead: export the default lecture pack as a static site and time it (export, size, "
                        "Chromium from disk, 100 tabs on a static server)")
    p.add_argument("--live", action="store_true",
                   help="instead: export the default lecture pack with --live and time a reader's own sentence in "
                        "Chromium (the model's first fetch, about 16 and 128 tokens typed, a reload from the cache, "
                        "the "
                        "tab's memory)")
    p.add_argument("--tabs", type=int, help="with --load: tabs opening one link at once (default 40); with --site: "
                                            "tabs at once on the static server (default 100)")
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
        quiet_transformers()
        args.run(args)
    except BertvizLiteError as error:
        print(f"error: {error}", file=sys.stderr)
        return getattr(args, "input_status", 1) if isinstance(error, InputError) else 1
    except KeyboardInterrupt:
        return 130
    return 0
