"""What the Heads, Rollout, Contributions and Lens pages draw and say, from an analysis's arrays: each figure with its
title and labels, and the words beside it. The app's pages and an exported site (export/analyses.py) both call
these, so that the two draw and say the same thing."""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..figures import attention_heatmap, layer_head_grid, lens_grid, matrices_side_by_side, mixing_lines, mixture_by_layer
from ..figures.described import described
from ..figures.style import plotly_text
from ..stepthrough.words import difference
from .contributions import LayerContributions
from .head_fingerprints import HeadFingerprints, describe, striking_heads

DEFAULTS = {"layer": 0, "head": 0, "token": 1, "stat": "prev", "position": 1}  # the URL keys' defaults on these
# pages, in the app (app_pages/shell/pages.py) and in an exported site
TITLES = {"heads": "Head fingerprints", "rollout": "Attention rollout", "contributions": "Norm-based contributions",
          "lens": "Logit lens", "intervene": "Interventions", "attribute": "Attributions",
          "contexts": "A word in two contexts"}
LABELS = {"stat": "Statistic", "rollout_layer": "Up to layer", "token": "Follow one token", "layer": "Layer",
          "norm": "Beside the attention", "position": "Position"}  # each picker's label


def token_option(i: int, tokens: list[str]) -> str:
    """A token in a picker: its position and its piece ("3 bank")."""
    return f"{i} {tokens[i]}"


OPEN_HEAD = "Open layer {layer}, head {head} in Layers"


def open_head_label(layer: int, head: int) -> str:
    return OPEN_HEAD.format(layer=layer, head=head)


# --- Heads: every head's fingerprint (Clark et al. 2019) ---------------------------------------------------------
STAT_TITLES = {"entropy": "entropy", "cls": "to [CLS]", "sep": "to [SEP]", "punct": "to punctuation",
               "self": "to itself", "prev": "to the previous token", "next": "to the next token"}
STAT_BUTTONS = {"entropy": "entropy", "cls": "[CLS]", "sep": "[SEP]", "punct": "punct.", "self": "self",
                "prev": "prev", "next": "next"}
STRIKING = 5  # heads named in words, in lecture mode and out of it: the list stays above the fold


FINGERPRINT_CELL = "Each cell: a head's mean over query tokens of its attention {stat}"  # the caption's and the
# grid's point


def fingerprint_caption(stat: str) -> str:
    return (f"{FINGERPRINT_CELL.format(stat=STAT_TITLES[stat])}"
            f"{' (−Σ α ln α, in nats: high means spread out)' if stat == 'entropy' else ''}. "
            f"Clark et al. (2019), \"What Does BERT Look At?\".")


def fingerprint_title(stat: str) -> str:
    return f"Attention {STAT_TITLES[stat]}, every layer × head"


def fingerprint_unit(stat: str) -> str:
    return "nats" if stat == "entropy" else "share"


def fingerprint_grid(fingerprints: HeadFingerprints, stat: str) -> go.Figure:
    return stat_grid(fingerprints.stats[stat], stat)


def stat_grid(grid: np.ndarray, stat: str) -> go.Figure:
    """One statistic's (L, H) grid, titled and scaled as the Heads page draws it."""
    return described(layer_head_grid(grid, fingerprint_title(stat), fingerprint_unit(stat)),
                     f"One row per layer and one column per head. {FINGERPRINT_CELL.format(stat=STAT_TITLES[stat])}.")


STRIKING_SAID = "**Striking heads** (at least half of their attention on one kind of token):\n"
NONE_STRIKING = "\n- none in this sentence"


def striking(fingerprints: HeadFingerprints) -> tuple[list[tuple[int, int]], str]:
    """The striking heads' (layer, head), strongest first, and the Markdown list that names them."""
    found = striking_heads(fingerprints, most=STRIKING)
    return ([(layer, head) for layer, head, _, _ in found],
            STRIKING_SAID + ("\n".join(f"- {describe(*f)}" for f in found) if found else NONE_STRIKING))


