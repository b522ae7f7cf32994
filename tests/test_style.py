"""One visual language (figures/style.py): signed numbers diverge about 0, shares run from 0, panels side by side
share one scale and one colour bar, a series has one colour by what it is."""
import numpy as np
import pytest
from plotly.colors import get_colorscale

from bertviz_lite import trace
from bertviz_lite.figures import attention_heatmap, matrices_side_by_side, token_norms
from bertviz_lite.figures.style import SERIES_COLOURS, SHARE, SIGNED, colour_scale, module_colour, series_colour
from bertviz_lite.ops import LAYER_NORM, RESIDUAL_ADD, Series

TOKENS = ["[CLS]", "the", "cat", "[SEP]"]
DIVERGING, SEQUENTIAL = get_colorscale(SIGNED), get_colorscale(SHARE)  # as Plotly writes them in a figure


def test_a_signed_quantity_is_drawn_on_a_diverging_scale_symmetric_about_zero():
    scale = colour_scale(np.array([[-0.5, 2.0], [1.0, 0.0]]))
    assert scale == dict(colorscale=DIVERGING, zmin=-2.0, zmax=2.0)
    assert colour_scale(np.array([0.2, 0.4]), signed=True) == dict(colorscale=DIVERGING, zmin=-0.4, zmax=0.4)


def test_shares_start_at_zero_and_end_at_one_when_they_are_shares_of_one():
    assert colour_scale(np.array([0.1, 0.3])) == dict(colorscale=SEQUENTIAL, zmin=0, zmax=1.0)
    assert colour_scale(np.array([0.0, 7.5])) == dict(colorscale=SEQUENTIAL, zmin=0, zmax=7.5)
    assert colour_scale(np.array([np.nan, 0.5])) == dict(colorscale=SEQUENTIAL, zmin=0, zmax=1.0)  # masked cells


def test_scores_diverge_and_probabilities_share_one_scale_with_their_values_written_in_small_matrices():
    rng = np.random.default_rng(0)
    scores = rng.normal(size=(4, 4)).astype(np.float32)
    probs = np.exp(scores) / np.exp(scores).sum(-1, keepdims=True)
    drawn = attention_heatmap(scores, TOKENS, "scores", "score").data[0]
    assert drawn.colorscale == attention_heatmap(-scores, TOKENS, "s", "score").data[0].colorscale
    assert drawn.zmin == pytest.approx(-np.abs(scores).max()) and drawn.zmax == pytest.approx(np.abs(scores).max())
    shares = attention_heatmap(probs, TOKENS, "probs").data[0]
    assert (shares.zmin, shares.zmax) == (0, 1.0) and shares.texttemplate == "%{z:.2f}"
    assert shares.colorbar.title.text == "attention"
    big = attention_heatmap(np.full((40, 40), 1 / 40, np.float32), [str(i) for i in range(40)], "long").data[0]
    assert big.texttemplate is None


def test_panels_side_by_side_share_one_colour_axis_and_label_their_columns():
    a = np.array([[0.0, 0.2], [0.4, 0.1]])
    b = np.array([[0.9, 0.0], [0.3, 0.5]])
    fig = matrices_side_by_side({"A": a, "B": b}, ["x", "y"], colorbar="share")
    assert {trace.coloraxis for trace in fig.data} == {"coloraxis"}
    assert (fig.layout.coloraxis.cmin, fig.layout.coloraxis.cmax) == (0, 1.0)
    assert fig.layout.coloraxis.colorbar.title.text == "share"
    assert fig.layout.xaxis.dtick == fig.layout.xaxis2.dtick == 1 and fig.layout.xaxis.showticklabels is not False
    signed = matrices_side_by_side({"c2c": a - 0.5, "c2p": b}, ["x", "y"])
    assert signed.layout.coloraxis.cmin == -signed.layout.coloraxis.cmax


