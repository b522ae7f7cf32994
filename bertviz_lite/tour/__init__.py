"""The guided tour: the model's chapters in the order it computes (`chapters.py`) and what is said about each,
with this sentence's own numbers (`narration.py`), and the figure each shows (`views.py`)."""
from .chapters import NO_CHAPTER, Chapter, chapters
from .narration import narrate
from .views import chapter_figure

__all__ = ["NO_CHAPTER", "Chapter", "chapter_figure", "chapters", "narrate"]