# --- Rollout (Abnar & Zuidema 2020) --------------------------------------------------------------------------------
ROLLOUT_CAPTION = ("Ã = rows of (½ · mean over heads of the attention + ½ · I) normalised to 1, for the residual "
                   "connection; R = Ã(layer) ··· Ã(0). Row i: how much of each input token has reached token i, if "
                   "attention alone moved information. Abnar & Zuidema (2020).")


ROLLOUT_TITLE, ROLLOUT_SCALE = "Rollout after layer {layer}", "share of input"
ROLLOUT_AXES = ("token after the layer", "input token it comes from")
MIXTURE_TITLE = "Where '{token}' comes from, layer by layer"


def rollout_matrix(matrix: np.ndarray, labels: list[str], layer: int) -> go.Figure:
    """(T, T): the rollout after `layer`."""
    return described(attention_heatmap(matrix, labels, ROLLOUT_TITLE.format(layer=layer), ROLLOUT_SCALE,
                                       axes=ROLLOUT_AXES), ROLLOUT_POINT)


ROLLOUT_POINT = ("One row per token after the layer and one column per input token: how much of the token's "
                 "vector traces back to each input token through the attention and the residual (attention rollout).")


def rollout_mixture(mixture: np.ndarray, labels: list[str], token: int) -> go.Figure:
    """(L, T): where one token's vector comes from, after each layer."""
    return mixture_by_layer(mixture, labels, MIXTURE_TITLE.format(token=plotly_text(labels[token])))


# --- Contributions (Kobayashi et al. 2020, 2021) -------------------------------------------------------------------
CONTRIBUTION_VIEWS = {"attention": "attention (mean of heads)", "norm": "‖c‖", "norm_residual": "‖c + x‖ (residual)",
                      "norm_residual_ln": "‖g(c + x)‖ (+ LayerNorm)"}
CONTRIBUTION_PANEL_PX = 410  # a panel's height on a projector, under the controls and the result's line: whole
# above the fold
CONTRIBUTIONS_CAPTION = ("Rows receive, columns give. ‖c‖ is ‖c_ij‖ with c_ij = Σ_h α^h_ij f^h(x_j) and "
                         "f^h(x_j) = (x_j W_V^h + b_V^h) W_O^h: what token j really adds to token i through the "
                         "attention heads. ‖c + x‖ adds the residual x_i on the diagonal (c_ij + δ_ij x_i); g is "
                         "LayerNorm's linear part for token i, g_i(z) = γ ⊙ (z − z̄) / s_i. Kobayashi et al. (2020, "
                         "2021).")


def norms_of(result: LayerContributions) -> list[str]:
    """The norm-based views this layer has, the fullest last (with the residual, and LayerNorm where one follows)."""
    return [name for name in CONTRIBUTION_VIEWS if name != "attention" and getattr(result, name) is not None]


def contribution_panel(name: str, matrix: np.ndarray, labels: list[str]) -> go.Figure:
    """One (T, T) view on its own scale: a share of 1 for the attention, a vector's length for a norm."""
    return matrices_side_by_side({CONTRIBUTION_VIEWS[name]: matrix}, labels,
                                 colorbar="weight" if name == "attention" else "‖vector‖")


MIXING_SAID = ("**Layer {layer}: raw attention says {attention} of what reaches a token comes from other tokens; "
               "counting the residual{ln}, {fullest}.**")
CHECKS = {"out": "Σ_j c_ij + b_O vs the model's attention output (layer {layer})",
          "pre_norm": "Σ_j (c_ij + δ_ij x_i) + b_O vs the attention block's output x + attn.out (layer {layer})",
          "post_norm": "Σ_j g_i(c_ij + δ_ij x_i) + g_i(b_O) + β vs the model's LayerNorm output (layer {layer})",
          "said": "{what}: max |Δ| = {diff}"}


