"""The figures of a model's parameters: its modules as a sunburst, its parameters by group as bars, and two
models' groups side by side (the Overview, Architecture and Compare pages), coloured by what a module is
(style.module_colour), the same in every model."""
from __future__ import annotations

import plotly.graph_objects as go

from .charts import _layout
from .described import described
from .style import FONT, module_colour


def parameter_sunburst(data: dict[str, list], max_depth: int = 5) -> go.Figure:
    """The sunburst of `tree.sunburst_data`; click a wedge to zoom into it. Each module is coloured by what it is
    (style.module_colour), the same in every model; a label too small to read at 14 px is left to the hover."""
    colours = [module_colour(path, kind) for path, kind in zip(data["ids"], data["classes"])]
    fig = go.Figure(go.Sunburst(ids=data["ids"], labels=data["labels"], parents=data["parents"],
                                values=data["values"], customdata=data["classes"], branchvalues="total",
                                maxdepth=max_depth, insidetextorientation="auto", marker=dict(colors=colours),
                                hovertemplate="<b>%{id}</b><br>%{customdata}<br>%{value:,} parameters"
                                              "<br>%{percentRoot:.1%} of the model<extra></extra>"))
    fig.update_layout(uniformtext=dict(minsize=FONT["size"] - 2, mode="hide"))  # a label that cannot be read is hidden
    # the whole circle above the fold at 1280 × 720, under a subheading
    return described(_layout(fig, 480), SUNBURST_POINT, "The model's modules")


SUNBURST_POINT = ("The model's modules as rings, the whole model at the centre and each module's parts around it, "
                  "each wedge as wide as its share of the parameters.")


def group_bars(groups: dict[str, int]) -> go.Figure:
    """Parameters per group, largest first, labelled with exact counts; coloured as in the sunburst."""
    names, counts = list(groups), list(groups.values())
    total = sum(counts) or 1
    fig = go.Figure(go.Bar(x=counts, y=names, orientation="h", marker_color=[module_colour(n) for n in names],
                           text=[f"{c:,} ({c / total:.1%})" for c in counts], textposition="auto",
                           hovertemplate="%{y}: %{x:,}<extra></extra>"))
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(title="parameters")
    return described(_layout(fig, 90 + 48 * len(names)), "The model's parameters by group, the largest first, each "
                     "with its count and its share of the whole.", "Parameters by group")


def groups_side_by_side(groups: dict[str, dict[str, int]]) -> go.Figure:
    """Each model's parameters per group as horizontal bars on one scale (a model per colour)."""
    fig = go.Figure([go.Bar(x=list(counts.values()), y=list(counts), orientation="h", name=model,
                            text=[f"{c:,}" for c in counts.values()], textposition="auto",
                            hovertemplate=f"{model}<br>%{{y}}: %{{x:,}}<extra></extra>")
                     for model, counts in groups.items()])
    fig.update_layout(barmode="group", legend=dict(orientation="h", y=-0.25))
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_xaxes(title="parameters")
    rows = len({name for counts in groups.values() for name in counts})
    return _layout(fig, 160 + 40 * rows * len(groups), "Parameters by group, on one scale",
                   f"The parameters of {' and '.join(groups)} by group, side by side on one scale.")
