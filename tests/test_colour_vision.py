"""Every colour scale and every pair of marks the figures tell apart by colour stays apart for readers with the three
common colour-vision deficiencies (issue 56), and the sequential scale in greyscale (a projector's washed-out colours,
a printed handout).

How (colour-science, which implements both):
- Simulation: Machado, Oliveira and Fernandes (2009), "A Physiologically-based Model for Simulation of Color Vision
  Deficiency", at severity 1.0: protanopia, deuteranopia and tritanopia (Machado's tritanomaly at full shift; the
  library warns that it approximates tritanopia). The matrices apply to linear sRGB.
- Difference: CIEDE2000 (ΔE00) in CIELAB under D65. Greyscale: CIELAB's L* alone (a* = b* = 0).

Thresholds (chosen here, stated in docs/accessibility.md):
- A scale sampled at eleven equal steps (tenths of its range): adjacent steps differ by ΔE00 ≥ 2.5 under each
  simulation, and the sequential scale in greyscale too. ΔE00 ≈ 1 is a just noticeable difference side by side;
  2.5 leaves a margin for cells that are not side by side.
- A diverging scale's sign: +v and −v differ by ΔE00 ≥ 15 under each simulation for |v| ≥ 0.4 of its half-range
  (nearer 0 both are near white, and the number's minus sign says it, as the cell's text and hover do).
- Marks told apart by colour (a chosen bar among the others, a sum's rising and falling terms, the diagram's step
  and the steps it reads, sentence A's chips and sentence B's, BertViz's heads): ΔE00 ≥ 10 for two marks, and
  ≥ 5 between any two of a model's heads (up to 23 heads, Paul Tol's rainbow sets).
Each check is proven able to fail on a scale known to fail it (red-yellow-green's sign, Plotly's rainbow, jet in
greyscale).
"""
from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pytest

_PRINTING = np.get_printoptions()
colour = pytest.importorskip("colour")  # colour-science, pinned in requirements-dev.txt
np.set_printoptions(**_PRINTING)  # it sets numpy's 1.13 printing on import, for every module after it: the package's
# doctests print arrays as numpy does now

from plotly.colors import hex_to_rgb, sample_colorscale  # noqa: E402

from bertviz_lite.figures import style  # noqa: E402
from bertviz_lite.figures.attention_views import head_colours  # noqa: E402

STEPS = np.linspace(0, 1, 11)  # tenths of a scale's range
ADJACENT, SIGN, MARKS, HEADS = 2.5, 15.0, 10.0, 5.0  # least ΔE00 (the module's docstring says why)
SIGNED_FROM = 0.4  # |v| from which a diverging scale's sign must show in its colour alone
DEFICIENCIES = {"protanopia": "Protanomaly", "deuteranopia": "Deuteranomaly", "tritanopia": "Tritanomaly"}


def simulated(rgb: np.ndarray, deficiency: str) -> np.ndarray:
    """sRGB colours in [0, 1] (…, 3) as a reader with `deficiency` sees them, Machado 2009 at severity 1."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tritanomaly's note that it approximates tritanopia (the docstring says it)
        matrix = colour.blindness.matrix_cvd_Machado2009(DEFICIENCIES[deficiency], 1.0)  # (3, 3), linear sRGB
    linear = colour.models.eotf_sRGB(rgb) @ matrix.T
    return colour.models.eotf_inverse_sRGB(np.clip(linear, 0, 1))


def lab(rgb: np.ndarray) -> np.ndarray:
    """CIELAB (D65) of sRGB colours in [0, 1]."""
    return colour.XYZ_to_Lab(colour.sRGB_to_XYZ(rgb))


def grey(rgb: np.ndarray) -> np.ndarray:
    """CIELAB of the colours in greyscale: their lightness alone."""
    lightness = lab(rgb)
    lightness[..., 1:] = 0
    return lightness


def differences(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return colour.delta_E(a, b, method="CIE 2000")


def sampled(scale) -> np.ndarray:
    """A Plotly colour scale (a name or a list of stops) at STEPS: (11, 3) in [0, 1]."""
    rgb = np.array(sample_colorscale(scale, list(STEPS), colortype="tuple"), dtype=np.float64)
    return rgb / 255 if rgb.max() > 1 else rgb


def rgb_of(*colours: str) -> np.ndarray:
    return np.array([hex_to_rgb(c) for c in colours], dtype=np.float64) / 255


def views(rgb: np.ndarray, greyscale: bool) -> dict[str, np.ndarray]:
    """The colours in CIELAB as each reader sees them."""
    seen = {name: lab(simulated(rgb, name)) for name in DEFICIENCIES}
    return {**seen, "greyscale": grey(rgb)} if greyscale else seen


def closest_steps(scale, greyscale: bool) -> dict[str, float]:
    """Each reader's smallest ΔE00 between adjacent tenths of `scale`."""
    seen = views(sampled(scale), greyscale)
    return {name: float(differences(lab[:-1], lab[1:]).min()) for name, lab in seen.items()}


def closest_signs(scale) -> dict[str, float]:
    """Each reader's smallest ΔE00 between +v and −v of a diverging `scale`, for |v| ≥ SIGNED_FROM."""
    far = np.abs(STEPS - 0.5) * 2 >= SIGNED_FROM - 1e-9
    below, above = np.flatnonzero(far & (STEPS < 0.5)), np.flatnonzero(far & (STEPS > 0.5))[::-1]
    return {name: float(differences(seen[below], seen[above]).min())
            for name, seen in views(sampled(scale), greyscale=False).items()}


def failing(found: dict[str, float], least: float) -> dict[str, float]:
    return {name: round(d, 2) for name, d in found.items() if d < least}


