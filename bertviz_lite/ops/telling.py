"""How the tour's narrators tell of a step's numbers: their words as templates, a row's story, a token's relation
to another.

A narrator's sentences are templates (`str.format` fields with Python's format specifications: "{weight:.2f}"),
named and declared with it (`tells`), and filled with the sentence's own numbers. The templates are the words'
one source: a live site's browser is handed them (export/tour.py `tour_words`) and fills them with the numbers it
computed for a sentence the reader typed, so a sentence changed here is changed there too.

>>> @tells(size="{me} has {n} numbers.")
... def narrate_size(s, say):
...     return [say("size", me="'fox'", n=4)]
>>> narrate_size(None), narrate_size.said
(["'fox' has 4 numbers."], {'size': '{me} has {n} numbers.'})
"""
from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

def tells(**templates: str) -> Callable[[Callable], Callable]:
    """A narrator `narrator(step, say)` told in `templates`; the narrator made of it takes the step alone, and keeps
    its templates as `.said` (by name) for the site."""
    def made(narrator: Callable) -> Callable:
        @functools.wraps(narrator)
        def narrate(s) -> list[str]:
            return narrator(s, lambda name, **values: templates[name].format(**values))

        narrate.said = dict(templates)
        return narrate
    return made


RELATION = {"itself": ", itself", "before": ", the token before it", "after": ", the token after it",
            "far_before": ", {distance} tokens before it", "far_after": ", {distance} tokens after it"}  # key j from
# query i


def relation(i: int, j: int) -> str:
    if j == i:
        return RELATION["itself"]
    if j == i - 1:
        return RELATION["before"]
    if j == i + 1:
        return RELATION["after"]
    return RELATION["far_before" if j < i else "far_after"].format(distance=abs(i - j))


def by_distance(s) -> bool:
    """Whether the step's rows are relative distances (DeBERTa's position queries and keys), not tokens."""
    return s.mine.ndim == 2 and s.mine.shape[0] != len(s.trace.tokens)


ROW_STORY = {"row": "{where}, {what} of {whose}: {size} numbers, from {low:.2f} to {high:.2f}; the largest is number "
                    "{top} ({largest:.2f}{unit}).",
             "distance": "distance δ = 1 (a key one token before its query)"}  # whose row, where rows are distances
SHAPE = "Its shape: {shape}."  # a step with no row to tell of: its shape as a Python tuple


def row_story(s, what: str, unit: str = "") -> list[str]:
    if by_distance(s):  # rows δ = -k .. k-1: tell of the distance the chosen token has to the token before it
        row, whose = s.mine[s.mine.shape[0] // 2 + 1], ROW_STORY["distance"]
    else:
        row, whose = s.mine[s.token], s.me
    row = np.asarray(row, dtype=np.float64).ravel()
    top = int(np.argmax(row))
    return [ROW_STORY["row"].format(where=s.where, what=what, whose=whose, size=row.size, low=row.min(),
                                    high=row.max(), top=top, largest=row[top], unit=unit)]


def plain(s) -> list[str]:
    if s.mine.ndim == 2:
        return row_story(s, s.node.title)
    return [SHAPE.format(shape=tuple(s.array.shape))]


TOKEN = "'{token}'"  # a token as the narrators name it


def quoted(token: str) -> str:
    return TOKEN.format(token=token)


TELLING = {"relation": RELATION, "row_story": ROW_STORY, "shape": SHAPE, "token": TOKEN}  # what narrators share
