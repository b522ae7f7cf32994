"""Cells explained and chapters told by the app, for the front end's recipe evaluator (frontend/test/recipe.test.js):
for every operation that has a recipe (ops/recipe.py), a few cells of its steps on the tiny models that have them,
each with its recipe, everything the recipe reads of the cell (its indices and head, its node, its arrays, its
module's numbers, the sentence's tokens, ids and mask) and what the app's evaluator (ops/working.py) worked out; and
every step's tour chapter of their first layers, each with its narration (ops/telling.py), what it reads of the step
and the sentences the app tells; and the questions those chapters and the residual stream's ask (ops/asking.py), on
the same models with sharper weights (so that their numbers decide them). The browser's evaluator must work out the
same."""
from __future__ import annotations

import tempfile

import numpy as np

FAMILIES = ("bert", "deberta-v2", "eurobert", "mpnet")  # between them, every operation that has a recipe
TEXT = "the bank of the river, and the bank"


def recipes_fixture() -> dict:
    import torch

    from bertviz_lite import load_model, trace
    from bertviz_lite.export.steps import graphs
    from bertviz_lite.asking import ASK_WORDS
    from bertviz_lite.ops.asking import CHOICES, FEWEST
    from tiny_models import save_tiny_model, sharpened

    cases, tellings, askings = [], [], []
    for family in FAMILIES:
        torch.manual_seed(0)
        saved = save_tiny_model(family, tempfile.mkdtemp(prefix=f"bvl-{family}-"))
        t = trace(load_model(saved), TEXT)
        for graph in (g for g in graphs(t) if g.layer in (None, 0)):  # the other layers repeat the first's ops
            for node in graph:
                if node.op.recipe is not None:
                    cases += [_case(t, graph, node, head, at) for head, at in _cells(t, graph, node)]
                tellings += [_telling(t, graph, node, head, token) for head in (0, t.num_heads - 1) for token in (1, 4)]
        askings += _askings(trace(sharpened(load_model(saved)), TEXT))
    return {"cases": cases, "ops": sorted({c["op"] for c in cases}), "tellings": tellings,
            "narrators": sorted({c["narrator"] for c in tellings}), "askings": askings,
            "asking": {"words": ASK_WORDS, "choices": CHOICES, "fewest": FEWEST}}  # as a site's data.js has them


def _askings(t) -> list[dict]:
    """Every question of the trace's first layer's chapters and of its residual stream's, for two heads and every
    token, with what it reads and the question the app asks (None where the numbers decide none)."""
    from bertviz_lite.export.steps import packed
    from bertviz_lite.ops.asking import asked
    from bertviz_lite.tour import chapters
    from bertviz_lite.tour.narration import Stream, chapter_step
    from bertviz_lite.tour.questions import STREAM_ASKING, step_asking

    found = []
    for chapter in chapters(t, 0):
        for head in (0, t.num_heads - 1):
            for token in range(len(t.tokens)):
                if chapter.kind == "stream" and head == 0:
                    s = Stream(t, token)
                    s.cosines = s.cosines.astype(np.float32).astype(np.float64)  # as the fixture hands them over
                    found.append({"asking": STREAM_ASKING.to_json(), "chosen": token, "tokens": list(t.tokens),
                                  "cosines": packed(s.cosines), "lengths": packed(s.lengths),
                                  "asked": _json(asked(STREAM_ASKING, s))})
                if chapter.kind != "step":
                    continue
                s = chapter_step(t, chapter, head, token)
                asking = step_asking(t, s.graph, s.node)
                if asking is not None:
                    found.append({"asking": asking.to_json(), "step": chapter.step, "array": packed(s.array),
                                  "inputs": [packed(s.input(k)) for k in range(len(s.node.inputs))], "head": s.head,
                                  "chosen": token, "where": s.where, "heads": t.num_heads, "tokens": list(t.tokens),
                                  "asked": _json(asked(asking, s))})
    return found


def _json(question):
    return None if question is None else question.to_json()


