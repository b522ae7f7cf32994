"""The lecture's questions (issue 57): for every kind of question, on every family's tiny model and the bundled real
model, the right choice is the one the numbers decide, computed here independently (numpy and torch on the model's
own outputs, not the package's expressions), the choices are real and distinct, and a question the numbers leave
tied at the precision shown is not asked."""
import numpy as np
import pytest
import torch

from bertviz_lite import BUNDLED_MODEL, load_model, trace
from bertviz_lite.ops import MASKED_BELOW
from bertviz_lite.ops.asking import CHOICES, FEWEST, Asking, asked_over
from bertviz_lite.ops.recipe import call, var
from bertviz_lite.tour import chapters
from bertviz_lite.tour.questions import chapter_question

from tiers import EVERY_FAMILY
from tiny_models import sharpened

FOX = "the quick brown fox jumps over the lazy dog"
SHOWN = "{:.2f}"


def sound(question) -> None:
    """3 or 4 distinct choices, exactly one right."""
    labels = [c.label for c in question.choices]
    assert FEWEST <= len(labels) <= CHOICES and len(set(labels)) == len(labels), labels
    assert sum(c.right for c in question.choices) == 1


def decided(numbers: np.ndarray, best_first: np.ndarray, shown: str = SHOWN) -> tuple[int, bool]:
    """The candidate the numbers rank first (the first among equals), and whether the runner-up differs from it as
    shown: computed with numpy alone."""
    order = best_first[np.argsort(-numbers[best_first], kind="stable")]
    return int(order[0]), len(order) >= FEWEST and shown.format(numbers[order[0]]) != shown.format(numbers[order[1]])


def right_label(question) -> str:
    (right,) = [c for c in question.choices if c.right]
    return right.label


def token_label(question, tokens: list[str], k: int) -> str:
    """Token k as a choice names it: 'the', or where another choice is the same token elsewhere, 'the' (token 7)."""
    plain = f"'{tokens[k]}'"
    twice = sum(c.label == plain or c.label.startswith(f"{plain} (token ") for c in question.choices) > 1
    return f"{plain} (token {k})" if twice else plain


def check_layer(t, layer: int, seen: dict) -> None:
    """Every head and token of the layer's two attention questions, against torch's softmax of the scores."""
    story = {c.step.rsplit(".", 1)[-1]: c for c in chapters(t, layer) if c.kind == "step" and ".attn." in c.step}
    scores, probs = t.cache[story["scores"].step], t.cache[story["probs"].step]  # (h, T, T)
    for head in range(t.num_heads):
        for token in range(len(t.tokens)):
            row = torch.from_numpy(scores[head, token]).double()
            softmaxed = torch.softmax(row, -1)
            visible = row[row > MASKED_BELOW]  # the keys the query sees (a local window masks the others)
            sums = [float(torch.softmax(visible, -1).sum()), float(visible.sum()), float(len(visible))]
            labels = [f"{x:.2f}" for x in sums]  # the softmax's sum (1), the scores' sum now, the keys it sees
            closest = min(abs(x - sums[0]) for x in sums[1:])
            q = chapter_question(t, story["scores"], head, token)
            assert (q is not None) == (len(set(labels)) == 3 and f"{closest:.2f}" != "0.00"), (head, token, labels)
            if q is not None:  # what the row adds up to after the softmax: 1, not the scores' sum or the keys' count
                sound(q)
                seen["sum"] += 1
                assert sorted(c.label for c in q.choices) == sorted(labels) and right_label(q) == labels[0]
            q = chapter_question(t, story["probs"], head, token)
            p = probs[head, token].astype(np.float64)
            best, asks = decided(p, np.flatnonzero(p > 0))
            assert (q is not None) == asks, (head, token)
            if q is not None:
                sound(q)
                seen["top"] += 1
                assert right_label(q) == token_label(q, t.tokens, best)
                assert int(torch.argmax(softmaxed)) == best  # the figure's argmax is the scores' own


def check_stream(t, seen: dict) -> None:
    """Which layer turns each token most: the lowest cosine of the model's own hidden states, before and after."""
    h = torch.from_numpy(t.hidden_states).double()  # (L + 1, T, d)
    cos = torch.nn.functional.cosine_similarity(h[:-1], h[1:], dim=-1).numpy()  # (L, T)
    stream = [c for c in chapters(t, 0) if c.kind == "stream"][0]
    for token in range(len(t.tokens)):
        best, asks = decided(-cos[:, token], np.arange(cos.shape[0]))
        q = chapter_question(t, stream, token=token)
        assert (q is not None) == asks, token
        if q is not None:
            sound(q)
            seen["stream"] += 1
            assert right_label(q) == f"layer {best}"


