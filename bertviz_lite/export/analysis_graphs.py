"""The analyses a live site's browser computes for a typed sentence, as ONNX graphs of the package's own torch
functions, the ones the app calls: each head's fingerprint (analyses/head_fingerprints.py `statistics`), the rollout
(rollout.py `rollout_steps`), the norm-based contributions and mixing ratios (contributions.py
`contribution_tensors`, `mixing_of`), the nearest pieces (nearest_pieces.py `nearest_rows`), the sentence vector
(similarity.py `way_vector`), the head and model views' lines and thumbnails (attention_lines.py, analyses/
attention_views.py, figures/attention_views.py) and, on a site with sentences to compare, their cosines and splits
with a typed one (`cosine_matrix`, similarity_split.py `split_tensors`). The browser feeds a
graph from its run of the model and from the model's own weights, runs it with onnxruntime-web as it runs the model,
and draws what it gives: the numbers have one source (issue 54; docs/frontend.md says why graphs and not Python in
the browser).

Each graph's manifest says where the browser gets each input:
    ["step", name]            the run's output of that name (a sub-step, the model's own hidden states)
    ["ids", name]             the sentence's ids of that input (input_ids)
    ["weight", module, kind]  the module's weight or bias, read from the model's files (model_parts.js)
    ["given", name]           a number the page picks (the Lens's position)
"""
from __future__ import annotations

import torch
from torch import nn

from ..analyses.attention_views import most_thumbnail_side, pooled
from ..analyses.contributions import MIXING, block_nodes, contribution_tensors, mixing_of
from ..analyses.head_fingerprints import is_punctuation, statistics, strongest_first
from ..analyses.logit_lens import TOP
from ..analyses.nearest_pieces import narrower_table, nearest_rows, unit_rows
from ..analyses.residual_stream import turns
from ..analyses.rollout import rollout_steps
from ..analyses.sentence_pooling import pooling_of, read_positions
from ..analyses.similarity import WAY_FROM, cosine_matrix, vectors_of, way_vector
from ..analyses.similarity_split import by_size, split_tensors
from ..attention_lines import kept_lines, line_segments, opacity_tenths
from ..figures.attention_views import tiled
from ..loading.readable_pieces import readable_pieces
from ..ops import LOOKUP, shared_heads
from .every_step import HIDDEN_STATES, POOLER_OUTPUT, block_graphs


def _layers(loaded) -> list:
    """Each layer's graph, in order."""
    return [g for g in block_graphs(loaded) if g.block == "layers"]


class AttentionAnalyses(nn.Module):
    """forward(input_ids (T,), each layer's attention (H, T, T)) -> the fingerprints (7, L, H), in STATS' order, the
    rollout after each layer (L, T, T), and the heads by their strongest statistic (head_fingerprints.py
    strongest_first: the striking heads are the first of them). Which ids are the separator and which punctuation is decided here, for
    the whole vocabulary, by the app's own rules on the pieces as the app shows them."""

    def __init__(self, loaded):
        super().__init__()
        tokenizer = loaded.tokenizer
        pieces = readable_pieces(tokenizer, tokenizer.convert_ids_to_tokens(list(range(len(tokenizer)))))
        self.register_buffer("is_sep", torch.tensor([p == tokenizer.sep_token for p in pieces]))  # (V,)
        self.register_buffer("is_punct", torch.tensor([is_punctuation(p) for p in pieces]))  # (V,)

    def forward(self, input_ids: torch.Tensor, *probs: torch.Tensor) -> tuple[torch.Tensor, ...]:
        sep, punct = self.is_sep[input_ids], self.is_punct[input_ids]  # (T,) each
        stats = torch.stack([statistics(p, sep, punct) for p in probs], dim=1)  # (7, L, H)
        return stats, rollout_of_layers(probs), *strongest_first(stats)


def rollout_of_layers(probs: tuple[torch.Tensor, ...]) -> torch.Tensor:
    """The rollout after each layer from each layer's attention (H, T, T), as analyses/all_layers.py takes it."""
    return rollout_steps(torch.stack([p.mean(dim=0) for p in probs]))  # (L, T, T)


