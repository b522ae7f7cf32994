"""The guided tour: every chapter of every family renders with its diagram and narration, the chapters follow each
family's own layer graph, the narrated numbers are transformers' own, and hostile chapters get a message."""
import numpy as np
import pytest
import torch

from bertviz_lite import BUNDLED_MODEL, load_model, trace
from bertviz_lite.tour import chapters, narrate
from bertviz_lite.tour.narration import NO_WEIGHTS, RANDOM

from apptest import open_page, specs
from tiers import each_family

FOX = "the quick brown fox jumps over the lazy dog"


@pytest.mark.parametrize("family", each_family())
def test_every_chapter_of_every_family_renders_with_its_diagram(every_tiny_dir, family):
    model_dir = every_tiny_dir[family]
    at = open_page("tour", model=model_dir, text="the cat sat", pair="on the mat", lecture=1)
    story = chapters(trace(load_model(model_dir), "the cat sat", "on the mat"), 0)
    for number, chapter in enumerate(story, 1):
        at.session_state["chapter"] = str(number)
        at.run()
        assert not at.exception and not at.error, (number, [e.value for e in at.exception])
        assert any(chapter.title in m.value for m in at.markdown), number
        said = [m.value for m in at.markdown if not m.value.startswith("#")]
        assert 2 <= len(said) <= 4, (number, said)  # two to four sentences of narration
        assert len(specs(at, diagrams=True)) == (chapter.kind == "step"), number


def test_each_family_tours_its_own_layer(new_tiny_loaded, tiny_loaded):
    def steps(loaded) -> list[str]:
        return [c.step for c in chapters(trace(loaded, "the cat sat on the mat"), 1) if c.kind == "step"]

    assert {"layers.1.attn.c2p", "layers.1.attn.p2c", "positions.relative_positions"} <= set(
        steps(new_tiny_loaded["deberta-v2"]))
    assert {"layers.1.attn.angles", "layers.1.attn.q_rot"} <= set(steps(new_tiny_loaded["modernbert"]))
    assert "layers.1.attn.position_bias" in steps(new_tiny_loaded["mpnet"])
    assert not any("c2p" in s or "rot" in s for s in steps(tiny_loaded["bert"]))


def test_the_softmax_chapter_narrates_the_models_own_attention():
    loaded = load_model(BUNDLED_MODEL)
    enc = loaded.tokenizer(FOX, return_tensors="pt")
    with torch.no_grad():
        out = loaded.base(**enc, output_attentions=True, output_hidden_states=True)
    t = trace(loaded, FOX)
    (softmax,) = [c for c in chapters(t, 1) if c.step == "layers.1.attn.probs"]
    row = out.attentions[1][0, 5, 6].numpy()  # layer 1, head 5, query 6 'over'
    best = int(np.argmax(row))
    said = " ".join(narrate(t, softmax, head=5, token=6))
    assert f"'over' puts {row[best]:.2f} of its attention on '{t.tokens[best]}'" in said
    assert RANDOM not in said
    h = torch.stack(out.hidden_states)[:, 0, 4].double()  # 'fox' through the layers
    cos = torch.nn.functional.cosine_similarity(h[:-1], h[1:], dim=-1).numpy()
    stream = " ".join(narrate(t, chapters(t, 0)[-2], token=4))
    assert f"changes most in layer {int(np.argmin(cos))} (cosine {cos.min():.2f}" in stream


def test_the_default_tour_runs_on_the_bundled_model_with_real_patterns():
    at = open_page("tour", chapter=8)
    assert not at.exception and not at.error
    assert at.query_params["model"] == [BUNDLED_MODEL] or at.query_params["model"] == BUNDLED_MODEL
    assert any("'fox' puts 1.00 of its attention on 'brown', the token before it" in m.value for m in at.markdown)


def test_a_tour_of_a_random_preset_says_its_patterns_mean_nothing():
    at = open_page("tour", model="bert-base-uncased", chapter=3)
    assert not at.exception and any(RANDOM in m.value for m in at.markdown)


def test_deberta_s_relative_positions_are_said_to_need_no_weights(new_tiny_loaded):
    """i − j is exact whatever the weights: its chapter does not say that its pattern means nothing (issue 44)."""
    t = trace(new_tiny_loaded["deberta-v2"], "the cat sat on the mat")
    (positions,) = [c for c in chapters(t, 0) if c.step == "positions.relative_positions"]
    said = narrate(t, positions)
    assert said[0] == NO_WEIGHTS and RANDOM not in said
    assert said[1].startswith("The distance i − j")  # not "I − j": a sentence begins with a word
    (scores,) = [c for c in chapters(t, 0) if c.step == "layers.0.attn.c2p"]
    assert NO_WEIGHTS not in narrate(t, scores)  # a step that reads the weights is not said to need none


