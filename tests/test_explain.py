"""Explaining one cell, for every operation of every family and the bundled real model: the explanation computes
the stored value again from the numbers it shows, its terms add up, and the numbers it shows are those of the
steps it names (themselves checked against transformers in test_graph.py and test_families.py)."""
import numpy as np
import pytest

from bertviz_lite import BUNDLED_MODEL, InputError, load_model, trace
from bertviz_lite.explaining import explain
from bertviz_lite.figures.explanation import DRAWN
from bertviz_lite.ops import Figure

from tiny_models import FAMILY_SPECS, NEW_FAMILY_SPECS

TEXT, PAIR = "the cat sat on the mat this is a test sentence", "the dog sat on the river bank"
MODELS = [*FAMILY_SPECS, *NEW_FAMILY_SPECS, "bundled"]
TOLERANCE = 1e-5  # relative, for values above 1


@pytest.fixture(scope="module")
def models(tiny_loaded, new_tiny_loaded):
    return {**tiny_loaded, **new_tiny_loaded, "bundled": load_model(BUNDLED_MODEL)}


def cells(shape, seed):
    """A few cells of an array of this shape (head axis excluded): the first, the last and one drawn at random."""
    rng = np.random.default_rng(seed)
    return {tuple(0 for _ in shape), tuple(n - 1 for n in shape), tuple(int(rng.integers(n)) for n in shape)}


def close(a, b):
    return abs(a - b) <= TOLERANCE * max(1.0, abs(b))


