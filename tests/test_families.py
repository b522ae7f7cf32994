"""The families beyond BERT's layer (XLM-RoBERTa, CamemBERT, MPNet, DeBERTa-v2/v3, ModernBERT, EuroBERT, NomicBERT,
GTE, Jina-v3), each stepped through exactly: every layer against transformers' own hidden states and attentions,
each family's own terms adding up, and the configs that would load another model than the checkpoint's refused."""
import numpy as np
import pytest
import torch
import transformers

from bertviz_lite.closeness import SAME_SUM
from bertviz_lite import trace
from bertviz_lite.families import FAMILIES
from bertviz_lite.graph.names import KEYS_BY_BLOCK
from tiny_models import BERT_LAYER_KEYS, NEW_FAMILY_NAMES, NEW_FAMILY_SPECS

TEXT, PAIR = "the cat sat on the mat this is a test sentence", "the dog sat on the river bank"


def reference(loaded, t):
    """transformers' own forward of the base model for the traced ids."""
    inputs = {"input_ids": torch.from_numpy(t.input_ids)[None],
              "attention_mask": torch.from_numpy(t.attention_mask)[None]}
    if loaded.uses_token_types:
        inputs["token_type_ids"] = torch.from_numpy(t.token_type_ids)[None]
    with torch.inference_mode():
        return loaded.base(**inputs, output_hidden_states=True, output_attentions=True)


@pytest.mark.parametrize("model_type", NEW_FAMILY_SPECS)
def test_every_layer_matches_transformers(new_tiny_loaded, model_type):
    loaded = new_tiny_loaded[model_type]
    assert loaded.family.name == NEW_FAMILY_NAMES[model_type]
    t = trace(loaded, TEXT, PAIR)
    ref = reference(loaded, t)
    assert t.num_layers == len(ref.attentions) == loaded.config.num_hidden_layers
    embeddings = t.embeddings()
    assert embeddings.holds
    for i in range(t.num_layers):
        steps = t.layer(i)
        assert steps.holds, (i, steps.max_abs_diff)
        SAME_SUM.assert_close(steps.output, ref.hidden_states[i + 1][0].numpy())
        np.testing.assert_allclose(steps["attn.probs"], ref.attentions[i][0].numpy(), atol=1e-5)
        np.testing.assert_allclose(t.attention(i), ref.attentions[i][0].numpy(), atol=1e-5)


@pytest.mark.parametrize("model_type", NEW_FAMILY_SPECS)
def test_step_lists_use_the_one_naming_scheme(new_tiny_loaded, model_type):
    t = trace(new_tiny_loaded[model_type], TEXT)
    for i in range(t.num_layers):
        steps = t.layer(i)
        keys = t.graph("layers", i).keys
        assert list(steps) == keys and keys[0] == "input"
        assert set(keys) <= KEYS_BY_BLOCK["layers"]
        assert {"attn.q", "attn.k", "attn.v", "attn.scores", "attn.probs"} <= set(keys)
        assert steps.name("attn.probs") == f"layers.{i}.attn.probs"
        h, T = t.num_heads, len(t.tokens)
        assert steps["attn.probs"].shape == (h, T, T)
        np.testing.assert_allclose(steps["attn.probs"].sum(-1), 1.0, atol=1e-5)


def test_every_family_is_in_the_table():
    names = {f.name for f in FAMILIES}
    assert set(NEW_FAMILY_NAMES.values()) <= names
    assert len({t for f in FAMILIES for t in f.model_types}) == sum(len(f.model_types) for f in FAMILIES)


def test_bert_layout_families_keep_berts_steps(new_tiny_loaded):
    for model_type in ("xlm-roberta", "camembert"):
        assert list(trace(new_tiny_loaded[model_type], TEXT).layer(0)) == BERT_LAYER_KEYS


# --- MPNet -------------------------------------------------------------------------------------------------


