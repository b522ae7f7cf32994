"""Parity of the step-through with transformers itself, for every family, plus inputs, truncation and threads."""
import threading

import numpy as np
import pytest
import torch

from bertviz_lite import InputError, load_model, trace
from bertviz_lite.closeness import SAME_SUM
from tiny_models import BERT_LAYER_KEYS, FAMILY_SPECS

TEXT, PAIR = "this is a test sentence", "the cat sat on the mat"


def model_outputs(loaded, t):
    """What transformers itself computes for the traced ids: hidden states, attentions, pooler."""
    inputs = {"input_ids": torch.from_numpy(t.input_ids)[None],
              "attention_mask": torch.from_numpy(t.attention_mask)[None]}
    if loaded.family.embedding_parts(loaded.base).token_type is not None:
        inputs["token_type_ids"] = torch.from_numpy(t.token_type_ids)[None]
    with torch.inference_mode():
        return loaded.base(**inputs, output_hidden_states=True, output_attentions=True)


@pytest.mark.parametrize("model_type", FAMILY_SPECS)
def test_step_through_matches_transformers(tiny_loaded, model_type):
    loaded = tiny_loaded[model_type]
    t = trace(loaded, TEXT, PAIR)
    ref = model_outputs(loaded, t)
    assert t.num_layers == loaded.config.num_hidden_layers == len(ref.attentions)
    assert t.embeddings().holds
    SAME_SUM.assert_close(t.embeddings().output, ref.hidden_states[0][0].numpy())
    for i in range(t.num_layers):
        steps = t.layer(i)
        assert steps.holds
        SAME_SUM.assert_close(steps["ffn.norm"], ref.hidden_states[i + 1][0].numpy())
        SAME_SUM.assert_close(steps["attn.probs"], ref.attentions[i][0].numpy())
    pooler = t.pooler()
    if getattr(ref, "pooler_output", None) is not None:
        assert pooler.holds
        SAME_SUM.assert_close(pooler["out"], ref.pooler_output[0].numpy())
    else:
        assert pooler is None


