"""The model with every sub-step an output, as ONNX (export/every_step.py; issue 46's model for the browser), run by
onnxruntime in Python on sentences other than the one it was exported with, against the PyTorch trace: every
sub-step within 1e-4 + 1e-5·|x| (closeness.ANOTHER_ROUTE), whatever the sentence's length."""
from __future__ import annotations

import numpy as np
import pytest

from bertviz_lite import BUNDLED_MODEL, load_model, trace
from bertviz_lite.closeness import ANOTHER_ROUTE
from bertviz_lite.export.every_step import (HIDDEN_STATES, INPUTS, POOLER_OUTPUT, POSITION_IDS, block_graphs,
                                           example_inputs, write_onnx)
from tiers import sampled_families

ort = pytest.importorskip("onnxruntime")
EXAMPLE = "the bank of the river"
SENTENCES = ("a sentence with accents, café and naïve, and an emoji ☕ that was not exported",
             " ".join(["the old man walked slowly along the river bank while the children played"] * 8),  # 100+ tokens
             "hi")


def trace_steps(t) -> dict[str, np.ndarray]:
    """Every sub-step of the trace by its global name (each layer from the model's own input to it)."""
    found = {}
    for graph in block_graphs(t.loaded):
        steps = t.layer(graph.layer) if graph.block == "layers" else t._steps(graph, None)
        found.update((graph.name(key), steps[key]) for key in graph.keys if key in steps)
    return found


def differences(loaded, tmp_path, sentences) -> dict[str, dict[str, float]]:
    """Each sentence's largest |ONNX − trace| on every sub-step, as a fraction of its bound (closeness.ANOTHER_ROUTE:
    at most 1 where every element agrees)."""
    path = tmp_path / "every_step.onnx"
    names = write_onnx(loaded, trace(loaded, EXAMPLE), path)
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    out = {}
    for text in sentences:
        t = trace(loaded, text)
        feeds = {name: value.numpy() for name, value in zip(INPUTS, example_inputs(t))}
        computed = dict(zip(names, session.run(names, feeds)))
        expected = {**trace_steps(t), HIDDEN_STATES: t.hidden_states,  # and the model's own, which the checks read
                    POSITION_IDS: t.token_data().position_ids.numpy()}
        if t.pooler_output is not None:
            expected[POOLER_OUTPUT] = t.pooler_output
        assert set(computed) == {name for name in expected if not name.endswith(".input")}
        out[text] = {name: ANOTHER_ROUTE.excess(value, expected[name]) for name, value in computed.items()}
    return out


def test_the_bundled_models_every_sub_step_in_onnx_is_the_traces_for_other_sentences(tmp_path):
    loaded = load_model(BUNDLED_MODEL)
    found = differences(loaded, tmp_path, SENTENCES)
    assert len(trace(loaded, SENTENCES[1]).tokens) > 100
    for text, diffs in found.items():
        worst = max(diffs, key=diffs.get)
        assert diffs[worst] <= 1, f"{text[:30]}: {worst} is {diffs[worst]:.2f} of its bound from the trace"
        assert len(diffs) == 106  # 5 embedding steps, 16 per layer × 6, the pooler's 2; positions, the model's own 2


@pytest.mark.parametrize("family", sampled_families())
def test_each_familys_every_sub_step_in_onnx_is_the_traces(family, every_tiny_dir, tmp_path):
    found = differences(load_model(every_tiny_dir[family]), tmp_path, SENTENCES[:1])
    for text, diffs in found.items():
        worst = max(diffs, key=diffs.get)
        assert diffs[worst] <= 1, f"{family}: {worst} is {diffs[worst]:.2f} of its bound from the trace"
