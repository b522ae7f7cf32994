"""What the tour asks before it shows a chapter (issue 57, `ask=1`): a step's chapter asks its operation's question
(`Op.ask`, beside its narrator in ops/), the residual stream's chapter which layer turns the chosen token most, and
the output chapter what the masked-LM head predicts at the mask. Each is made from the numbers the chapter's figure
then shows (ops/asking.py), and none is asked where those numbers do not decide it.
"""
from __future__ import annotations

from ..analyses.logit_lens import LogitLens
from ..ops.asking import Asking, Question, asked, asked_over
from ..ops.recipe import X, var
from ..ops.telling import said, step
from ..stepthrough.trace import Trace
from .chapters import Chapter
from .narration import Stream, chapter_step, step_module

ASKS = {"stream": "Which layer turns {me} most (the lowest cosine between its vector before and after)?",
        "stream_choice": "layer {k}",
        "stream_decides": "Layer {right} turns {me} most: cosine {cosine:.2f} between its vector before and after.",
        "predicts": "What does the masked-LM head predict at position {position} ({at})?",
        "predicts_choice": "'{token}'",
        "predicts_decides": "The masked-LM head gives '{token}' a probability of {p:.2f} there."}


def chapter_question(trace: Trace, chapter: Chapter, head: int = 0, token: int = 1,
                     lens: LogitLens | None = None) -> Question | None:
    """The question the chapter asks about `head` and token `token` (the output chapter: about the masked-LM
    prediction `lens`, where there is one), or None where it asks nothing or its numbers decide nothing."""
    token = min(max(token, 0), len(trace.tokens) - 1)
    if chapter.kind == "stream":
        return asked(STREAM_ASKING, Stream(trace, token))
    if chapter.kind == "output":
        return None if lens is None else asked_over(PREDICTION_ASKING, prediction_named(lens, trace))
    if chapter.kind != "step":
        return None
    s = chapter_step(trace, chapter, head, token)
    asking = step_asking(trace, s.graph, s.node)
    return None if asking is None else asked(asking, s)


def step_asking(trace: Trace, graph, node) -> Asking | None:
    """The step's operation's question, as data (a site's browser is handed it), or None."""
    return None if node.op.ask is None else node.op.ask(node, graph, step_module(trace, node))


def _stream_asking() -> Asking:
    """Which layer turns the chosen token's vector most: the lowest cosine between before and after (the figure's
    column for the token), the runners-up the next lowest."""
    cosines = X(["cosines"])[:, step.token]  # (L,)
    return Asking({"cos": cosines}, said(ASKS["stream"], me=step.me), var.cos, None,
                  said(ASKS["stream_choice"]), "{value:.2f}", fewest=True,
                  decides=said(ASKS["stream_decides"], me=step.me, cosine=var.cos[var.right]))


def _prediction_asking() -> Asking:
    """What the masked-LM head predicts at the mask: its top pieces, the most probable right."""
    return Asking({}, said(ASKS["predicts"]), var.probs, None, said(ASKS["predicts_choice"], token=var.pieces[var.k]),
                  "{value:.2f}", decides=said(ASKS["predicts_decides"], token=var.pieces[var.right],
                                              p=var.probs[var.right]),
                  order=var.alphabetical)  # the pieces come most probable first: listed alphabetically instead


def prediction_named(lens: LogitLens, trace: Trace) -> dict:
    """What the prediction's question reads: the last layer's top pieces and their probabilities, where they are,
    and each piece's place in alphabetical order (how the choices are listed)."""
    top = lens.layers[-1]
    pieces = [piece for piece, _ in top]
    return {"pieces": pieces, "probs": [float(p) for _, p in top], "position": lens.position,
            "at": trace.tokens[lens.position], "alphabetical": [sorted(pieces).index(p) for p in pieces]}


STREAM_ASKING, PREDICTION_ASKING = _stream_asking(), _prediction_asking()
