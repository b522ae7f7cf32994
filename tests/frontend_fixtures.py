"""What Python writes for the front end's unit tests (frontend/test, run by node): numbers as Python formats them
(format specs .Nf, .Ng, g, .Ne, z (no negative zero), +d, round, math.fsum) and as ops/worked.py's `num` and `plus` write them in the app's
formulas, and arrays as export/steps.py `packed` writes them into a site, with what numpy reads back from them. The
browser's numbers.js ports each of these; frontend/test/numbers.test.js holds it to these files character for
character.

`python tests/frontend_fixtures.py FOLDER` writes them (then `BVL_FIXTURES=FOLDER npm test` in frontend/);
tests/test_frontend.py does both."""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np

from recipe_fixtures import recipes_fixture

# Exact ties (which Python rounds to even, at every spec's last digit), values just off one, signs and zeros, the
# tiny and the huge, the mask's most negative numbers, and what is not a number
EDGES = [0.125, 0.375, 2.5, 3.5, 0.5, 1.5, -2.5, -0.125, 0.00025, 0.12345, 0.00005, 0.03125, -0.03125, 12345.0,
         123450.0, 1234500.0, 125000.0, 0.99995, 9999.99995, 99999.5, 12345.678, 123456789.0, 2.8284271247461903,
         4.898979485566356, -0.00001, 1e-7, 1e-12, 1e-05, 5e-324, 2.2250738585072014e-308, 1e-300, 1e16, 1e21,
         1e22, 1.7976931348623157e308, -1e300, 0.0, -0.0, math.inf, -math.inf, math.nan, 9.5, 8.5, 0.95, 99.5,
         2 ** -20, 3 * 2 ** -16, 2.5e-99, 3.5e-99, 7.0, -7.0, 1e4, -1e4, 9999.5, 100.0]
FORMATS = [".0f", ".1f", ".2f", ".3f", ".4f", ".6f", ".1g", ".2g", ".4g", ".6g", "g", ".0e", ".1e", ".3e", "z.2f", "z.1e",
           "+z.2f"]


def encoded(value: float) -> str:
    """A float as its repr: exact, and the JSON holds nan, ±inf and -0.0 too (node reads it with Number())."""
    return repr(float(value))


def sample_values() -> list[float]:
    """The edges, then random floats of every size and float32 values (the site's arrays are float32)."""
    rng = np.random.default_rng(0)
    scales = 10.0 ** rng.integers(-9, 12, 200)
    return (EDGES + [float(v) for v in rng.normal(0, 3, 200)] + [float(v) for v in rng.normal(0, 1, 200) * scales]
            + [float(np.float32(v)) for v in rng.normal(0, 1, 200)])


def numbers_fixture() -> dict:
    from bertviz_lite.ops.worked import MASKED_BELOW, num, plus
    from bertviz_lite.stepthrough.words import difference

    values = sample_values()
    worked = values + [MASKED_BELOW, MASKED_BELOW * 2, float(np.finfo(np.float32).min), MASKED_BELOW / 1.5]
    rng = np.random.default_rng(1)
    sums = [[0.1] * 10, [1e100, 1.0, -1e100, 1e-100], [1.0, 1e-16, 1e-16], [2.0 ** 53, 1.0, 1.0],
            [float(v) for v in rng.normal(0, 1, 1000)],
            [float(v) for v in rng.normal(0, 1e8, 50) * rng.normal(0, 1, 50)]]
    return {
        "format": [{"value": encoded(v), "spec": spec, "python": format(v, spec)} for spec in FORMATS for v in values],
        "worked": [{"value": encoded(v), "num": num(v), "plus": plus(v)} for v in worked],
        "round": [{"value": encoded(v), "python": round(v)} for v in values if math.isfinite(v) and abs(v) < 2 ** 52]
        + [{"value": encoded(k + 0.5), "python": round(k + 0.5)} for k in range(-6, 6)],
        "signed": [{"value": k, "python": f"{k:+d}"} for k in (-12, -1, 0, 1, 7, 1000)],
        "difference": [{"value": encoded(v), "digits": digits, "python": difference(v, digits)}
                       for digits in (0, 1) for v in values],
        "fsum": [{"values": [encoded(v) for v in list_], "python": encoded(math.fsum(list_))} for list_ in sums],
    }


