"""Type that fits its figure (figures/fit.py): never under 12 px, labels thinned and said so, numbers with fewer
decimals or none where a cell is too small; and tokens that Plotly would read as HTML, escaped. The browser's
readability check (test_readability.py) is what says the estimates hold on a page."""
import html

import numpy as np
import pytest

from bertviz_lite.figures import attention_heatmap, head_view, labelled, lens_grid, model_view
from bertviz_lite.figures.fit import SMALLEST, fit, keeps_height
from bertviz_lite.attention_lines import attention_lines


def lecture_heatmap(n: int, height: int = 560):
    """A token heatmap as lecture mode styles it: 20-px text, 18-px ticks, at most 560 px tall."""
    fig = attention_heatmap(np.full((n, n), 1 / n, np.float32), [f"tok{i}" for i in range(n)], "t")
    fig.update_layout(font_size=20, height=height)
    fig.update_xaxes(tickfont_size=18)
    return fig.update_yaxes(tickfont_size=18)


def test_a_short_sentence_keeps_its_type_and_every_label():
    fig = fit(lecture_heatmap(6, height=900), 900)
    assert fig.layout.yaxis.tickfont.size == 18 and fig.layout.yaxis.dtick == 1
    assert fig.data[0].texttemplate == "%{z:.2f}"


@pytest.mark.parametrize("n", [20, 25, 32])
def test_crowded_labels_shrink_or_thin_but_never_under_12_px(n):
    fig = fit(lecture_heatmap(n), 560)
    for axis in (fig.layout.xaxis, fig.layout.yaxis):
        assert axis.tickfont.size >= SMALLEST
        assert axis.tickfont.size < 18 or axis.tickvals is not None  # 18-px rows of 20+ tokens in 560 px touch
        if axis.tickvals is not None:  # thinned: every k-th label, and the axis says so
            assert len(axis.tickvals) < n and "labelled" in fig.layout.xaxis.title.text  # said under the plot


def test_numbers_lose_a_decimal_or_go_where_a_cell_is_too_small():
    fig = fit(lecture_heatmap(12), 560)  # cells about 25 px: "0.08" at 12 px does not fit, "0.1" does
    assert fig.data[0].texttemplate in ("%{z:.1f}", None)
    assert fig.data[0].texttemplate is None or fig.data[0].textfont.size >= SMALLEST
    fig = fit(lecture_heatmap(16), 300)  # far too small for any number
    assert fig.data[0].texttemplate is None


def test_words_written_in_cells_stay_at_12_px_at_least():
    layers = [[("bank", 0.5), ("river", 0.2)]] * 7
    fig = fit(lens_grid(layers, "t").update_layout(height=300), 200)
    assert fig.data[0].texttemplate == "%{text}" and fig.data[0].textfont.size >= SMALLEST


def test_a_figure_of_a_row_per_token_keeps_its_height():
    lines = attention_lines(np.full((2, 40, 40), 1 / 40, np.float32), [0])
    tokens = [f"t{i}" for i in range(40)]
    assert keeps_height(head_view(lines, tokens, tokens, 2, "t"))
    assert keeps_height(model_view(np.full((12, 12, 5, 5), 0.2, np.float32), "m"))
    assert not keeps_height(lecture_heatmap(8))


def test_tokens_plotly_would_read_as_html_are_escaped_in_figures_and_plain_in_csv():
    assert labelled(["<s>", "a", "</s>", "&lt;"]) == ["0 &lt;s&gt;", "1 a", "2 &lt;/s&gt;", "3 &amp;lt;"]
    assert labelled(["<s>"], for_figure=False) == ["0 <s>"]
    lines = attention_lines(np.full((1, 2, 2), 0.5, np.float32), [0])
    fig = head_view(lines, ["<s>", "</s>"], ["<s>", "</s>"], 1, "t")
    assert "&lt;s&gt;" in [text for trace in fig.data if trace.text is not None for text in trace.text]


