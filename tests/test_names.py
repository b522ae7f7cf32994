"""The naming scheme: built in one place, round-trips, and refuses what is not a sub-step."""
import doctest

import pytest

import bertviz_lite.families
import bertviz_lite.stepthrough.names
from bertviz_lite.stepthrough.names import EMBEDDING_STEPS, LAYER_STEPS, POOLER_STEPS, parse_step_name, step_name


def test_every_documented_step_round_trips():
    for block, steps, layer in (("embed", EMBEDDING_STEPS, None), ("layers", LAYER_STEPS, 7),
                                ("pooler", POOLER_STEPS, None)):
        for s in steps:
            assert parse_step_name(step_name(block, s.key, layer)) == (block, layer, s.key)


@pytest.mark.parametrize("bad", ["layers.x.attn.q", "layers.1.attn.nope", "embed.q", "heads.1", ""])
def test_parse_rejects_what_is_not_a_step(bad):
    with pytest.raises(ValueError):
        parse_step_name(bad)


def test_layer_number_only_with_layers():
    with pytest.raises(ValueError):
        step_name("embed", "word", layer=1)
    with pytest.raises(ValueError):
        step_name("layers", "attn.q")


@pytest.mark.parametrize("module", [bertviz_lite.stepthrough.names, bertviz_lite.families])
def test_docstring_examples_hold(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
