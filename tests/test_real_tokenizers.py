"""Presets whose real tokenizer ships with the app (loading/real_tokenizers.py) tokenize offline into the real
model's ids: the ids below are transformers' own, from its integration test of albert/albert-base-v2
(tests/models/albert/test_tokenization_albert.py, `test_tokenizer_integration`, revision 6b6560e of the
checkpoint), not the app's output."""
import hashlib
from importlib import resources

from bertviz_lite import load_model, trace

from tiers import slow

INTEGRATION = [  # the three sentences of transformers' tokenizer integration tests, and albert-base-v2's ids
    ("Transformers (formerly known as pytorch-transformers and pytorch-pretrained-bert) provides general-purpose "
     "architectures (BERT, GPT-2, RoBERTa, XLM, DistilBert, XLNet...) for Natural Language Understanding (NLU) and "
     "Natural Language Generation (NLG) with over 32+ pretrained models in 100+ languages and deep interoperability "
     "between Jax, PyTorch and TensorFlow.",
     [2, 21970, 13, 5, 6092, 167, 28, 7103, 2153, 673, 8, 7028, 12051, 18, 17, 7103, 2153, 673, 8, 3515, 18684, 8,
      4461, 6, 1927, 297, 8, 12060, 2607, 18, 13, 5, 4461, 15, 10538, 38, 8, 135, 15, 822, 58, 15, 993, 10363, 15,
      1460, 8005, 4461, 15, 993, 255, 2328, 9, 9, 9, 6, 26, 1112, 816, 3260, 13, 5, 103, 2377, 6, 17, 1112, 816,
      2782, 13, 5, 103, 10641, 6, 29, 84, 2512, 2430, 782, 18684, 2761, 19, 808, 2430, 2556, 17, 855, 1480, 9477,
      4091, 128, 11712, 15, 7103, 2153, 673, 17, 24883, 9990, 9, 3]),
    ("BERT is designed to pre-train deep bidirectional representations from unlabeled text by jointly conditioning "
     "on both left and right context in all layers.",
     [2, 11502, 25, 1006, 20, 782, 8, 11809, 855, 1732, 19393, 18667, 37, 367, 21018, 69, 1854, 34, 11860, 19124,
      27, 156, 225, 17, 193, 4141, 19, 65, 9124, 9, 3]),
    ("The quick brown fox jumps over the lazy dog.", [2, 14, 2231, 886, 2385, 17659, 84, 14, 16792, 1952, 9, 3]),
]
ALBERT_SPIECE_SHA256 = "fefb02b667a6c5c2fe27602d28e5fb3428f66ab89c7d6f388e7c8d44a02d0336"  # 30k-clean.model


def test_the_shipped_albert_model_is_albert_s_own_file():
    data = resources.files("bertviz_lite.loading").joinpath("data", "real_vocab", "albert-base-v2-spiece.model")
    assert hashlib.sha256(data.read_bytes()).hexdigest() == ALBERT_SPIECE_SHA256


def test_albert_offline_tokenizes_into_the_real_ids():
    loaded = load_model("albert-base-v2")  # offline: random weights, the real tokenizer
    assert loaded.weights_kind == "random-init" and loaded.vocabulary == "real" and len(loaded.tokenizer) == 30_000
    for text, ids in INTEGRATION:
        assert loaded.tokenizer(text)["input_ids"] == ids, text
    assert "tokens and ids are real" in loaded.warning and loaded.stand_in_vocabulary is None
    t = trace(loaded, "the cat sat", "on the mat")
    assert t.tokens[0] == "[CLS]" and t.tokens.count("[SEP]") == 2 and t.token_type_ids[-1] == 1


MODERNBERT_ENCODINGS = [  # ModernBERT-base's published ids: swift-transformers' tokenizer test ("Hello world"),
    # and the reference encodings of public ModernBERT ports' tests (the other two)
    ("Hello world", [50281, 12092, 1533, 50282]),
    ("The capital of France is [MASK].", [50281, 510, 5347, 273, 6181, 310, 50284, 15, 50282]),
    ("Hello world! This is a test.", [50281, 12092, 1533, 2, 831, 310, 247, 1071, 15, 50282]),
]
OLMO_BPE_SHA256 = "9ad33b4b39a9f83973c3f8c42a01948dd5b877a28ac9a5356956c4ff4ed0b714"


@slow
def test_modernbert_offline_tokenizes_into_the_real_ids():
    data = resources.files("bertviz_lite.loading").joinpath("data", "real_vocab", "modernbert-olmo-bpe.json")
    assert hashlib.sha256(data.read_bytes()).hexdigest() == OLMO_BPE_SHA256
    loaded = load_model("answerdotai/ModernBERT-base")
    assert loaded.vocabulary == "real" and loaded.tokenizer.mask_token_id == 50284
    assert (loaded.tokenizer.cls_token_id, loaded.tokenizer.sep_token_id, loaded.tokenizer.pad_token_id) == (
        loaded.config.cls_token_id, loaded.config.sep_token_id, loaded.config.pad_token_id)
    for text, ids in MODERNBERT_ENCODINGS:
        assert loaded.tokenizer(text)["input_ids"] == ids, text
    t = trace(loaded, "the cat", "the dog")
    assert loaded.tokenizer.convert_ids_to_tokens(t.input_ids.tolist())[2] == "Ġcat"  # byte-level BPE's space
    assert t.tokens == ["[CLS]", "the", "▁cat", "[SEP]", "the", "▁dog", "[SEP]"] and not t.token_type_ids.any()
