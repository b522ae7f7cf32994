"""The site's Heads, Rollout, Contributions and Lens pages: a sentence's analyses computed by the app's own code
(analyses/all_layers.py, contributions.py, logit_lens.py, nearest_pieces.py) and drawn and worded as the app's pages
draw and word them (analyses/page_views.py), for every value of the page's pickers, since the site has no model to
ask (a live site's browser computes a typed sentence's pages in the same shape: frontend/src/analysed.js, with the
words `analyses_words` and `lens_words` hand it). One generic page in the browser (frontend/src/analyses.js) shows
any of them:

    {"title": the page's title,
     "pickers": [{"key": a URL key, "label", "options": [[value, label], …], "value": the default}],
     "panels": [{"by": [picker keys], "half": beside the next half panel,
                 "items": {"value,value": {"said": lines above the figure, "figure": for each screen,
                                           "lines": lines beside it, "checks": [[said, holds]], "links"}
                                          or {"part": the part that holds the item}}}],
     "side": lines beside the figures, "notes": what the model does otherwise, "wide": words under the figures}

A line is Markdown as the app writes it (**bold**, "- " items); a link is {"text", "page", "keys"}. Each page
function gives the page and its parts apart (name, item): a panel with an item per token (each token's mixture,
each position's lens) keeps each item in a part of its own, read when it is shown, so that a long sentence's page
does not read every token's figure to draw one.
"""
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..analyses.questions import HEAD_ASKING, head_question, stat_does
from ..analyses.all_layers import LayerwiseAnalyses
from ..analyses.contributions import attention_block, layer_contributions
from ..analyses.head_fingerprints import STAT_WORDS, STATS, STRIKING as STRIKING_SHARE
from ..analyses.logit_lens import TOP, lenses_at, mlm_head_problem
from ..analyses.nearest_pieces import narrower_table, nearest_at
from ..closeness import ANOTHER_ROUTE
from ..analyses.page_views import (CHECKS, CONTRIBUTION_PANEL_PX, CONTRIBUTION_VIEWS,
                                   CONTRIBUTIONS_CAPTION, DEFAULTS, LABELS, MIXING_SAID, MIXING_TITLE, MIXTURE_TITLE,
                                   NEAREST_TITLE, NONE_STRIKING, OPEN_HEAD, PHONE_TOP, ROLLOUT_AXES, ROLLOUT_CAPTION,
                                   ROLLOUT_SCALE, ROLLOUT_TITLE, STAT_BUTTONS, STRIKING, STRIKING_SAID, TITLES,
                                   contribution_checks, contribution_notes, contribution_panel, fingerprint_caption,
                                   fingerprint_grid, lens_check, lens_figure,
                                   mixing_figure, mixing_said, nearest_figure, nearest_note, norms_of, open_head_label,
                                   position_note, rollout_matrix, rollout_mixture, stat_grid, striking, token_option)
from ..errors import LoadError
from ..figures.style import colour_rule
from ..figures.template import template_of
from ..ops.recipe import var
from ..figures.screens import LECTURE_CHART_PX, LECTURE_NUMBERS_PX
from .analysis_figures import analysis_templates, lens_templates
from .screens import CANVAS_PX, HALF_PX, PHONE_PX, WIDE_PX, for_screens

Apart = Iterator[tuple[str, dict]]  # a page's parts kept apart: (part name, item)


def analyses_words(t) -> dict:
    """What the browser needs to give a computed sentence's Heads and Rollout pages (frontend/src/heads_rollout.js)
    as these functions give an exported one's, each read from where the app keeps it: the pages' titles, pickers'
    labels and defaults, the statistics (Clark et al.) and how the page names them, the striking heads' rule, and
    the captions."""
    return {"titles": TITLES, "labels": LABELS, "defaults": DEFAULTS, "stats": list(STATS),
            "stat_buttons": STAT_BUTTONS, "captions": {stat: fingerprint_caption(stat) for stat in STATS},
            "stat_words": STAT_WORDS, "head_asking": HEAD_ASKING.to_json(),  # the Heads page's question (ask=1)
            "stat_does": {stat: stat_does(stat) for stat in STATS},
            "striking": {"least": STRIKING_SHARE, "most": STRIKING, "said": STRIKING_SAID, "none": NONE_STRIKING,
                         "open": OPEN_HEAD},
            "screens": {"browse": CANVAS_PX, "wide": WIDE_PX, "phone": PHONE_PX, "tallest": LECTURE_CHART_PX,
                        "numbers": LECTURE_NUMBERS_PX},
            "contributions": {"views": CONTRIBUTION_VIEWS, "caption": CONTRIBUTIONS_CAPTION, "said": MIXING_SAID,
                              "checks": CHECKS, "tolerance": ANOTHER_ROUTE.to_json(), "mixing": MIXING_TITLE,
                              "notes": contribution_notes(t.num_heads, t.num_key_value_heads, t.loaded.family.name,
                                                          pre_norm=is_pre_norm(t))},
            "rollout": {"caption": ROLLOUT_CAPTION, "title": ROLLOUT_TITLE, "scale": ROLLOUT_SCALE,
                        "axes": list(ROLLOUT_AXES), "mixture": MIXTURE_TITLE},
            "figures": {"heads": heads_templates(t.num_layers, t.num_heads),
                        **analysis_templates(t.num_layers, norms_of(layer_contributions(t, 0)))}}


