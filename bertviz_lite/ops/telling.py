"""How the tour's narrators tell of a step's numbers: a row's story, a token's relation to another."""
from __future__ import annotations

import numpy as np


def relation(i: int, j: int) -> str:
    if j == i:
        return ", itself"
    if j == i - 1:
        return ", the token before it"
    if j == i + 1:
        return ", the token after it"
    return f", {abs(i - j)} tokens {'before' if j < i else 'after'} it"


def by_distance(s) -> bool:
    """Whether the step's rows are relative distances (DeBERTa's position queries and keys), not tokens."""
    return s.mine.ndim == 2 and s.mine.shape[0] != len(s.trace.tokens)


def row_story(s, what: str, unit: str = "") -> list[str]:
    if by_distance(s):  # rows δ = -k .. k-1: tell of the distance the chosen token has to the token before it
        row, whose = s.mine[s.mine.shape[0] // 2 + 1], "distance δ = 1 (a key one token before its query)"
    else:
        row, whose = s.mine[s.token], s.me
    row = np.asarray(row, dtype=np.float64).ravel()
    top = int(np.argmax(row))
    return [f"{s.where}, {what} of {whose}: {row.size} numbers, from {row.min():.2f} to {row.max():.2f}; the "
            f"largest is number {top} ({row[top]:.2f}{unit})."]


def plain(s) -> list[str]:
    if s.mine.ndim == 2:
        return row_story(s, s.node.title)
    return [f"Its shape: {tuple(s.array.shape)}."]
