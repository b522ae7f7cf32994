"""A question the lecture asks before it shows a figure (issue 57), made from the sentence's own numbers, declared as
data beside the narrator that tells of the same numbers (`Asking`, an op's `ask`) and worked out by the narrators'
evaluator (`working.py`), in the app and in a live site's browser alike.

An asking names its candidates' numbers (one per candidate: a row's weights, a layer's cosine, a prediction's
probability) and the words for a candidate; the question asked is the one the numbers decide:

- the right choice is the candidate the numbers rank first (the largest, or with `fewest` the smallest; among
  equal ones the first), and the wrong ones are the runners-up, never filler: up to `CHOICES` in all;
- a question whose first two are equal as shown (`shown`, the figure's precision) is not asked, nor one with
  fewer than `FEWEST` choices, nor one whose choices' words are not all different;
- the choices are listed in the candidates' own order (the sentence's, the layers'; or by `order`, a number per
  candidate), so the right one's place says nothing.

>>> from bertviz_lite.ops.recipe import call, var
>>> a = Asking({}, "Which is largest?", var.xs, None, call("str", var.k), "{value:.1f}")
>>> q = asked_over(a, {"xs": [0.2, 0.9, 0.5, 0.1]})
>>> [(c.label, c.number, c.right) for c in q.choices]
[('0', '0.2', False), ('1', '0.9', True), ('2', '0.5', False), ('3', '0.1', False)]
>>> asked_over(a, {"xs": [0.91, 0.94, 0.5]}) is None  # 0.9 and 0.9 as shown: a tie, not asked
True
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass

import numpy as np

from ..asking.words import ASK_WORDS
from .recipe import X, tree_of
from .working import bound, bound_over, evaluate

CHOICES = 4  # the most choices a question offers
FEWEST = 3  # a question with fewer real alternatives is not asked


@dataclass(frozen=True)
class Asking:
    """A question over a chapter's numbers. `let`: names bound in order; `question`: its sentence; `numbers`: one
    number per candidate (a vector); `allowed`: which candidates may be chosen (a mask, None: all); `label`: a
    candidate `k`'s words; `shown`: a number as the figure shows it ("{value:.2f}"); `fewest`: the smallest number
    is the right one; `line`: a choice's line when the answer is shown (`label`, `number`); `apart`: a label that
    another candidate shares, told apart (`label`, `k`); `decides`: the sentence said with the answer, with the
    right candidate bound as `right`; `order`: a number per candidate that lists the choices (None: the
    candidates' own order)."""

    let: dict[str, X]
    question: X | str
    numbers: X
    allowed: X | None
    label: X
    shown: str
    fewest: bool = False
    line: str = ASK_WORDS["line"]
    apart: str = ASK_WORDS["apart"]
    decides: X | str | None = None
    order: X | None = None

    def to_json(self) -> dict:
        return {"let": [[k, tree_of(v)] for k, v in self.let.items()], "question": tree_of(self.question),
                "numbers": tree_of(self.numbers), "allowed": tree_of(self.allowed), "label": tree_of(self.label),
                "shown": self.shown, "fewest": self.fewest, "line": self.line, "apart": self.apart,
                "decides": tree_of(self.decides), "order": tree_of(self.order)}


@dataclass(frozen=True)
class Choice:
    label: str
    number: str  # its number, as shown
    right: bool
    line: str  # what is said of it with the answer: its label and its number


@dataclass(frozen=True)
class Question:
    text: str
    choices: tuple[Choice, ...]  # in the candidates' order
    decides: str  # what the answer rests on, with its number

    @property
    def right(self) -> int:
        return next(i for i, c in enumerate(self.choices) if c.right)

    def to_json(self) -> dict:
        """As a site holds it (an exported sentence's; a typed one's is worked out in the browser alike)."""
        return {"text": self.text, "choices": [asdict(c) for c in self.choices], "decides": self.decides}

    def key(self, *about: str) -> str:
        """Who asks the same question: the same words and choices, about the same model and sentence (`about`).
        The hall's counts are kept under it; it names no one."""
        said = json.dumps([*about, self.text, [c.label for c in self.choices]], ensure_ascii=False)
        return hashlib.sha256(said.encode("utf-8")).hexdigest()[:24]


def asked(asking: Asking, s) -> Question | None:
    """The question `asking` makes of a chapter's step `s` (tour/narration.py Step or Stream), or None where its
    numbers do not decide one."""
    return _question(asking, s, bound(asking.let, s))


def asked_over(asking: Asking, names: dict) -> Question | None:
    """The question over named values alone (a chapter that is no step's: the masked-LM prediction's)."""
    return _question(asking, None, bound_over(asking.let, names))


def _question(asking: Asking, s, env: dict) -> Question | None:
    numbers = np.ravel(np.asarray(evaluate(tree_of(asking.numbers), s, env), np.float64))  # (candidates,)
    allowed = (np.ones(numbers.shape, bool) if asking.allowed is None
               else np.ravel(np.asarray(evaluate(tree_of(asking.allowed), s, env), bool)))
    ranked = [int(k) for k in np.argsort(numbers if asking.fewest else -numbers, kind="stable")
              if allowed[k] and np.isfinite(numbers[k])][:CHOICES]  # the right one first, then the runners-up
    if len(ranked) < FEWEST:
        return None
    shown = [asking.shown.format(value=float(numbers[k])) for k in ranked]
    if shown[0] == shown[1]:  # a tie as the figure shows it: the numbers do not decide
        return None
    labels = [str(evaluate(tree_of(asking.label), s, {**env, "k": k})) for k in ranked]
    labels = [asking.apart.format(label=label, k=k) if labels.count(label) > 1 else label
              for label, k in zip(labels, ranked)]
    if len(set(labels)) < len(labels):
        return None
    text = evaluate(tree_of(asking.question), s, env)
    decides = evaluate(tree_of(asking.decides), s, {**env, "right": ranked[0]}) if asking.decides else ""
    order = (np.arange(numbers.size, dtype=np.float64) if asking.order is None
             else np.ravel(np.asarray(evaluate(tree_of(asking.order), s, env), np.float64)))
    choices = sorted(zip(ranked, labels, shown), key=lambda c: (order[c[0]], c[0]))
    return Question(text, tuple(Choice(label, number, k == ranked[0], asking.line.format(label=label, number=number))
                                for k, label, number in choices), decides)