def check_inputs(t, graph, node, e):
    """The named inputs are the numbers of the steps the node reads."""
    source = lambda k: t.cache[graph.name(node.inputs[k])] if node.inputs[k] in graph else t.given(  # noqa: E731
        node.inputs[k]).numpy()
    h = e.head
    shared = lambda k: h // (source(0).shape[0] // source(k).shape[0])  # noqa: E731  repeat_kv's key/value head
    if e.op == "linear":
        t_ = node.attr("token") if node.attr("token") is not None else e.at[0]
        np.testing.assert_allclose(e.inputs["x"], source(0)[t_], rtol=1e-6, atol=1e-7)
    elif e.op == "scaled_dot":
        i, j = e.at
        np.testing.assert_allclose(e.inputs["query"], source(0)[h, i], rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(e.inputs["key"], source(1)[shared(1), j], rtol=1e-6, atol=1e-7)
    elif e.op == "mask":
        i, j = e.at
        for k, name in enumerate(node.inputs):
            if name in graph and graph.node(name).op.name == "scaled_dot":
                dot = graph.node(name)
                np.testing.assert_allclose(e.inputs["query"], t.cache[graph.name(dot.inputs[0])][h, i], rtol=1e-6)
                keys = t.cache[graph.name(dot.inputs[1])]
                queries = t.cache[graph.name(dot.inputs[0])]
                np.testing.assert_allclose(e.inputs["key"], keys[h // (len(queries) // len(keys)), j], rtol=1e-6)
            else:
                assert close(dict(e.terms)[name], float(source(k)[h, i, j]))
    elif e.op == "softmax":
        np.testing.assert_allclose(e.inputs["scores_row"], source(0)[h, e.at[0]], rtol=1e-6)
    elif e.op == "weighted_sum":
        i, d = e.at
        np.testing.assert_allclose(e.inputs["probs_row"], source(0)[h, i], rtol=1e-6)
        np.testing.assert_allclose(e.inputs["values"], source(1)[shared(1), :, d], rtol=1e-6, atol=1e-7)
    elif e.op in ("layer_norm", "rms_norm"):
        np.testing.assert_allclose(e.inputs["x"], source(0)[e.at[0]], rtol=1e-6, atol=1e-7)
    elif e.op == "activation":
        assert close(e.inputs["pre"], float(source(0)[(h,) + e.at if h is not None else e.at]))
    elif e.op == "gated_activation":
        assert close(e.inputs["pre"], float(source(0)[e.at])) and close(e.inputs["gate"], float(source(1)[e.at]))
    elif e.op == "rotation":
        x, half = source(0)[h, e.at[0]], source(0).shape[-1] // 2
        pair = e.at[1] % half
        np.testing.assert_allclose(e.inputs["pair"], [x[pair], x[pair + half]], rtol=1e-6, atol=1e-7)
        assert close(e.inputs["angle"], float(source(1)[e.at[0], pair]))
    elif e.op in ("residual_add", "add"):
        for k, name in enumerate(node.inputs):
            assert close(dict(e.terms)[name], float(source(k)[e.at]))
    elif e.op == "relative_dot":
        i, j = e.at
        content = source(0)
        vector = e.inputs["query"] if node.attr("direction") == "c2p" else e.inputs["key"]
        np.testing.assert_allclose(vector, content[h, i if node.attr("direction") == "c2p" else j], rtol=1e-6)


@pytest.mark.parametrize("name", MODELS)
def test_every_step_of_every_block_explains_its_cells(models, name):
    t = trace(models[name], TEXT, PAIR)
    graphs = [t.graph("embed"), t.graph("positions"), t.graph("layers", 0), t.graph("layers", t.num_layers - 1),
              t.graph("pooler")]
    ops = set()
    for graph in (g for g in graphs if g is not None):
        for n, node in enumerate(graph):
            array = t.cache[graph.name(node.key)]
            headed = node.has_head_axis
            for at in cells(array.shape[1:] if headed else array.shape, seed=n):
                e = explain(t, graph.name(node.key), array.shape[0] - 1 if headed else None, at)
                where = (e.step, e.head, e.at, e.formula)
                assert close(e.value, float(array[(e.head, *at) if headed else at])), where
                assert close(e.recomputed, e.value), where  # computed again from what it shows
                if e.terms:
                    assert close(sum(v for _, v in e.terms), e.value), where  # the terms add up
                check_inputs(t, graph, node, e)
                assert e.to_json()["abs_diff"] == e.abs_diff and len(e.frame()) >= len(e.terms) + 2
                ops.add(e.op)
    expected = {"lookup", "linear", "scaled_dot", "mask", "softmax", "weighted_sum", "merge_heads", "residual_add",
                "input"}
    assert expected <= ops and ops & {"layer_norm", "rms_norm"}, expected - ops


def test_every_operation_has_each_part(models):
    """Across the families, every operation a graph uses holds its computation, its explanation of a cell and its
    narration; every shared operation brings its own account of a cell (a family's own op may be computed again
    whole, the default), and the figure it names is one the explanation figure draws."""
    from bertviz_lite.ops import COMMON_OPS
    from bertviz_lite.ops.record import Op

    used = {}
    for name in MODELS:
        t = trace(models[name], TEXT)
        for graph in (t.graph("embed"), t.graph("positions"), *(t.graph("layers", i) for i in range(t.num_layers)),
                      t.graph("pooler")):
            used |= {n.op.name: n.op for n in graph or ()}
    for op in used.values():
        assert op.meaning and all(callable(part) for part in (op.compute, op.explain, op.narrate)), op
        assert op.drawn_as is None or op.drawn_as in DRAWN, op  # a kind of figure the explanation figure draws
    assert set(DRAWN) == set(Figure)
    assert all(op.explain is not Op.explain for op in COMMON_OPS), [op for op in COMMON_OPS if op.explain is Op.explain]
    assert set(used) - {op.name for op in COMMON_OPS} == {"relative_positions", "relative_buckets"}  # the families'
    assert used["relative_buckets"].explain is not Op.explain  # MPNet's own op brings its own explanation
    assert {"rotation", "rotary_angles", "gated_activation", "relative_dot", "gather_bias", "parameter"} <= set(used)


def test_a_score_is_its_dot_product_terms_plus_each_added_term_and_the_mask(models):
    bert, mpnet, deberta = (trace(models[m], TEXT) for m in ("bert", "mpnet", "deberta-v2"))
    e = explain(bert, "layers.1.attn.scores", head=2, at=(4, 1))
    d_h = bert.cache["layers.1.attn.q"].shape[-1]
    assert len(e.terms) == d_h + 1 and e.terms[-1] == ("mask", 0.0)
    assert set(e.inputs) >= {"query", "key", "scale"} and e.inputs["scale"] == pytest.approx(np.sqrt(d_h))
    m = explain(mpnet, "layers.1.attn.scores", head=2, at=(4, 1))
    assert [label for label, _ in m.terms[-2:]] == ["attn.position_bias", "mask"]
    d = explain(deberta, "layers.1.attn.scores", head=2, at=(4, 1))
    assert [label for label, _ in d.terms[-3:]] == ["attn.c2p", "attn.p2c", "mask"]
    c2p = explain(deberta, "layers.1.attn.c2p", head=2, at=(9, 1))
    assert c2p.inputs["distance"] == int(deberta.cache["positions.relative_positions"][9, 1])
    assert close(sum(v for _, v in d.terms[:-3]), float(deberta.cache["layers.1.attn.c2c"][2, 4, 1]))


def test_a_masked_score_says_so(models):
    """A local ModernBERT layer masks far keys: the mask term is the most negative float and the softmax gives 0."""
    t = trace(models["modernbert"], TEXT)
    e = explain(t, "layers.1.attn.scores", head=0, at=(9, 0))
    assert e.terms[-1][0] == "mask" and e.terms[-1][1] < -1e38 and "−∞" in e.formula
    assert close(e.recomputed, e.value)
    p = explain(t, "layers.1.attn.probs", head=0, at=(9, 0))
    assert p.value == 0.0 and p.recomputed == 0.0


def test_a_softmax_and_a_layernorm_show_their_whole_row(models):
    t = trace(models["bundled"], TEXT)
    p = explain(t, "layers.0.attn.probs", head=2, at=(5, 4))
    row = np.asarray(p.inputs["scores_row"])
    assert p.recomputed == pytest.approx(np.exp(row[4] - row.max()) / np.exp(row - row.max()).sum())
    n = explain(t, "layers.0.attn.norm", at=(3, 17))
    x = np.asarray(n.inputs["x"])
    assert n.inputs["mean"] == pytest.approx(x.mean()) and n.inputs["var"] == pytest.approx(x.var())
    assert len(n.figure["before"]) == len(n.figure["after"]) == x.size


def test_position_keys_are_rows_of_distances_not_tokens(models):
    """DeBERTa's position keys have a row per relative distance (2k), more than a short sentence has tokens."""
    t = trace(models["deberta-v2"], "the cat sat")
    rows = t.cache["layers.0.attn.pos_key"].shape[1]
    assert rows > len(t.tokens)
    e = explain(t, "layers.0.attn.pos_key", head=1, at=(rows - 1, 2))
    assert close(e.recomputed, e.value) and e.labels["row"] == f"{rows - 1} (δ = {rows - 1 - rows // 2})"
    n = explain(t, "positions.rel_norm", at=(rows - 1, 2))
    assert close(n.recomputed, n.value) and "δ" in n.labels["row"]
    p2c = explain(t, "layers.0.attn.p2c", head=1, at=(2, 0))  # the query's offset from the key, as the row read
    assert p2c.inputs["distance"] == 2 and "Qʳ[δ = 2]" in p2c.formula


@pytest.mark.parametrize("step,head,at,needle", [
    ("layers.0.attn.nope", None, (0, 0), "not a sub-step name"),
    ("layers.9.attn.q", 0, (0, 0), "no layer 9"),
    ("layers.0.attn.c2p", 0, (0, 0), "no step attn.c2p"),
    ("layers.0.attn.scores", 0, (0, 99), "no key 99"),
    ("layers.0.attn.scores", 7, (0, 0), "no head 7"),
    ("layers.0.attn.scores", 0, (0, -1), "no key -1"),
    ("layers.0.attn.scores", 0, (1,), "2 indices per cell"),
    ("layers.0.ffn.out", 1, (0, 0), "no head axis"),
    ("layers.0.ffn.out", None, "2,x", "not one"),
    ("layers.0.ffn.out", None, "²,1", "not one"),
    ("layers.0.ffn.out", None, "1" * 5000 + ",1", "not one"),
    ("pooler.out", None, (0, 0), "1 index per cell"),
    ("encoder.relative_positions", None, (0, 0), "no positions steps"),
])
def test_bad_requests_get_a_message(models, step, head, at, needle):
    t = trace(models["bert"], "the cat sat")
    with pytest.raises(InputError, match=needle):
        explain(t, step, head, at)
