"""The site's Heads, Rollout, Contributions and Lens pages: a sentence's analyses computed by the app's own code
(analyses/all_layers.py, contributions.py, logit_lens.py, nearest_pieces.py) and drawn and worded as the app's pages
draw and word them (analyses/page_views.py), for every value of the page's pickers, since the site has no model to
ask. One generic page in the browser (assets/analyses.js) shows any of them:

    {"title": the page's title,
     "pickers": [{"key": a URL key, "label", "options": [[value, label], …], "value": the default}],
     "panels": [{"by": [picker keys], "half": beside the next half panel,
                 "items": {"value,value": {"said": lines above the figure, "figure": for each screen,
                                           "lines": lines beside it, "checks": [[said, holds]], "links"}}}],
     "side": lines beside the figures, "notes": what the model does otherwise}

A line is Markdown as the app writes it (**bold**, "- " items); a link is {"text", "page", "keys"}.
"""
from __future__ import annotations

from ..analyses.all_layers import LayerwiseAnalyses
from ..analyses.contributions import layer_contributions
from ..analyses.head_fingerprints import STATS
from ..analyses.logit_lens import lenses_at, mlm_head_problem
from ..analyses.nearest_pieces import narrower_table, nearest_pieces
from ..analyses.page_views import (CONTRIBUTION_PANEL_PX, CONTRIBUTION_VIEWS, CONTRIBUTIONS_CAPTION, PHONE_TOP, ROLLOUT_CAPTION,
                                   STAT_BUTTONS, contribution_checks, contribution_notes, contribution_panel,
                                   fingerprint_caption, fingerprint_grid, lens_check, lens_figure, mixing_figure,
                                   mixing_said, nearest_figure, nearest_note, norms_of, position_note, rollout_matrix,
                                   rollout_mixture, striking)
from .screens import HALF_PX, WIDE_PX, for_screens

DEFAULTS = {"stat": "prev", "layer": 0, "token": 1, "position": 1}  # the app's (app_pages/shell/pages.py)


def page(title: str, pickers: list[dict], panels: list[dict], side: list[str] = (), notes: list[str] = (),
         wide: bool = False) -> dict:
    """`wide`: the figures take the page's width and the words go under them (as the app's Contributions page)."""
    return {"title": title, "pickers": pickers, "panels": panels, "side": list(side), "notes": list(notes),
            "wide": wide}


def picker(key: str, label: str, options: list[tuple[str, str]], value: str) -> dict:
    return {"key": key, "label": label, "options": [list(option) for option in options], "value": value}


def numbered(key: str, label: str, names: list[str]) -> dict:
    """A picker of 0 … n − 1 ("3 bank" where `names` are tokens), at the app's default where there is one."""
    return picker(key, label, [(str(i), name) for i, name in enumerate(names)],
                  str(min(DEFAULTS[key], len(names) - 1)))


def item(figure=None, said=(), lines=(), checks=(), links=()) -> dict:
    return {"figure": figure, "said": list(said), "lines": list(lines),
            "checks": [[text, holds] for text, holds in checks], "links": list(links)}


def heads_page(t, layerwise: LayerwiseAnalyses) -> dict:
    """Every head's fingerprint, for each statistic; the striking heads, each a link into the stepper."""
    fingerprints = layerwise.fingerprints
    found, named = striking(fingerprints)
    grids = {stat: item(for_screens(lambda lecture, stat=stat: fingerprint_grid(fingerprints, stat)),
                        lines=[fingerprint_caption(stat)]) for stat in STATS}
    links = [{"text": f"Open layer {layer}, head {head} in Layers", "page": "layers",
              "keys": {"layer": str(layer), "head": str(head), "step": "attn.probs"}} for layer, head in found]
    return page("Head fingerprints", [picker("stat", "Statistic", [(s, STAT_BUTTONS[s]) for s in STATS], "prev")],
                [{"by": ["stat"], "items": grids}, {"by": [], "items": {"": item(lines=[named], links=links)}}])


