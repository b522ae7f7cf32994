"""Every page's identity, declared once: its file, URL path, title and icon, the URL keys it reads (with their
defaults), and its place in the default lecture. The navigation (app.py), the view in the URL (state.py) and the
lecture's "Next" (lecture.py) all read it.

The default lecture is the views an "Inside BERT" lecture shows, in order, across the pages. Each stop names its
page and the URL keys that set its view; the model and the sentence are not among them, so one sentence on one
model runs through the whole lecture, whichever the lecturer picked. The guided tour is one stop (its own ◀ ▶ walk
the chapters); the others are the pages that show what the tour only names.

>>> [stop.page.path for stop in LECTURE][:3]
['tokens', 'tour', 'layers']
>>> following("attention", {"view": "model", "layer": 2}).page.title
'Heads'
>>> following("", {}).title
'The text becomes tokens'
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from bertviz_lite.analyses.contexts import DEFAULT_CONTEXTS
from bertviz_lite.analyses.page_views import DEFAULTS
from bertviz_lite.attributing.words import DEFAULT_BASELINE, DEFAULT_STEPS
from bertviz_lite.tour.lecture import DEFAULT_OTHER, LECTURE_SENTENCES, LECTURE_STOPS
from bertviz_lite.tour.page_names import PAGE_NAMES

DEFAULT_TEXT = "she sat on the river bank and watched the kayakers"  # a sense to choose ("bank"), a word in pieces
DEFAULT_SENTENCES = "\n".join(LECTURE_SENTENCES)
LAYER, HEAD, TOKEN = ({key: DEFAULTS[key]} for key in ("layer", "head", "token"))  # keys several pages read
STEP = {"step": "attn.probs"}
WORD_LEVEL = {"words": False}
EDITS = {"off": "", "mask": "", "zero": ""}  # an intervention: heads off (layer.head), tokens masked, values zeroed


@dataclass(frozen=True)
class Page:
    file: str  # its script under app_pages/, without ".py"
    path: str  # its URL path ("" for the first page)
    title: str
    icon: str
    keys: Mapping[str, object] = field(default_factory=dict)  # the URL keys it reads, with their defaults

    @property
    def script(self) -> str:
        return f"app_pages/{self.file}.py"


def _page(file: str, icon: str, *keys: dict, path: str | None = None) -> Page:
    """A page named as everywhere else (tour/page_names.py)."""
    path = file if path is None else path
    return Page(file, path, PAGE_NAMES[path], f":material/{icon}:",
                MappingProxyType({k: v for part in keys for k, v in part.items()}))


OVERVIEW = _page("overview", "home", path="")
TOUR = _page("tour", "school", LAYER, HEAD, TOKEN, {"chapter": "1"})
ARCHITECTURE = _page("architecture", "account_tree")
TOKENS = _page("tokens", "abc")
LAYERS = _page("layers", "layers", LAYER, HEAD, STEP, WORD_LEVEL, EDITS, {"cell": ""})
ATTENTION = _page("attention", "timeline", LAYER, HEAD, STEP, WORD_LEVEL,
                  {"view": "head", "heads": "", "focus": "", "filter": "All", "horizontal": False})
SIMILARITY = _page("similarity", "compare_arrows", WORD_LEVEL, {"sentences": DEFAULT_SENTENCES, "why": ""})
CONTEXTS = _page("contexts", "alt_route", dict(zip(("sentence_a", "sentence_b", "word"), DEFAULT_CONTEXTS)))
COMPARE = _page("compare", "splitscreen", HEAD, {"model_b": "distilbert-base-uncased", "depth": "0.5"})
HEADS = _page("heads", "grid_view", LAYER, HEAD, STEP, {"stat": DEFAULTS["stat"]})
ROLLOUT = _page("rollout", "stacked_line_chart", LAYER, TOKEN, WORD_LEVEL)
CONTRIBUTIONS = _page("contributions", "join_inner", LAYER, WORD_LEVEL, {"norm": ""})
LENS = _page("lens", "visibility", {"position": DEFAULTS["position"]})
INTERVENE = _page("intervene", "science", LAYER, HEAD, EDITS, {"vz": False})
ATTRIBUTE = _page("attribute", "insights", {"target": "similarity", "other": DEFAULT_OTHER, "piece": "", "method": "ig",
                                            "steps": DEFAULT_STEPS, "baseline": DEFAULT_BASELINE, "norms": False,
                                            "faithful": False})

PAGES = (OVERVIEW, TOUR, ARCHITECTURE, TOKENS, LAYERS, ATTENTION, SIMILARITY, CONTEXTS, COMPARE, HEADS, ROLLOUT,
         CONTRIBUTIONS, LENS, INTERVENE, ATTRIBUTE)  # in the navigation's order (tour/page_names.py's)
SHARED_KEYS = MappingProxyType({"model": None, "task": "base", "text": DEFAULT_TEXT, "pair": "", "ask": "", "hall": "",
                                "lecture": False})
# every page's (the model's default is the app's: state.py); in a link, lecture=1 comes last. `ask` and `hall` are
# text, so that a value that is not 1 or 0 is told, not taken for 0 (shell/asking.py)


@dataclass(frozen=True)
class Stop:
    page: Page
    title: str
    keys: tuple[tuple[str, str], ...] = ()  # the URL keys that set the view, as in a link


LECTURE = tuple(Stop(next(p for p in PAGES if p.path == path), title, keys) for path, title, keys in LECTURE_STOPS)
# the default lecture (bertviz_lite/tour/lecture.py, which an exported site's Next reads too)


def url_keys() -> dict[str, object]:
    """Every URL key with its default, in a link's order: the shared ones, each page's (a key two pages read has
    one default), lecture mode last."""
    keys = {key: default for key, default in SHARED_KEYS.items() if key != "lecture"}
    for page in PAGES:
        for key, default in page.keys.items():
            if keys.setdefault(key, default) != default:
                raise ValueError(f"{page.title} gives {key!r} the default {default!r}; another page gives "
                                 f"{keys[key]!r}")
    return {**keys, "lecture": SHARED_KEYS["lecture"]}


def _shows(stop: Stop, path: str, state: Mapping) -> bool:
    return stop.page.path == path and all(str(state.get(key)) == value for key, value in stop.keys)


def position(path: str, state: Mapping) -> int | None:
    """Where the reader is in the lecture: the last stop on this page that the state shows, else the page's first
    stop, else None (a page the lecture does not visit)."""
    exact = [i for i, stop in enumerate(LECTURE) if _shows(stop, path, state)]
    on_page = [i for i, stop in enumerate(LECTURE) if stop.page.path == path]
    return (exact or on_page or [None])[-1 if exact else 0]


def following(path: str, state: Mapping) -> Stop | None:
    """The stop after the reader's; the first from a page the lecture does not visit; None after the last."""
    here = position(path, state)
    after = 0 if here is None else here + 1
    return LECTURE[after] if after < len(LECTURE) else None