@pytest.mark.parametrize("family", EVERY_FAMILY)
def test_every_family_asks_what_its_numbers_decide(every_tiny_dir, family):
    t = trace(sharpened(load_model(every_tiny_dir[family])), "the cat sat on the mat and the dog sat on the log")
    seen = {"sum": 0, "top": 0, "stream": 0}
    for layer in range(t.num_layers):
        check_layer(t, layer, seen)
    check_stream(t, seen)
    assert min(seen.values()) > 0, seen  # not a test of nothing


def test_the_bundled_model_asks_what_transformers_own_attention_decides():
    loaded = load_model(BUNDLED_MODEL)
    t = trace(loaded, FOX)
    seen = {"sum": 0, "top": 0, "stream": 0}
    for layer in range(t.num_layers):
        check_layer(t, layer, seen)
    check_stream(t, seen)
    assert seen["sum"] > 100 and seen["top"] > 100 and seen["stream"] == len(t.tokens), seen
    enc = loaded.tokenizer(FOX, return_tensors="pt")
    with torch.no_grad():
        attentions = loaded.base(**enc, output_attentions=True).attentions  # transformers' own
    softmax = [c for c in chapters(t, 0) if c.step == "layers.0.attn.probs"][0]
    q = chapter_question(t, softmax, head=2, token=4)  # 'fox' in layer 0, head 2: the token before it
    best = int(attentions[0][0, 2, 4].argmax())
    assert right_label(q) == token_label(q, t.tokens, best) == "'brown'"


@pytest.mark.parametrize("family", EVERY_FAMILY)
def test_the_masked_lm_head_s_prediction_is_asked_as_the_model_predicts(every_tiny_dir, family):
    from bertviz_lite.analyses.logit_lens import logit_lens

    loaded = sharpened(load_model(every_tiny_dir[family], "masked-lm"))
    text = f"the cat {loaded.tokenizer.mask_token} on the mat"
    t = trace(loaded, text)
    enc = loaded.tokenizer(text, return_tensors="pt")
    with torch.no_grad():
        probs = torch.softmax(loaded.model(**enc).logits[0].double(), -1)
    position = int((enc["input_ids"][0] == loaded.tokenizer.mask_token_id).nonzero()[0])
    top = torch.topk(probs[position], 5)
    output = [c for c in chapters(t, 0) if c.kind == "output"][0]
    q = chapter_question(t, output, lens=logit_lens(t))
    if SHOWN.format(float(top.values[0])) == SHOWN.format(float(top.values[1])):  # a tie as shown: not asked
        assert q is None
        return
    sound(q)
    best = loaded.tokenizer.convert_ids_to_tokens(int(top.indices[0])) or f"[id {int(top.indices[0])}]"
    assert right_label(q) == f"'{best}'" and f"position {position}" in q.text
    assert [c.label for c in q.choices] == sorted(c.label for c in q.choices)  # listed alphabetically: not by
    # probability, which would put the right one first


@pytest.mark.parametrize("family", EVERY_FAMILY)
def test_the_heads_page_asks_which_head_looks_most_at_the_previous_token(every_tiny_dir, family):
    """Clark et al.'s previous-token statistic, computed here with numpy from the trace's attention: the mean over
    queries i >= 1 of the weight on token i - 1; the question's right head is its argmax in the layer."""
    from bertviz_lite.analyses.all_layers import all_layers
    from bertviz_lite.analyses.questions import head_question

    t = trace(sharpened(load_model(every_tiny_dir[family])), "the cat sat on the mat and the dog sat on the log")
    fingerprints, asked = all_layers(t).fingerprints, 0
    for layer in range(t.num_layers):
        probs = t.attention(layer).astype(np.float64)  # (h, T, T)
        prev = np.array([np.diagonal(p, -1).mean() for p in probs])  # (h,)
        best, asks = decided(prev, np.arange(len(prev)))
        q = head_question(fingerprints, "prev", layer)
        assert (q is not None) == asks, layer
        if q is not None:
            sound(q)
            asked += 1
            assert right_label(q) == f"head {best}"
    assert asked > 0