def test_a_long_escaped_label_is_cut_on_its_characters_not_inside_an_entity():
    from bertviz_lite.ops.figure_words import cut

    assert cut("12 &lt;E6 9D AC&gt;x", 14) == "12 &lt;E6 9D AC&gt;x"  # 14 characters as drawn: whole
    assert cut("12 &lt;E6 9D AC&gt; xyz", 14) == "12 &lt;E6 9D AC&gt;…"  # 17: 13 of them and …


def test_a_long_special_token_is_written_whole_on_the_rows_and_cut_on_the_rotated_columns():
    """Issue 44: EuroBERT's "<|begin_of_text|>" was cut on both axes ("0 <|begin_of_…"); a row's label lies flat
    and takes width, so the rows write it whole and each token is read whole at least once."""
    tokens = ["<|begin_of_text|>", *(f"word{i}" for i in range(8)), "<|end_of_text|>"]
    fig = fit(attention_heatmap(np.full((10, 10), 0.1, np.float32), tokens, "t"), 808)
    rows, columns = fig.layout.yaxis, fig.layout.xaxis
    row_texts = [html.unescape(t) for t in (rows.ticktext or labelled(tokens))]  # as drawn
    column_texts = [html.unescape(t) for t in columns.ticktext]
    assert "0 <|begin_of_text|>" in row_texts and "9 <|end_of_text|>" in row_texts
    assert "0 <|begin_of_…" in column_texts and all(len(t) <= 14 for t in column_texts)


def test_a_lecture_writes_a_16_token_matrix_at_14_px_a_decimal_fewer_if_need_be():
    """Issue 44: a back row reads a short sentence's matrix; the canvas Layers gives it on a projector."""
    probabilities = fit(lecture_heatmap(16, height=480).update_traces(textfont_size=18), 808, numbers=14)
    assert probabilities.data[0].texttemplate == "%{z:.2f}" and probabilities.data[0].textfont.size >= 14

    def scores():
        fig = attention_heatmap(np.linspace(-3, 3, 256, dtype=np.float32).reshape(16, 16),
                                [f"tok{i}" for i in range(16)], "t", "score")
        return fig.update_layout(font_size=20, height=480).update_traces(textfont_size=18)

    lecture = fit(scores(), 808, numbers=14).data[0]  # "−2.47" is wider than "0.25": one decimal, at 14 px
    assert lecture.texttemplate == "%{z:.1f}" and lecture.textfont.size >= 14
    browsing = fit(scores(), 808).data[0]  # 12 px is enough there: both decimals, smaller
    assert browsing.texttemplate == "%{z:.2f}" and 12 <= browsing.textfont.size < 14


def test_a_lecture_gives_numbers_the_height_of_rotated_column_labels_before_it_drops_them():
    """Issue 44: a 12-token before/after under a result of two lines is 390 px tall; its rotated key labels at
    18 px left rows too low for 14-px numbers. The labels go to 12 px (still read) and the numbers stay; where the
    labels' height is not what stands in the way, they keep their size."""
    from bertviz_lite.figures import matrices_side_by_side

    def before_after(height: int):
        tokens = ["[CLS]", "the", "[MASK]", *(f"Ġword{i}" for i in range(8)), "[SEP]"]  # 12, as ModernBERT's
        matrix = np.full((12, 12), 1 / 12, np.float32)
        fig = matrices_side_by_side({"before": matrix, "after": matrix}, tokens, colorbar="attention",
                                    axes=("query", "key"), title="Layer 1, head 0: attention before and after")
        fig.update_layout(font_size=20, height=height).update_traces(textfont_size=18)
        return fig.update_xaxes(tickfont_size=18).update_yaxes(tickfont_size=18)

    lecture = fit(before_after(390), 1232, numbers=14)
    assert lecture.data[0].texttemplate and lecture.data[0].textfont.size >= 14
    assert lecture.layout.xaxis.tickfont.size == lecture.layout.xaxis2.tickfont.size == SMALLEST
    roomy = fit(before_after(470), 1232, numbers=14)  # room for both: the labels keep their 18 px
    assert roomy.layout.xaxis.tickfont.size == 18 and roomy.data[0].textfont.size >= 14
    hopeless = fit(before_after(250), 1232, numbers=14)  # too low either way: numbers at 12 px or none, labels 18
    assert hopeless.layout.xaxis.tickfont.size == 18
    browsing = fit(before_after(390), 1232)  # outside a lecture, 12-px numbers: nothing to make room for
    assert browsing.layout.xaxis.tickfont.size == 18


