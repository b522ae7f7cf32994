"""Why two sentences are similar: the cosine split into token pairs, against SentenceTransformer.encode on the
bundled model and on tiny sentence-transformers checkpoints of every pooling mode, and through the CLI."""
import json

import numpy as np
import pytest

from bertviz_lite import BUNDLED_MODEL, load_model, sentence_vectors, trace
from bertviz_lite.analyses.similarity_split import explain_similarity, split_traces, word_level_split
from bertviz_lite.errors import InputError
from bertviz_lite.loading.bundled import bundled_directory

from cli_run import cli

PAIRS = [("the cat sat on the mat", "a kitten was sitting on the rug"),
         ("the stock market fell sharply today", "i really enjoyed this film"),
         ("Héllo wörld, naïve café 日本語 🙂", "hello world"),
         (" ".join(["a long sentence about rivers and banks"] * 60), "rivers and banks")]  # > 256 tokens


def encoded_cosine(reference, a: str, b: str) -> float:
    u, v = reference.encode([a, b], convert_to_numpy=True).astype(np.float64)
    return float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))


@pytest.fixture(scope="module")
def real():
    return load_model(BUNDLED_MODEL)


def test_the_bundled_models_cosine_and_its_pairs_equal_encode(real):
    from sentence_transformers import SentenceTransformer

    reference = SentenceTransformer(str(bundled_directory(BUNDLED_MODEL)), device="cpu")
    for a, b in PAIRS:
        split = explain_similarity(real, a, b)
        expected = encoded_cosine(reference, a, b)
        assert split.pooling == ("mean",) and split.normalized
        assert abs(split.cosine - expected) <= 1e-5 and abs(split.total - expected) <= 1e-5
        assert split.pairs.shape == (len(split.tokens_a), len(split.tokens_b))
        assert split.tokens_a[0] == "[CLS]" and split.tokens_a[-1] == "[SEP]"  # mean pooling reads the specials
    assert len(explain_similarity(real, *PAIRS[-1]).tokens_a) == 256  # what the pipeline reads, not the 512 it could


MODES = [("mean",), ("cls",), ("max",), ("lasttoken",), ("weightedmean",), ("mean_sqrt_len_tokens",),
         ("cls", "mean", "max")]


@pytest.mark.parametrize("modes", MODES, ids="+".join)
@pytest.mark.parametrize("normalize", [True, False], ids=["normalize", "raw"])
def test_every_pooling_mode_adds_up_to_encodes_cosine(tiny_dirs, tmp_path, modes, normalize):
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Normalize, Pooling, Transformer

    encoder = Transformer(tiny_dirs["bert"], max_seq_length=24)
    pooling = Pooling(encoder.get_embedding_dimension(), list(modes) if len(modes) > 1 else modes[0])
    reference = SentenceTransformer(modules=[encoder, pooling, *([Normalize()] if normalize else [])], device="cpu")
    reference.save(str(tmp_path))
    loaded = load_model(str(tmp_path))
    for a, b in [("the cat sat on the mat", "hello world"), ("the dog sat", " ".join(["the dog sat"] * 12))]:
        split = explain_similarity(loaded, a, b)
        expected = encoded_cosine(reference, a, b)
        assert split.pooling == modes and split.normalized == normalize
        assert abs(split.cosine - expected) <= 1e-5 and abs(split.total - expected) <= 1e-5
    if modes == ("cls",):  # one token read in each sentence: one cell, the cosine itself
        assert split.tokens_a == split.tokens_b == ["[CLS]"] and split.pairs.shape == (1, 1)
    if modes == ("lasttoken",):
        assert split.tokens_a == split.tokens_b == ["[SEP]"]
    assert split.by_selection == ("max" in modes)