def test_mpnet_scores_are_dot_products_plus_the_position_bias(new_tiny_loaded):
    loaded = new_tiny_loaded["mpnet"]
    t = trace(loaded, TEXT)
    first = t.layer(0)["attn.position_bias"]
    T = len(t.tokens)
    for i in range(t.num_layers):
        steps = t.layer(i)
        q, k, bias = steps["attn.q"], steps["attn.k"], steps["attn.position_bias"]
        dots = q @ k.transpose(0, 2, 1) / np.sqrt(q.shape[-1])
        np.testing.assert_allclose(steps["attn.scores"], dots + bias, atol=1e-5)  # no padding: the mask adds 0
        np.testing.assert_array_equal(bias, first)  # computed once by the encoder, the same in every layer
    # the bias depends only on the distance j - i: constant along every diagonal
    table = loaded.base.encoder.relative_attention_bias.weight  # (32 buckets, h)
    assert any(np.ptp(first[0].diagonal(offset)) == 0 for offset in range(-T + 1, T))
    for offset in range(-T + 1, T):
        assert np.ptp(first[:, :, :].diagonal(offset, axis1=1, axis2=2), axis=1).max() == 0
    assert set(np.unique(first[0])) <= set(table[:, 0].detach().numpy().tolist())
    assert np.ptp(first) > 0.1  # the bias is not a constant, so the check above is not vacuous


def test_mpnet_pairs_have_two_separators_and_no_token_types(new_tiny_loaded):
    loaded = new_tiny_loaded["mpnet"]
    t = trace(loaded, "the cat", "the dog")
    assert t.tokens == ["<s>", "the", "cat", "</s>", "</s>", "the", "dog", "</s>"]
    assert not loaded.uses_token_types
    assert list(t.embeddings()) == ["word", "position", "sum", "norm"]


# --- DeBERTa -----------------------------------------------------------------------------------------------


def deberta_scores_by_hand(loaded, t, layer):
    """c2c, c2p, p2c of one layer from the paper's definition, written out token pair by token pair."""
    base = loaded.base
    att = base.encoder.layer[layer].attention.self
    x = torch.from_numpy(t.hidden_states[layer])  # (T, d)
    T, H = x.shape[0], t.num_heads
    d_h = x.shape[1] // H
    k_buckets = base.config.position_buckets
    rel = base.encoder.LayerNorm(base.encoder.rel_embeddings.weight)  # (2k, d)
    heads = lambda m: m.view(m.shape[0], H, d_h).transpose(0, 1).detach().numpy()  # noqa: E731  (n, d) -> (H, n, d_h)
    q, k = heads(att.query_proj(x)), heads(att.key_proj(x))
    q_r, k_r = heads(att.query_proj(rel)), heads(att.key_proj(rel))
    bucket = base.encoder.get_rel_pos(x[None])[0].numpy()  # (T, T) bucketed i − j, the model's own
    scale = np.sqrt(3 * d_h)
    row = lambda distance: int(np.clip(distance + k_buckets, 0, 2 * k_buckets - 1))  # noqa: E731  table row of δ
    c2c, c2p, p2c = (np.zeros((H, T, T)) for _ in range(3))
    for h in range(H):
        for i in range(T):
            for j in range(T):
                c2c[h, i, j] = float(q[h, i] @ k[h, j]) / scale
                c2p[h, i, j] = float(q[h, i] @ k_r[h, row(bucket[i, j])]) / scale  # key at δ(i, j) from the query
                p2c[h, i, j] = float(k[h, j] @ q_r[h, row(-bucket[j, i])]) / scale  # query at δ(j, i) from the key
    return c2c, c2p, p2c