def rollout_page(t, layerwise: LayerwiseAnalyses) -> dict:
    """The rollout after each layer, and each token's mixture layer by layer (the app also merges pieces into
    words)."""
    rollout, tokens = layerwise.rollout, t.tokens  # (L, T, T)
    layers = {str(layer): item(for_screens(lambda lecture, layer=layer: rollout_matrix(rollout[layer], tokens, layer),
                                           width=WIDE_PX)) for layer in range(t.num_layers)}
    mixtures = {str(token): item(for_screens(lambda lecture, token=token: rollout_mixture(rollout[:, token], tokens,
                                                                                           token), width=WIDE_PX))
                for token in range(len(tokens))}
    return page("Attention rollout", [numbered("layer", "Up to layer", [str(layer) for layer in range(t.num_layers)]),
                                      numbered("token", "Follow one token", [f"{i} {tok}" for i, tok in
                                                                             enumerate(tokens)])],
                [{"by": ["layer"], "items": layers}, {"by": ["token"], "items": mixtures}], side=[ROLLOUT_CAPTION],
                wide=True)


def contributions_page(t, layerwise: LayerwiseAnalyses) -> dict:
    """Each layer's raw attention beside each of its norm-based views, the layer's checks against the model's own
    numbers, and every layer's mixing ratio."""
    results = [layer_contributions(t, layer) for layer in range(t.num_layers)]
    norms = norms_of(results[0])
    attention, beside = {}, {}
    for layer, result in enumerate(results):
        attention[str(layer)] = item(for_screens(lambda lecture, m=result.attention: contribution_panel(
            "attention", m, t.tokens), CONTRIBUTION_PANEL_PX, HALF_PX), said=[mixing_said(result, layer)],
            checks=contribution_checks(result, layer))
        for name in norms:
            beside[f"{layer},{name}"] = item(for_screens(lambda lecture, m=getattr(result, name), name=name:
                                                         contribution_panel(name, m, t.tokens),
                                                         CONTRIBUTION_PANEL_PX, HALF_PX))
    family = t.loaded.family.name
    return page("Norm-based contributions",
                [numbered("layer", "Layer", [str(layer) for layer in range(t.num_layers)]),
                 picker("norm", "Beside the attention", [(name, CONTRIBUTION_VIEWS[name]) for name in norms], norms[-1])],
                [{"by": ["layer"], "half": True, "items": attention},
                 {"by": ["layer", "norm"], "half": True, "items": beside},
                 {"by": [], "items": {"": item(for_screens(lambda lecture: mixing_figure(layerwise.mixing.ratios),
                                                           width=WIDE_PX))}}],
                side=[CONTRIBUTIONS_CAPTION], wide=True,
                notes=contribution_notes(t.num_heads, t.num_key_value_heads, family, results[0].norm_residual_ln is None))


def lens_page(masked_lm, text: str, pair: str | None = None) -> dict:
    """The logit lens at every position (only the mask's where the sentence holds one), through the model loaded
    with its masked-LM head; where the checkpoint has no trained head, the nearest vocabulary pieces instead, as
    the app's Lens page shows them; where neither means anything, only why."""
    from ..stepthrough.trace import trace

    problem = mlm_head_problem(masked_lm)
    title = "Logit lens"
    if problem and masked_lm.weights_kind == "random-init":  # random vectors are near nothing in particular either
        return page(title, [], [], notes=[problem])
    if problem and (narrower := narrower_table(masked_lm)):
        return page(title, [], [], notes=[problem, narrower])
    t = trace(masked_lm, text, pair)
    positions = t.mask_positions[:1] or list(range(len(t.tokens)))
    if problem:
        found = [nearest_pieces(t, position) for position in positions]
        draw, checks, notes = nearest_figure, lambda _: [], [nearest_note(masked_lm.source)]
    else:
        found = lenses_at(t, positions)
        draw, checks, notes = lens_figure, lambda lens: [lens_check(lens.max_abs_diff)], []
    items = {str(f.position): item(for_screens(lambda lecture, f=f: draw(f.layers, f.position, f.tokens[f.position]),
                                               phone=lambda f=f: draw([top[:PHONE_TOP] for top in f.layers],
                                                                      f.position, f.tokens[f.position])),
                                   checks=checks(f)) for f in found}
    mask = masked_lm.tokenizer.mask_token
    pickers = [] if t.mask_positions else [numbered("position", "Position", [f"{i} {tok}" for i, tok in
                                                                             enumerate(t.tokens)])]
    return page(title, pickers, [{"by": ["position"] if pickers else [], "items": items if pickers else
                                  {"": next(iter(items.values()))}}],
                side=[] if t.mask_positions else [position_note(mask)], notes=notes)