def mixing_said(result: LayerContributions, layer: int) -> str:
    """The page's point, in bold: how much raw attention says tokens mix, and how much the norms say."""
    ratios, fullest = result.mixing(), norms_of(result)[-1]
    return MIXING_SAID.format(layer=layer, attention=f"{ratios['attention']:.0%}", fullest=f"{ratios[fullest]:.0%}",
                              ln=" and LayerNorm" if fullest == "norm_residual_ln" else "")


def contribution_checks(result: LayerContributions, layer: int) -> list[tuple[str, bool]]:
    """Both checks against the model's own numbers, said with their largest difference, and whether each holds."""
    second = CHECKS["pre_norm" if result.norm_residual_ln is None else "post_norm"]
    return [(CHECKS["said"].format(what=what.format(layer=layer), diff=difference(diff)), holds)
            for what, diff, holds in ((CHECKS["out"], result.out_diff, result.out_holds),
                                      (second, result.norm_diff, result.norm_holds))]


def contribution_notes(heads: int, value_heads: int, family: str, pre_norm: bool) -> list[str]:
    """What this family's attention block does otherwise, which the norms follow: shared value heads, a pre-norm."""
    notes = []
    if value_heads < heads:
        group = heads // value_heads
        notes.append(f"Grouped-query attention: {value_heads} value heads for {heads} query heads. Query head h "
                     f"reads value head ⌊h / {group}⌋ (heads 0–{group - 1} read value head 0, and so on), so f^h(x_j) "
                     f"uses that value head's W_V rows with head h's own slice of W_O.")
    if pre_norm:
        notes.append(f"{family} normalises before attention, not after it (a pre-norm layer): the values come from "
                     f"the normed x_j, the residual adds x_i itself, and no norm follows the sum, so there is no "
                     f"‖g(c + x)‖ to show. The second check is against the attention block's output x_i + attn.out_i.")
    return notes


MIXING_TITLE = "Mixing ratio: the share of what reaches a token that comes from other tokens"


def mixing_figure(ratios: dict[str, list[float] | None]) -> go.Figure:
    return mixing_lines(ratios, CONTRIBUTION_VIEWS, MIXING_TITLE)


# --- Lens: the masked-LM head on every hidden state, or the nearest vocabulary pieces -----------------------------
PHONE_TOP = 3  # pieces per hidden state on a phone: a word in each cell


def lens_figure(layers: list[list[tuple[str, float]]], position: int, token: str) -> go.Figure:
    return lens_grid(layers, f"Top {len(layers[0])} predictions at position {position} ({plotly_text(token)}), "
                             f"hidden state by hidden state")


NEAREST_TITLE = "Nearest vocabulary pieces at position {position} ({token}), by cosine"


def nearest_figure(layers: list[list[tuple[str, float]]], position: int, token: str) -> go.Figure:
    return lens_grid(layers, NEAREST_TITLE.format(position=position, token=plotly_text(token)), "cosine")


def lens_check(max_abs_diff: float, holds: bool) -> tuple[str, bool]:
    return (f"The last layer through the head vs the masked-LM model's own logits: max |Δ| = "
            f"{difference(max_abs_diff)}", holds)


def nearest_note(source: str) -> str:
    return (f"{source} has no trained masked-LM head, so there is no logit lens. Shown instead, from its own numbers: "
            f"the vocabulary pieces whose rows of its word-embedding table are nearest, by cosine, to the token's "
            f"vector after the embeddings and after each layer. Not a prediction: no head turns these vectors into "
            f"probabilities.")


def position_note(mask: str, predicts: bool = True) -> str:
    """What the position picker is for: with a masked-LM head, where to put the mask to watch a prediction; without
    one (the nearest pieces), nothing is predicted, and the note under it says so."""
    if not predicts:
        return "The pieces are those nearest to the token picked here, after the embeddings and after each layer."
    return (f"The lens looks at the position picked here. Put {mask} where a word should be predicted (e.g. 'the cat "
            f"{mask} on the mat') and it looks there, to watch the model predict it.")