def _telling(t, graph, node, head: int, token: int) -> dict:
    """A step's chapter told, as tour/narration.py narrate tells it, with what its narration reads."""
    from bertviz_lite.export.steps import packed
    from bertviz_lite.ops.working import told
    from bertviz_lite.tour.narration import Step, telling_of

    name = graph.name(node.key)
    array = t.cache[name]
    s = Step(t, graph, node, array, head, token, "In layer 0")
    telling = telling_of(t, graph, node)
    return {"narrator": node.op.narrate.__name__, "step": name, "telling": telling.to_json(),
            "array": packed(array), "inputs": [packed(s.input(k)) for k in range(len(node.inputs))],
            "head": s.head, "chosen": token, "where": s.where, "heads": t.num_heads, "tokens": list(t.tokens),
            "told": told(telling, s)}


def _cells(t, graph, node) -> list:
    """The first, the middle and the last cell, in the first head and the last."""
    array = t.values(graph, [node.key])[node.key]
    shape = array.shape[1:] if node.has_head_axis else array.shape
    heads = sorted({0, array.shape[0] - 1}) if node.has_head_axis else [None]
    corners = sorted({tuple(0 for _ in shape), tuple(n // 2 for n in shape), tuple(n - 1 for n in shape)})
    return [(head, at) for head in heads for at in corners]


def _case(t, graph, node, head, at) -> dict:
    from bertviz_lite.explaining.cell import Cell
    from bertviz_lite.ops.working import worked_out
    from bertviz_lite.export.steps import packed

    module = None if node.module is None else t.loaded.base.get_submodule(node.module)
    recipe = node.op.recipe(node, graph, module)
    read = {name: graph_array(t, graph, name) for name in (*node.inputs, node.key)}
    read.update({n: graph_array(t, graph, n) for n in _sources(recipe.to_json())})
    worked = worked_out(recipe, Cell(t, graph, node, head, tuple(at)))  # the recipe's own (the app adds a row)
    return {"op": node.op.name, "recipe": recipe.to_json(), "at": list(at), "head": head,
            "node": {"inputs": list(node.inputs), "module": node.module, "attrs": plain(node.attrs)},
            "arrays": {name: packed(array) for name, array in read.items()}, "step": node.key,
            "axes": list(node.axes),
            "tokens": list(t.tokens), "ids": {k: getattr(t.token_data(), k).tolist() for k in
                                              ("input_ids", "token_type_ids", "position_ids")},
            "mask": t.token_data().attention_mask.tolist(), "module": _module_numbers(t, node, module),
            "worked": {"formula": worked.formula, "recomputed": worked.recomputed, "labels": worked.labels,
                       "terms": [[label, float(v)] for label, v in worked.terms],
                       "inputs": plain(worked.inputs), "figure": plain(worked.figure)}}


def plain(value):
    """numpy's numbers and arrays as JSON's (tuples as lists)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [plain(v) for v in value]
    return value.item() if isinstance(value, np.generic) else value


def graph_array(t, graph, name: str) -> np.ndarray:
    """A step of the graph by its key, or what the block reads from outside it (a layer's input), as the cell
    reads it."""
    return t.values(graph, [name])[name] if name in graph else t.given(name).numpy()


def _sources(tree) -> set:
    """The in-block steps a recipe reads by name (`source`)."""
    if not isinstance(tree, (list, dict)):
        return set()
    found = set()
    items = tree.values() if isinstance(tree, dict) else tree
    if isinstance(tree, list) and len(tree) == 2 and tree[0] == "source" and isinstance(tree[1], str):
        found.add(tree[1])
    for item in items:
        found |= _sources(item)
    return found


def _module_numbers(t, node, module) -> dict:
    from bertviz_lite.export.steps import packed
    from bertviz_lite.ops import NORMS
    from bertviz_lite.ops.norms import norm_eps

    if module is None:
        return {}
    numbers = {"weight": None if getattr(module, "weight", None) is None else packed(module.weight),
               "bias": None if getattr(module, "bias", None) is None else packed(module.bias),
               "function": node.attr("function", type(module).__name__)}
    if node.op in NORMS:
        numbers["eps"] = norm_eps(module)
    if node.attr("inv_freq"):
        numbers["buffers"] = {node.attr("inv_freq"): packed(getattr(module, node.attr("inv_freq")))}
    if node.attr("ids"):
        ids = getattr(t.token_data(), node.attr("ids")).tolist()
        numbers["table"] = {"ids": ids, "rows": packed(module.weight[ids])}
    return numbers