def test_a_plain_model_splits_the_mean_of_its_token_vectors(tiny_loaded):
    loaded = tiny_loaded["bert"]
    a, b = trace(loaded, "the cat sat on the mat"), trace(loaded, "the dog sat")
    split = split_traces(a, b)
    mean = sentence_vectors(loaded, ["the cat sat on the mat", "the dog sat"])[0]
    assert mean.name == "mean token vectors" and split.pooling == ("mean",) and not split.normalized
    assert abs(split.cosine - float(mean.cosine()[0, 1])) <= 1e-5
    # a cell is ⟨h_i, g_j⟩ / (n · m · ‖u‖ · ‖v‖), as the issue writes it
    h, g = a.hidden_states[-1].astype(np.float64), b.hidden_states[-1].astype(np.float64)
    u, v = h.mean(0), g.mean(0)
    expected = h @ g.T / (len(h) * len(g) * np.linalg.norm(u) * np.linalg.norm(v))
    np.testing.assert_allclose(split.pairs, expected, atol=1e-9)
    assert split.tokens_a == a.tokens and split.tokens_b == b.tokens


def test_the_word_level_split_still_adds_up(tiny_loaded):
    loaded = tiny_loaded["bert"]
    a, b = trace(loaded, "the cats sat unhappily"), trace(loaded, "a kitten was sitting")
    split = split_traces(a, b)
    words = word_level_split(split, a, b)
    row_words = words.tokens_a
    assert words.pairs.shape == (len(row_words), len(words.tokens_b)) and len(row_words) < len(a.tokens)
    assert abs(words.total - split.cosine) <= 1e-6 and words.cosine == split.cosine
    assert row_words[0] == a.tokens[0] and "".join(row_words) == "".join(t.removeprefix("##") for t in a.tokens)


def test_strongest_pairs_are_the_largest_cells(tiny_loaded):
    loaded = tiny_loaded["bert"]
    split = split_traces(trace(loaded, "the cat sat"), trace(loaded, "the dog sat"))
    top = split.strongest(3)
    assert [abs(v) for _, _, v in top] == sorted(np.abs(split.pairs).ravel().tolist(), reverse=True)[:3]


def test_a_sentence_pair_is_refused(tiny_loaded):
    loaded = tiny_loaded["bert"]
    with pytest.raises(InputError, match="single sentences"):
        split_traces(trace(loaded, "the cat", "sat"), trace(loaded, "the dog"))


def test_the_cli_prints_the_split_as_json_equal_to_encode():
    from sentence_transformers import SentenceTransformer

    a, b = PAIRS[0]
    out = cli("explain-similarity", BUNDLED_MODEL, a, b, "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert {"cosine", "pooling", "normalized", "tokens_a", "tokens_b", "pairs"} <= set(result)
    reference = SentenceTransformer(str(bundled_directory(BUNDLED_MODEL)), device="cpu")
    expected = encoded_cosine(reference, a, b)
    assert result["pooling"] == ["mean"] and result["normalized"] is True
    assert abs(result["cosine"] - expected) <= 1e-5 and abs(np.sum(result["pairs"]) - expected) <= 1e-5
    assert np.array(result["pairs"]).shape == (len(result["tokens_a"]), len(result["tokens_b"]))


def test_the_cli_says_what_is_wrong_with_an_empty_sentence():
    out = cli("explain-similarity", BUNDLED_MODEL, "the cat", " ")
    assert out.returncode == 2 and out.stderr.strip().splitlines()[-1].startswith("error: ")
    assert "Traceback" not in out.stderr


def test_max_pooling_cells_are_the_dimensions_each_pair_won(tiny_loaded):
    """A brute force over the dimensions: each goes to the pair of tokens holding its largest value in u and in v."""
    from bertviz_lite.analyses.similarity_split import split_vectors

    h, g = np.random.default_rng(0).normal(size=(5, 12)), np.random.default_rng(1).normal(size=(4, 12))
    split = split_vectors(h, g, ("max",), False)
    u, v = h.max(axis=0), g.max(axis=0)
    expected = np.zeros((5, 4))
    for d in range(12):
        expected[h[:, d].argmax(), g[:, d].argmax()] += u[d] * v[d]
    np.testing.assert_allclose(split.pairs, expected / (np.linalg.norm(u) * np.linalg.norm(v)), atol=1e-12)