def test_crowded_panels_number_every_kth_column_instead_of_overlapping_labels():
    tokens = [f"t{i}" for i in range(22)]  # DeBERTa's four terms on a 22-token sentence: 88 columns in a row
    fig = matrices_side_by_side({name: np.zeros((22, 22)) for name in ("c2c", "c2p", "p2c", "scores")}, tokens)
    for axis in (fig.layout.xaxis, fig.layout.xaxis4):
        assert list(axis.ticktext) == ["0", "6", "12", "18"] and axis.tickangle == 0
        assert list(axis.tickvals)[1] == "6 t6"  # the tick sits on its column, named by the rows' number
    assert "numbered as the rows" in fig.layout.xaxis.title.text  # said on the axis, not as the figure's title
    assert fig.layout.title.text is None
    assert fig.layout.yaxis.dtick == 1  # the rows still name every token


def test_a_series_has_the_same_colour_on_every_chart():
    vectors = np.ones((4, 3), np.float32)
    first = token_norms({"layer input": vectors, "Residual add": vectors}, TOKENS, "t",
                        {"layer input": Series.INPUT, "Residual add": RESIDUAL_ADD.series})
    second = token_norms({"Residual add": vectors, "LayerNorm": vectors, "layer input": vectors}, TOKENS, "t",
                         {"layer input": Series.INPUT, "Residual add": RESIDUAL_ADD.series,
                          "LayerNorm": LAYER_NORM.series})
    colour = {trace.name: trace.marker.color for trace in second.data}
    assert {trace.name: trace.marker.color for trace in first.data} == {
        name: colour[name] for name in ("layer input", "Residual add")}
    assert len(set(colour.values())) == 3 and colour["LayerNorm"] == series_colour(Series.NORMED)


def test_every_series_a_graph_names_has_its_own_colour(tiny_loaded):
    """The embeddings' tables, their sum and its norm, as a family's graph names them: one colour each, from
    style.py, with no page naming an op."""
    graph = trace(tiny_loaded["bert"], "the cat sat", "on the mat").graph("embed")
    kinds = {n.key: n.series for n in graph.nodes if n.series is not None}
    assert kinds == {"word": Series.WORD, "position": Series.POSITION, "token_type": Series.TOKEN_TYPE,
                     "sum": Series.SUM, "norm": Series.NORMED}
    assert len({series_colour(s) for s in kinds.values()}) == len(kinds) and set(SERIES_COLOURS) == set(Series)


def test_many_tokens_lengths_are_nested_dots_not_slivers_of_bars():
    """40 tokens × 3 sub-steps would be 120 bars; as dots, each sub-step's smaller than the one before, so that equal
    lengths show as a dot in a ring; the lengths are the vectors' norms either way."""
    rng = np.random.default_rng(0)
    series = {name: rng.normal(size=(40, 8)).astype(np.float32) for name in ("input", "add", "norm")}
    tokens = [f"t{i}" for i in range(40)]
    dots = token_norms(series, tokens, "t")
    assert [trace.type for trace in dots.data] == ["scatter"] * 3
    sizes = [trace.marker.size for trace in dots.data]
    assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == 3
    np.testing.assert_allclose(dots.data[1].y, np.linalg.norm(series["add"], axis=-1), rtol=1e-6)
    bars = token_norms({k: v[:8] for k, v in series.items()}, tokens[:8], "t")
    assert [trace.type for trace in bars.data] == ["bar"] * 3


