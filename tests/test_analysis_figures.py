"""A typed sentence's Rollout, Contributions, Similarity (its cosines and split), nearest pieces and residual
stream figures on a live site are the app's own (export/analysis_figures.py):
each template, filled in Python as the site's browser fills it (frontend/test/matrices.test.js holds the browser's
filling to these), is the figure the app's page draws and styles (analyses/page_views.py, export/screens.py
for_screens) for the same numbers, leaf for leaf, on a browser's screen, a projector and a phone, at the lengths where
a form begins and ends, with escaped, long and special tokens."""
import numpy as np
import pytest

from bertviz_lite.analyses.logit_lens import TOP
from bertviz_lite.analyses.page_views import (CONTRIBUTION_PANEL_PX, CONTRIBUTION_VIEWS, MIXTURE_TITLE, NEAREST_TITLE,
                                              PHONE_TOP, ROLLOUT_TITLE, contribution_panel, mixing_figure,
                                              nearest_figure, rollout_matrix, rollout_mixture)
from bertviz_lite.export.analysis_figures import (analysis_templates, cosine_row_templates, lens_templates,
                                                  split_forms)
from bertviz_lite.export.screens import CANVAS_PX, HALF_PX, WIDE_PX, places, styled_at
from bertviz_lite.export.tour import _stream_forms
from bertviz_lite.figures.charts import stream_changes
from bertviz_lite.figures.similarity import cosine_row
from bertviz_lite.figures.outputs import SPLIT_PX, pair_split_heatmap
from bertviz_lite.figures.style import labelled, plotly_text
from bertviz_lite.figures.template import filled, value_of
from bertviz_lite.tour.views import FIGURE_TITLES, LECTURE_PX
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


SPLITS = split_forms()


@pytest.mark.parametrize("n, m", [(1, 1), (4, 16), (16, 5), (17, 3), (30, 32), (33, 12), (8, 33), (40, 70)])
def test_a_similarity_split_is_the_apps(n, m):
    rng = np.random.default_rng(n * 100 + m)
    pairs = (rng.standard_normal((n, m)) / (n * m)).astype(np.float32)
    names = {"z": pairs.astype(np.float64), "rows": labelled(tokens(n)), "columns": labelled(tokens(m)[::-1]),
             "title": "Each pair's share of cosine(yours, 2) = 0.613"}
    form = next(form for form in SPLITS if value_of(form["when"], names))
    for screen, place in places(CANVAS_PX, SPLIT_PX).items():
        app = styled_at(pair_split_heatmap(pairs, tokens(n), tokens(m)[::-1], names["title"]), place)
        assert not same(filled(form[screen], names), app), (n, m, screen)


@pytest.mark.parametrize("layers", [1, 6, 12])
def test_the_nearest_pieces_are_the_apps(layers):
    rng = np.random.default_rng(layers)
    pieces = [[f"{'<s>' if k == 1 else '##wordpiece' if k == 2 else 'w'}{k}{layer}" for k in range(TOP)]
              for layer in range(layers + 1)]
    cosines = rng.uniform(-0.2, 1.0, (layers + 1, TOP))
    found = [list(zip(row, values.tolist())) for row, values in zip(pieces, cosines)]
    templates = lens_templates(layers, TOP, PHONE_TOP)
    for screen, place in places().items():
        shown = PHONE_TOP if screen == "phone" else TOP
        names = {"pieces": [row[:shown] for row in pieces], "z": cosines[:, :shown].astype(np.float32).astype(float),
                 "title": NEAREST_TITLE.format(position=3, token="&lt;s&gt;")}
        app = styled_at(nearest_figure([top[:shown] for top in found], 3, "<s>"), place)
        assert not same(filled(templates[screen], names), app), (layers, screen)


@pytest.mark.parametrize("n", [1, 5, 32, 33, 130])
def test_the_tour_residual_stream_is_the_apps(n):
    rng = np.random.default_rng(n)
    cosines = rng.uniform(0.35 if n % 2 else 0.93, 1.0, (LAYERS, n)).astype(np.float32)
    forms = _stream_forms(LAYERS)
    names = {"z": cosines.astype(np.float64), "labels": labelled(tokens(n))}
    form = next(form for form in forms if value_of(form["when"], names))
    for screen, place in places(tallest=LECTURE_PX).items():
        app = styled_at(stream_changes(cosines, tokens(n), FIGURE_TITLES["stream"]), place)
        assert not same(filled(form[screen], names), app), (n, screen)


@pytest.mark.parametrize("count", [1, 4])
def test_a_typed_sentences_cosines_are_the_apps_row(count):
    cosines = np.linspace(-0.2, 0.95, count).astype(np.float32)
    names = {"z": cosines[None].astype(np.float64), "title": "cosine of mean of the last layer"}
    for screen, place in places().items():
        app = styled_at(cosine_row(cosines, "yours", names["title"]), place)
        assert not same(filled(cosine_row_templates(count, "yours")[screen], names), app), (count, screen)