def test_deberta_scores_are_the_three_terms(new_tiny_loaded):
    loaded = new_tiny_loaded["deberta-v2"]
    t = trace(loaded, TEXT, PAIR)
    assert len(t.tokens) > 2 * loaded.config.position_buckets  # distances beyond the exact range are bucketed
    for layer in range(t.num_layers):
        steps = t.layer(layer)
        assert [k for k in steps if k.startswith("attn.")][3:10] == ["attn.pos_key", "attn.pos_query", "attn.c2c",
                                                                    "attn.c2p", "attn.p2c", "attn.scores", "attn.probs"]
        np.testing.assert_allclose(steps["attn.scores"], steps["attn.c2c"] + steps["attn.c2p"] + steps["attn.p2c"],
                                   atol=1e-5)
        for ours, by_hand in zip((steps["attn.c2c"], steps["attn.c2p"], steps["attn.p2c"]),
                                 deberta_scores_by_hand(loaded, t, layer)):
            np.testing.assert_allclose(ours, by_hand, atol=1e-4)
        assert np.abs(steps["attn.c2p"]).max() > 0.1 and np.abs(steps["attn.p2c"]).max() > 0.1


def test_deberta_encoder_steps_and_notes(new_tiny_loaded):
    loaded = new_tiny_loaded["deberta-v2"]
    t = trace(loaded, TEXT)
    encoder = t.positions()
    T, k = len(t.tokens), loaded.config.position_buckets
    assert list(encoder) == ["relative_positions", "rel_embeddings", "rel_norm"]
    distances = encoder["relative_positions"]
    assert distances.shape == (T, T) and encoder["rel_norm"].shape == (2 * k, loaded.config.hidden_size)
    exact = np.subtract.outer(np.arange(T), np.arange(T))
    near = np.abs(exact) < k // 2
    np.testing.assert_array_equal(distances[near], exact[near])  # exact close by
    assert np.abs(distances).max() < np.abs(exact).max()  # log-bucketed far away
    assert list(t.embeddings()) == ["word", "norm"]  # v3: no positions, no token types in the input
    notes = " ".join(loaded.family.notes(loaded.config))
    assert "position_biased_input: false" in notes and "type_vocab_size: 0" in notes


def test_deberta_v2_style_unshared_keys_one_term_and_absolute_positions(tmp_path):
    """DeBERTa-v2's other choices: own position projections, only c2p, absolute positions and token types."""
    from bertviz_lite import load_model
    from tiny_models import SHARP, deberta_tokenizer

    config = transformers.DebertaV2Config(**SHARP, relative_attention=True, pos_att_type=["c2p"], position_buckets=-1,
                                          max_relative_positions=16, share_att_key=False, norm_rel_ebd="none",
                                          position_biased_input=True, type_vocab_size=2, pad_token_id=0)
    torch.manual_seed(1)
    transformers.AutoModelForMaskedLM.from_config(config).save_pretrained(tmp_path)
    deberta_tokenizer().save_pretrained(tmp_path)
    loaded = load_model(str(tmp_path))
    t = trace(loaded, TEXT, PAIR)
    ref = reference(loaded, t)
    assert t.embeddings().holds
    assert "position" in t.embeddings() and "token_type" in t.embeddings()
    for i in range(t.num_layers):
        steps = t.layer(i)
        assert "attn.p2c" not in steps and steps.holds
        np.testing.assert_allclose(steps["attn.probs"], ref.attentions[i][0].numpy(), atol=1e-5)
    assert list(t.positions()) == ["relative_positions", "rel_embeddings"]


# --- ModernBERT --------------------------------------------------------------------------------------------


