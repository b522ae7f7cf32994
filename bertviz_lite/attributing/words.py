"""What the Attributions page says of a result, written once for the app's page and an exported site's: the
completeness line, the deletion curves' verdict, and the captions; the page's default steps and baseline (its
default sentence B is the lecture's: tour/lecture.py DEFAULT_OTHER)."""
from __future__ import annotations

from .deletion import Faithfulness
from .gradients import METHODS, Attribution

DEFAULT_STEPS, DEFAULT_BASELINE = 32, "pad"
GAP_WARNED = 0.01  # a completeness gap past this share of f(x) − f(baseline) is warned of
BARS_TITLE = "{method}, per token"
DELETION_TITLE = "Deletion curves: {target}"
AOPC_CAPTION = ("AOPC: the mean fall of the target as each method's top tokens are replaced one by one by the "
                "baseline token, k = 0 … K (Samek et al. 2017); larger is more faithful.")


def gap_share(result: Attribution) -> float:
    """|Σ attributions − (f(x) − f(baseline))| as a share of f(x) − f(baseline)."""
    return abs(result.completeness_gap) / max(abs(result.f_x - result.f_baseline), 1e-12)


def signed(x: float) -> str:
    """A number to 4 decimals with a minus sign, not a hyphen (a line may break after a hyphen, and the formula's own
    minus signs are U+2212).

    >>> signed(-0.00461), signed(0.5)
    ('−0.0046', '0.5000')
    """
    return f"{x:.4f}".replace("-", "−")


def completeness(result: Attribution) -> str:
    """The method and target in bold, then Σ attributions against f(x) − f(baseline) and the gap."""
    gap, share = result.completeness_gap, gap_share(result)
    said = (f"Σ attributions {signed(result.total)}; f(x) − f(baseline) = {signed(result.f_x)} − "
            f"({signed(result.f_baseline)}) = {signed(result.f_x - result.f_baseline)}; "
            f"gap {f'{gap:+.1e}'.replace('-', '−')} ({share:.2%})")
    return (f"**{METHODS[result.method].capitalize()} of {result.target}.** {said}"
            + ("" if result.method == "ig" else " — gradient × input is not complete, the gap is expected."))


def gap_warning(result: Attribution) -> str | None:
    """Integrated gradients far from complete: more steps bring the gap down."""
    share = gap_share(result)
    if result.method != "ig" or share <= GAP_WARNED:
        return None
    return f"The gap is {share:.1%} of f(x) − f(baseline): the path is steep somewhere; more steps bring it down."


def verdict(found: Faithfulness) -> str:
    best, margin = found.most_faithful()
    return (f"For this sentence, **{best}** was the most faithful: AOPC {found.aopc[best]:.3f}, {margin:.3f} above "
            f"the next method (random: {found.aopc['random']:.3f}). One sentence, not a law.")


def caption(baseline: str) -> str:
    return ("Per token, the attribution to its word embedding summed over the dimensions; a special token's "
            f"embedding is the baseline's own, so its attribution is 0. The baseline replaces every other token by "
            f"the {baseline} token (Sundararajan et al. 2017; Captum computes both methods).")
