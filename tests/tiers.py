"""The test pyramid: what `pytest` runs by default, what CI adds (`pytest -m "not matrix"`) and what only
`pytest -m ""` runs.

The default suite touches every module of the package and every page in minutes: each family once through the API,
one family (BERT's tiny model) through every page, the readability check's subset in Chromium, the command line in
process. Four markers, registered in pyproject.toml, set the rest apart:

- `slow`: the same checks again over more families, lengths, presets and views (every family through every page,
  the readability check's sample of its matrix, the presets at their caps, the benchmark's short run);
- `browser`: journeys through the app in Chromium (clicks, ◀ ▶, a lecture's Next, downloads);
- `server`: the app, replicas behind HAProxy or fresh virtual environments started as processes;
- `matrix`: what CI samples of a matrix and leaves to a run by hand (`pytest -m matrix`): the readability check's
  views beyond its sample (tests/test_readability.py `sampled`), the site's views at its longer length
  (tests/test_export_readability.py), a typed sentence's views at the default lecture's length
  (tests/test_export_live.py), the families beyond SAMPLED_FAMILIES of the tests that export a site or a model per
  family, and the benchmark's short run (tests/test_cli.py).
"""
from __future__ import annotations

import pytest

from tiny_models import FAMILY_SPECS, NEW_FAMILY_SPECS

slow, browser, server = pytest.mark.slow, pytest.mark.browser, pytest.mark.server
EVERY_FAMILY = [*FAMILY_SPECS, *NEW_FAMILY_SPECS]


def first_by_default(values, ids=None) -> list:
    """pytest parameters of `values`: the first runs in the default suite, every other is marked slow."""
    return [pytest.param(value, marks=() if i == 0 else slow, id=None if ids is None else ids[i])
            for i, value in enumerate(values)]


def each_family(default: str = "bert") -> list:
    """Every family's name as pytest parameters, `default` first and alone in the default suite."""
    return first_by_default([default, *(name for name in EVERY_FAMILY if name != default)])


# The family whose layers differ most from BERT's (relative positions: three score terms, their own position steps);
# ModernBERT (pre-norm, rotary and local attention, a byte-level vocabulary) and EuroBERT (grouped queries) were
# sampled too until CI passed its 60 minutes (2026-11-27): they run with the matrix, by hand, as the other families
SAMPLED_FAMILIES = ("deberta-v2",)


def sampled_families(default: str = "bert", skip: tuple[str, ...] = ()) -> list:
    """each_family for a test that exports a site or a model per family (a minute each): `default` in the default
    suite, SAMPLED_FAMILIES slow (CI runs them), every other family `matrix` too (by hand: pytest -m matrix)."""
    names = [default, *(name for name in EVERY_FAMILY if name not in (default, *skip))]
    return [pytest.param(name, marks=() if name == default else (slow,) if name in SAMPLED_FAMILIES
                         else (slow, pytest.mark.matrix)) for name in names]
