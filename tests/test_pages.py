"""Every page's identity is declared once (app_pages/shell/pages.py), and it declares every URL key it reads: a
key read but not declared would have no default and would not reach the link."""
import re
from pathlib import Path

import pytest

from app_pages.shell.pages import PAGES, SHARED_KEYS, url_keys
from bertviz_lite.tour.page_names import PAGE_NAMES, site_pages

ROOT = Path(__file__).resolve().parents[1]
READS = re.compile(r"session_state\.([a-z][a-z_]*)\b|session_state\[\"([a-z][a-z_]*)\"\]|bind\(\"([a-z_]+)\"\)|"
                   r"set_value\(\"([a-z_]+)\"|(word_toggle)\(")
STATE_METHODS = {"get", "pop", "update", "setdefault", "keys", "items", "to_dict"}


def keys_read(page) -> set[str]:
    """The URL keys a page's script (and, for Layers, its stepper) reads or sets."""
    files = [ROOT / page.script] + (sorted((ROOT / "app_pages" / "stepper").glob("*.py")) if page.file == "layers"
                                    else [])
    found = {name for path in files for match in READS.findall(path.read_text()) for name in match if name}
    found = {"words" if name == "word_toggle" else name for name in found}
    return found - STATE_METHODS


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.file)
def test_a_page_declares_every_url_key_it_reads(page):
    undeclared = keys_read(page) - set(page.keys) - set(SHARED_KEYS)
    assert not undeclared, f"{page.title} reads {sorted(undeclared)} without declaring them in pages.py"


def test_every_page_is_one_script_and_one_path_and_keys_agree_on_their_defaults():
    assert all((ROOT / page.script).is_file() for page in PAGES)
    assert len({page.path for page in PAGES}) == len({page.file for page in PAGES}) == len(PAGES)
    keys = url_keys()  # raises where two pages give one key different defaults
    assert set(keys) == set(SHARED_KEYS).union(*(page.keys for page in PAGES))


def test_the_apps_navigation_names_and_orders_its_pages_as_a_site_does():
    """One name per page (tour/page_names.py): the app's sidebar's, in its order; a site's navigation is the same
    less the two pages a site folds into its overview or cannot show (its router's links: test_export.py)."""
    assert [(page.path, page.title) for page in PAGES] == list(PAGE_NAMES.items())
    assert list(site_pages().values()) == [page.title for page in PAGES if page.path not in ("architecture", "compare")]
