"""Interventions against an independent computation on transformers' own modules, on every family: a head switched
off (a pre-hook zeroes the head's slice of the output projection's input), a value zeroed (a hook zeroes the token's
row of the value projection's output), a token masked (transformers' model run on the changed ids)."""
import dataclasses

import numpy as np
import pytest
import torch

from bertviz_lite import trace
from bertviz_lite.closeness import SAME_SUM
from bertviz_lite.errors import InputError
from bertviz_lite.intervening.edits import Edits, parse_edits
from bertviz_lite.intervening.run import cosine_distances, intervene
from bertviz_lite.ops import LINEAR, MERGE_HEADS

TEXT = "the cat sat on the mat and the dog sat on the rug"


@pytest.fixture(scope="module")
def every_family(tiny_loaded, new_tiny_loaded):
    return {**tiny_loaded, **new_tiny_loaded}


FAMILIES = ["bert", "roberta", "distilbert", "albert", "electra", "xlm-roberta", "camembert", "mpnet", "deberta-v2",
            "modernbert", "eurobert", "nomic_bert", "gte", "jina_embeddings_v3"]


def output_projection(t, layer: int):
    """The graph node that applies the attention's output projection to the merged heads."""
    graph = t.graph("layers", layer)
    return next(n for n in graph if n.op is LINEAR and n.inputs[0] in graph and graph.node(n.inputs[0]).op is MERGE_HEADS)


def module_uses_before(t, layer: int, key_of) -> int:
    """How often layer `layer`'s module ran in the layers before it (ALBERT runs one layer's modules every time)."""
    name = key_of(t, layer).module
    return sum(key_of(t, k).module == name for k in range(layer))


def transformers_states(t, ids=None, hooks=()) -> np.ndarray:
    """(L + 1, T, d): transformers' own forward of the base model with `hooks` (module, kind, function) installed."""
    loaded = t.loaded
    inputs = {"input_ids": torch.from_numpy(t.input_ids if ids is None else ids)[None],
              "attention_mask": torch.from_numpy(t.attention_mask)[None]}
    if loaded.uses_token_types:
        inputs["token_type_ids"] = torch.from_numpy(t.token_type_ids)[None]
    handles = [getattr(loaded.base.get_submodule(name), f"register_forward_{kind}")(hook)
               for name, kind, hook in hooks]
    try:
        with torch.inference_mode():
            out = loaded.base(**inputs, output_hidden_states=True)
    finally:
        for handle in handles:
            handle.remove()
    return torch.stack(out.hidden_states)[:, 0].numpy()


def on_call(number: int, change):
    """A hook that changes only the `number`-th call of its module (counting from 0)."""
    calls = [0]

    def hook(module, args, *output):
        calls[0] += 1
        return change(args, *output) if calls[0] - 1 == number else None

    return hook


def head_off_hook(t, layer: int, head: int):
    node = output_projection(t, layer)
    d_h = t.cache[f"layers.{layer}.attn.head_context"].shape[-1]

    def zero_head(args):
        x = args[0].clone()
        x[..., head * d_h:(head + 1) * d_h] = 0
        return (x, *args[1:])

    return node.module, "pre_hook", on_call(module_uses_before(t, layer, output_projection), zero_head)


def value_node(t, layer: int):
    return t.graph("layers", layer).node("attn.v")


def value_zero_hook(t, layer: int, token: int):
    node = value_node(t, layer)
    rows = node.attr("rows")

    def zero_value(args, output):
        output = output.clone()
        if rows is None:
            output[..., token, :] = 0
        else:
            output[..., token, rows[0]:rows[1]] = 0
        return output

    return node.module, "hook", on_call(module_uses_before(t, layer, value_node), zero_value)


@pytest.mark.parametrize("name", FAMILIES)
def test_a_head_switched_off_equals_zeroing_its_slice_of_the_output_projections_input(every_family, name):
    t = trace(every_family[name], TEXT)
    layer, head = 1, t.num_heads - 1  # with grouped queries, a query head that shares its key/value head
    run = intervene(t, Edits(heads_off=((layer, head),)))
    expected = transformers_states(t, hooks=[head_off_hook(t, layer, head)])
    SAME_SUM.assert_close(run.trace.hidden_states, expected)
    assert run.first_changed_layer == layer and run.shift[: layer + 1].max() == 0 and run.shift[layer + 1].max() > 0
    np.testing.assert_allclose(run.shift, cosine_distances(t.hidden_states, expected), atol=1e-4)
    assert np.abs(run.trace.layer(layer)["attn.head_context"][head]).max() == 0


