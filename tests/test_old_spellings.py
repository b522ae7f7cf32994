"""Old spellings a user may hold (a notebook, a script, a saved link) still work and say, with a DeprecationWarning,
what to write instead; the rest of the tests use today's names."""
import pytest

from bertviz_lite import trace
from bertviz_lite.introspection.task_heads import task_heads
from bertviz_lite.graph.names import parse_step_name


def test_loaded_weights_is_weights_kind(tiny_loaded):
    with pytest.warns(DeprecationWarning, match="weights_kind"):
        assert tiny_loaded["bert"].weights == tiny_loaded["bert"].weights_kind == "pretrained"


def test_a_task_heads_head_is_its_modules(tiny_loaded):
    head = next(h for h in task_heads(tiny_loaded["bert"].config) if h.modules)
    with pytest.warns(DeprecationWarning, match="TaskHead.modules"):
        assert head.head == head.modules


def test_encoder_is_positions_in_a_trace_and_in_a_step_name(new_tiny_loaded):
    t = trace(new_tiny_loaded["deberta-v2"], "the cat sat")
    with pytest.warns(DeprecationWarning, match=r"Trace.positions\(\)"):
        assert list(t.encoder()) == list(t.positions())
    with pytest.warns(DeprecationWarning, match="'positions'"):
        assert parse_step_name("encoder.rel_norm") == parse_step_name("positions.rel_norm")
    with pytest.warns(DeprecationWarning, match="'positions'"):
        assert t.graph("encoder").keys == t.graph("positions").keys


def test_a_warning_points_at_the_users_own_line(tiny_loaded, new_tiny_loaded):
    """Python shows a DeprecationWarning only where it is attributed to the user's code, however deep in the
    package the old spelling is read (a step name passes several of its functions)."""
    t = trace(new_tiny_loaded["deberta-v2"], "the cat sat")
    with pytest.warns(DeprecationWarning) as seen:
        tiny_loaded["bert"].weights
        t.graph("encoder")
    assert [w.filename for w in seen] == [__file__] * 2
