"""Tokens as chips with their ids, and the word-level switch."""
from __future__ import annotations

import html

import streamlit as st

from bertviz_lite.figures.style import CHIP_B_OUTLINE, CHIP_COLOURS, CHIP_ID, CHIP_TEXT

from .lecture import scrolling_box
from .state import bind, projector

LECTURE_CHIPS = 24  # tokens a projector shows as chips whole, in a column, with a line or two of notes above
CHIPS_BOX_PX = 400  # the box more tokens scroll in


def token_chips(tokens: list[str], ids: list[int], sequence_ids: list[int | None], name: str = "tokens") -> None:
    """The word pieces as chips with their ids below, special tokens grey, sentence A blue, sentence B orange and
    outlined, dashed (its mark is not its colour alone); on a projector, more than a screen holds scroll inside a
    box of their own, said in a line (`name` tells the boxes of one page apart)."""
    box = scrolling_box(projector() and len(tokens) > LECTURE_CHIPS, name, CHIPS_BOX_PX, f"{len(tokens)} tokens")
    chips = "".join(
        f'<span style="display:inline-block;margin:3px;padding:4px 8px;border-radius:6px;'
        f'background:{CHIP_COLOURS[s]};font-family:monospace;font-size:1.15rem;color:{CHIP_TEXT};'
        f'border:2px {"dashed " + CHIP_B_OUTLINE if s == 1 else "solid transparent"}">'
        f'{html.escape(tok)}<sub style="color:{CHIP_ID};margin-left:4px">{tid}</sub></span>'
        for tok, tid, s in zip(tokens, ids, sequence_ids))
    box.html(f'<div style="line-height:2.2">{chips}</div>')


ATTENTION_TO_WORDS = ("Attention to a word is the sum over its pieces, attention from a word the mean over its pieces "
                      "(Clark et al. 2019).")


def word_toggle(how: str = ATTENTION_TO_WORDS) -> bool:
    """The word-level switch; True when word pieces are merged into words (`how`: in what way, for its help)."""
    st.toggle("Words, not word pieces", help=how, **bind("words"))
    return bool(st.session_state.words)