def packed_fixture() -> dict:
    """Arrays packed as a site holds them, and what numpy reads back: their numbers (as float64) and shapes."""
    from bertviz_lite.export.steps import packed

    rng = np.random.default_rng(2)
    floats = rng.normal(0, 1, (2, 3, 4)).astype(np.float32)
    floats[0, 0, :3] = [0.1, -0.0, np.float32(np.finfo(np.float32).min)]  # float32's own 0.1, a signed zero, the mask
    ints = np.arange(-6, 6, dtype=np.int64).reshape(3, 4)  # distances and buckets: int32 in the site
    return {"arrays": [{"packed": packed(array), "shape": list(array.shape),
                        "values": [encoded(v) for v in np.asarray(array, dtype=np.float64).ravel()]}
                       for array in (floats, ints, np.float32(2.5) * np.ones(5, np.float32))]}


def closeness_fixture() -> dict:
    """Pairs of a float32 computation and its reference near each tolerance's bound, and whether closeness.py says
    they agree: the browser's checks hold a typed sentence to the same bounds (`within`)."""
    from bertviz_lite.closeness import ANOTHER_ROUTE, SAME_SUM

    rng = np.random.default_rng(3)
    expected = np.concatenate([[0.0, 1.0, -221.0, 221.0, 1e-6], rng.normal(0, 1, 100) * 10.0 ** rng.integers(-3, 3, 100)])
    cases = []
    for name, tolerance in (("same_sum", SAME_SUM), ("another_route", ANOTHER_ROUTE)):
        bound = tolerance.atol + tolerance.rtol * np.abs(expected)
        for factor in (0.0, 0.5, 0.999, 1.001, 2.0, -0.999, -1.5):  # inside, at and past the bound, either side
            got = expected + factor * bound
            cases += [{"tolerance": name, "got": encoded(g), "expected": encoded(e), "python": tolerance.holds(g, e)}
                      for g, e in zip(got, expected)]
    cases += [{"tolerance": "same_sum", "got": encoded(v), "expected": encoded(w), "python": SAME_SUM.holds(v, w)}
              for v, w in ((-math.inf, -math.inf), (math.nan, 1.0), (math.inf, 1.0), (MASK, MASK))]
    return {"tolerances": {"same_sum": SAME_SUM.to_json(), "another_route": ANOTHER_ROUTE.to_json()}, "cases": cases}


MASK = float(np.finfo(np.float32).min)


def templates_fixture() -> dict:
    """Every template of the tour's words (each narrator's, what they share, the chapters' stories and titles, the
    figures' titles), of the stepper's lines and of what the site says of itself (export/site_words.py), filled by
    Python's str.format with made-up values of the kind each field takes (a number where it has a format spec, else
    a word or a whole number): the browser's `said` must write each the same."""
    import string

    from bertviz_lite.families.mpnet import RELATIVE_BUCKETS
    from bertviz_lite.export.site_words import SITE_WORDS
    from bertviz_lite.ops import COMMON_OPS, TELLING
    from bertviz_lite.stepthrough.words import STEPPER
    from bertviz_lite.tour.chapters import TITLES
    from bertviz_lite.tour.narration import STORIES
    from bertviz_lite.tour.views import FIGURE_TITLES

    templates = [t for op in (*COMMON_OPS, RELATIVE_BUCKETS) for t in getattr(op.narrate, "said", {}).values()]
    templates += [*STEPPER.values(), *SITE_WORDS.values(), *TITLES.values(), *FIGURE_TITLES.values()]
    templates += [t for group in (*TELLING.values(), *STORIES.values())
                  for t in (group.values() if isinstance(group, dict) else [group])]
    rng, cases = np.random.default_rng(4), []
    for template in templates:
        for _ in range(3):
            values = {}
            for _, field, spec, _ in string.Formatter().parse(template):
                if field is not None:
                    values[field] = (float(rng.normal(0, 10) * 10.0 ** rng.integers(-3, 3)) if spec
                                     else str(rng.choice(["'bank'", "head 2", "7", "δ = 1", "<b>x</b>"])))
            cases.append({"template": template, "values": {k: encoded(v) if isinstance(v, float) else v
                                                            for k, v in values.items()},
                          "numbers": [k for k, v in values.items() if isinstance(v, float)],
                          "python": template.format(**values)})
    return {"cases": cases}