@pytest.mark.parametrize("name", FAMILIES)
def test_a_value_zeroed_equals_zeroing_the_value_projections_row(every_family, name):
    t = trace(every_family[name], TEXT)
    layer, token = 2 if t.num_layers > 2 else 1, 3
    run = intervene(t, Edits(zeroed=((layer, token),)))
    expected = transformers_states(t, hooks=[value_zero_hook(t, layer, token)])
    SAME_SUM.assert_close(run.trace.hidden_states, expected)
    assert run.shift[: layer + 1].max() == 0 and run.shift[layer + 1].max() > 0


@pytest.mark.parametrize("name", FAMILIES)
def test_a_masked_token_equals_transformers_on_the_changed_ids(every_family, name):
    t = trace(every_family[name], TEXT)
    run = intervene(t, Edits(masked=(2,)))
    ids = t.input_ids.copy()
    ids[2] = t.loaded.tokenizer.mask_token_id
    SAME_SUM.assert_close(run.trace.hidden_states, transformers_states(t, ids))
    assert run.trace.tokens[2] == t.loaded.tokenizer.mask_token and run.first_changed_layer == 0
    assert run.shift[0, 2] > 0 and run.shift[0, 0] < 1e-6  # the embeddings change at the masked position only


def test_several_edits_at_once_on_bert(every_family):
    t = trace(every_family["bert"], TEXT)
    edits = parse_edits(off="1.0,2.3", mask="4", zero="0:5")
    run = intervene(t, edits)
    ids = t.input_ids.copy()
    ids[4] = t.loaded.tokenizer.mask_token_id
    hooks = [head_off_hook(t, 1, 0), head_off_hook(t, 2, 3), value_zero_hook(t, 0, 5)]
    SAME_SUM.assert_close(run.trace.hidden_states, transformers_states(t, ids, hooks))


def test_the_intervened_run_is_a_trace_the_stepper_reads(every_family):
    t = trace(every_family["deberta-v2"], TEXT)
    run = intervene(t, parse_edits(off="1.2", zero="1:3"))
    steps = run.trace.layer(1)
    expected = transformers_states(t, hooks=[head_off_hook(t, 1, 2), value_zero_hook(t, 1, 3)])
    SAME_SUM.assert_close(steps[steps.graph.output.key], expected[2])  # the stepper's own layer
    assert np.abs(steps["attn.head_context"][2]).max() == 0
    from bertviz_lite import explain

    cell = explain(run.trace, "layers.1.attn.head_context", head=0, at=(4, 1))
    assert "value zeroed" in " ".join(label for label, _ in cell.terms)
    assert abs(cell.recomputed - float(steps["attn.head_context"][0, 4, 1])) < 1e-5
    assert explain(run.trace, "layers.1.attn.head_context", head=2, at=(4, 1)).recomputed == 0.0
    # the layers before the intervention are the sentence's own
    np.testing.assert_array_equal(run.trace.layer(0)["attn.probs"], t.layer(0)["attn.probs"])


@pytest.mark.parametrize("off,mask,zero,message", [
    ("99.0", "", "", "no layer 99"), ("0.99", "", "", "no head 99"), ("abc", "", "", "'abc' cannot be read: write a head"),
    ("", "-1", "", "no token -1"), ("", "x", "", "not a whole number"), ("", "", "1:999", "no token 999"),
    ("", "", "1", "'1' cannot be read: write a value"), ("", "", "", "Choose an intervention")])
def test_bad_edits_say_what_is_wrong(every_family, off, mask, zero, message):
    t = trace(every_family["bert"], TEXT)
    with pytest.raises(InputError, match=message):
        intervene(t, parse_edits(off, mask, zero))


@pytest.mark.parametrize("name", FAMILIES)
def test_value_zeroing_equals_a_hook_on_the_value_projection_token_by_token(every_family, name):
    from bertviz_lite.intervening.value_zeroing import value_zeroing

    t = trace(every_family[name], TEXT)
    layer = 1
    ours = value_zeroing(t, layer)
    T = len(t.tokens)
    expected = np.stack([cosine_distances(t.hidden_states[layer + 1], transformers_states(
        t, hooks=[value_zero_hook(t, layer, j)])[layer + 1]) for j in range(T)], axis=1)  # [i, j]
    expected /= expected.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(ours, expected, atol=1e-4)
    np.testing.assert_allclose(ours.sum(axis=1), 1.0, atol=1e-9)


def test_value_zeroing_in_chunks_equals_one_batch(every_family, monkeypatch):
    from bertviz_lite.intervening import value_zeroing as module

    t = trace(every_family["modernbert"], TEXT)
    whole = module.value_zeroing(t, 1)
    monkeypatch.setattr(module, "CHUNK_FLOATS", 1)  # one zeroed token at a time
    np.testing.assert_allclose(module.value_zeroing(t, 1), whole, atol=1e-9)