@pytest.mark.parametrize("model_type", FAMILY_SPECS)
def test_sub_steps_have_the_documented_shapes(tiny_loaded, model_type):
    loaded = tiny_loaded[model_type]
    steps = trace(loaded, TEXT).layer(0)
    T, d, h = len(steps["input"]), loaded.config.hidden_size, loaded.config.num_attention_heads
    ffn = loaded.config.intermediate_size if model_type != "distilbert" else loaded.config.hidden_dim
    expected = {"input": (T, d), "attn.q": (h, T, d // h), "attn.k": (h, T, d // h), "attn.v": (h, T, d // h),
                "attn.dots": (h, T, T), "attn.scores": (h, T, T), "attn.probs": (h, T, T),
                "attn.head_context": (h, T, d // h), "attn.context": (T, d), "attn.out": (T, d),
                "attn.residual": (T, d), "attn.norm": (T, d), "ffn.in": (T, ffn), "ffn.act": (T, ffn),
                "ffn.out": (T, d), "ffn.residual": (T, d), "ffn.norm": (T, d)}
    assert list(steps) == BERT_LAYER_KEYS
    assert {k: steps[k].shape for k in steps} == expected
    assert all(steps[k].dtype == np.float32 for k in steps)
    np.testing.assert_allclose(steps["attn.probs"].sum(-1), 1.0, atol=1e-5)
    assert steps.name("attn.probs") == "layers.0.attn.probs"


@pytest.mark.parametrize("model_type,extra", [("albert", "project"), ("electra", "project"),
                                              ("distilbert", None), ("roberta", None)])
def test_embedding_steps_follow_the_family(tiny_loaded, model_type, extra):
    steps = trace(tiny_loaded[model_type], TEXT).embeddings()
    keys = list(steps)
    assert keys[:2] == ["word", "position"] and "sum" in keys and "norm" in keys
    assert ("token_type" in keys) == (model_type != "distilbert")
    assert (keys[-1] == "project") == (extra == "project")


def test_a_wrong_layer_is_caught_by_the_check(tiny_dirs):
    """The check is not vacuous: a layer whose weights changed after the forward pass fails it."""
    loaded = load_model(tiny_dirs["bert"])  # a private copy: the shared fixture stays intact
    t = trace(loaded, TEXT)
    with torch.no_grad():
        loaded.model.encoder.layer[1].output.dense.weight[0].add_(0.5)  # one output unit: LayerNorm cannot undo it
    assert t.layer(0).holds
    assert t.layer(1).max_abs_diff > 1e-3 and not t.layer(1).holds  # the check the page shows fails


def test_pairs_get_token_types_and_sequence_ids(tiny_loaded):
    t = trace(tiny_loaded["bert"], TEXT, PAIR)
    assert t.tokens[0] == "[CLS]" and t.tokens.count("[SEP]") == 2
    sep = t.tokens.index("[SEP]")
    assert set(t.token_type_ids[: sep + 1]) == {0} and set(t.token_type_ids[sep + 1:]) == {1}
    assert t.sequence_ids[0] is None and t.sequence_ids[1] == 0 and t.sequence_ids[-2] == 1
    roberta = trace(tiny_loaded["roberta"], TEXT, PAIR)
    assert roberta.tokens[0] == "<s>" and "</s>" in roberta.tokens and roberta.tokens[-1] == "</s>"


def test_blank_pair_means_no_pair(tiny_loaded):
    t = trace(tiny_loaded["bert"], TEXT, "   ")
    assert t.pair is None and t.tokens.count("[SEP]") == 1


@pytest.mark.parametrize("text", ["", "   \n\t ", None])
def test_empty_text_is_a_clear_error(tiny_loaded, text):
    with pytest.raises(InputError, match="empty"):
        trace(tiny_loaded["bert"], text)


def test_long_text_is_truncated_with_a_notice(tiny_loaded):
    loaded = tiny_loaded["bert"]
    t = trace(loaded, " ".join(["the cat sat"] * 30))  # 90 words, 92 tokens with [CLS] and [SEP]
    assert len(t.tokens) == loaded.max_tokens == 40
    assert t.dropped_tokens == 92 - 40
    assert "92 tokens long" in t.notice and "the last 52 tokens were dropped" in t.notice
    assert t.layer(t.num_layers - 1).holds


def test_roberta_limit_leaves_room_for_its_position_offset(tiny_loaded):
    loaded = tiny_loaded["roberta"]
    assert loaded.max_tokens == loaded.config.max_position_embeddings - 2
    t = trace(loaded, " ".join(["cat"] * 100))
    assert len(t.tokens) == loaded.max_tokens and t.layer(0).holds


def test_emoji_and_cjk_trace_as_unknown_pieces(tiny_loaded):
    t = trace(tiny_loaded["bert"], "hello 😀 world 漢字")
    assert "[UNK]" in t.tokens and t.layer(0).holds
    assert t.notice is None


def test_layer_out_of_range(tiny_loaded):
    t = trace(tiny_loaded["bert"], TEXT)
    for bad in (-1, 3, 99):
        with pytest.raises(InputError, match="layers 0 to 2"):
            t.layer(bad)


def test_trace_keeps_only_hidden_states_and_ids(tiny_loaded):
    t = trace(tiny_loaded["bert"], TEXT)
    assert t.nbytes == t.hidden_states.nbytes + t.pooler_output.nbytes + 3 * t.input_ids.nbytes


def test_threads_on_one_shared_model_each_get_their_own_result(tiny_loaded):
    """Streamlit sessions share one model: concurrent traces of different texts must not mix."""
    loaded = tiny_loaded["albert"]  # one shared layer run N times: the hardest case for hook-based capture
    texts = ["this is a test sentence", "the dog sat on the river bank with money"]
    expected = {text: (trace(loaded, text).hidden_states, trace(loaded, text).layer(2)["attn.probs"])
                for text in texts}
    barrier, failures = threading.Barrier(len(texts)), []

    def worker(text):
        barrier.wait()
        for _ in range(25):
            t = trace(loaded, text)
            hidden, probs = expected[text]
            if not (np.array_equal(t.hidden_states, hidden) and np.array_equal(t.layer(2)["attn.probs"], probs)
                    and t.layer(2).holds):
                failures.append(text)

    threads = [threading.Thread(target=worker, args=(text,)) for text in texts]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert failures == []