def figures_fixture() -> dict:
    """The head and model views' templates (export/attention.py attention_templates) of a made-up model of 2 layers
    and 3 heads, and each filled by figures/template.py `filled` with what the `views` graph's module (export/
    analysis_graphs.py Views) computes on made-up attention of 5 and of 130 tokens (lines cut to each query's
    strongest, thumbnails pooled), and the Heads page's grids (export/analyses.py heads_templates) filled with
    made-up numbers (past 1, negative, all NaN: the colour rule's every branch): template.js must fill each alike,
    leaf for leaf. NaN is written as null."""
    from types import SimpleNamespace

    import torch

    from bertviz_lite.export.analyses import heads_templates
    from bertviz_lite.export.analysis_graphs import Views, views_outputs
    from bertviz_lite.export.attention import attention_templates
    from bertviz_lite.export.steps import packed
    from bertviz_lite.figures.template import filled

    config = SimpleNamespace(num_hidden_layers=2, num_attention_heads=3)
    model = SimpleNamespace(base=SimpleNamespace(config=config))
    templates, rng, cases = attention_templates(2, 3), np.random.default_rng(5), []
    for tokens in (5, 130):
        probs = [torch.from_numpy(rng.dirichlet(np.ones(tokens) * 0.2, size=(3, tokens)).astype(np.float32))
                 for _ in range(2)]
        with torch.no_grad():
            found = dict(zip(views_outputs(2), (o.numpy() for o in Views(model)(*probs))))
        names = {"n": tokens, "labels": [f"<t{k}>" for k in range(tokens)], "layer": 1, "side": float(found["side"]),
                 **{k: found[f"{k}.1"] for k in ("x", "y", "points")}, "canvas": found["canvas"],
                 "placing": found["placing"]}
        packed_names = {k: packed(v) if isinstance(v, np.ndarray) else v for k, v in names.items()}
        cases += [{"names": packed_names, "view": [view], **{s: _nulls(filled(templates[view][s], names))
                                                             for s in templates[view]}} for view in ("head", "model")]
    heads = heads_templates(2, 3)  # the Heads page's grids: coloured by the app's rule over their numbers
    grids = [("entropy", rng.random((2, 3)) * 3), ("cls", rng.random((2, 3))), ("self", rng.normal(size=(2, 3))),
             ("prev", np.full((2, 3), np.nan))]
    cases += [{"names": {"z": packed(z.astype(np.float32))}, "view": ["heads", stat],
               **{screen: _nulls(filled(heads[stat][screen], {"z": z.astype(np.float32)})) for screen in heads[stat]}}
              for stat, z in grids]
    return {"templates": {**templates, "heads": heads}, "cases": cases}