class Views(nn.Module):
    """forward(each layer's attention (H, T, T)) -> for each layer its head view's lines as Plotly draws them (x, y,
    points: attention_lines.py line_segments of the lines kept_lines keeps), then the model view's canvas and its
    placing (figures/attention_views.py tiled) of every layer's and head's thumbnail (analyses/attention_views.py
    pooled, at most_thumbnail_side a side), and that side: what export/attention.py's templates fill."""

    def __init__(self, loaded):
        super().__init__()
        config = loaded.base.config
        self.most_side = most_thumbnail_side(config.num_hidden_layers, config.num_attention_heads)

    def forward(self, *probs: torch.Tensor) -> tuple[torch.Tensor, ...]:
        lines = [part for p in probs for part in line_segments(torch.where(kept_lines(p), opacity_tenths(p), 0.0))]
        length = torch.ones_like(probs[0][0, 0]).sum()  # T, as a tensor
        side = torch.clamp(length, min=4, max=max(4, self.most_side))  # thumbnail_side's rule
        canvas, placing = tiled(torch.stack([pooled(p, side) for p in probs]))
        return *lines, canvas, placing, side


def views_outputs(layers: int) -> list[str]:
    """Views' outputs' names: "x.0", "y.0", "points.0" (layer 0's lines), ..., then the model view's."""
    lines = (f"{name}.{layer}" for layer in range(layers) for name in ("x", "y", "points"))
    return [*lines, "canvas", "placing", "side"]


class Contributions(nn.Module):
    """forward(*inputs as `contribution_inputs` lists them: the hidden states (L + 1, T, d), each layer's attention
    (H, T, T), values (H_kv, T, d_h), attention output (T, d) where a LayerNorm follows the sum, W_O (d, d) and b_O
    (d,) where it has one (a weight shared by layers, ALBERT's, once)) -> the mixing ratios (M, L) in `matrices`'
    order (MIXING's, without norm_residual_ln in a pre-norm model: no LayerNorm follows its sum), then for each
    layer its (T, T) matrices and the two checks' rebuilt (T, d) sums. The LayerNorms' γ, β and ε (a few numbers
    each) are held in the graph."""

    def __init__(self, loaded):
        super().__init__()
        nodes = [block_nodes(graph) for graph in _layers(loaded)]
        base = loaded.base
        self.post_norms = nn.ModuleList(nn.Identity() if n.post_norm is None else base.get_submodule(n.post_norm.module)
                                        for n in nodes)
        self.pre_norm = nodes[0].post_norm is None
        self.matrices = MIXING[:-1] if self.pre_norm else MIXING
        self.slots = contribution_layout(loaded)[1]

    def forward(self, *given: torch.Tensor) -> tuple[torch.Tensor, ...]:
        outputs, ratios, hidden_states = [], [], given[0]
        for layer, (norm, slots) in enumerate(zip(self.post_norms, self.slots)):
            read = {role: given[index] for role, index in slots.items()}
            w_o = read["w_o"]
            b_o = read["b_o"] if "b_o" in read else torch.zeros(w_o.shape[0])
            probs = read["probs"]
            v = shared_heads(read["values"], probs.shape[0])  # (H, T, d_h): each query head's values
            gamma, beta, eps = (None, None, None) if self.pre_norm else (norm.weight, norm.bias, norm.eps)
            mean, raw, residual, with_ln, rebuilt_out, rebuilt_norm = contribution_tensors(
                hidden_states[layer], probs, v, w_o, b_o, gamma, beta, eps, read.get("attn_out"))
            matrices = [mean, raw, residual, *(() if with_ln is None else (with_ln,))]
            ratios.append(torch.stack([mixing_of(m) for m in matrices]))
            outputs += [*matrices, rebuilt_out, rebuilt_norm]
        return torch.stack(ratios, dim=1), *outputs  # (M, L), then each layer's


class NearestPieces(nn.Module):
    """forward(hidden states (L + 1, T, d), the word table (V, d), a position (scalar)) -> the TOP nearest pieces' ids
    (L + 1, TOP) and their cosines (L + 1, TOP), as nearest_pieces.py computes them."""

    def forward(self, hidden_states: torch.Tensor, table: torch.Tensor, position: torch.Tensor):
        return nearest_rows(hidden_states[:, position], unit_rows(table), TOP)


class SentenceVector(nn.Module):
    """forward(hidden states (L + 1, T, d)) -> the sentence vector (D,) the tour shows: the Similarity page's first
    way (the checkpoint's pooling, Normalize included; a plain model's mean token vector)."""

    def __init__(self, loaded):
        super().__init__()
        self.pooling = loaded.sentence_pooling
        self.way = "mean" if self.pooling is None else "pooling"

    def forward(self, hidden_states: torch.Tensor) -> torch.Tensor:
        return way_vector(self.way, hidden_states[-1], None, self.pooling)


