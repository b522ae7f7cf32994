"""Nearest vocabulary pieces (analyses/nearest_pieces.py) against transformers' own hidden states and embedding
table, with torch's cosine_similarity over every row: on the bundled real model and a tiny one."""
import numpy as np
import pytest
import torch
from transformers import AutoModel, AutoTokenizer

from bertviz_lite import BUNDLED_MODEL, InputError, load_model, trace
from bertviz_lite.analyses.nearest_pieces import nearest_pieces
from bertviz_lite.loading.bundled import bundled_directory


def _by_transformers(path: str, text: str, position: int, top: int = 5):
    model = AutoModel.from_pretrained(path, attn_implementation="eager").eval()
    tokenizer = AutoTokenizer.from_pretrained(path)
    with torch.no_grad():
        states = model(**tokenizer(text, return_tensors="pt"), output_hidden_states=True).hidden_states
        table = model.get_input_embeddings().weight
        rows = [torch.nn.functional.cosine_similarity(h[0, position][None], table, dim=-1).topk(top)
                for h in states]
    named = lambda ids: [t if t is not None else f"[id {i}]"  # noqa: E731  a table row past the pieces: by id
                         for i, t in zip(ids, tokenizer.convert_ids_to_tokens(ids))]
    return [(named(r.indices.tolist()), r.values.numpy()) for r in rows]


@pytest.mark.parametrize("source", ["bundled", "tiny"])
def test_nearest_pieces_equal_an_independent_computation(source, tiny_dirs):
    path = bundled_directory(BUNDLED_MODEL) if source == "bundled" else tiny_dirs["bert"]
    text = "the bank of the river"
    ours = nearest_pieces(trace(load_model(BUNDLED_MODEL if source == "bundled" else path), text, None), position=2)
    expected = _by_transformers(path, text, 2)
    assert ours.position == 2 and len(ours.layers) == len(expected)
    for near, (pieces, cosines) in zip(ours.layers, expected):
        assert [piece for piece, _ in near] == pieces
        assert np.allclose([c for _, c in near], cosines, atol=1e-5)


def test_the_first_mask_is_the_position_and_a_bad_position_is_named(tiny_dirs):
    t = trace(load_model(tiny_dirs["bert"]), "the cat [MASK] sat", None)
    assert nearest_pieces(t).position == 3
    with pytest.raises(InputError, match="no position 40"):
        nearest_pieces(trace(load_model(tiny_dirs["bert"]), "the cat sat", None), position=40)


def test_a_table_narrower_than_the_layers_is_refused_with_why(tiny_dirs):
    """ELECTRA (and ALBERT) embed in fewer numbers than their layers: no one space to compare in."""
    t = trace(load_model(tiny_dirs["electra"]), "the cat sat", None)
    with pytest.raises(InputError, match="projects its embeddings up"):
        nearest_pieces(t, position=1)