def test_the_similarity_page_asks_the_closest_sentence_and_the_pair_that_adds_most():
    """The closest sentence to the first by sentence-transformers' own vectors (the library that defines them), and
    the token pair that adds most to two sentences' cosine, split here with numpy from transformers' own hidden
    states (mean pooling: a_i = h_i / n, cell = a_i . b_j / (|u| |v|))."""
    from sentence_transformers import SentenceTransformer

    from bertviz_lite.analyses.questions import closest_question, pair_question
    from bertviz_lite.analyses.similarity import sentence_vectors
    from bertviz_lite.analyses.similarity_split import explain_similarity
    from bertviz_lite.loading.bundled import bundled_directory
    from bertviz_lite.tour.lecture import LECTURE_SENTENCES

    texts = list(LECTURE_SENTENCES)
    encoded = SentenceTransformer(str(bundled_directory(BUNDLED_MODEL)), device="cpu").encode(texts)
    unit = encoded / np.linalg.norm(encoded, axis=1, keepdims=True)
    cosines = unit @ unit.T
    best, asks = decided(cosines[0], np.arange(1, len(texts)))
    loaded = load_model(BUNDLED_MODEL)
    q = closest_question(sentence_vectors(loaded, texts)[0].cosine(), texts)
    assert asks and q is not None
    sound(q)
    assert right_label(q) == f"{best + 1}: \u201c{texts[best]}\u201d"
    with torch.no_grad():
        h = [loaded.base(**loaded.tokenizer(text, return_tensors="pt")).last_hidden_state[0].double().numpy()
             for text in texts[:2]]
    u, v = h[0].mean(0), h[1].mean(0)
    cells = (h[0] / len(h[0])) @ (h[1] / len(h[1])).T / (np.linalg.norm(u) * np.linalg.norm(v))  # (T_a, T_b)
    best, asks = decided(cells.ravel(), np.arange(cells.size), "{:.3f}")  # the split's precision
    split = explain_similarity(loaded, texts[0], texts[1], False)
    q = pair_question(split.pairs, split.tokens_a, split.tokens_b, 1, 2, split.cosine)
    assert asks and q is not None
    sound(q)
    i, j = divmod(best, cells.shape[1])
    assert right_label(q) == f"'{split.tokens_a[i]}' ({i}) · '{split.tokens_b[j]}' ({j})"


def test_a_tie_as_shown_is_not_asked_and_the_choices_list_in_their_own_order():
    asking = Asking({}, "Which?", var.xs, None, call("str", var.k), "{value:.2f}")
    assert asked_over(asking, {"xs": [0.304, 0.2, 0.301, 0.1]}) is None  # 0.30 and 0.30
    q = asked_over(asking, {"xs": [0.1, 0.2, 0.9, 0.5, 0.05]})
    assert [c.label for c in q.choices] == ["0", "1", "2", "3"] and q.right == 2  # the runners-up, in order
    assert asked_over(asking, {"xs": [0.9, 0.2]}) is None  # too few real alternatives
    twice = Asking({}, "Which?", var.xs, None, "same", "{value:.2f}", apart="{label} ({k})")
    assert [c.label for c in asked_over(twice, {"xs": [0.9, 0.2, 0.5]}).choices] == ["same (0)", "same (1)",
                                                                                     "same (2)"]


@pytest.mark.parametrize("module", ["bertviz_lite.ops.asking", "bertviz_lite.asking.hall"])
def test_docstring_examples_hold(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("page, keys", [("heads", {"stat": "prev", "text": FOX}), ("similarity", {}),
                                        ("similarity", {"why": "1,2"})], ids=["heads", "closest", "pair"])
def test_the_lectures_other_questions_hold_their_figures_back_until_a_choice(page, keys):
    """ask=1 on the Heads and Similarity pages (the default lecture's stops): the question and its choices, no
    figure; a choice shows the figure, with exactly one line that says "right"."""
    from apptest import open_page, specs

    at = open_page(page, model=BUNDLED_MODEL, ask=1, **keys)
    choices = [b for b in at.button if (b.key or "").startswith("choice_")]
    assert 3 <= len(choices) <= 4 and not specs(at) and not at.exception
    assert not any("Striking heads" in m.value for m in at.markdown)  # the heads that would say the answer
    choices[-1].click().run()
    answer = next(m.value for m in at.markdown if m.value.startswith("- "))
    assert specs(at) and answer.count(" — right") == 1 and answer.count(" — your choice") == 1


@pytest.mark.parametrize("key, words", [("ask", "bad_ask"), ("hall", "bad_hall")])
def test_a_link_that_asks_wrongly_is_told_and_the_tour_goes_on(key, words):
    """ask=2 (or hall=2) gets the message in the page; the tour shows its chapter without a question; an unknown
    chapter is told too, and the first one shown."""
    from apptest import open_page, specs

    from bertviz_lite.asking import ASK_WORDS

    at = open_page("tour", chapter=8, **{key: 2})
    assert ASK_WORDS[words].format(asked="2") in [w.value for w in at.warning]
    assert not any((b.key or "").startswith("choice_") for b in at.button)  # no question: the figure at once
    assert specs(at) and not at.exception
    at = open_page("tour", chapter=99, ask=1)
    assert any("There is no chapter '99'" in w.value for w in at.warning) and not at.exception