def test_modernbert_layers_are_pre_norm_with_a_final_norm(new_tiny_loaded):
    loaded = new_tiny_loaded["modernbert"]
    t = trace(loaded, TEXT)
    last = t.num_layers - 1
    assert list(t.layer(last))[-1] == "final.norm" and list(t.layer(0))[-1] == "ffn.residual"
    zero = t.layer(0)
    assert "attn.pre_norm" not in zero and zero.node("attn.q").inputs == ("input",)  # layer 0: no norm before Q
    one = t.layer(1)
    assert np.abs(one["attn.pre_norm"] - one["input"]).max() > 1e-3
    np.testing.assert_allclose(one["attn.residual"], one["input"] + one["attn.out"], atol=1e-6)  # no norm after it
    act = torch.nn.functional.gelu(torch.from_numpy(one["ffn.in"])).numpy() * one["ffn.gate"]
    np.testing.assert_allclose(one["ffn.act"], act, atol=1e-5)  # GeGLU
    assert list(t.embeddings()) == ["word", "norm"]


def test_modernbert_rotation_keeps_lengths_and_makes_scores_depend_on_distance(new_tiny_loaded):
    loaded = new_tiny_loaded["modernbert"]
    t = trace(loaded, TEXT)
    steps = t.layer(0)
    q, k, q_rot, k_rot = (steps[key] for key in ("attn.q", "attn.k", "attn.q_rot", "attn.k_rot"))
    np.testing.assert_allclose(np.linalg.norm(q_rot, axis=-1), np.linalg.norm(q, axis=-1), rtol=1e-5)
    np.testing.assert_allclose(np.linalg.norm(k_rot, axis=-1), np.linalg.norm(k, axis=-1), rtol=1e-5)
    np.testing.assert_array_equal(q_rot[:, 0], q[:, 0])  # position 0: angle 0
    assert np.abs(q_rot[:, 1:] - q[:, 1:]).max() > 1e-3
    np.testing.assert_allclose(steps["attn.scores"], q_rot @ k_rot.transpose(0, 2, 1) / np.sqrt(q.shape[-1]), atol=1e-5)
    # the same query and key vector at positions (i, j) and (i + s, j + s) give the same rotated dot product
    cos, sin = (a.numpy() for a in loaded.base.rotary_emb(torch.zeros(1), torch.arange(12)[None], "full_attention"))
    half = q.shape[-1] // 2
    turn = lambda v, p: v * cos[0, p] + np.concatenate((-v[half:], v[:half])) * sin[0, p]  # noqa: E731
    a, b = q[0, 3], k[0, 5]
    assert abs(turn(a, 2) @ turn(b, 7) - turn(a, 6) @ turn(b, 11)) < 1e-4
    assert abs(turn(a, 2) @ turn(b, 7) - turn(a, 2) @ turn(b, 9)) > 1e-4


def test_modernbert_local_layers_see_a_window(new_tiny_loaded):
    loaded = new_tiny_loaded["modernbert"]
    t = trace(loaded, TEXT, PAIR)
    T, half = len(t.tokens), loaded.config.local_attention // 2
    distance = np.abs(np.subtract.outer(np.arange(T), np.arange(T)))
    assert loaded.config.layer_types == ["full_attention", "sliding_attention", "full_attention"]
    local, global_ = t.layer(1)["attn.probs"], t.layer(0)["attn.probs"]
    assert (local[:, distance > half] == 0).all() and (local[:, distance <= half] > 0).all()
    assert (global_ > 0).all()
    assert "local" in t.layer_note(1) and "global" in t.layer_note(0)


def test_modernbert_contributions_are_pre_norm(new_tiny_loaded):
    from bertviz_lite import layer_contributions, mixing_ratios

    loaded = new_tiny_loaded["modernbert"]
    t = trace(loaded, TEXT)
    result = layer_contributions(t, 1)
    assert result.norm_residual_ln is None
    assert result.out_holds and result.norm_holds
    mixing = mixing_ratios(t)
    assert mixing.ratios["norm_residual_ln"] is None and len(mixing.ratios["norm"]) == t.num_layers


# --- EuroBERT: grouped-query attention, RMSNorm, SwiGLU --------------------------------------------------------