@pytest.mark.parametrize("name", FAMILIES)
def test_value_zeroing_past_the_norm_equals_running_the_feed_forwards_first_maps(every_family, name, monkeypatch):
    """The linear maps after the layer's first norm, applied to the parts of its input (`past_the_norm`), give the
    map that running them on every variant gives; every family's layer is built so that they can."""
    from bertviz_lite.intervening import value_zeroing as module
    from bertviz_lite.intervening.past_the_norm import past_the_norm

    t = trace(every_family[name], TEXT)
    found = past_the_norm(t.graph("layers", 1), "attn.out")
    assert found is not None and {n.key for n in found.linears} <= {"ffn.in", "ffn.gate"} and found.linears
    assert module.worth_it(len(t.tokens), t.attention(1).shape[0])  # the shortcut is taken
    shortcut = module.value_zeroing(t, 1)
    monkeypatch.setattr(module, "worth_it", lambda tokens, heads: False)
    np.testing.assert_allclose(shortcut, module.value_zeroing(t, 1), rtol=2e-4, atol=1e-8)  # float32 rounding, summed in another order


def test_no_shortcut_past_a_norm_whose_input_is_not_the_change_plus_what_the_variants_share(every_family):
    from bertviz_lite.intervening.past_the_norm import past_the_norm

    graph = trace(every_family["bert"], TEXT).graph("layers", 1)
    twice = [dataclasses.replace(n, inputs=("attn.out", "attn.out")) if n.key == "attn.residual" else n
             for n in graph.nodes]  # x + x: both read the change
    assert past_the_norm(dataclasses.replace(graph, nodes=twice), "attn.out") is None
    no_linear = [n for n in graph.nodes if n.key not in ("ffn.in", "ffn.act", "ffn.out", "ffn.residual", "ffn.norm")]
    assert past_the_norm(dataclasses.replace(graph, nodes=no_linear), "attn.out") is None


def test_value_zeroing_rollout_multiplies_the_maps_as_the_papers_code():
    from bertviz_lite.intervening.value_zeroing import value_zeroing_rollout

    maps = np.random.default_rng(0).random((3, 4, 4))
    rolled = value_zeroing_rollout(maps)
    np.testing.assert_allclose(rolled[2], maps[2] @ maps[1] @ maps[0])


@pytest.mark.parametrize("name", ["bert", "modernbert", "eurobert", "deberta-v2"])
def test_the_masked_lm_predictions_after_masking_equal_transformers_masked_lm_model(tiny_dirs, new_tiny_dirs, name):
    from bertviz_lite import load_model
    from bertviz_lite.analyses.output_change import output_change
    from bertviz_lite.analyses.pieces import piece_names

    loaded = load_model({**tiny_dirs, **new_tiny_dirs}[name], "masked-lm")
    t = trace(loaded, TEXT)
    change = output_change(t, intervene(t, Edits(masked=(3,))).trace)
    ids = t.input_ids.copy()
    ids[3] = loaded.tokenizer.mask_token_id
    inputs = {"input_ids": torch.from_numpy(ids)[None], "attention_mask": torch.from_numpy(t.attention_mask)[None]}
    with torch.inference_mode():
        best = torch.softmax(loaded.model(**inputs).logits[0, 3], -1).topk(5)
    assert change.position == 3 and change.mlm_problem is None
    assert [w for w, _ in change.after] == piece_names(loaded.tokenizer, best.indices.tolist())
    np.testing.assert_allclose([p for _, p in change.after], best.values.numpy(), atol=1e-5)


def test_value_zeroing_of_an_intervened_layer_leaves_out_what_the_run_left_out(every_family):
    """On an intervened run whose layer has a head off and a value zeroed, entry (i, j) is the distance between
    token i's output of the run and of the run with token j's value zeroed as well (`intervene` is checked against
    transformers above)."""
    from bertviz_lite.intervening.value_zeroing import value_zeroing

    t = trace(every_family["eurobert"], TEXT)
    off, zeroed = ((1, 3),), ((1, 4),)
    run = intervene(t, Edits(heads_off=off, zeroed=zeroed))
    T = len(t.tokens)
    expected = np.stack([cosine_distances(run.trace.hidden_states[2], intervene(
        t, Edits(heads_off=off, zeroed=tuple(sorted({*zeroed, (1, j)})))).trace.hidden_states[2]) for j in range(T)], 1)
    expected /= expected.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(value_zeroing(run.trace, 1), expected, atol=1e-5)


def test_the_masked_lm_position_is_the_one_masked_even_after_the_texts_own_mask(tiny_dirs):
    from bertviz_lite import load_model
    from bertviz_lite.analyses.output_change import output_change

    loaded = load_model(tiny_dirs["bert"], "masked-lm")
    t = trace(loaded, "the [MASK] sat on the mat")
    assert output_change(t, intervene(t, Edits(masked=(4,))).trace).position == 4
    assert output_change(t, intervene(t, Edits(heads_off=((0, 1),))).trace).position == 2  # the text's own
