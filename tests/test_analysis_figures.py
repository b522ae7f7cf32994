"""A typed sentence's Rollout and Contributions figures on a live site are the app's own (export/analysis_figures.py):
each template, filled in Python as the site's browser fills it (frontend/test/matrices.test.js holds the browser's
filling to these), is the figure the app's page draws and styles (analyses/page_views.py, export/screens.py
for_screens) for the same numbers, leaf for leaf, on a browser's screen, a projector and a phone, at the lengths where
a form begins and ends, with escaped, long and special tokens."""
import numpy as np
import pytest

from bertviz_lite.analyses.page_views import (CONTRIBUTION_PANEL_PX, CONTRIBUTION_VIEWS, MIXTURE_TITLE,
                                              ROLLOUT_TITLE, contribution_panel, mixing_figure, rollout_matrix,
                                              rollout_mixture)
from bertviz_lite.export.analysis_figures import analysis_templates
from bertviz_lite.export.screens import HALF_PX, WIDE_PX, places, styled_at
from bertviz_lite.figures.style import labelled, plotly_text
from bertviz_lite.figures.template import filled, value_of
from test_matrix_templates import same, tokens

LAYERS = 3
TEMPLATES = analysis_templates(LAYERS, ["norm", "norm_residual"])  # a pre-norm model's views (no LayerNorm view)


def form_for(kind: str, names: dict) -> dict:
    return next(form for form in TEMPLATES[kind] if value_of(form["when"], names))


@pytest.mark.parametrize("n", [1, 5, 16, 17, 24, 25, 32, 33, 64, 65, 256, 257, 512])
def test_a_rollout_and_a_mixture_are_the_apps(n):
    rng = np.random.default_rng(n)
    rollout = rng.dirichlet(np.ones(n), size=(LAYERS, n)).astype(np.float32)  # (L, T, T)
    labels = labelled(tokens(n))
    names = {"z": rollout[1].astype(np.float64), "labels": labels, "title": ROLLOUT_TITLE.format(layer=1),
             "colorbar": "share of input", "scale": "share", "chosen": None}
    token = n - 1
    mixture = {"z": rollout[:, token].astype(np.float64), "labels": labels,
               "title": MIXTURE_TITLE.format(token=plotly_text(tokens(n)[token]))}
    for screen, place in places(WIDE_PX).items():
        app = styled_at(rollout_matrix(rollout[1], tokens(n), 1), place)
        assert not same(filled(form_for("rollout", names)[screen], names), app), (n, screen)
        app = styled_at(rollout_mixture(rollout[:, token], tokens(n), token), place)
        assert not same(filled(form_for("mixture", mixture)[screen], mixture), app), (n, screen)


@pytest.mark.parametrize("n", [1, 5, 16, 17, 24, 25, 40, 64, 65, 130, 512])
def test_a_contributions_panel_is_the_apps(n):
    rng = np.random.default_rng(n)
    for view in CONTRIBUTION_VIEWS:
        matrix = (rng.random((n, n)) * (1 if view == "attention" else 40)).astype(np.float32)
        names = {"z": matrix.astype(np.float64), "labels": labelled(tokens(n)), "view": view}
        for screen, place in places(HALF_PX, CONTRIBUTION_PANEL_PX).items():
            app = styled_at(contribution_panel(view, matrix, tokens(n)), place)
            assert not same(filled(form_for("panel", names)[screen], names), app), (n, view, screen)


def test_the_mixing_ratios_are_the_apps():
    ratios = {"attention": [0.2, 0.5, 0.9], "norm": [0.1, 0.3, 0.2], "norm_residual": [0.05, 0.1, 0.4],
              "norm_residual_ln": None}
    for screen, place in places(WIDE_PX).items():
        app = styled_at(mixing_figure(ratios), place)
        assert not same(filled(TEMPLATES["mixing"][screen], ratios), app), screen
