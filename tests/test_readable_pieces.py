"""Byte-level pieces are shown as transformers decodes them, with a space drawn as ▁; other vocabularies as stored."""
import pytest

from bertviz_lite.loading.loader import load_model
from bertviz_lite.loading.readable_pieces import is_byte_level, readable_pieces
from bertviz_lite.stepthrough.trace import trace

from tiers import first_by_default

TEXT = "Café déjà vu,\nis  here 😀 東京"


@pytest.mark.parametrize("source", first_by_default(["roberta-base", "answerdotai/ModernBERT-base"]))
def test_a_byte_level_piece_is_what_the_tokenizer_decodes_it_to(source):
    tokenizer = load_model(source).tokenizer
    ids = tokenizer(TEXT)["input_ids"]
    pieces = tokenizer.convert_ids_to_tokens(ids)
    assert is_byte_level(tokenizer) and any("Ġ" in p for p in pieces)
    decoded = [p if p in tokenizer.all_special_tokens
               else tokenizer.decode([i], clean_up_tokenization_spaces=False).replace(" ", "▁").replace("\n", "↵")
               for i, p in zip(ids, pieces)]
    shown = readable_pieces(tokenizer, pieces)
    whole = [k for k, text in enumerate(decoded) if "\ufffd" not in text]
    assert [shown[k] for k in whole] == [decoded[k] for k in whole]
    for k in set(range(len(pieces))) - set(whole):  # part of a character: its bytes, which decode to it together
        assert shown[k].startswith(("<", "▁<")) and shown[k].endswith(">"), shown[k]
    assert "Ġ" not in "".join(trace(load_model(source), TEXT).tokens)


@pytest.mark.parametrize("source", ["bert-base-uncased", "microsoft/deberta-v3-base"])
def test_other_vocabularies_are_shown_as_stored(source):
    loaded = load_model(source)
    assert not is_byte_level(loaded.tokenizer)
    t = trace(loaded, TEXT)
    assert t.tokens == loaded.tokenizer.convert_ids_to_tokens(t.input_ids.tolist())