class Stream(nn.Module):
    """forward(hidden states (L + 1, T, d)) -> how much each layer turns each token's vector (L, T) and each vector's
    length (L + 1, T): the tour's residual stream (analyses/residual_stream.py turns)."""

    def forward(self, hidden_states: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return turns(hidden_states)


class Similarity(nn.Module):
    """forward(hidden states (L + 1, T, d)[, pooler output (d,)]) -> each way's cosine of the sentence with each
    compared one (W, n), then for each compared sentence its split with the sentence as `split_traces` gives it:
    the cells (R, m) of the positions the pooling reads, the rows' positions (R,), the cosine, the cells' sum and
    their flat indices largest first. The compared sentences' vectors and last layers (`compared`: their traces,
    as the sentence pipeline reads them) are held in the graph: a site's, not a model's."""

    def __init__(self, loaded, compared: list):
        super().__init__()
        ways = vectors_of(loaded, compared)
        self.pooling, self.modes = loaded.sentence_pooling, pooling_of(loaded).modes
        self.ways = [WAY_FROM[way.name] for way in ways]
        self.vectors = nn.ParameterList(nn.Parameter(torch.from_numpy(way.vectors), requires_grad=False) for way in ways)
        self.lasts = nn.ParameterList(nn.Parameter(torch.from_numpy(t.hidden_states[-1]), requires_grad=False)
                                      for t in compared)  # (m, d) each

    def forward(self, hidden_states: torch.Tensor, pooler: torch.Tensor | None = None) -> tuple[torch.Tensor, ...]:
        last = hidden_states[-1]  # (T, d)
        cosines = torch.stack([cosine_matrix(way_vector(way, last, pooler, self.pooling)[None], vectors)[0]
                               for way, vectors in zip(self.ways, self.vectors)])  # (W, n)
        rows, outputs = read_positions(self.modes, last.shape[0]), [cosines]
        for theirs in self.lasts:
            cells, cosine = split_tensors(last, theirs, self.modes)  # (T, m), ()
            read = cells[rows][:, read_positions(self.modes, theirs.shape[0])]  # (R, m')
            outputs += [read, rows, cosine, read.sum(), by_size(read)]
        return tuple(outputs)


def similarity_outputs(compared: list) -> list[str]:
    """Similarity's outputs' names: "cosines", then each compared sentence's ("split.1.cells": sentence 1's)."""
    return ["cosines", *(f"split.{k + 1}.{name}" for k in range(len(compared))
                         for name in ("cells", "rows", "cosine", "total", "by_size"))]


OPSET = 18  # the opset the model itself is written in (every_step.py, by the newer exporter)
Input = tuple[str, list, tuple[int, ...]]  # a graph's input: its name, where the browser gets it, its tokens' axes


def step(name: str, *token_axes: int) -> Input:
    return name, ["step", name], token_axes


def weight(module: str, kind: str) -> Input:
    return f"{module}.{kind}", ["weight", module, kind], ()


def attention_inputs(loaded) -> list[Input]:
    """AttentionAnalyses' inputs: the ids, then each layer's attention (H, T, T) (Views': the attention alone)."""
    return [("input_ids", ["ids", "input_ids"], (0,)), *(step(g.name("attn.probs"), 1, 2) for g in _layers(loaded))]


def contribution_inputs(loaded) -> list[Input]:
    """Contributions' inputs, each once, in the order its forward reads them."""
    return contribution_layout(loaded)[0]


def contribution_layout(loaded) -> tuple[list[Input], list[dict[str, int]]]:
    """Contributions' inputs, each once (the first the hidden states), and for each layer where among them it finds
    its attention, values, attention output (post-norm), W_O and b_O (where it has one)."""
    inputs, slots = [step(HIDDEN_STATES, 1)], []
    for graph in _layers(loaded):
        nodes = block_nodes(graph)
        roles = {"probs": step(graph.name("attn.probs"), 1, 2), "values": step(graph.name(nodes.values.key), 1)}
        if nodes.post_norm is not None:
            roles["attn_out"] = step(graph.name(nodes.out.key), 0)
        roles["w_o"] = weight(nodes.out.module, "weight")
        if loaded.base.get_submodule(nodes.out.module).bias is not None:
            roles["b_o"] = weight(nodes.out.module, "bias")
        for found in roles.values():
            if found[0] not in (name for name, _, _ in inputs):
                inputs.append(found)
        slots.append({role: [name for name, _, _ in inputs].index(found[0]) for role, found in roles.items()})
    return inputs, slots


def nearest_inputs(loaded) -> list[Input]:
    """NearestPieces' inputs: the hidden states, the word table, the position the page picks."""
    table = next(n for g in block_graphs(loaded) if g.block == "embed" for n in g
                 if n.op is LOOKUP and n.attr("ids") == "input_ids")
    return [step(HIDDEN_STATES, 1), weight(table.module, "weight"), ("position", ["given", "position"], ())]


def contribution_outputs(loaded) -> list[str]:
    """Contributions' outputs' names: "mixing", then each layer's."""
    matrices = Contributions(loaded).matrices
    return ["mixing", *(f"contributions.{layer}.{name}" for layer in range(len(_layers(loaded)))
                        for name in (*matrices, "rebuilt_out", "rebuilt_norm"))]


def contribution_checks(loaded) -> list[list[list[str]]]:
    """For each layer, what each check compares: [the rebuilt sum's output, the run's step it should equal]: Σ_j c_ij
    + b_O against the attention output; the second against the LayerNorm after the sum, or (pre-norm) the
    residual sum x + attn.out."""
    found = []
    for layer, graph in enumerate(_layers(loaded)):
        nodes = block_nodes(graph)
        second = nodes.residual if nodes.post_norm is None else nodes.post_norm
        found.append([[f"contributions.{layer}.rebuilt_out", graph.name(nodes.out.key)],
                      [f"contributions.{layer}.rebuilt_norm", graph.name(second.key)]])
    return found


def graphs(loaded, compared: list = ()) -> dict[str, tuple[nn.Module, list[Input], list[str]]]:
    """Each analysis graph a live site holds for `loaded`: its module, inputs and outputs' names. The nearest pieces
    only where the word table and the layers are in one space (nearest_pieces.narrower_table); the similarity
    where the site has sentences to compare (`compared`: their traces, as the sentence pipeline reads them)."""
    found = {"attention": (AttentionAnalyses(loaded), attention_inputs(loaded),
                           ["fingerprints", "rollout", "striking_order", "striking_stat", "striking_value"]),
             "views": (Views(loaded), attention_inputs(loaded)[1:], views_outputs(len(_layers(loaded)))),
             "contributions": (Contributions(loaded), contribution_inputs(loaded), contribution_outputs(loaded)),
             "vector": (SentenceVector(loaded), [step(HIDDEN_STATES, 1)], ["vector"]),
             "stream": (Stream(), [step(HIDDEN_STATES, 1)], ["cosines", "lengths"])}
    if narrower_table(loaded) is None:
        found["nearest"] = (NearestPieces(), nearest_inputs(loaded), ["ids", "cosines"])
    if compared:
        module = Similarity(loaded, list(compared))
        inputs = [step(HIDDEN_STATES, 1), *([step(POOLER_OUTPUT)] if "pooler" in module.ways else [])]
        found["similarity"] = (module, inputs, similarity_outputs(compared))
    return found


def example_of(loaded, feed: list, values: dict[str, torch.Tensor]) -> torch.Tensor:
    """An input's example: the sentence's value by its feed."""
    kind, *where = feed
    if kind == "weight":
        return getattr(loaded.base.get_submodule(where[0]), where[1]).detach().float()
    if kind == "given":
        return torch.tensor(1)
    return values[where[0]]


def write_graphs(loaded, values: dict[str, torch.Tensor], folder, described, compared: list = ()) -> dict[str, dict]:
    """Every analysis graph as ONNX in `folder`, any length from 2 tokens to the model's longest; `values`: an
    example sentence's run by name (its ids as "input_ids"); `described`: a written file's entry in the manifest;
    `compared`: the site's sentences to compare, traced as the sentence pipeline reads them. Gives each graph's
    manifest: its file, its inputs and where the browser gets each, its outputs."""
    manifest, graphs_of = {}, graphs(loaded, compared)
    for name, (module, inputs, outputs) in graphs_of.items():
        path = folder / f"{name}.onnx"
        export_graph(module, inputs, outputs, tuple(example_of(loaded, feed, values) for _, feed, _ in inputs), path)
        manifest[name] = {"graph": described(path), "inputs": {n: feed for n, feed, _ in inputs}, "outputs": outputs}
    manifest["contributions"].update(checks=contribution_checks(loaded), matrices=list(graphs_of["contributions"][0].matrices))
    return manifest


def export_graph(module: nn.Module, inputs: list[Input], outputs: list[str], examples: tuple, path) -> None:
    """`module` as ONNX at `path`, its tokens' axes any length. By PyTorch's TorchScript-based exporter, which it
    has deprecated for its torch.export-based one (export/every_step.py's): these graphs are plain tensor code
    without control flow, which tracing exports exactly, in about a second where the newer exporter takes 15 to 40
    (measured on the tiny BERT, 2 cores): a live site's export, and each test that writes one, would pay it."""
    import warnings

    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore", (DeprecationWarning, torch.jit.TracerWarning))
        torch.onnx.export(module.eval(), examples, str(path), input_names=[n for n, _, _ in inputs],
                          output_names=outputs, dynamo=False, opset_version=OPSET,
                          dynamic_axes={n: {axis: "tokens" for axis in axes} for n, _, axes in inputs if axes})

