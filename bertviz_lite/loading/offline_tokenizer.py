"""Tokenizers for the presets when the real tokenizer files cannot be downloaded: the real uncased vocabulary
where the bundled model ships it (`uncased_tokenizer`), a stand-in trained here for the others.

The uncased presets (bert-base, bert-large, distilbert-base, electra-small) all use BERT's uncased WordPiece
vocabulary of 30,522 pieces, and the bundled all-MiniLM-L6-v2 ships exactly that vocab.txt (see `bundled.py`):
with it, tokens and ids offline are the real model's. RoBERTa (byte-level BPE) and ALBERT (SentencePiece) have
vocabularies of their own, which nothing installed ships, so they get the stand-ins below.

How the vocabulary is made: the `tokenizers` library trains it, in a fraction of a second, on
`data/corpus.txt` (about 3 KB of English written for this project) with the family's algorithm: WordPiece for
BERT, DistilBERT and ELECTRA (lower-cased, `##` marks a piece inside a word), byte-level BPE for RoBERTa (`Ġ`
marks a leading space; any byte can be encoded, so nothing is unknown), and Unigram for ALBERT (lower-cased,
`▁` marks a leading space). The special tokens come first, in the family's id order, so [PAD]/<pad> gets the
config's pad id. The learnt vocabulary is then handed to the family's own transformers tokenizer class, which
applies the real conventions: [CLS] A [SEP] B [SEP] or <s> A </s></s> B </s>, token types, lower-casing.

Common words come out whole and rarer words split into pieces, as with the real vocabularies, but the ids are
not the real model's ids and the vocabulary is only a few hundred entries: words and characters that the
corpus lacks become the unknown token (WordPiece, Unigram).

The trainers are not deterministic across processes (ties break in hash-map order), and a shared link must
show the same ids every time, so the trained vocabularies are shipped in `data/offline_vocab/<kind>.json`
and loaded from there. Regenerate them after changing the corpus: `python -m bertviz_lite.loading.offline_tokenizer`.
"""
from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import transformers
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

from ..families import TokenizerRecipe

VOCAB_SIZE = 1000  # the corpus saturates well before this: every word it holds ends up whole


def corpus_lines() -> list[str]:
    text = resources.files(__package__).joinpath("data", "corpus.txt").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip()]


def _unknown(recipe: TokenizerRecipe) -> str | None:
    return next((t for t in recipe.special_tokens if "unk" in t.lower()), None)


def _trained_model(recipe: TokenizerRecipe) -> dict:
    """Train the recipe's algorithm on the corpus; return the model part of tokenizer.json (vocab, merges)."""
    specials = list(recipe.special_tokens)
    if recipe.kind == "wordpiece":
        tok = Tokenizer(models.WordPiece(unk_token=_unknown(recipe)))
        tok.normalizer = normalizers.BertNormalizer(lowercase=recipe.lowercase)
        tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        trainer = trainers.WordPieceTrainer(vocab_size=VOCAB_SIZE, special_tokens=specials, show_progress=False)
    elif recipe.kind == "bpe":
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        trainer = trainers.BpeTrainer(vocab_size=VOCAB_SIZE, special_tokens=specials, show_progress=False,
                                      initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    elif recipe.kind == "unigram":
        tok = Tokenizer(models.Unigram())
        tok.normalizer = normalizers.Lowercase() if recipe.lowercase else None
        tok.pre_tokenizer = pre_tokenizers.Metaspace()
        trainer = trainers.UnigramTrainer(vocab_size=VOCAB_SIZE, special_tokens=specials, unk_token=_unknown(recipe),
                                          show_progress=False)
    else:
        raise ValueError(f"unknown tokenizer kind {recipe.kind!r}")
    tok.train_from_iterator(corpus_lines(), trainer)
    return json.loads(tok.to_str())["model"]


def _vocab_file(recipe: TokenizerRecipe):
    return resources.files(__package__).joinpath("data", "offline_vocab", f"{recipe.vocabulary_name}.json")


def shipped_model(recipe: TokenizerRecipe) -> dict:
    """The trained vocabulary (and merges) shipped for the recipe's kind."""
    learnt = json.loads(_vocab_file(recipe).read_text(encoding="utf-8"))
    tokens = [v[0] for v in learnt["vocab"]] if recipe.kind == "unigram" else sorted(learnt["vocab"],
                                                                                     key=learnt["vocab"].get)
    assert tokens[: len(recipe.special_tokens)] == list(recipe.special_tokens), "regenerate the vocabularies"
    return learnt


def regenerate(only: tuple[str, ...] = ()) -> None:
    """Train every recipe's vocabulary (or those named in `only`) on the corpus again and write the shipped files.
    Shared links show other ids afterwards: regenerate a vocabulary only when its corpus or recipe changed."""
    from ..families import FAMILIES

    for name, recipe in {family.tokenizer.vocabulary_name: family.tokenizer for family in FAMILIES}.items():
        if only and name not in only:
            continue
        path = Path(str(_vocab_file(recipe)))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(_trained_model(recipe), ensure_ascii=False, indent=0), encoding="utf-8")
        print(f"wrote {path}")