def test_a_norm_of_relative_embeddings_tells_of_a_distance_row_for_any_token(new_tiny_loaded):
    """DeBERTa's relative embeddings' LayerNorm has a row per distance, not per token: its chapter tells of the
    distance row a row's story tells of, whichever token is chosen (it once read the token's number as a row: the
    wrong row, and past the rows for a token after them)."""
    t = trace(new_tiny_loaded["deberta-v2"], "the cat sat on the mat and the dog sat on the log by the door of the "
                                              "house")
    (norm,) = [c for c in chapters(t, 0) if c.step == "positions.rel_norm"]
    rows = t.cache[norm.step].shape[0]
    assert len(t.tokens) > rows  # a token past the rows
    said = {token: narrate(t, norm, token=token)[-1] for token in (1, len(t.tokens) - 1)}
    assert len(set(said.values())) == 1 and said[1].startswith("Distance δ = 1")


@pytest.mark.parametrize("chapter", ["0", "999", "abc", "-1", "１"])
def test_hostile_chapters_get_a_message_and_the_first_chapter(chapter):
    at = open_page("tour", chapter=chapter)
    assert not at.exception
    assert any(f"no chapter '{chapter}'" in w.value for w in at.warning)
    assert any("The text becomes tokens" in m.value for m in at.markdown)


def test_the_output_chapter_reads_the_sentence_vector_from_the_trace():
    from bertviz_lite import sentence_vectors
    from bertviz_lite.analyses.similarity import vectors_of_trace

    loaded = load_model(BUNDLED_MODEL)
    own = vectors_of_trace(trace(loaded, FOX))[0]
    np.testing.assert_allclose(own.vectors, sentence_vectors(loaded, [FOX])[0].vectors, atol=1e-6)
    assert vectors_of_trace(trace(loaded, FOX, "a pair")) is None  # a pair's trace is not the sentence alone


def test_a_masked_lm_tour_ends_with_the_models_own_prediction(tiny_dirs):
    text = "the cat [MASK] on the mat"
    loaded = load_model(tiny_dirs["bert"], "masked-lm")
    enc = loaded.tokenizer(text, return_tensors="pt")
    with torch.no_grad():
        logits = loaded.model(**enc).logits[0]
    position = int((enc["input_ids"][0] == loaded.tokenizer.mask_token_id).nonzero()[0])
    top = int(logits[position].argmax())
    best = loaded.tokenizer.convert_ids_to_tokens(top) or f"[id {top}]"  # a row past the tokenizer's pieces: by id
    at = open_page("tour", model=tiny_dirs["bert"], task="masked-lm", text=text, chapter=99)
    at.session_state["chapter"] = str(len(chapters(trace(loaded, text), 0)))
    at.run()
    assert not at.exception and not at.error
    assert any(f"the model predicts '{best}'" in m.value and f"position {position}" in m.value for m in at.markdown)


def test_the_figure_outlines_the_number_the_words_name():
    """"About the token" marks the figure: on the softmax chapter, the cell of the key the narration names."""
    from bertviz_lite.tour import chapter_figure

    t = trace(load_model(BUNDLED_MODEL), FOX)
    (softmax,) = [c for c in chapters(t, 0) if c.step == "layers.0.attn.probs"]
    words = " ".join(narrate(t, softmax, head=2, token=4))
    fig = chapter_figure(t, softmax, head=2, token=4)
    key = int(np.argmax(t.cache["layers.0.attn.probs"][2][4]))
    for outline in fig.layout.shapes:  # the cell's edges (a dark, a light and an orange line): column `key`, row 4 ('fox')
        assert (outline.x0, outline.x1, outline.y0, outline.y1) == (key - 0.5, key + 0.5, 3.5, 4.5)
    assert len(fig.layout.shapes) == 3
    assert fig.data[0].y[4].endswith("fox") and fig.data[0].x[key] == f"{key} {t.tokens[key]}"
    assert f"'fox' puts" in words and f"on '{t.tokens[key]}'" in words
    assert not chapter_figure(t, softmax, head=2).layout.shapes  # no token, no mark
