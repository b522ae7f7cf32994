"""Plotly figures as pure functions of arrays, token strings and plain records (never a model), sized for a
projector, in one visual language (`style.py`): the charts of every page (`charts.py`), a model's parameters
(`parameters.py`), BertViz's head and model views and a layer's heads as small multiples (`attention_views.py`), a
block's data-flow diagram (`diagram.py`), the figure of an explanation of one number (`explanation.py`) and sentences
compared (`similarity.py`), each fitted to the width it is drawn at (`fit.py`) and described in words for a screen
reader (`described.py`)."""
from .style import SHARE, SIGNED, colour_scale, series_colour
from .charts import (FONT, MAX_CELLS, MAX_CLICKABLE, attention_heatmap, click_targets, context_lines, labelled,
                     layer_head_grid, lens_grid, matrices_side_by_side, matrix_window, mixing_by_depth, mixing_lines,
                     mixture_by_layer, stream_changes, token_norms, vector_bars)
from .parameters import group_bars, groups_side_by_side, parameter_sunburst
from .similarity import cosine_row, similarity_heatmap
from .attention_views import head_grid, head_view, model_view
from .diagram import layer_diagram
from .explanation import explanation_figure, neuron_view

__all__ = ["SHARE", "SIGNED", "colour_scale", "series_colour", "FONT", "MAX_CELLS", "MAX_CLICKABLE",
           "attention_heatmap", "click_targets", "context_lines", "cosine_row", "explanation_figure", "group_bars",
           "groups_side_by_side", "head_grid", "head_view", "labelled", "layer_diagram", "layer_head_grid",
           "lens_grid", "matrices_side_by_side", "matrix_window", "mixing_by_depth", "mixing_lines",
           "mixture_by_layer", "model_view", "neuron_view", "parameter_sunburst", "similarity_heatmap",
           "stream_changes", "token_norms", "vector_bars"]