@pytest.mark.parametrize("family", ["bert", "modernbert"])
def test_a_module_has_the_same_colour_in_every_model(family, tiny_dirs, new_tiny_dirs):
    """The sunburst colours a module by what it is, whatever the family calls it."""
    from bertviz_lite import module_tree, sunburst_data
    from bertviz_lite.figures import parameter_sunburst
    from bertviz_lite.loading.loader import load_skeleton

    path = tiny_dirs["bert"] if family == "bert" else new_tiny_dirs["modernbert"]
    data = sunburst_data(module_tree(load_skeleton(path, "base").model))
    colour = dict(zip(data["ids"], parameter_sunburst(data).data[0].marker.colors))
    kinds = {"attention": [i for i in data["ids"] if i.endswith((".attention", ".attn"))],
             "feed-forward": [i for i in data["ids"] if i.endswith((".intermediate", ".mlp"))],
             "embeddings": [i for i in data["ids"] if i.endswith(".embeddings") or i == "embeddings"]}
    assert all(kinds.values()), kinds
    for kind, ids in kinds.items():
        assert {colour[i] for i in ids} == {module_colour(ids[0])}, kind
    assert len({module_colour(ids[0]) for ids in kinds.values()}) == 3


def test_every_cell_of_a_clickable_matrix_is_a_click_target_named_by_its_cell_with_its_value():
    from bertviz_lite.figures import matrix_window
    z = np.arange(12, dtype=np.float32).reshape(3, 4) / 10
    fig = matrix_window(z, ["a", "b", "c"], 1, "t", width=2, clickable=True)
    targets = fig.data[-1]
    assert len(targets.customdata) == 3 * 2
    assert targets.customdata[3] == "1,2"  # row 1, the window's second column: dimension 2 of the whole matrix
    assert np.allclose(np.asarray(targets.marker.color)[3], z[1, 2])  # the value shown on hover
    assert all(isinstance(cell, str) for cell in targets.customdata)  # no small list per cell to copy and scan


def test_a_clickable_matrix_ends_at_its_cells_edges_with_no_band_the_click_targets_would_pad():
    """Issue 44: Plotly pads an axis by its markers' radius; the click targets left a blank band a cell wide round
    EuroBERT's 21-token heatmap (x from -1.6 to 21.6), a tenth of the projector's matrix."""
    from bertviz_lite.figures import attention_heatmap
    fig = attention_heatmap(np.full((21, 21), 1 / 21, np.float32), [f"t{i}" for i in range(21)], "t",
                            clickable=True, chosen=(2, 3))
    assert list(fig.layout.xaxis.range) == [-0.5, 20.5] and list(fig.layout.yaxis.range) == [20.5, -0.5]
    assert fig.layout.xaxis.autorange is False and fig.layout.yaxis.autorange is False  # the first row on top
    from bertviz_lite.figures import matrix_window
    window = matrix_window(np.ones((3, 256), np.float32), ["a", "b", "c"], 64, "t", clickable=True)
    assert list(window.layout.xaxis.range) == [63.5, 127.5]  # dimensions 64-127, by value: not an empty plot


@pytest.mark.parametrize("count,per_row", [(1, 1), (2, 2), (3, 3), (4, 4), (4, 2), (3, 2)])
def test_a_grid_of_panels_is_laid_out_as_make_subplots_lays_it_out(count, per_row):
    from plotly.subplots import make_subplots

    from bertviz_lite.figures.charts import grid_of_panels

    titles = [f"panel {i}" for i in range(count)]
    rows = -(-count // per_row)
    expected = make_subplots(rows=rows, cols=per_row, subplot_titles=titles, horizontal_spacing=0.03,
                             vertical_spacing=0.1).layout
    ours = grid_of_panels(titles, per_row)
    for i in range(count):
        axis = "" if i == 0 else str(i + 1)
        for letter in "xy":
            assert ours[f"{letter}axis{axis}"]["domain"] == pytest.approx(expected[f"{letter}axis{axis}"].domain)
            assert ours[f"{letter}axis{axis}"]["anchor"] == expected[f"{letter}axis{axis}"].anchor
        note = expected.annotations[i]
        assert (ours["annotations"][i]["text"], ours["annotations"][i]["x"], ours["annotations"][i]["y"]) == (
            note.text, pytest.approx(note.x), pytest.approx(note.y))