"""A word in two contexts: how far apart the model puts the same word in two sentences, layer by layer.

Ethayarajh (2019), "How Contextual are Contextualized Word Representations?", measures how contextual a word's
representation is by the cosine similarity of its vectors in different contexts: identical vectors (cosine 1) are
not contextual at all; the lower the cosine, the more the context changed the word. Here, for one word and two
sentences (each run on its own):

- the word is found by its text, ignoring case, at its first occurrence in each sentence (a word is what the
  tokenizer's pre-tokenizer splits off; special tokens are never words);
- a word split into pieces is the mean of its pieces' vectors;
- the cosine is taken after the embeddings (hidden state 0) and after every layer (hidden state l).

Our choices where the paper leaves room: the first occurrence, and the mean of the pieces (Ethayarajh works with
whole-word vocabularies of ELMo, BERT and GPT-2 and does not say how pieces combine).

>>> cosine_rows(np.array([[1.0, 0.0], [1.0, 1.0]]), np.array([[1.0, 0.0], [1.0, -1.0]]))
[1.0, 0.0]
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..stepthrough.trace import Trace
from .word_level import word_groups

DEFAULT_CONTEXTS = ("i sat on the bank of the river", "i deposited money at the bank", "bank")  # sentences A and B
# and the word: the page's (and the lecture's) first view, a word of two senses
CAPTION = ("The cosine of the word's vector in sentence A and in sentence B (a word in pieces: the mean of its pieces; "
           "its first occurrence), after the embeddings and after every layer. 1 means the context changed nothing; "
           "the lower it falls, the more each sentence made the word its own. Ethayarajh (2019), “How Contextual are "
           "Contextualized Word Representations?”.")
MAX_WORD = 100  # characters of a word worth looking for; longer input is refused before any search
SHOWN = 40  # characters of an unknown word quoted back in a message


@dataclass(frozen=True, eq=False)
class WordInContexts:
    word: str
    tokens_a: list[str]
    tokens_b: list[str]
    pieces_a: list[int]  # the word's token positions in sentence A
    pieces_b: list[int]
    cosines: list[float]  # after the embeddings, then after each layer: L + 1 values

    def to_json(self) -> dict:
        return {"word": self.word, "tokens_a": self.tokens_a, "tokens_b": self.tokens_b,
                "pieces_a": self.pieces_a, "pieces_b": self.pieces_b, "layers": self.cosines}


def cosine_rows(a: np.ndarray, b: np.ndarray) -> list[float]:
    """Row-by-row cosine similarity of two (n, d) arrays, in float64."""
    a, b = a.astype(np.float64), b.astype(np.float64)
    return ((a * b).sum(axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))).tolist()


def sentence_words(trace: Trace) -> list[tuple[str, list[int]]]:
    """(word as its pieces spell it, its token positions) for every word of the trace, in order."""
    groups, labels = word_groups(trace)
    return [(label, group) for label, group in zip(labels, groups) if trace.word_ids[group[0]] is not None]


def shared_words(a: Trace, b: Trace) -> list[str]:
    """The words both sentences hold (ignoring case), in sentence A's order, each once."""
    in_b = {word.lower() for word, _ in sentence_words(b)}
    seen: dict[str, None] = {}
    for word, _ in sentence_words(a):
        if word.lower() in in_b:
            seen.setdefault(word.lower())
    return list(seen)


def _first(trace: Trace, word: str) -> list[int] | None:
    return next((group for label, group in sentence_words(trace) if label.lower() == word), None)


def word_in_contexts(a: Trace, b: Trace, word: str) -> WordInContexts:
    """The cosine of `word`'s vectors in sentence A and sentence B after the embeddings and after every layer."""
    if a.loaded is not b.loaded and a.loaded.source != b.loaded.source:
        raise InputError("Both sentences must run through the same model.")
    wanted = str(word or "").strip().lower()
    if not wanted:
        raise InputError(f"Type a word that occurs in both sentences. Words both sentences share: {_offer(a, b)}.")
    if len(wanted) > MAX_WORD or any(c.isspace() for c in wanted):
        raise InputError(f"Give one word of at most {MAX_WORD} characters, with no spaces. Words both sentences "
                         f"share: {_offer(a, b)}.")
    pieces_a, pieces_b = _first(a, wanted), _first(b, wanted)
    if pieces_a is None or pieces_b is None:
        where = "either sentence" if pieces_a is None and pieces_b is None else (
            "the first sentence" if pieces_a is None else "the second sentence")
        raise InputError(f"'{_quote(word)}' is not a word of {where}. Words both sentences share: {_offer(a, b)}.")
    vectors_a = a.hidden_states[:, pieces_a].mean(axis=1)  # (L + 1, d): the mean of the word's pieces
    vectors_b = b.hidden_states[:, pieces_b].mean(axis=1)
    return WordInContexts(wanted, a.tokens, b.tokens, pieces_a, pieces_b, cosine_rows(vectors_a, vectors_b))


def words_in_contexts(a: Trace, b: Trace, words: list[str]) -> list[WordInContexts]:
    """Several words at once, each as `word_in_contexts`; at most 8, each once."""
    unique = list(dict.fromkeys(w.strip().lower() for w in words if w and w.strip()))
    if len(unique) > 8:
        raise InputError(f"Follow at most 8 words at a time ({len(unique)} given).")
    return [word_in_contexts(a, b, w) for w in unique or [""]]


def _offer(a: Trace, b: Trace) -> str:
    shared = shared_words(a, b)
    return ", ".join(shared[:12]) + (" ..." if len(shared) > 12 else "") if shared else "(none)"


def _quote(word: str) -> str:
    word = str(word).strip()
    return word if len(word) <= SHOWN else word[:SHOWN] + "…"


def lines_title(words: list[str]) -> str:
    return f"{', '.join(words)} in two contexts, layer by layer"


def ends(results: list[WordInContexts]) -> str:
    """Each word's cosine after the embeddings and after the last layer."""
    return "After the embeddings → after the last layer: " + ", ".join(
        f"{r.word}: {r.cosines[0]:.3f} → {r.cosines[-1]:.3f}" for r in results) + "."