def explanations_fixture() -> dict:
    """Explanations of each kind of figure (made up, as a cell's recipe works them out: a sum of few terms and of
    many, a masked score, an activation's point inside its curve and outside it, histograms whose panel titles wrap
    on a phone), with the templates a site holds (export/explanations.py) and the app's own figure for each screen
    (figures/explanation.py, styled as the Layers page styles it): explanation_figure.js must draw each alike."""
    from types import SimpleNamespace

    from bertviz_lite.export.explanations import WIDTHS, explanation_templates
    from bertviz_lite.export.screens import drawn
    from bertviz_lite.figures.explanation import LECTURE_TOP, TOP, explanation_figure
    from bertviz_lite.figures.screens import styled
    from bertviz_lite.ops import Figure
    from figure_json import plain_figure

    rng = np.random.default_rng(3)
    terms = [(f"q_1[{k}]·k_2[{k}]", float(v)) for k, v in enumerate(rng.normal(size=20))] + [("bias", 0.25)]
    curve = {"curve_x": np.linspace(-3, 3, 41).tolist(), "curve_y": np.tanh(np.linspace(-3, 3, 41)).tolist()}
    made = [(Figure.TERMS, terms[:3] + [("bias", 0.25)], {}, {}), (Figure.TERMS, terms, {}, {}),
            (Figure.TERMS, terms + [("mask", -3.4e38)], {}, {}),
            (Figure.SOFTMAX_ROW, [], {"scores_row": [1.5, -3.4e38, 0.25, 2.0], "exp_row": [0.6, 0.0, 0.2, 1.0],
                                      "sum_exp": 1.8}, {}),
            (Figure.HISTOGRAMS, [], {}, {"before": [-12345.5, 100000.25, 3.0], "after": [-1.0, 1.25, -0.25]}),
            (Figure.CURVE, [], {"function": "gelu_pytorch_tanh"}, {**curve, "point": 0.7}),
            (Figure.CURVE, [], {"function": "gelu"}, {**curve, "point": 7.5}),
            (Figure.ARROWS, [], {}, {"before": [0.5, -0.25], "after": [0.1, 0.54], "angle": -2.5})]
    cases = []
    for kind, said, inputs, figure in made:
        e = SimpleNamespace(drawn_as=kind, terms=said, value=-3.4e38 if said and said[-1][0] == "mask" else 0.75,
                            inputs=inputs, figure={k: np.asarray(v) if isinstance(v, list) else v
                                                   for k, v in figure.items()}, at=(1, 2))
        screens = {}
        for screen in ("browse", "lecture", "phone"):
            fig = explanation_figure(e, ["[CLS]", "the", "<s>", "bank"], LECTURE_TOP if screen == "lecture" else TOP)
            screens[screen] = _nulls(plain_figure(drawn(styled(fig, WIDTHS[screen], lecture=screen == "lecture"))))
        cases.append({"e": {"drawn_as": kind.value, "terms": said, "value": e.value, "inputs": inputs,
                            "figure": figure, "at": [1, 2]}, **screens})
    return {"explanations": explanation_templates(), "tokens": ["[CLS]", "the", "<s>", "bank"], "cases": cases}


def matrices_fixture() -> dict:
    """The stepper's matrices (export/matrices.py templates) with the names a site gives them and the app's own
    figure for each screen (figures/charts.py, styled as the Layers page styles it): a short head's matrix with a
    masked cell, escaped tokens and a chosen cell; a middling one, a long signed one; a window of dimensions from
    64 and a long one. matrix_figure.js must draw each alike."""
    from bertviz_lite.export.matrices import STEPPER, matrix_templates
    from bertviz_lite.export.screens import drawn, styled_at
    from bertviz_lite.export.steps import packed
    from bertviz_lite.figures.charts import attention_heatmap, matrix_window
    from bertviz_lite.figures.style import labelled
    from figure_json import plain_figure

    rng, cases = np.random.default_rng(7), []
    tokens = lambda n: ["[CLS]", "<s>", *(f"Ġword{i}" for i in range(n - 3)), "[SEP]"][:n]  # noqa: E731
    for n, scale, chosen in ((5, None, (1, 3)), (20, "share", None), (40, "signed", (39, 0))):
        z = rng.random((n, n)).astype(np.float32) - (0.5 if scale == "signed" else 0.0)
        z[0, 1] = np.nan  # a masked score
        names = {"z": z, "labels": labelled(tokens(n)), "title": f"layer 1, head 2: step of {n}",
                 "colorbar": "score", "scale": scale, "chosen": None if chosen is None else list(chosen)}
        figures = {screen: plain_figure(drawn(styled_at(
            attention_heatmap(z, tokens(n), names["title"], "score", chosen=chosen, scale=scale), place)))
            for screen, place in STEPPER.items()}
        cases.append({"kind": "token", "names": {**names, "z": packed(z)}, **figures})
    for n, first, chosen in ((3, 64, (2, 70)), (40, 0, None)):
        array = rng.normal(size=(n, 384)).astype(np.float32)
        window = np.ascontiguousarray(array[:, first:first + 64])
        names = {"z": packed(window), "labels": labelled(tokens(n)), "title": "layer 0: output", "first": first,
                 "count": 384, "chosen": None if chosen is None else list(chosen)}
        figures = {screen: plain_figure(drawn(styled_at(matrix_window(array, tokens(n), first, "layer 0: output",
                                                                      chosen=chosen), place)))
                   for screen, place in STEPPER.items()}
        cases.append({"kind": "window", "names": names, **figures})
    from bertviz_lite.ops.figure_words import pooled
    blocks = rng.random((7, 7)).astype(np.float32)
    blocks[:2, :2] = np.nan  # a block all masked stays blank
    blocks[4, 5] = np.nan  # a block partly masked: the mean of the rest
    return {"matrices": matrix_templates(), "cases": cases,
            "pooled": {"matrix": packed(blocks), "step": 2, "expected": _nulls(pooled(blocks, 2).tolist())}}


