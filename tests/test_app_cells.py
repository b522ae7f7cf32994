"""The Layers page explains one cell (`cell` in the URL) and draws the current block from its graph: the numbers on the
page are bvl.explain's, every op of every family draws, hostile cells get a message while the rest of the page
draws, and a 512-token view with its diagram and an explanation stays under 2 MB."""
import numpy as np
import pytest

from bertviz_lite import BUNDLED_MODEL, explain, load_model, trace
from bertviz_lite.figures.diagram import CURRENT, READS

from apptest import open_page, payload_bytes, specs
from tiers import first_by_default

TEXT = "the bank of the river was muddy"


def explanation_markdown(at) -> list[str]:
    return [m.value for m in at.markdown if m.value.startswith("`")]


def box_colours(diagram: dict) -> dict[str, str]:
    """The diagram's box fills by step key, read from its shapes and its click targets' order."""
    keys = diagram["data"][-1]["customdata"]
    rects = [s for s in diagram["layout"]["shapes"] if s["type"] == "rect"]
    return {key: rect["fillcolor"] for key, rect in zip(keys, rects)}


def test_a_score_explained_from_a_lecture_link():
    at = open_page("layers", model=BUNDLED_MODEL, text=TEXT, layer=2, head=3, step="attn.scores", cell="2,5",
                   lecture=1)
    assert not at.exception and not at.error
    e = explain(trace(load_model(BUNDLED_MODEL), TEXT), "layers.2.attn.scores", 3, (2, 5))
    (formula,) = explanation_markdown(at)
    assert e.formula in formula and f"{e.value:.4f}" in formula
    assert any(f"query 2 bank, key 5 river = {e.value:.4f}" in m.value for m in at.markdown)
    assert any("From these numbers" in m.value and "check_circle" in m.value for m in at.markdown)
    waterfall = next(f for f in specs(at) if f["data"][0]["type"] == "waterfall")
    assert waterfall["data"][0]["y"][-1] == "= value" and len(waterfall["data"][0]["y"]) == 5 + 1 + 1 + 1
    heatmap = next(f for f in specs(at) if f["data"][0]["type"] == "heatmap")
    for marked in heatmap["layout"]["shapes"]:  # the chosen cell outlined on its edges (three lines): column 5, row 2
        assert (marked["x0"], marked["x1"], marked["y0"], marked["y1"]) == (4.5, 5.5, 1.5, 2.5)
    assert heatmap["data"][0]["x"][5] == "5 river" and heatmap["data"][0]["y"][2] == "2 bank"
    assert any(b.proto.label == "Download this explanation (CSV)" for b in at.get("download_button"))
    (diagram,) = specs(at, diagrams=True)
    colours = box_colours(diagram)
    assert colours["attn.scores"] == CURRENT and colours["attn.dots"] == READS and colours["input"] not in (CURRENT,
                                                                                                            READS)
    assert at.query_params["cell"] == "2,5"


def test_the_pickers_choose_a_cell_and_clear_it(tiny_dirs):
    at = open_page("layers", model=tiny_dirs["bert"], layer=1, head=2, step="attn.probs")
    assert not explanation_markdown(at)
    at.selectbox(key="_w_cell_query").set_value(3).run()
    at.selectbox(key="_w_cell_key").set_value(1).run()
    assert not at.exception and at.session_state["cell"] == "3,1" and at.query_params["cell"] == "3,1"
    assert "softmax" in explanation_markdown(at)[0]
    at.button(key="cell_clear").click().run()
    assert at.session_state["cell"] == "" and "cell" not in at.query_params


@pytest.mark.parametrize("cell,needle", [("x,y", "not one"), ("99,99", "not one of this step's"),
                                         ("-1,2", "not one"), ("1", "not one of this step's"),
                                         ("1,2,3", "not one of this step's"), ("99999999999999999999,1", "not one"),
                                         ("😀", "not one")])
def test_hostile_cells_get_a_message_and_the_rest_draws(tiny_dirs, cell, needle):
    at = open_page("layers", model=tiny_dirs["bert"], layer=1, step="attn.scores", cell=cell)
    assert not at.exception and not explanation_markdown(at)
    assert any(needle in c.value for c in at.caption), [c.value for c in at.caption]
    assert next(f for f in specs(at) if f["data"][0]["type"] == "heatmap")  # the step still draws
    assert at.query_params["cell"] == cell  # what was typed is kept


@pytest.mark.parametrize("family", first_by_default(["modernbert", "deberta-v2", "mpnet"]))
def test_every_step_of_a_family_explains_a_cell_on_the_page(new_tiny_dirs, family):
    loaded = load_model(new_tiny_dirs[family])
    t = trace(loaded, "the cat sat on the mat")
    for layer in (0, t.num_layers - 1):
        for key in t.graph("layers", layer).keys:
            at = open_page("layers", model=new_tiny_dirs[family], layer=layer, head=1, step=key, cell="1,1")
            assert not at.exception, (key, [e.value for e in at.exception])
            assert not at.error, (key, [e.value for e in at.error])
            assert explanation_markdown(at), key
            assert any("Computed again from these numbers" in s.value for s in at.success), key
    positions = t.graph("positions")
    for step in ["embed.norm"] + ([f"positions.{positions.keys[0]}"] if positions else []):
        at = open_page("layers", model=new_tiny_dirs[family], step=step, cell="1,1")
        assert not at.exception and explanation_markdown(at), step


def test_the_diagram_differs_where_the_layers_differ(new_tiny_dirs, tiny_dirs):
    """Drawn from each family's own graph: DeBERTa's three terms, MPNet's bias, ModernBERT's rotations."""
    shorts = {}
    for name, directory in (("bert", tiny_dirs["bert"]), *((f, new_tiny_dirs[f]) for f in
                                                            ("deberta-v2", "mpnet", "modernbert"))):
        (diagram,) = specs(open_page("layers", model=directory, layer=1, step="attn.probs"), diagrams=True)
        shorts[name] = diagram["data"][-1]["text"]
    assert {"c2c", "c2p", "p2c", "δ(i, j)"} <= set(shorts["deberta-v2"])
    assert {"bias", "bucket"} <= set(shorts["mpnet"]) and "bias" not in shorts["bert"]
    assert {"θ", "Q rot", "K rot", "gate"} <= set(shorts["modernbert"]) and "θ" not in shorts["bert"]
    assert len(shorts["bert"]) == 17


def test_a_layer_view_with_its_diagram_and_an_explanation_at_512_tokens_stays_under_2_mb():
    words = ("the cat sat on the mat and the dog sat on the log " * 60).split()[:510]
    at = open_page("layers", text=" ".join(words), step="attn.scores", cell="300,200")
    assert not at.exception and explanation_markdown(at)
    assert specs(at, diagrams=True)
    size = payload_bytes(at)
    assert 100_000 < size < 2_000_000, size
    np.testing.assert_equal(len([f for f in specs(at) if f["data"][0]["type"] == "waterfall"]), 1)


def test_a_clicked_cell_is_read_from_its_target_as_a_urls_cell_and_nothing_else_is_taken():
    from app_pages.stepper.cells import clicked_cell
    assert clicked_cell("2,4") == (2, 4)
    for sent in ("²,1", "1" * 5000 + ",1", "2,4,1", "a,b", "", [2, 4], None, 3):
        assert clicked_cell(sent) is None, sent
