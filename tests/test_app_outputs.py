"""The pages that say why the model gives its output, through Streamlit's AppTest: the similarity split from a
deep link, its numbers against the API, the word level, hostile URL keys."""
import numpy as np
import pytest

from bertviz_lite import BUNDLED_MODEL, load_model, trace
from bertviz_lite.analyses.similarity_split import explain_similarity

from apptest import decode_typed_array, open_page, specs
from tiers import each_family

SENTENCES = ["the cat sat on the mat", "a kitten was sitting on the rug", "shares dropped on wall street"]


def z_of(figure: dict, trace: int = 0) -> np.ndarray:
    z = figure["data"][trace]["z"]
    return decode_typed_array(z) if isinstance(z, dict) else np.array(z, dtype=np.float64)


@pytest.mark.parametrize("words", [False, True])
def test_the_split_of_two_sentences_from_a_deep_link(words):
    at = open_page("similarity", model=BUNDLED_MODEL, sentences="\n".join(SENTENCES), why="2,1", words=words)
    assert not at.exception and not at.warning
    split, matrix = specs(at)
    expected = explain_similarity(load_model(BUNDLED_MODEL), SENTENCES[0], SENTENCES[1], words)
    np.testing.assert_allclose(z_of(split), expected.pairs, atol=1e-6)
    assert "share of cosine(1, 2)" in split["layout"]["title"]["text"]
    (check,) = [m.value for m in at.markdown if "cells add up to" in m.value]
    assert f"add up to {expected.total:.4f}; the cosine is {expected.cosine:.4f}" in check
    assert ("'cat' ↔ 'kitten'" in check) and at.query_params["why"] == "1,2"
    assert z_of(matrix).shape == (3, 3)


def test_a_plain_model_splits_its_mean_token_vectors():
    at = open_page("similarity", model="bert-base-uncased", why="1,2")
    assert not at.exception
    assert len(specs(at)) == 3  # the split, then both untrained vectors' matrices
    assert any("of the mean token vectors" in m.value for m in at.markdown)


@pytest.mark.parametrize("why", ["99,1", "abc", "2,2", "1", "-1,2"])
def test_a_link_naming_sentences_that_are_not_there_says_so(why):
    at = open_page("similarity", model=BUNDLED_MODEL, sentences="\n".join(SENTENCES), why=why)
    assert not at.exception
    assert any(f"why={why} does not name two of the 3 sentences" in i.value for i in at.info)
    assert len(specs(at)) == 1 and at.session_state.why == ""


TEXT = "the quick brown fox jumps over the lazy dog"


def test_a_head_switched_off_from_a_deep_link_shows_the_shift_the_api_gives():
    from bertviz_lite.intervening.edits import parse_edits
    from bertviz_lite.intervening.run import intervene

    at = open_page("intervene", model=BUNDLED_MODEL, text=TEXT, off="0.2", layer=1, lecture=1)
    assert not at.exception and not at.error
    attention, shift = specs(at)  # the head before and after first: the page's point
    run = intervene(trace(load_model(BUNDLED_MODEL), TEXT), parse_edits(off="0.2"))
    np.testing.assert_allclose(z_of(shift), run.shift, atol=1e-6)
    assert "embeddings (not rerun)" in shift["data"][0]["y"][0]
    assert len(attention["data"]) == 2  # before and after
    assert any("Head 2 of layer 0 off" in m.value for m in at.markdown)
    moved = int(run.shift[-1].argmax())  # a word that occurs twice ('the') is told apart by its position
    assert any(f"'{run.trace.tokens[moved]}' (token {moved}) moved most" in m.value for m in at.markdown)
    assert any(f"(mean {run.shift[-1].mean():.4f})" in m.value for m in at.markdown)  # over the tokens
    assert any("The attention of layer 0 cannot change: the intervention acts after its softmax." in c.value
               for c in at.caption)
    assert any("cosine to the original" in m.label for m in at.metric)
    assert at.multiselect[0].value == ["0.2"] and at.query_params["off"] == "0.2"


def test_each_intervention_draws_its_own_figures():
    """Two interventions on one sentence, one after the other: the second's figures are its own, not the first's
    from the figure cache (their keys name the run, edits included)."""
    from bertviz_lite.intervening.edits import parse_edits
    from bertviz_lite.intervening.run import intervene

    t = trace(load_model(BUNDLED_MODEL), TEXT)
    for off in ("0.2", "3.1"):
        at = open_page("intervene", model=BUNDLED_MODEL, text=TEXT, off=off, layer=4, head=1, lecture=1)
        assert not at.exception and not at.error
        attention, shift = specs(at)
        run = intervene(t, parse_edits(off=off))
        np.testing.assert_allclose(z_of(shift), run.shift, atol=1e-6, err_msg=off)
        np.testing.assert_allclose(z_of(attention, 1), run.trace.attention(4)[1], atol=1e-6, err_msg=off)


