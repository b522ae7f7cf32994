"""Every family's blocks as graphs of named operations: the inputs exist, the graphs join up, each node's operation
run on its inputs alone gives its sub-step, each module a node applies gives in transformers' own forward what the
step-through computed (the packages' layers: test_package_shape.py)."""
import numpy as np
import pytest
import torch

from bertviz_lite import BUNDLED_MODEL, load_model, trace
from bertviz_lite.graph.names import is_step_name
from bertviz_lite.ops import ACTIVATION, INPUT, LAYER_NORM, LINEAR, LOOKUP, split_heads
from tiny_models import FAMILY_SPECS, NEW_FAMILY_SPECS

TEXT, PAIR = "the cat sat on the mat this is a test sentence", "the dog sat on the river bank"
MODELS = [*FAMILY_SPECS, *NEW_FAMILY_SPECS, "bundled"]


@pytest.fixture(scope="module")
def models(tiny_loaded, new_tiny_loaded):
    return {**tiny_loaded, **new_tiny_loaded, "bundled": load_model(BUNDLED_MODEL)}


def blocks(t):
    graphs = [t.graph("embed"), t.graph("positions"), *(t.graph("layers", i) for i in range(t.num_layers)),
              t.graph("pooler")]
    return [g for g in graphs if g is not None]


@pytest.mark.parametrize("name", MODELS)
def test_inputs_come_before_and_the_blocks_join_up(models, name):
    loaded = models[name]
    t = trace(loaded, TEXT, PAIR)
    parameters = {n for n, _ in loaded.base.named_parameters()} | {n for n, _ in loaded.base.named_buffers()}
    for graph in blocks(t):
        seen = set()
        for node in graph:
            for source in node.inputs:
                assert source in seen or (source not in graph and is_step_name(source)), (graph.name(node.key), source)
                if source not in graph:
                    assert source in t.cache  # a step this model has
            assert set(node.params) <= parameters, node.params
            seen.add(node.key)
    for i in range(t.num_layers):
        layer = t.graph("layers", i)
        assert layer.keys[0] == "input" and layer.node("input").op is INPUT
        before = t.graph("embed") if i == 0 else t.graph("layers", i - 1)
        assert layer.node("input").inputs == (before.name(before.output.key),)  # reads the block before's output
        assert t.layer(i).holds  # the last node is the layer's output: hidden_states[i + 1]
    pooler = t.graph("pooler")
    if pooler is not None:
        last = t.graph("layers", t.num_layers - 1)
        assert pooler.node("dense").inputs == (last.name(last.output.key),)


@pytest.mark.parametrize("name", MODELS)
def test_each_operation_on_its_inputs_alone_gives_its_step(models, name):
    """Every node computed again from the stored values of its inputs, nothing else: the graph says all it reads."""
    loaded = models[name]
    t = trace(loaded, TEXT, PAIR)
    tokens = t.token_data()
    for graph in blocks(t):
        values = t.values(graph)
        for node in graph:
            if node.op is INPUT:
                continue
            inputs = [torch.from_numpy(values[s]) if s in graph else t.given(s) for s in node.inputs]
            module = loaded.base.get_submodule(node.module) if node.module else None
            with torch.inference_mode():
                again = node.op.compute(node, inputs, module, tokens).numpy()
            np.testing.assert_allclose(again, values[node.key], rtol=1e-6, atol=1e-6, err_msg=graph.name(node.key))


def _as_node_output(node, output: torch.Tensor) -> np.ndarray:
    """A module's own output in transformers' forward, as the node shows it: its rows, its heads, no batch."""
    out = output[0] if output.dim() > 1 and output.shape[0] == 1 else output  # the batch of one dropped
    rows = node.attr("rows")
    if rows is not None:
        out = out[..., rows[0]:rows[1]]
    if node.attr("heads") is not None:
        out = split_heads(out, node.attr("heads"))
    return out.numpy()


@pytest.mark.parametrize("name", MODELS)
def test_every_module_a_node_applies_gives_that_step_in_transformers_own_forward(models, name):
    """Hooks on the model's modules during transformers' own forward: each linear map, LayerNorm, activation and
    table look-up of every block gave, on one of its calls, exactly the sub-step the graph computes with it."""
    loaded = models[name]
    t = trace(loaded, TEXT, PAIR)
    checked = [(g, n) for g in blocks(t) for n in g if n.op in (LINEAR, LAYER_NORM, ACTIVATION, LOOKUP)]
    calls: dict[str, list[torch.Tensor]] = {}
    handles = []
    for module_name in {n.module for _, n in checked}:
        module = loaded.base.get_submodule(module_name)
        handles.append(module.register_forward_hook(
            lambda m, args, out, key=module_name: calls.setdefault(key, []).append(out.detach().clone())))
    inputs = {"input_ids": torch.from_numpy(t.input_ids)[None],
              "attention_mask": torch.from_numpy(t.attention_mask)[None]}
    if loaded.uses_token_types:
        inputs["token_type_ids"] = torch.from_numpy(t.token_type_ids)[None]
    try:
        with torch.inference_mode():
            loaded.base(**inputs)
    finally:
        for handle in handles:
            handle.remove()
    for graph, node in checked:
        ours = t.cache[graph.name(node.key)]
        theirs = [_as_node_output(node, out) for out in calls[node.module]]
        assert any(a.shape == ours.shape and np.allclose(a, ours, atol=1e-5) for a in theirs), graph.name(node.key)
