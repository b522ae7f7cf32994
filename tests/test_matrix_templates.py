"""A step's matrix on a site is the app's own figure (export/matrices.py): each form's template, filled in Python
as a site's browser fills it (frontend/test/matrices.test.js holds the browser's filling to these), is the figure
the app draws and styles for the same sentence, leaf for leaf, on a browser's screen, a projector and a phone, at
every length a form draws (its ends and between), whatever the step's scale and chosen cell (in a window or out of
it), with escaped, long and special tokens; and on a projector under the tour's controls."""
import json

import numpy as np
import pytest

from bertviz_lite.export.matrices import LONGEST, STEPPER, matrix_templates
from bertviz_lite.export.screens import drawn, styled_at
from bertviz_lite.figures.charts import attention_heatmap, matrix_window
from bertviz_lite.figures.style import labelled
from bertviz_lite.figures.template import filled, value_of
from figure_json import differences, plain_figure

TEMPLATES = matrix_templates()


def tokens(n: int) -> list[str]:
    words = ["<s>" if i % 7 == 3 else f"Ġlonglonglongword{i}" if i % 5 == 0 else f"w{i}" for i in range(n)]
    return (["[CLS]", *words[: n - 2], "[SEP]"] if n > 1 else ["[CLS]"])


def form_for(kind: str, names: dict) -> dict:
    return next(form for form in TEMPLATES[kind] if value_of(form["when"], names))


def same(template_figure: dict, app_figure) -> list[str]:
    ours = json.loads(json.dumps(template_figure, default=lambda a: a.tolist()))
    return differences(plain_figure(ours), plain_figure(drawn(app_figure)))


@pytest.mark.parametrize("n", [1, 5, 16, 17, 32, 33, LONGEST, LONGEST + 1, 512])
def test_a_heads_matrix_is_the_apps_at_every_length(n):
    rng = np.random.default_rng(n)
    probs = rng.dirichlet(np.ones(n), size=n).astype(np.float32)
    for scale, z, chosen in ((None, probs, None), ("share", probs, (n - 1, 0)), ("signed", probs - 0.5, (0, n - 1))):
        z = z.astype(np.float32)
        if n > 1:
            z[0, 1] = np.nan  # a masked score
        names = {"z": z.astype(np.float64), "labels": labelled(tokens(n)), "title": "layer 1, head 2: Scores",
                 "colorbar": "score", "scale": scale, "chosen": None if chosen is None else list(chosen)}
        form = form_for("token", names)
        for screen, place in STEPPER.items():
            app = styled_at(attention_heatmap(z, tokens(n), names["title"], "score", chosen=chosen, scale=scale),
                            place)
            assert not same(filled(form[screen], names), app), (n, scale, screen)


@pytest.mark.parametrize("n", [1, 3, 32, 33, 200])
def test_a_window_of_dimensions_is_the_apps_at_every_length(n):
    rng = np.random.default_rng(n)
    for count, first, chosen in ((384, 0, None), (384, 320, (n - 1, 330)), (100, 64, (0, 99)), (384, 64, (0, 5))):
        array = (rng.standard_normal((n, count)) * 30).astype(np.float32)
        window = array[:, first:first + 64]
        names = {"z": window.astype(np.float64), "labels": labelled(tokens(n)), "title": "layer 0: Feed-forward",
                 "first": first, "count": count, "chosen": None if chosen is None else list(chosen)}
        form = form_for("window", names)
        for screen, place in STEPPER.items():
            app = styled_at(matrix_window(array, tokens(n), first, names["title"], chosen=chosen), place)
            assert not same(filled(form[screen], names), app), (n, count, first, screen)


def test_every_length_has_a_form():
    """Beyond LONGEST tokens a head's matrix is averaged over blocks of tokens (the last form, any length)."""
    for n in (1, LONGEST + 1, 5000):
        assert any(value_of(form["when"], {"labels": ["t"] * n}) for form in TEMPLATES["token"])
        assert any(value_of(form["when"], {"labels": ["t"] * n}) for form in TEMPLATES["window"])