def test_choosing_a_head_to_switch_off_writes_the_link():
    at = open_page("intervene", model=BUNDLED_MODEL, text=TEXT)
    assert not at.exception and any("Pick a head" in i.value for i in at.info)
    at.multiselect[0].select("3.1").run()
    assert not at.exception and at.session_state.off == "3.1" and at.query_params["off"] == "3.1"
    assert len(specs(at)) == 2


def test_a_masked_token_shows_the_masked_lm_predictions_before_and_after(tiny_dirs):
    from bertviz_lite.analyses.output_change import output_change
    from bertviz_lite.intervening.edits import parse_edits
    from bertviz_lite.intervening.run import intervene

    at = open_page("intervene", model=tiny_dirs["bert"], task="masked-lm", text="the cat sat on the mat", mask="2")
    assert not at.exception and not at.error
    t = trace(load_model(tiny_dirs["bert"], "masked-lm"), "the cat sat on the mat")
    change = output_change(t, intervene(t, parse_edits(mask="2")).trace)
    assert change.position == 2
    (line,) = [m.value for m in at.markdown if m.value.startswith("Masked-LM top")]
    assert f"'{change.before[0][0]}' {change.before[0][1]:.2f}" in line
    assert f"after '{change.after[0][0]}' {change.after[0][1]:.2f}" in line


def test_the_value_zeroing_map_beside_attention():
    from bertviz_lite.intervening.value_zeroing import value_zeroing, value_zeroing_rollout

    at = open_page("intervene", model=BUNDLED_MODEL, text=TEXT, vz="1", layer=2)
    assert not at.exception
    panels, attention = specs(at)  # the map and its rollout; below, the mean attention it is set against
    t = trace(load_model(BUNDLED_MODEL), TEXT)
    maps = np.stack([value_zeroing(t, k) for k in range(3)])
    np.testing.assert_allclose(z_of({"data": [panels["data"][0]]}), maps[2], atol=1e-6)
    np.testing.assert_allclose(z_of({"data": [panels["data"][1]]}), value_zeroing_rollout(maps)[2], atol=1e-6)
    np.testing.assert_allclose(z_of(attention), t.attention(2).mean(axis=0), atol=1e-6)
    assert any("11 runs of the layer, 33 for the rollout to layer 2" in c.value for c in at.caption)


@pytest.mark.parametrize("keys,fragment", [({"off": "99.99"}, "There is no layer 99"),
                                           ({"off": "abc"}, "'abc' cannot be read"),
                                           ({"mask": "-1"}, "There is no token -1"),
                                           ({"zero": "1:999"}, "There is no token 999")])
@pytest.mark.parametrize("page", ["intervene", "layers"])
def test_hostile_intervention_keys_get_a_message_and_the_models_own_run(page, keys, fragment):
    at = open_page(page, model=BUNDLED_MODEL, text=TEXT, **keys)
    assert not at.exception
    assert any(fragment in e.value for e in at.error)
    assert not any("Intervened run" in w.value for w in at.warning)


def test_the_stepper_opens_the_intervened_run_and_goes_back_to_the_models_own():
    at = open_page("layers", model=BUNDLED_MODEL, text=TEXT, off="0.2", layer=0, step="attn.head_context", head=2,
                   cell="1,3")
    assert not at.exception
    assert any("Intervened run: head 2 of layer 0 off" in w.value for w in at.warning)
    shown = [m.value for kind in (at.markdown, at.caption, at.success, at.info) for m in kind]
    assert any("head 2 is switched off in this run" in text for text in shown), shown
    (back,) = [b for b in at.button if b.label == "The model's own run"]
    back.click().run()
    assert not at.exception and at.session_state.off == "" and not at.warning


@pytest.mark.parametrize("family", each_family())
def test_every_family_from_deep_links(every_tiny_dir, family):
    """Each family's tiny model: an intervention of every kind with the value-zeroing map, the stepper on the
    intervened run, and two sentences' split."""
    model_dir = every_tiny_dir[family]
    at = open_page("intervene", model=model_dir, text="the cat sat on the mat", off="1.1", mask="2",
                   zero="0:3", vz="1", layer=1, head=1)
    assert not at.exception and not at.error, [e.value for e in [*at.exception, *at.error]]
    assert len(specs(at)) == 4  # the head before and after, the shift, the value-zeroing panels, the mean attention
    at = open_page("layers", model=model_dir, text="the cat sat on the mat", off="1.1", layer=1,
                   step="attn.head_context", head=1, cell="1,0")
    assert not at.exception and not at.error, [e.value for e in [*at.exception, *at.error]]
    assert any("Intervened run" in w.value for w in at.warning)
    at = open_page("similarity", model=model_dir, why="1,2")
    assert not at.exception and not at.error, [e.value for e in [*at.exception, *at.error]]
    assert any("cells add up to" in m.value for m in at.markdown)