def _nulls(value):
    """NaN as null, as a browser's JSON writes it."""
    if isinstance(value, dict):
        return {k: _nulls(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_nulls(v) for v in value]
    return None if isinstance(value, float) and math.isnan(value) else value


def analysis_figures_fixture() -> dict:
    """A typed sentence's analysis figures (export/analysis_figures.py templates, for a 3-layer pre-norm model; the
    tour's residual stream, export/tour.py) with the names a live site gives them, and the app's own figure for
    each screen (styled as export/screens.py for_screens styles it): a rollout and a mixture of 5 and 40 tokens, a
    Contributions panel of 5 (numbers written), 30 (columns numbered) and 70 tokens (averaged over blocks), the
    mixing ratios, a Similarity split with its numbers in thousandths and a long one, the nearest pieces (words and
    numbers in each cell, escaped), the residual stream of 5 and 40 tokens, a typed sentence's cosines. The site's
    pages must draw each alike."""
    from bertviz_lite.analyses.page_views import (CONTRIBUTION_PANEL_PX, NEAREST_TITLE, contribution_panel,
                                                  mixing_figure, nearest_figure, rollout_matrix, rollout_mixture)
    from bertviz_lite.export.analysis_figures import (analysis_templates, cosine_row_templates, lens_templates,
                                                      split_forms)
    from bertviz_lite.export.screens import CANVAS_PX, HALF_PX, WIDE_PX, drawn, places, styled_at
    from bertviz_lite.export.tour import _stream_forms
    from bertviz_lite.figures.charts import stream_changes
    from bertviz_lite.figures.similarity import cosine_row
    from bertviz_lite.figures.outputs import SPLIT_PX, pair_split_heatmap
    from bertviz_lite.tour.views import FIGURE_TITLES, LECTURE_PX
    from bertviz_lite.export.steps import packed
    from bertviz_lite.figures.style import labelled
    from figure_json import plain_figure

    rng, cases = np.random.default_rng(11), []
    tokens = lambda n: ["[CLS]", "<s>", *(f"Ġword{i}" for i in range(n - 3)), "[SEP]"][:n]  # noqa: E731

    def case(kind, names, draw, where):
        figures = {screen: plain_figure(drawn(styled_at(draw(), place))) for screen, place in where.items()}
        cases.append({"kind": kind, "names": names, **figures})

    for n in (5, 40):
        rollout = rng.dirichlet(np.ones(n), size=(3, n)).astype(np.float32)
        case("rollout", {"z": packed(rollout[2]), "labels": labelled(tokens(n)), "title": "Rollout after layer 2",
                         "colorbar": "share of input", "scale": "share", "chosen": None},
             lambda: rollout_matrix(rollout[2], tokens(n), 2), places(WIDE_PX))
        case("mixture", {"z": packed(np.ascontiguousarray(rollout[:, 1])), "labels": labelled(tokens(n)),
                         "title": "Where '&lt;s&gt;' comes from, layer by layer"},
             lambda: rollout_mixture(rollout[:, 1], tokens(n), 1), places(WIDE_PX))
    for n, view in ((5, "attention"), (30, "norm"), (70, "norm_residual")):
        matrix = (rng.integers(0, 240, (n, n)) / (240 if view == "attention" else 8)).astype(np.float32)  # a block's
        # mean exact in float32 and float64 alike (the pooled word's own precision: matrices.test.js)
        case("panel", {"z": packed(matrix), "labels": labelled(tokens(n)), "view": view},
             lambda: contribution_panel(view, matrix, tokens(n)), places(HALF_PX, CONTRIBUTION_PANEL_PX))
    ratios = {"attention": [0.25, 0.5, 0.75], "norm": [0.125, 0.375, 0.0625], "norm_residual": [0.5, 0.25, 0.125],
              "norm_residual_ln": None}
    case("mixing", ratios, lambda: mixing_figure(ratios), places(WIDE_PX))
    for n, m in ((4, 6), (20, 40)):  # numbers written in thousandths (".037", "−.004"); labels thinned
        pairs = ((rng.integers(-500, 500, (n, m)) + 0.25) / 8000).astype(np.float32)
        title = "Each pair's share of cosine(yours, 1) = 0.613"
        case("split", {"z": packed(pairs), "rows": labelled(tokens(n)), "columns": labelled(tokens(m)),
                       "title": title}, lambda: pair_split_heatmap(pairs, tokens(n), tokens(m), title),
             places(CANVAS_PX, SPLIT_PX))
    pieces = [["<s>", "##bank", "river"], ["money", "&", "12"], ["the", "a", "loan"]]
    cosines = np.array([[0.5, 0.25, -0.125], [0.75, 0.5, 0.375], [0.625, 0.5, 0.25]], np.float32)
    title = NEAREST_TITLE.format(position=2, token="bank")
    case("lens", {"pieces": pieces, "z": packed(cosines), "title": title},
         lambda: nearest_figure([list(zip(row, values.tolist())) for row, values in zip(pieces, cosines)], 2, "bank"),
         places())
    for n in (5, 40):
        stream = (1 - rng.integers(0, 400, (3, n)) / 1024).astype(np.float32)
        case("stream", {"z": packed(stream), "labels": labelled(tokens(n))},
             lambda: stream_changes(stream, tokens(n), FIGURE_TITLES["stream"]), places(tallest=LECTURE_PX))
    row = np.array([0.125, -0.0625, 0.875], np.float32)
    case("cosines", {"z": packed(row[None]), "title": "cosine of mean"},
         lambda: cosine_row(row, "yours", "cosine of mean"), places())
    figures = {**analysis_templates(3, ["norm", "norm_residual"]), "split": split_forms(),
               "lens": lens_templates(2, 3, 3), "stream": _stream_forms(3), "cosines": cosine_row_templates(3, "yours")}
    return {"figures": figures, "cases": cases}


def write_fixtures(folder: Path) -> Path:
    """Write numbers.json, packed.json, closeness.json, templates.json, recipes.json (recipe_fixtures.py),
    figures.json, explanations.json, matrices.json and analysis_figures.json into `folder` (made if need be); returns it."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "numbers.json").write_text(json.dumps(numbers_fixture(), ensure_ascii=False), encoding="utf-8")
    (folder / "packed.json").write_text(json.dumps(packed_fixture()), encoding="utf-8")
    (folder / "closeness.json").write_text(json.dumps(closeness_fixture()), encoding="utf-8")
    (folder / "templates.json").write_text(json.dumps(templates_fixture(), ensure_ascii=False), encoding="utf-8")
    (folder / "recipes.json").write_text(json.dumps(recipes_fixture(), ensure_ascii=False), encoding="utf-8")
    (folder / "figures.json").write_text(json.dumps(figures_fixture(), ensure_ascii=False), encoding="utf-8")
    (folder / "explanations.json").write_text(json.dumps(explanations_fixture(), ensure_ascii=False), encoding="utf-8")
    (folder / "matrices.json").write_text(json.dumps(matrices_fixture(), ensure_ascii=False), encoding="utf-8")
    (folder / "analysis_figures.json").write_text(json.dumps(analysis_figures_fixture(), ensure_ascii=False,
                                                             default=lambda a: a.tolist()), encoding="utf-8")
    return folder


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's bertviz_lite
    print(write_fixtures(Path(sys.argv[1])))