def test_eurobert_keys_and_values_have_fewer_heads_each_read_by_a_group_of_queries(new_tiny_loaded):
    loaded = new_tiny_loaded["eurobert"]
    t = trace(loaded, TEXT)
    steps = t.layer(1)
    h, kv = loaded.config.num_attention_heads, loaded.config.num_key_value_heads
    assert (h, kv) == (4, 2)
    assert steps["attn.q"].shape[0] == h and steps["attn.k"].shape[0] == steps["attn.v"].shape[0] == kv
    keys = steps.node("attn.k")
    assert keys.shape == "(h_kv, T, d_h)" and "each read by 2 query heads" in keys.explains
    q, k, v = steps["attn.q_rot"], steps["attn.k_rot"], steps["attn.v"]
    for head in range(h):  # transformers' repeat_kv: query head h reads key/value head h // (h / kv)
        scores = q[head] @ k[head // 2].T / np.sqrt(q.shape[-1])
        np.testing.assert_allclose(steps["attn.scores"][head], scores, atol=1e-5)
        np.testing.assert_allclose(steps["attn.head_context"][head], steps["attn.probs"][head] @ v[head // 2],
                                   atol=1e-5)


def test_eurobert_normalises_by_root_mean_square_and_gates_with_silu(new_tiny_loaded):
    loaded = new_tiny_loaded["eurobert"]
    t = trace(loaded, TEXT)
    assert list(t.embeddings()) == ["word"]  # no norm, no positions on the input
    one = t.layer(1)
    x, eps = one["input"].astype(np.float64), loaded.config.rms_norm_eps
    gamma = loaded.base.layers[1].input_layernorm.weight.detach().numpy()
    np.testing.assert_allclose(one["attn.pre_norm"], x / np.sqrt((x ** 2).mean(-1, keepdims=True) + eps) * gamma,
                               atol=1e-5)
    np.testing.assert_allclose(one["attn.residual"], one["input"] + one["attn.out"], atol=1e-6)  # no norm after it
    silu = torch.nn.functional.silu(torch.from_numpy(one["ffn.in"])).numpy()
    np.testing.assert_allclose(one["ffn.act"], silu * one["ffn.gate"], atol=1e-5)  # SwiGLU: SiLU(gate) ⊙ up
    assert list(t.layer(t.num_layers - 1))[-1] == "final.norm"
    assert one.node("attn.pre_norm").title == "RMSNorm before attention"


def test_eurobert_contributions_read_the_shared_value_heads(new_tiny_loaded):
    """The norm-based contributions against vectors built one by one, each query head with its value head."""
    from bertviz_lite import layer_contributions

    loaded = new_tiny_loaded["eurobert"]
    t = trace(loaded, TEXT)
    layer = loaded.base.layers[1]
    result = layer_contributions(t, 1)
    assert result.norm_residual_ln is None and result.out_holds and result.norm_holds
    x = torch.from_numpy(t.hidden_states[1])  # (T, d)
    probs = torch.from_numpy(t.attention(1))  # (h, T, T)
    with torch.inference_mode():
        values = layer.self_attn.v_proj(layer.input_layernorm(x))  # (T, kv · d_h)
        h, d_h = probs.shape[0], values.shape[1] // loaded.config.num_key_value_heads
        w_o = layer.self_attn.o_proj.weight  # (d, h · d_h)
        for i, j in ((0, 0), (2, 5), (len(t.tokens) - 1, 1)):
            c = sum(probs[head, i, j] * values[j, head // 2 * d_h:(head // 2 + 1) * d_h] @
                    w_o[:, head * d_h:(head + 1) * d_h].T for head in range(h))
            assert abs(float(c.norm()) - result.norm[i, j]) <= 1e-4


# --- NomicBERT, GTE, Jina-v3: post-norm rotary layers; configs that would load the wrong model ------------------


@pytest.mark.parametrize("model_type", ["nomic_bert", "gte", "jina_embeddings_v3"])
def test_post_norm_rotary_layers_rotate_q_and_k_and_norm_after_each_sub_block(new_tiny_loaded, model_type):
    loaded = new_tiny_loaded[model_type]
    t = trace(loaded, TEXT, PAIR)
    steps = t.layer(1)
    assert list(steps)[-1] == "ffn.norm" and "attn.pre_norm" not in steps  # BERT's add & norm, twice
    q, q_rot = steps["attn.q"], steps["attn.q_rot"]
    np.testing.assert_allclose(np.linalg.norm(q_rot, axis=-1), np.linalg.norm(q, axis=-1), rtol=1e-5)
    np.testing.assert_array_equal(q_rot[:, 0], q[:, 0])  # position 0 is not turned: positions count from 0
    assert "position" not in t.embeddings()  # no position table: position is in the rotation alone
    gated = "ffn.gate" in steps
    assert gated == (model_type != "jina_embeddings_v3")
    if gated:
        act = {"nomic_bert": torch.nn.functional.silu, "gte": torch.nn.functional.gelu}[model_type]
        gated_by_hand = act(torch.from_numpy(steps["ffn.in"])).numpy() * steps["ffn.gate"]
        np.testing.assert_allclose(steps["ffn.act"], gated_by_hand, atol=1e-5)


def _edited_copy(directory, tmp_path, **changes):
    import json
    import shutil

    copy = tmp_path / "edited"
    shutil.copytree(directory, copy)
    config = json.loads((copy / "config.json").read_text())
    (copy / "config.json").write_text(json.dumps({**config, **changes}))
    return str(copy)


def test_a_nomic_config_whose_original_sizes_transformers_would_not_read_is_refused(new_tiny_dirs, tmp_path):
    from bertviz_lite import load_model
    from bertviz_lite.errors import LoadError

    same = _edited_copy(new_tiny_dirs["nomic_bert"], tmp_path, n_embd=32, n_layer=3, n_head=4)  # as built: fine
    assert load_model(same).family.name == "NomicBERT"
    wrong = _edited_copy(new_tiny_dirs["nomic_bert"], tmp_path / "b", n_embd=64)
    with pytest.raises(LoadError, match="n_embd = 64.*hidden_size = 32"):
        load_model(wrong)
    scaled = _edited_copy(new_tiny_dirs["nomic_bert"], tmp_path / "c", rotary_scaling_factor=2.0)  # not implemented
    with pytest.raises(LoadError, match="rotary_scaling_factor = 2.0"):
        load_model(scaled)


def test_jina_v3_declared_as_xlm_roberta_is_refused_not_read_as_another_model(new_tiny_dirs, tmp_path):
    from bertviz_lite import load_model
    from bertviz_lite.errors import LoadError

    declared = _edited_copy(new_tiny_dirs["xlm-roberta"], tmp_path, position_embedding_type="rotary",
                            architectures=["XLMRobertaLoRA"])
    with pytest.raises(LoadError, match="jina_embeddings_v3"):
        load_model(declared)


def test_gte_declared_as_new_names_the_checkpoint_and_what_would_load(tmp_path):
    import json

    from bertviz_lite import load_model
    from bertviz_lite.errors import LoadError

    (tmp_path / "config.json").write_text(json.dumps({  # the published gte-base-en-v1.5 config's type and code
        "architectures": ["NewModel"], "model_type": "new", "auto_map": {
            "AutoConfig": "Alibaba-NLP/new-impl--configuration.NewConfig",
            "AutoModel": "Alibaba-NLP/new-impl--modeling.NewModel"}}))
    (tmp_path / "model.safetensors").write_bytes(b"")
    with pytest.raises(LoadError, match="model_type 'new'.*never runs.*model_type 'gte'"):
        load_model(str(tmp_path))


def test_explaining_a_key_with_a_query_heads_number_says_which_key_head_to_ask_for(new_tiny_loaded):
    from bertviz_lite import explain
    from bertviz_lite.errors import InputError

    t = trace(new_tiny_loaded["eurobert"], TEXT)
    with pytest.raises(InputError, match="query head 3 reads key/value head 1 of 2"):
        explain(t, "layers.1.attn.k", 3, (2, 5))
    assert explain(t, "layers.1.attn.k", 1, (2, 5)).head == 1


@pytest.mark.parametrize("model_type", ["gte", "jina_embeddings_v3"])
def test_a_pair_on_one_token_type_follows_the_inputs_the_tokenizer_declares(tmp_path, model_type):
    """A GTE or Jina-v3 checkpoint (one token type) whose tokenizer marks sentence B as type 1 but does not declare
    token types as a model input: transformers' own model, given the declared inputs, runs; so does the trace,
    layer by layer the same."""
    from bertviz_lite import load_model
    from tiny_models import PIECES, WORDS

    torch.manual_seed(0)
    transformers.AutoModelForMaskedLM.from_config(NEW_FAMILY_SPECS[model_type][0]()).save_pretrained(tmp_path)
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS, *PIECES]
    transformers.BertTokenizer(vocab={w: i for i, w in enumerate(vocab)}, model_max_length=40,
                               model_input_names=["input_ids", "attention_mask"]).save_pretrained(tmp_path)
    loaded = load_model(str(tmp_path))
    assert loaded.tokenizer.model_input_names == ["input_ids", "attention_mask"]
    assert 1 in loaded.tokenizer(TEXT, PAIR, return_token_type_ids=True)["token_type_ids"]  # B marked as type 1
    declared = loaded.tokenizer(TEXT, PAIR, return_tensors="pt")
    declared = {k: v for k, v in declared.items() if k in loaded.tokenizer.model_input_names}
    with torch.inference_mode():
        own = loaded.base(**declared, output_hidden_states=True).hidden_states
    t = trace(loaded, TEXT, PAIR)
    assert not t.token_type_ids.any()  # what the model was given: its default, type 0 everywhere
    for i in range(t.num_layers):
        SAME_SUM.assert_close(t.layer(i).output, own[i + 1][0].numpy())


def test_a_pair_that_the_model_cannot_read_is_said_not_a_traceback(tmp_path):
    """A tokenizer that declares token types and marks B as type 1, on a one-type GTE: transformers' own model
    fails on the pair too; the trace says why."""
    from bertviz_lite import InputError, load_model
    from tiny_models import PIECES, WORDS

    torch.manual_seed(0)
    transformers.AutoModelForMaskedLM.from_config(NEW_FAMILY_SPECS["gte"][0]()).save_pretrained(tmp_path)
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS, *PIECES]
    transformers.BertTokenizer(vocab={w: i for i, w in enumerate(vocab)}, model_max_length=40).save_pretrained(tmp_path)
    loaded = load_model(str(tmp_path))
    with pytest.raises(IndexError):
        loaded.base(**loaded.tokenizer(TEXT, PAIR, return_tensors="pt"))
    with pytest.raises(InputError, match="cannot read this pair"):
        trace(loaded, TEXT, PAIR)
    assert trace(loaded, TEXT).token_type_ids.max() == 0  # one sentence reads as before


def test_eurobert_says_why_its_end_of_text_row_is_empty(new_tiny_loaded):
    """EuroBERT pads with its end-of-text token: that id's word vector is the table's padding row (zeros from
    transformers' init), so its queries, keys and scores in layer 0 are 0; the family's notes say so."""
    import copy

    loaded = new_tiny_loaded["eurobert"]
    config = copy.deepcopy(loaded.config)
    assert len(loaded.family.notes(config)) == 1  # the tiny config pads with another id than end-of-text
    config.pad_token_id = config.eos_token_id
    assert "also the padding token" in loaded.family.notes(config)[-1]
    pad = loaded.config.pad_token_id  # the tiny model's own padding row: the same zeros
    assert not loaded.base.get_input_embeddings().weight[pad].any()
