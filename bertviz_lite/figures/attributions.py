"""The figures of an attribution: each token's share of the target as bars, signed on the diverging scale, and
every method's deletion curve on one plot, the random order dashed as the floor."""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .charts import _layout, labelled
from .style import FONT, GREY, SIGNED, every_token

RANDOM = "random"


def attribution_bars(scores: np.ndarray, tokens: list[str], title: str, measure: str = "attribution") -> go.Figure:
    """(T,) one number per token as a bar, coloured on the signed scale (blue above 0, red below), its value written
    above it where the bars are wide enough."""
    z = np.asarray(scores, dtype=np.float64)
    bound = float(np.abs(z).max()) or 1.0
    written = dict(text=[f"{v:+.3f}" for v in z], textposition="outside", constraintext="none", cliponaxis=False,
                   textfont=dict(size=FONT["size"] - 2)) if len(z) <= 16 else {}
    bars = go.Bar(x=labelled(tokens), y=z.astype(np.float32), **written,
                  marker=dict(color=z.astype(np.float32), colorscale=SIGNED, cmin=-bound, cmax=bound),
                  hovertemplate=f"%{{x}}<br>{measure} %{{y:.5f}}<extra></extra>")
    layout = dict(xaxis=dict(type="category", tickangle=-60, **every_token(len(tokens))),
                  yaxis=dict(title=measure, zeroline=True, range=[-1.25 * bound, 1.25 * bound]))
    return _layout(go.Figure(bars, layout), 420, title,
                   f"One bar per token: its {measure}" + (", above 0 where it raises the target and below where "
                                                          "it lowers it." if (z < 0).any() else "."))  # a norm has
    # no sign


def deletion_lines(curves: dict[str, np.ndarray], aopc: dict[str, float], title: str,
                   counts: list[int] | None = None) -> go.Figure:
    """Each method's deletion curve (the target after its top k tokens are replaced, k = 0 … K; `counts`: the k of
    each point), named with its AOPC, the random order dashed grey; the steeper the fall, the more faithful."""
    xs = list(range(len(next(iter(curves.values()))))) if counts is None else list(counts)
    lines = []
    for method, curve in sorted(curves.items(), key=lambda kv: -aopc[kv[0]]):
        style = dict(dash="dash", color=GREY) if method == RANDOM else {}
        lines.append(go.Scatter(x=xs, y=np.asarray(curve, dtype=np.float32), mode="lines+markers",
                                name=f"{method} ({aopc[method]:.3f})", line=style,
                                hovertemplate=f"{method}<br>%{{x}} removed: %{{y:.4f}}<extra></extra>"))
    step = xs[1] - xs[0] if len(xs) > 1 else 1  # one tick per point: at most 17 of them
    layout = dict(xaxis=dict(title="tokens replaced, highest ranked first", dtick=step, tick0=0,
                             range=[-0.5 * step, xs[-1] + 0.5 * step]),
                  yaxis=dict(title="target"), legend=dict(title="method (AOPC)"))
    return _layout(go.Figure(lines, layout), 460, title,
                   "Each method's target as its highest-ranked tokens are replaced, one line per method with its "
                   "AOPC: the steeper the fall, the more faithful the method; random order dashed.")
