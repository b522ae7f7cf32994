"""The tiny random models of every supported family that the tests build: their configs and tokenizers (from
vocabularies written here), saved with save_pretrained to a directory and loaded back through the real
local-directory path. `conftest.py` makes them session fixtures; a test that needs a spec or a tokenizer of its own
imports it from here.
"""
from __future__ import annotations

import torch
import transformers
from transformers import (AlbertConfig, AutoModelForMaskedLM, BertConfig, DistilBertConfig,
                          ElectraConfig, RobertaConfig)

transformers.logging.set_verbosity_error()

WORDS = ("the cat sat on mat this is a test sentence dog river bank money hello world attention layer "
         "token model small tiny second first one two three").split()
PIECES = ["##s", "##ing", "##ed", "##1", "##2", "##12", "12", "122", "1", "2", ".", ",", "!", "?"]
VOCAB_SIZE = 120  # every tokenizer below stays under it

# BERT's post-norm layer, step by step: what the stepper shows for every family of BERT's layout
BERT_LAYER_KEYS = ["input", "attn.q", "attn.k", "attn.v", "attn.dots", "attn.scores", "attn.probs", "attn.head_context",
                   "attn.context", "attn.out", "attn.residual", "attn.norm", "ffn.in", "ffn.act", "ffn.out",
                   "ffn.residual", "ffn.norm"]

TINY = dict(hidden_size=32, num_hidden_layers=3, num_attention_heads=4, intermediate_size=37,
            max_position_embeddings=40, vocab_size=VOCAB_SIZE)


def wordpiece_tokenizer(cls=transformers.BertTokenizer):
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS, *PIECES]
    return cls(vocab={w: i for i, w in enumerate(vocab)}, model_max_length=40)


def bpe_tokenizer():
    alphabet = sorted(set("".join(WORDS)) | set("Ġ.,!?0123456789"))
    vocab = ["<s>", "<pad>", "</s>", "<unk>", "<mask>", *alphabet, "Ġt", "Ġth", "Ġthe", "at", "Ġc", "Ġcat"]
    merges = [("Ġ", "t"), ("Ġt", "h"), ("Ġth", "e"), ("a", "t"), ("Ġ", "c"), ("Ġc", "at")]
    return transformers.RobertaTokenizer(vocab={w: i for i, w in enumerate(vocab)}, merges=merges,
                                         model_max_length=38)


def unigram_tokenizer():
    pieces = ["<pad>", "<unk>", "[CLS]", "[SEP]", "[MASK]", "▁"] + [f"▁{w}" for w in WORDS]
    pieces += sorted(set("".join(WORDS)) | set(".,!?0123456789"))
    return transformers.AlbertTokenizer(vocab=[(p, -float(i)) for i, p in enumerate(pieces)], model_max_length=40)


FAMILY_SPECS = {
    "bert": (lambda: BertConfig(**TINY, type_vocab_size=2), wordpiece_tokenizer),
    "roberta": (lambda: RobertaConfig(**TINY, type_vocab_size=1, pad_token_id=1,
                                      bos_token_id=0, eos_token_id=2), bpe_tokenizer),
    "distilbert": (lambda: DistilBertConfig(dim=32, n_layers=3, n_heads=4, hidden_dim=37, vocab_size=VOCAB_SIZE,
                                            max_position_embeddings=40),
                   lambda: wordpiece_tokenizer(transformers.DistilBertTokenizer)),
    "albert": (lambda: AlbertConfig(**TINY, embedding_size=16, num_hidden_groups=1, inner_group_num=1),
               unigram_tokenizer),
    "electra": (lambda: ElectraConfig(**TINY, embedding_size=16), wordpiece_tokenizer),
}
FAMILY_NAMES = {"bert": "BERT", "roberta": "RoBERTa", "distilbert": "DistilBERT", "albert": "ALBERT",
                "electra": "ELECTRA"}


def mpnet_tokenizer():
    vocab = ["<s>", "<pad>", "</s>", "<unk>", "[PAD]", "[UNK]", "[CLS]", "[SEP]", *WORDS, *PIECES, "<mask>"]
    return transformers.MPNetTokenizer(vocab={w: i for i, w in enumerate(vocab)}, model_max_length=38)


def sentencepiece_roberta_tokenizer(cls):
    pieces = ["<s>", "<pad>", "</s>", "<unk>", "▁"] + [f"▁{w}" for w in WORDS]
    pieces += sorted(set("".join(WORDS)) | set(".,!?0123456789")) + ["<mask>"]
    return cls(vocab=[(p, -float(i)) for i, p in enumerate(pieces)], model_max_length=38)


def deberta_tokenizer():
    pieces = ["[PAD]", "[CLS]", "[SEP]", "[UNK]", "▁"] + [f"▁{w}" for w in WORDS]
    pieces += sorted(set("".join(WORDS)) | set(".,!?0123456789")) + ["[MASK]"]
    scored = [(p, 0.0 if p == "[UNK]" else -float(i)) for i, p in enumerate(pieces)]  # the unknown piece scores 0
    return transformers.DebertaV2Tokenizer(vocab=scored, model_max_length=40)


