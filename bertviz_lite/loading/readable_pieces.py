"""Vocabulary pieces as a reader should see them.

A byte-level BPE vocabulary (RoBERTa, ModernBERT, EuroBERT, GPT-2's) stores every byte as a printable letter:
a space is `Ġ`, a newline `Ċ`, and "é" is the two letters `Ã©`. On a projector "Ġis" reads as a strange word. The
app shows each such piece decoded by the tokenizer's own byte-level decoder (the `tokenizers` library's), with a
space drawn as `▁`, as SentencePiece vocabularies (ALBERT, DeBERTa-v3, XLM-R) write it, so that one mark means
"a word starts here" in every family. A newline is `↵`, a tab `⇥`; a piece that holds only part of a character's
bytes decodes to `�`. Special tokens and other vocabularies are shown as they are. The Tokens page says so and
keeps the raw pieces in a column beside.

>>> from tokenizers import decoders
>>> class Bpe:
...     all_special_tokens = ["<s>"]
...     class backend_tokenizer: decoder = decoders.ByteLevel()
>>> readable_pieces(Bpe(), ["<s>", "Ġis", "ĠdÃ©jÃł", "Ċ", None])
['<s>', '▁is', '▁déjà', '↵', None]
"""
from __future__ import annotations

from tokenizers import decoders

DRAWN = str.maketrans({" ": "▁", "\n": "↵", "\t": "⇥"})


def is_byte_level(tokenizer) -> bool:
    """Whether the tokenizer's vocabulary writes bytes as letters (its decoder is, or contains, ByteLevel)."""
    decoder = getattr(getattr(tokenizer, "backend_tokenizer", None), "decoder", None)
    return decoder is not None and "ByteLevel" in repr(decoder)


def readable_pieces(tokenizer, pieces: list[str | None]) -> list[str | None]:
    """`pieces` (as `convert_ids_to_tokens` gives them) as the app shows them: see the module's docstring."""
    if not is_byte_level(tokenizer):
        return list(pieces)
    decoder, specials = decoders.ByteLevel(), set(tokenizer.all_special_tokens)
    return [piece if piece is None or piece in specials else decoder.decode([piece]).translate(DRAWN)
            for piece in pieces]
