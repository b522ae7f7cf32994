"""What the lecture says around a question it asks before a figure (`words.py`), and how a hall's answers are
counted (`hall.py`). The questions themselves are the operations' and the tour's (ops/asking.py)."""
from .words import ASK_WORDS

__all__ = ["ASK_WORDS"]