# DeBERTa-v3's choices (relative attention, both position terms, shared keys, no absolute positions in the input,
# no token types), with 8 buckets so that distances beyond 4 tokens are log-bucketed in a short sentence.
DEBERTA_V3 = dict(relative_attention=True, pos_att_type=["p2c", "c2p"], position_buckets=8, max_relative_positions=-1,
                  share_att_key=True, norm_rel_ebd="layer_norm", position_biased_input=False, type_vocab_size=0)

# The families that need more than BERT's layer. initializer_range 0.3 gives attention patterns far from
# uniform, so that a wrong position term or window cannot hide in nearly equal probabilities.
SHARP = dict(TINY, initializer_range=0.3)
NEW_FAMILY_SPECS = {
    "xlm-roberta": (lambda: transformers.XLMRobertaConfig(**TINY, type_vocab_size=1, pad_token_id=1, bos_token_id=0,
                                                          eos_token_id=2),
                    lambda: sentencepiece_roberta_tokenizer(transformers.XLMRobertaTokenizer)),
    "camembert": (lambda: transformers.CamembertConfig(**TINY, type_vocab_size=1, pad_token_id=1, bos_token_id=0,
                                                       eos_token_id=2),
                  lambda: sentencepiece_roberta_tokenizer(transformers.CamembertTokenizer)),
    "mpnet": (lambda: transformers.MPNetConfig(**dict(SHARP, max_position_embeddings=42), pad_token_id=1,
                                               bos_token_id=0, eos_token_id=2, relative_attention_num_buckets=32),
              mpnet_tokenizer),
    "deberta-v2": (lambda: transformers.DebertaV2Config(**SHARP, **DEBERTA_V3, pad_token_id=0), deberta_tokenizer),
    # layers 0 and 2 global, layer 1 local with a window of 2 tokens on each side; special ids inside the vocabulary
    "modernbert": (lambda: transformers.ModernBertConfig(
        **{k: v for k, v in SHARP.items() if k != "initializer_range"}, initializer_range=0.3, local_attention=4,
        global_attn_every_n_layers=2, pad_token_id=0, bos_token_id=2, eos_token_id=3, cls_token_id=2, sep_token_id=3,
        mask_token_id=4), wordpiece_tokenizer),
    # grouped-query attention: 4 query heads read 2 key/value heads, two each; rotary base θ small enough that
    # positions 0-40 turn the slow pairs too
    "eurobert": (lambda: transformers.EuroBertConfig(
        **{k: v for k, v in SHARP.items() if k != "initializer_range"}, initializer_range=0.3, num_key_value_heads=2,
        rope_parameters={"rope_type": "default", "rope_theta": 100.0}, pad_token_id=0, bos_token_id=2,
        eos_token_id=3, mask_token_id=4), wordpiece_tokenizer),
    # the post-norm rotary families; a small base θ, so that positions 0-40 turn the slow pairs too
    "nomic_bert": (lambda: transformers.NomicBertConfig(**SHARP, type_vocab_size=2, pad_token_id=0,
                                                        rope_parameters={"rope_type": "default", "rope_theta": 100.0}),
                   wordpiece_tokenizer),
    "gte": (lambda: transformers.GteConfig(**SHARP, type_vocab_size=1, pad_token_id=1, bos_token_id=0,
                                           eos_token_id=2,
                                           rope_parameters={"rope_type": "default", "rope_theta": 100.0}),
            lambda: sentencepiece_roberta_tokenizer(transformers.XLMRobertaTokenizer)),
    "jina_embeddings_v3": (lambda: transformers.JinaEmbeddingsV3Config(
        **SHARP, type_vocab_size=1, pad_token_id=1, bos_token_id=0, eos_token_id=2,
        rope_parameters={"rope_type": "default", "rope_theta": 100.0}),
        lambda: sentencepiece_roberta_tokenizer(transformers.XLMRobertaTokenizer)),
}
NEW_FAMILY_NAMES = {"xlm-roberta": "XLM-RoBERTa", "camembert": "CamemBERT", "mpnet": "MPNet", "deberta-v2": "DeBERTa",
                    "modernbert": "ModernBERT", "eurobert": "EuroBERT", "nomic_bert": "NomicBERT", "gte": "GTE",
                    "jina_embeddings_v3": "Jina-v3"}
ALL_SPECS = {**FAMILY_SPECS, **NEW_FAMILY_SPECS}


def save_tiny_model(model_type: str, directory: str, seed: int = 0) -> str:
    """Save a tiny random MLM checkpoint of `model_type` (with its tokenizer) and return the directory."""
    make_config, make_tokenizer = ALL_SPECS[model_type]
    torch.manual_seed(seed)
    model = AutoModelForMaskedLM.from_config(make_config())
    model.save_pretrained(directory)
    make_tokenizer().save_pretrained(directory)
    return directory




def sharpened(loaded, by: float = 25.0):
    """A loaded tiny model whose weight matrices are `by` times larger, in place: its random attention (and its
    masked-LM head's prediction) is no longer near uniform (a tiny model's is, within 0.01), so that the lecture's
    questions are decided (tests/test_asking.py, recipe_fixtures.py)."""
    with torch.no_grad():
        for parameter in loaded.model.parameters():
            if parameter.ndim == 2:
                parameter.mul_(by)
    return loaded
