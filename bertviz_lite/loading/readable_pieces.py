"""Vocabulary pieces as a reader should see them.

A byte-level BPE vocabulary (RoBERTa, ModernBERT, EuroBERT, GPT-2's) stores every byte as a printable letter:
a space is `Ġ`, a newline `Ċ`, and "é" is the two letters `Ã©`. On a projector "Ġis" reads as a strange word. The
app shows each such piece decoded by the tokenizer's own byte-level decoder (the `tokenizers` library's), with a
space drawn as `▁`, as SentencePiece vocabularies (ALBERT, DeBERTa-v3, XLM-R) write it, so that one mark means
"a word starts here" in every family. A newline is `↵`, a tab `⇥`. A piece that holds only part of a character's
bytes (an emoji, a CJK character split in two) shows those bytes in hex, `<F0 9F>`, where the decoder would give
`�` to each and a row of them could not be told apart. Special tokens and other vocabularies are shown as they
are. The Tokens page says so and keeps the raw pieces in a column beside.

>>> from tokenizers import decoders
>>> class Bpe:
...     all_special_tokens = ["<s>"]
...     class backend_tokenizer: decoder = decoders.ByteLevel()
>>> shown = readable_pieces(Bpe(), ["<s>", "Ġis", "ĠdÃ©jÃł", "Ċ", "ĠðŁ", None])
>>> [p and p.replace("\u00a0", " ") for p in shown]
['<s>', '▁is', '▁déjà', '↵', '▁<F0 9F>', None]
"""
from __future__ import annotations

import codecs
from functools import cache

from tokenizers import decoders

DRAWN = str.maketrans({" ": "▁", "\n": "↵", "\t": "⇥"})
codecs.register_error("bytes_in_hex", lambda e: ("<" + "\u00a0".join(f"{b:02X}" for b in e.object[e.start:e.end])
                                                 + ">", e.end))  # a partial character's bytes: <F0 9F> (no-break
# spaces, which DRAWN leaves alone)


def is_byte_level(tokenizer) -> bool:
    """Whether the tokenizer's vocabulary writes bytes as letters (its decoder is, or contains, ByteLevel)."""
    decoder = getattr(getattr(tokenizer, "backend_tokenizer", None), "decoder", None)
    return decoder is not None and "ByteLevel" in repr(decoder)


def readable_pieces(tokenizer, pieces: list[str | None]) -> list[str | None]:
    """`pieces` (as `convert_ids_to_tokens` gives them) as the app shows them: see the module's docstring."""
    if not is_byte_level(tokenizer):
        return list(pieces)
    decoder, specials = decoders.ByteLevel(), set(tokenizer.all_special_tokens)
    return [piece if piece is None or piece in specials else _shown(piece, decoder) for piece in pieces]


def _shown(piece: str, decoder) -> str:
    """The tokenizers library's decoding; where it gives � for bytes that are part of a character, the bytes."""
    text = decoder.decode([piece])
    if "\ufffd" in text and "\ufffd" not in piece:
        text = bytes(_byte_of()[c] for c in piece).decode("utf-8", errors="bytes_in_hex")
    return text.translate(DRAWN)


@cache
def _byte_of() -> dict[str, int]:
    """The byte each letter of a byte-level vocabulary stands for (GPT-2's table, as transformers builds it)."""
    from transformers.convert_slow_tokenizer import bytes_to_unicode

    return {letter: byte for byte, letter in bytes_to_unicode().items()}