def heads_templates(layers: int, heads: int) -> dict:
    """Each statistic's grid as the Heads page draws it (`stat_grid`), for each screen, as a template
    (figures/template.py) that a typed sentence's (L, H) numbers `z` fill, coloured by the app's rule over them
    (figures/style.py colour_rule): heads_rollout.js draws a typed sentence's Heads page so."""
    fills = {("data", 0, "z"): var.z, **{("data", 0, name): rule for name, rule in colour_rule(values=var.z).items()}}
    sample = np.zeros((layers, heads), np.float32)  # (the cells' numbers are written as for any statistic's: each is
    # under 10 and none negative, as fit's cell_numbers.py takes zeros; test_analysis_graphs.py fills real ones)
    return {stat: {screen: template_of([figure], 0, fills)
                   for screen, figure in for_screens(lambda lecture, stat=stat: stat_grid(sample, stat)).items()}
            for stat in STATS}


def lens_words(masked_lm, layers: int) -> dict:
    """What the browser needs for a computed sentence's Lens page (frontend/src/contributions_lens.js), decided as
    `lens_page` decides it from the checkpoint: "notes" (no lens to show, and why), "nearest" (no trained masked-LM
    head: the nearest pieces of its word table, computed there from the table in the live files, in the app's figure
    for a model of `layers` layers), or "lens" (a trained head, which the live files do not hold: the page says
    so)."""
    if isinstance(masked_lm, LoadError):
        return {"mode": "notes", "notes": [f"The lens needs the model with its masked-LM head: {masked_lm}"]}
    problem = mlm_head_problem(masked_lm)
    if problem and masked_lm.weights_kind == "random-init":
        return {"mode": "notes", "notes": [problem]}
    if problem and (narrower := narrower_table(masked_lm)):
        return {"mode": "notes", "notes": [problem, narrower]}
    if not problem:
        return {"mode": "lens", "notes": []}
    tokenizer = masked_lm.tokenizer
    return {"mode": "nearest", "notes": [nearest_note(masked_lm.source)], "top": TOP, "phone_top": PHONE_TOP,
            "title": NEAREST_TITLE, "position_note": position_note(tokenizer.mask_token, predicts=False),
            "mask_id": tokenizer.mask_token_id, "figure": lens_templates(layers, TOP, PHONE_TOP)}


def is_pre_norm(t) -> bool:
    """Whether the model's layers normalise before attention, as the Contributions page tells it (no LayerNorm
    follows the residual sum there)."""
    return attention_block(t, 0).post_norm is None


def page(name: str, pickers: list[dict], panels: list[dict], side: list[str] = (), notes: list[str] = (),
         wide: bool = False, any_sentence: bool = False, questions: dict | None = None) -> dict:
    """`wide`: the figures take the page's width and the words go under them (as the app's Contributions page);
    `any_sentence`: the page is the same for every sentence (Contexts), so a sentence typed on a live site shows it
    under a title that does not say it was computed there; `questions`: what the page asks first where the link
    asks (ask=1), by the URL keys `by` (a question's JSON, or None where the numbers decide none)."""
    return {"title": TITLES[name], "pickers": pickers, "panels": panels, "side": list(side), "notes": list(notes),
            "wide": wide, "any_sentence": any_sentence, "questions": questions}


def picker(key: str, options: list[tuple[str, str]], value: str, label: str | None = None) -> dict:
    return {"key": key, "label": label or LABELS[key], "options": [list(option) for option in options],
            "value": value}


def numbered(key: str, names: list[str], label: str | None = None) -> dict:
    """A picker of 0 … n − 1 (named by `names`), at the app's default where there is one."""
    return picker(key, [(str(i), name) for i, name in enumerate(names)], str(min(DEFAULTS[key], len(names) - 1)),
                  label)


def item(figure=None, said=(), lines=(), checks=(), links=()) -> dict:
    return {"figure": figure, "said": list(said), "lines": list(lines),
            "checks": [[text, holds] for text, holds in checks], "links": list(links)}


def kept_apart(name: str, items: Iterator[tuple[str, dict]]) -> tuple[dict, Apart]:
    """A panel's items each in a part of its own (`name.value`), and those parts, computed when written."""
    items = list(items)  # (value, a function giving its item)
    return ({value: {"part": f"{name}.{value}"} for value, _ in items},
            ((f"{name}.{value}", build()) for value, build in items))