def uncased_tokenizer(recipe: TokenizerRecipe, vocab_file: Path, max_tokens: int):
    """The family's tokenizer class over the real uncased vocab.txt (lower-casing and accent stripping, as
    bert-base-uncased's tokenizer does). MPNet's vocabulary is the same pieces between its own special tokens:
    `<s> <pad> </s> <unk>`, then BERT's 30,522 pieces unchanged, then `<mask>`."""
    assert recipe.kind == "wordpiece", f"{recipe.tokenizer_class} does not read a WordPiece vocab.txt"
    cls = getattr(transformers, recipe.tokenizer_class)
    pieces = vocab_file.read_text(encoding="utf-8").splitlines()
    if set(recipe.special_tokens) <= set(pieces):  # BERT's own special tokens: the file as it is
        return cls(vocab=str(vocab_file), do_lower_case=True, model_max_length=max_tokens)
    pieces = [*recipe.special_tokens, *pieces, *recipe.trailing]
    return cls(vocab={piece: i for i, piece in enumerate(pieces)}, do_lower_case=True, model_max_length=max_tokens)


def build_tokenizer(recipe: TokenizerRecipe, max_tokens: int):
    """A tokenizer of the recipe's family class, with the shipped vocabulary trained on the project's corpus;
    the recipe's trailing special tokens after it, and its fixed-id special tokens at their ids."""
    learnt = shipped_model(recipe)
    if recipe.special_ids:
        return _fixed_id_tokenizer(recipe, learnt, max_tokens)
    cls = getattr(transformers, recipe.tokenizer_class)
    if recipe.kind == "wordpiece":
        vocab = dict(learnt["vocab"], **{t: len(learnt["vocab"]) + i for i, t in enumerate(recipe.trailing)})
        return cls(vocab=vocab, do_lower_case=recipe.lowercase, model_max_length=max_tokens)
    if recipe.kind == "bpe":
        return cls(vocab=learnt["vocab"], merges=_merges(learnt), model_max_length=max_tokens)
    pieces = [tuple(piece) for piece in learnt["vocab"]] + [(t, 0.0) for t in recipe.trailing]
    return cls(vocab=pieces, do_lower_case=recipe.lowercase, model_max_length=max_tokens)


def _merges(learnt: dict) -> list[tuple[str, str]]:
    return [tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in learnt["merges"]]


def _fixed_id_tokenizer(recipe: TokenizerRecipe, learnt: dict, max_tokens: int):
    """Byte-level BPE with its special tokens at the ids the config names (ModernBERT: [CLS] 50281, [SEP] 50282,
    [PAD] 50283; EuroBERT: <|begin_of_text|> 128000, ...: far past the stand-in's few hundred pieces), and the
    recipe's start and end tokens around each text (cls A sep B sep), as a fast tokenizer."""
    assert recipe.kind == "bpe", "fixed special ids are made for byte-level BPE"
    ids, roles = dict(recipe.special_ids), dict(recipe.roles)
    tok = Tokenizer(models.BPE(vocab={**learnt["vocab"], **ids}, merges=_merges(learnt)))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens(list(ids))
    cls, sep = roles["cls_token"], roles["sep_token"]
    tok.post_processor = processors.TemplateProcessing(single=f"{cls} $A {sep}", pair=f"{cls} $A {sep} $B:1 {sep}:1",
                                                       special_tokens=[(cls, ids[cls]), (sep, ids[sep])])
    return transformers.PreTrainedTokenizerFast(tokenizer_object=tok, model_max_length=max_tokens, **roles)


if __name__ == "__main__":
    import sys

    regenerate(tuple(sys.argv[1:]))  # names of vocabularies (e.g. unigram-cased), or none for all
