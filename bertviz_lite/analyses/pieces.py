"""Vocabulary pieces by id, for the views that rank the whole vocabulary (the logit lens, the nearest pieces).

A model's word table often has more rows than its tokenizer has pieces (nomic-embed-text: 30,528 rows for 30,522
pieces, padded to a multiple of 64): such a row is named by its id, "[id 30527]", never shown as "None".

>>> class Two:
...     def convert_ids_to_tokens(self, ids): return [["a", "b"][i] if i < 2 else None for i in ids]
>>> piece_names(Two(), [1, 5])
['b', '[id 5]']
"""
from __future__ import annotations

from ..loading.readable_pieces import readable_pieces


def piece_names(tokenizer, ids: list[int]) -> list[str]:
    """The pieces as the app shows them (`readable_pieces`: a byte-level "Ġis" is "▁is")."""
    return [piece if piece is not None else f"[id {i}]"
            for i, piece in zip(ids, readable_pieces(tokenizer, tokenizer.convert_ids_to_tokens(ids)))]
