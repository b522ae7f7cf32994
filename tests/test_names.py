"""The naming scheme: built in one place, round-trips, and refuses what is not a sub-step."""
import doctest

import pytest

import bertviz_lite.families
import bertviz_lite.graph.names
import bertviz_lite.graph.nodes
import bertviz_lite.ops
from bertviz_lite.graph.names import WORDS, parse_step_name, step_name


def test_every_named_step_round_trips():
    for block, words in WORDS.items():
        layer = 7 if block == "layers" else None
        for key in words:
            assert parse_step_name(step_name(block, key, layer)) == (block, layer, key)


@pytest.mark.parametrize("bad", ["layers.x.attn.q", "layers.1.attn.nope", "embed.q", "heads.1", "", "layers.-1.input"])
def test_parse_rejects_what_is_not_a_step(bad):
    with pytest.raises(ValueError):
        parse_step_name(bad)


def test_layer_number_only_with_layers():
    with pytest.raises(ValueError):
        step_name("embed", "word", layer=1)
    with pytest.raises(ValueError):
        step_name("layers", "attn.q")


@pytest.mark.parametrize("module", [bertviz_lite.graph.names, bertviz_lite.graph.nodes, bertviz_lite.ops,
                                    bertviz_lite.families])
def test_docstring_examples_hold(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