def test_a_phone_wraps_a_long_title_and_puts_the_legend_under_the_plot():
    import plotly.graph_objects as go

    title = "Each pair's share of cosine(1, 2) = 0.812, from the tokens of both sentences"
    wide = fit(go.Figure(go.Bar(x=["a"], y=[1]), layout=dict(title=title)), 1100)
    assert wide.layout.title.text == title
    lines = [go.Scatter(x=[0, 1], y=[0, 1], name=f"method {i}") for i in range(3)]
    narrow = fit(go.Figure(lines, layout=dict(title=title, height=400, margin=dict(t=50))), 358)
    assert narrow.layout.title.text.count("<br>") >= 1 and narrow.layout.margin.t > 50  # a line more above the plot
    assert " ".join(narrow.layout.title.text.split("<br>")) == title  # every word kept, in order
    assert narrow.layout.legend.orientation == "h" and narrow.layout.height > 400  # under the plot, the figure taller


def test_a_phone_lays_a_colour_bar_across_under_the_labels_and_gives_the_plot_its_width():
    """Issue 44: beside a phone's plot the colour bar took 100 of 360 px (a 12-token matrix 150 px wide). Across
    under the column labels, the figure taller by it, but never past a lecture's `tallest`; a wide figure keeps it
    beside; the labels on a phone get the whole width."""
    from bertviz_lite.figures import matrices_side_by_side
    from bertviz_lite.figures.room import BAR_UNDER_PX

    def heatmap():
        return attention_heatmap(np.full((12, 12), 1 / 12, np.float32), [f"tok{i}" for i in range(12)], "t")

    wide, phone = fit(heatmap(), 808), fit(heatmap(), 358)
    assert wide.data[0].colorbar.orientation != "h" and phone.data[0].colorbar.orientation == "h"
    assert phone.data[0].colorbar.y < 0 and phone.data[0].colorbar.yanchor == "top"  # under the plot
    assert phone.layout.height == heatmap().layout.height + BAR_UNDER_PX
    assert fit(heatmap(), 358, tallest=heatmap().layout.height).layout.height == heatmap().layout.height
    from bertviz_lite.figures.room import label_room
    from bertviz_lite.figures.sheet import Sheet
    two_rows = fit(matrices_side_by_side({"a": np.eye(12), "b": np.eye(12)}, [f"t{i}" for i in range(12)],
                                         axes=("receives", "gives"), per_row=1), 358)  # a phone's before/after
    bottom = Sheet(two_rows).value(label_room(Sheet(two_rows), "x", two_rows.layout.font.size or 12, "xaxis2"))  # the lower panel's labels, title
    layout = two_rows.layout
    plot = layout.height - BAR_UNDER_PX - layout.margin.t - layout.margin.b - bottom
    upper = Sheet(two_rows).value(label_room(Sheet(two_rows), "x", two_rows.layout.font.size or 12, "xaxis"))  # no title, no labels shown
    assert bottom > upper + 12  # so the bar's place says which panel's labels it was set under: the lower's
    assert abs(-layout.coloraxis.colorbar.y * plot - (bottom + 12)) < 1


def test_numbers_over_narrow_bars_and_numbers_written_as_text_go_where_they_do_not_fit():
    import plotly.graph_objects as go

    from bertviz_lite.figures.outputs import shift_heatmap

    bars = go.Figure(go.Bar(x=[f"t{i}" for i in range(12)], y=np.ones(12), text=["+0.004"] * 12))
    assert fit(bars, 1100).data[0].textposition != "none"
    assert fit(bars, 358).data[0].textposition == "none"  # "+0.004" over a 20-px bar runs into the next
    shift = shift_heatmap(np.full((7, 12), 0.004, np.float32), [f"t{i}" for i in range(12)], "moved", 1)
    assert fit(shift, 1100).data[0].texttemplate == "%{text}"
    assert fit(shift, 358).data[0].texttemplate is None  # ".004" in cells of 20 px: on tap, not written