def heads_page(t, layerwise: LayerwiseAnalyses) -> tuple[dict, Apart]:
    """Every head's fingerprint, for each statistic; the striking heads, each a link into the stepper."""
    fingerprints = layerwise.fingerprints
    found, named = striking(fingerprints)
    grids = {stat: item(for_screens(lambda lecture, stat=stat: fingerprint_grid(fingerprints, stat)),
                        lines=[fingerprint_caption(stat)]) for stat in STATS}
    links = [{"text": open_head_label(layer, head), "page": "layers",
              "keys": {"layer": str(layer), "head": str(head), "step": "attn.probs"}} for layer, head in found]
    asked = {f"{stat},{layer}": head_question(fingerprints, stat, layer) for stat in STATS
             for layer in range(t.num_layers)}  # which head of the layer (the link's, as the app's) does it most
    return page("heads", [picker("stat", [(s, STAT_BUTTONS[s]) for s in STATS], DEFAULTS["stat"])],
                [{"by": ["stat"], "items": grids}, {"by": [], "items": {"": item(lines=[named], links=links)}}],
                questions={"by": ["stat", "layer"],
                           "items": {k: q and q.to_json() for k, q in asked.items()}}), iter(())


def rollout_page(t, layerwise: LayerwiseAnalyses) -> tuple[dict, Apart]:
    """The rollout after each layer, and each token's mixture layer by layer, a part each (the app also merges
    pieces into words)."""
    rollout, tokens = layerwise.rollout, t.tokens  # (L, T, T)
    layers = {str(layer): item(for_screens(lambda lecture, layer=layer: rollout_matrix(rollout[layer], tokens, layer),
                                           width=WIDE_PX)) for layer in range(t.num_layers)}
    mixtures, apart = kept_apart("rollout.token", (
        (str(token), lambda token=token: item(for_screens(lambda lecture: rollout_mixture(rollout[:, token], tokens,
                                                                                           token), width=WIDE_PX)))
        for token in range(len(tokens))))
    return page("rollout", [numbered("layer", [str(layer) for layer in range(t.num_layers)], LABELS["rollout_layer"]),
                            numbered("token", [token_option(i, tokens) for i in range(len(tokens))])],
                [{"by": ["layer"], "items": layers}, {"by": ["token"], "items": mixtures}], side=[ROLLOUT_CAPTION],
                wide=True), apart


def contributions_page(t, layerwise: LayerwiseAnalyses) -> tuple[dict, Apart]:
    """Each layer's raw attention beside each of its norm-based views, the layer's checks against the model's own
    numbers, and every layer's mixing ratio."""
    results = [layer_contributions(t, layer) for layer in range(t.num_layers)]  # all_layers kept their ratios only
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
    mixing = item(for_screens(lambda lecture: mixing_figure(layerwise.mixing.ratios), width=WIDE_PX))
    notes = contribution_notes(t.num_heads, t.num_key_value_heads, t.loaded.family.name, pre_norm=is_pre_norm(t))
    return page("contributions", [numbered("layer", [str(layer) for layer in range(t.num_layers)]),
                                  picker("norm", [(name, CONTRIBUTION_VIEWS[name]) for name in norms], norms[-1])],
                [{"by": ["layer"], "half": True, "items": attention},
                 {"by": ["layer", "norm"], "half": True, "items": beside}, {"by": [], "items": {"": mixing}}],
                side=[CONTRIBUTIONS_CAPTION], notes=notes, wide=True), iter(())


def lens_page(masked_lm, text: str, pair: str | None = None) -> tuple[dict, Apart]:
    """The logit lens at every position, a part each (only the first mask's where the sentence holds one), through
    the model loaded with its masked-LM head; where the checkpoint has no trained head, the nearest vocabulary
    pieces instead, as the app's Lens page shows them; where neither means anything, only why."""
    from ..stepthrough.trace import trace

    problem = mlm_head_problem(masked_lm)
    if problem and masked_lm.weights_kind == "random-init":  # random vectors are near nothing in particular either
        return page("lens", [], [], notes=[problem]), iter(())
    if problem and (narrower := narrower_table(masked_lm)):
        return page("lens", [], [], notes=[problem, narrower]), iter(())
    t = trace(masked_lm, text, pair)
    positions = t.mask_positions[:1] or list(range(len(t.tokens)))
    if problem:
        found, draw, notes = nearest_at(t, positions), nearest_figure, [nearest_note(masked_lm.source)]
    else:
        found, draw, notes = lenses_at(t, positions), lens_figure, []

    def shown(f) -> dict:
        return item(for_screens(lambda lecture: draw(f.layers, f.position, f.tokens[f.position]),
                                phone=lambda: draw([top[:PHONE_TOP] for top in f.layers], f.position,
                                                   f.tokens[f.position])),
                    checks=[] if problem else [lens_check(f.max_abs_diff, f.holds)])

    if t.mask_positions:  # the lens looks at the mask, as the app's: no picker
        return page("lens", [], [{"by": [], "items": {"": shown(found[0])}}], notes=notes), iter(())
    items, apart = kept_apart("lens.position", ((str(f.position), lambda f=f: shown(f)) for f in found))
    return page("lens", [numbered("position", [token_option(i, t.tokens) for i in range(len(t.tokens))])],
                [{"by": ["position"], "items": items}], side=[position_note(masked_lm.tokenizer.mask_token, predicts=not problem)],
                notes=notes), apart