def test_an_unusually_written_link_is_applied_and_shown_as_the_pickers_write_it():
    at = open_page("intervene", model=BUNDLED_MODEL, text=TEXT, off="2.3, 4.1", mask="05")
    assert not at.exception and not at.error
    assert (at.session_state.off, at.session_state.mask) == ("2.3,4.1", "5")
    assert at.multiselect[0].value == ["2.3", "4.1"] and at.multiselect[1].value == ["5"]


def test_the_pooler_of_an_intervened_run_says_it_was_run_again():
    at = open_page("layers", model="bert-base-uncased", text=TEXT, off="0.2", step="pooler.out", pair="a dog")
    assert not at.exception
    assert any("this block was run again" in i.value for i in at.info)
    assert not any("pooler_output" in s.value for s in at.success)
    assert any("the model's own runs" in m.value for m in at.markdown)


def test_the_attribution_of_a_similarity_from_a_deep_link_with_its_completeness():
    from bertviz_lite.attributing.gradients import attribute
    from bertviz_lite.attributing.targets import similarity_target

    at = open_page("attribute", model=BUNDLED_MODEL, text="the cat sat on the mat", faithful="1", lecture="1")
    assert not at.exception and not at.error
    curves, bars = specs(at)  # which method to trust first, when it is asked
    expected = attribute(similarity_target(load_model(BUNDLED_MODEL), "the cat sat on the mat",
                                           "a kitten was sitting on the rug"), "ig", 32, "pad")
    np.testing.assert_allclose(z_of_bars(bars), expected.scores, atol=1e-5)
    (headline,) = [m.value for m in at.markdown if m.value.startswith("**Integrated gradients")]
    assert f"Σ attributions {expected.total:.4f}".replace("-", "−") in headline and "gap" in headline
    assert any("was the most faithful" in m.value and "One sentence, not a law" in m.value for m in at.markdown)
    assert len(curves["data"]) == 8 and at.dataframe[0].value.shape == (8, 2)


def z_of_bars(figure: dict) -> np.ndarray:
    y = figure["data"][0]["y"]
    return decode_typed_array(y) if isinstance(y, dict) else np.array(y, dtype=np.float64)


def test_a_masked_lm_logit_on_a_model_with_its_head(tiny_dirs):
    at = open_page("attribute", model=tiny_dirs["bert"], text="the cat [MASK] on the mat", target="mlm",
                   method="grad-input")
    assert not at.exception and not at.error
    assert any("masked-LM logit of" in m.value and "at position 3" in m.value for m in at.markdown)
    assert at.session_state.task == "base"  # the page loads the masked-LM head for itself, and says nothing else


@pytest.mark.parametrize("keys,fragment", [({"target": "mlm"}, "no trained masked-LM head"),
                                           ({"other": " "}, "Type sentence B"),
                                           ({"target": "mlm", "text": "no mask here"}, "no trained masked-LM head")])
def test_attribution_links_that_cannot_be_computed_say_why(keys, fragment):
    at = open_page("attribute", model=BUNDLED_MODEL, **{"text": "the cat [MASK] on the mat", **keys})
    assert not at.exception and any(fragment in e.value for e in at.error)


def test_hostile_attribution_keys_fall_back_to_what_can_be_shown():
    at = open_page("attribute", model=BUNDLED_MODEL, text="the cat sat", method="bogus", steps="abc",
                   baseline="zzz", target="weird", norms="maybe")
    assert not at.exception and not at.error and len(specs(at)) == 1


@pytest.mark.parametrize("family", each_family())
def test_every_family_attributes_from_deep_links(every_tiny_dir, family):
    """Each family's tiny model: the similarity target with its deletion curves, and a masked-LM logit."""
    model_dir = every_tiny_dir[family]
    at = open_page("attribute", model=model_dir, text="the cat sat on the mat", faithful="1", steps="8")
    assert not at.exception and not at.error, [e.value for e in [*at.exception, *at.error]]
    assert len(specs(at)) == 2 and any("most faithful" in m.value for m in at.markdown)
    mask = load_model(model_dir).tokenizer.mask_token
    at = open_page("attribute", model=model_dir, text=f"the cat {mask} on the mat", target="mlm", steps="8")
    assert not at.exception and not at.error, [e.value for e in [*at.exception, *at.error]]
    assert any("masked-LM logit of" in m.value for m in at.markdown)
