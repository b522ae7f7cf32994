"""How the tour's narrators tell of a step's numbers: their words as templates, and which numbers the words name as
a recipe (`Telling`), worked out by the same evaluator as a cell's explanation (`working.py`) in the app and in a
live site's browser; a row's story and a token's relation to another, which narrators share.

A narrator is declared with its templates (`tells`: `str.format` fields with Python's format specifications,
"{weight:.2f}") and builds, for a node, the sentences it says as expressions over the step (`step`: its array, the
chosen head's rows, the chosen token, its inputs): `say("row", weight=row[best])` is the template filled with that
number. The templates and the numbers they name are both declared once: a live site's browser is handed each
chapter's `Telling` and works it out for a sentence the reader typed, so a sentence changed here is changed there
too.

>>> @tells(size="{me} has {n} numbers.")
... def narrate_size(node, graph, module, say):
...     return Telling({}, (say("size", me=step.me, n=call("len", step.mine[step.token])),))
>>> narrate_size.said
{'size': '{me} has {n} numbers.'}
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from .recipe import X, call, tree_of, when


class _Step:
    """What a narrator reads of its chapter's step, as expressions: its array, the chosen head's part of it (`mine`,
    (T, ...)), the chosen token, where it is ("In layer 0, head 2"), its inputs, the number of heads and tokens."""

    array = X(["step"])
    mine = X(["mine"])
    token = X(["chosen"])
    where = X(["where"])
    head = X(["head"])  # the step's own head that the chosen query head reads (a key/value head, grouped-query)
    heads = X(["heads"])
    tokens = X(["length"])  # how many tokens the sentence has

    @staticmethod
    def input(k: int) -> X:
        return X(["input", k])

    @staticmethod
    def tok(position) -> X:
        """A token as the narrators name it: 'bank'."""
        return call("tok", position)

    @property
    def me(self) -> X:
        return self.tok(self.token)


step = _Step()


@dataclass(frozen=True)
class Telling:
    """A chapter's sentences: names bound in order (`let`), then each sentence's expression (one that gives null is
    not said)."""

    let: dict[str, X]
    sentences: tuple[X, ...]

    def to_json(self) -> dict:
        return {"let": [[k, tree_of(v)] for k, v in self.let.items()], "sentences": [tree_of(s) for s in self.sentences]}


def said(template: str, **fields) -> X:
    """The template filled with `fields` (expressions) and the names bound so far."""
    return X(["fmt", template, {k: tree_of(v) for k, v in fields.items()}])


def tells(**templates: str) -> Callable[[Callable], Callable]:
    """A narrator `narrator(node, graph, module, say)` told in `templates`; the narrator made of it takes the node,
    its graph and its module and gives its `Telling`, and keeps its templates as `.said` (by name)."""
    def made(narrator: Callable) -> Callable:
        @functools.wraps(narrator)
        def narrate(node, graph, module) -> Telling:
            return narrator(node, graph, module, lambda name, **fields: said(templates[name], **fields))

        narrate.said = dict(templates)
        return narrate
    return made


RELATION = {"itself": ", itself", "before": ", the token before it", "after": ", the token after it",
            "far_before": ", {distance} tokens before it", "far_after": ", {distance} tokens after it"}  # key j from
# query i


def relation(i, j) -> X:
    """Which of RELATION's words say where key j lies from query i."""
    far = when(j < i, said(RELATION["far_before"], distance=call("abs", i - j)),
               said(RELATION["far_after"], distance=call("abs", i - j)))
    return when(j == i, RELATION["itself"], when(j == i - 1, RELATION["before"], when(j == i + 1, RELATION["after"], far)))


def by_distance() -> X:
    """Whether the step's rows are relative distances (DeBERTa's position queries and keys), not tokens."""
    return when(call("ndim", step.mine) == 2, call("len", step.mine) != step.tokens, False)


def told_row() -> X:
    """The row a narrator tells of: the chosen token's, or where the rows are distances (δ = -k .. k-1), the row of
    the distance a token has to the token before it."""
    return when(by_distance(), call("len", step.mine) // 2 + 1, step.token)


ROW_STORY = {"row": "{where}, {what} of {whose}: {size} numbers, from {low:.2f} to {high:.2f}; the largest is number "
                    "{top} ({largest:.2f}{unit}).",
             "distance": "distance δ = 1 (a key one token before its query)"}  # whose row, where rows are distances
SHAPE = "Its shape: {shape}."  # a step with no row to tell of: its shape as a Python tuple


def whose() -> X:
    """Whose row the narrator tells of: the chosen token, or the distance row (`told_row`)."""
    return when(by_distance(), ROW_STORY["distance"], step.me)


def row_story(what: str, unit: str = "") -> X:
    row = call("flat", step.mine[told_row()])
    return said(ROW_STORY["row"], where=step.where, what=what, whose=whose(), size=call("size", row),
                low=call("min_of", row), high=call("max_of", row), top=call("argmax", row),
                largest=row[call("argmax", row)], unit=unit)


def plain(node, graph, module) -> Telling:
    """A step with no narrator of its own: its row's story where it has rows, else its shape."""
    if len(node.axes) - node.has_head_axis == 2:
        return Telling({}, (row_story(node.title),))
    return Telling({}, (said(SHAPE, shape=call("shape_text", step.array)),))


TOKEN = "'{token}'"  # a token as the narrators name it


def quoted(token: str) -> str:
    return TOKEN.format(token=token)


TELLING = {"relation": RELATION, "row_story": ROW_STORY, "shape": SHAPE, "token": TOKEN}  # what narrators share