SCALES = {"share (sequential)": (style.SHARE, True), "signed and cosine (diverging)": (style.SIGNED, False)}


@pytest.mark.parametrize("name", SCALES)
def test_every_scale_keeps_its_steps_apart_for_every_reader(name):
    scale, sequential = SCALES[name]
    assert set(style.SCALES[k].colours for k in style.SCALES) == {style.SHARE, style.SIGNED}  # nothing untested
    assert not failing(closest_steps(scale, greyscale=sequential), ADJACENT), name


def test_a_diverging_scales_sign_shows_for_every_reader():
    assert not failing(closest_signs(style.SIGNED), SIGN)


def test_each_check_fails_a_scale_known_to_fail_it():
    """The checks can fail: red-yellow-green's sign under deuteranopia, Plotly's rainbow under protanopia, jet in
    greyscale (its lightness rises and falls)."""
    assert "deuteranopia" in failing(closest_signs("RdYlGn"), SIGN)
    assert "protanopia" in failing(closest_steps("Rainbow", greyscale=False), ADJACENT)
    assert "greyscale" in failing(closest_steps("Jet", greyscale=True), ADJACENT)


MARK_PAIRS = {  # marks a figure tells apart by colour (each also by a shape, a word or a place: docs/accessibility.md)
    "a chosen bar, key or point among the others": (style.CHOSEN, style.INK),
    "a sum's terms that add and that take away": (style.RISE, style.FALL),
    "the diagram's step on screen and the steps it reads": (style.INK, style.READ_BOX),
    "the steps it reads and the others": (style.READ_BOX, style.OTHER_BOX),
    "sentence A's chips and sentence B's": (style.CHIP_COLOURS[0], style.CHIP_COLOURS[1]),
    "sentence B's chips and special tokens'": (style.CHIP_COLOURS[1], style.CHIP_COLOURS[None]),
    "a lit token in BertViz's views and the others": (style.LIT, style.CANVAS_TEXT),
}


@pytest.mark.parametrize("meaning", MARK_PAIRS)
def test_marks_told_apart_by_colour_stay_apart_for_every_reader(meaning):
    seen = views(rgb_of(*MARK_PAIRS[meaning]), greyscale=False)
    assert not failing({name: float(differences(c[0], c[1])) for name, c in seen.items()}, MARKS), meaning


@pytest.mark.parametrize("num_heads", range(1, 24))
def test_any_two_heads_colours_stay_apart_for_every_reader(num_heads):
    seen = views(rgb_of(*head_colours(num_heads)), greyscale=False)
    pairs = np.triu_indices(num_heads, 1)
    least = {name: float(differences(c[pairs[0]], c[pairs[1]]).min(initial=np.inf)) for name, c in seen.items()}
    assert not failing(least, HEADS), num_heads


def test_a_pair_check_fails_red_beside_green():
    """Red and green of one lightness are one colour under deuteranopia."""
    seen = views(rgb_of("#d55e00", "#5e8c00"), greyscale=False)
    assert differences(seen["deuteranopia"][0], seen["deuteranopia"][1]) < MARKS


def test_a_sites_chips_are_the_apps():
    """The site's stylesheet colours its chips as the app does (style.py), sentence B's dashed outline included: one
    set of colours, so that the pairs above are the ones a reader of either sees."""
    css = (Path(style.__file__).parents[1] / "export" / "assets" / "site.css").read_text()
    rules = dict(re.findall(r"\.chip(\.\w+)?\s*\{([^}]*)\}", css))
    background = {name: re.search(r"background:\s*(#\w+)", rules[name]).group(1) for name in ("", ".special", ".B")}
    assert background == {"": style.CHIP_COLOURS[0], ".special": style.CHIP_COLOURS[None], ".B": style.CHIP_COLOURS[1]}
    assert f"dashed {style.CHIP_B_OUTLINE}" in rules[".B"]


def contrast(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """WCAG 2's contrast ratio of sRGB colours in [0, 1] (its relative luminance: linear sRGB's Y)."""
    y = [colour.models.eotf_sRGB(c) @ np.array([0.2126, 0.7152, 0.0722]) for c in (a, b)]
    return (np.maximum(*y) + 0.05) / (np.minimum(*y) + 0.05)


def outline_contrast(lines: tuple[str, ...]) -> float:
    """The least, over every colour of both scales (hundredths of each), of the best contrast any of `lines` makes
    with it: a chosen cell's outline is seen where one of its lines stands out from the cell beside it."""
    cells = np.concatenate([np.array(sample_colorscale(s, list(np.linspace(0, 1, 101)), colortype="tuple"))
                            for s in (style.SHARE, style.SIGNED)])
    cells = cells / 255 if cells.max() > 1 else cells
    return float(np.max([contrast(rgb_of(line)[0], cells) for line in lines], axis=0).min())


def test_a_chosen_cells_outline_stands_out_from_any_cell():
    """WCAG 1.4.11 (non-text contrast ≥ 3:1), by technique C40 (two bands 9:1 to each other): the chosen cell's
    dark, light and orange lines (charts.py OUTLINE) against every colour of the share and signed scales; orange
    alone does not (1:1 beside a red cell), nor orange on a dark band."""
    from bertviz_lite.figures.charts import OUTLINE

    dark, light = style.CHOSEN_HALO
    assert contrast(rgb_of(dark)[0], rgb_of(light)[0]) >= 9
    assert outline_contrast(tuple(c for c, _ in OUTLINE)) >= 3
    assert outline_contrast((style.CHOSEN,)) < 3 and outline_contrast((style.CHOSEN, dark)) < 3
