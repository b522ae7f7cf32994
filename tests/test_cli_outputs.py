"""`bertviz-lite intervene` on the bundled model: the JSON the issue names, equal to the API's run, and one line on
stderr with exit status 2 for a layer, head or token that is not there."""
import json

import numpy as np
import pytest

from bertviz_lite import BUNDLED_MODEL, load_model, trace
from bertviz_lite.intervening.edits import parse_edits
from bertviz_lite.intervening.run import intervene
from bertviz_lite.intervening.value_zeroing import value_zeroing

from cli_run import cli as run_cli_in_process

TEXT = "the quick brown fox jumps over the lazy dog"


def cli(*args):
    return run_cli_in_process("intervene", BUNDLED_MODEL, *args)


def test_intervene_prints_the_shift_and_the_last_hidden_state_as_the_api_gives_them():
    out = cli(TEXT, "--heads-off", "0.2,3.1", "--zero-value", "4:2", "--value-zeroing", "1", "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    t = trace(load_model(BUNDLED_MODEL), TEXT)
    run = intervene(t, parse_edits(off="0.2,3.1", zero="4:2"))
    assert result["tokens"] == t.tokens and result["first_changed_layer"] == 0
    assert np.array(result["shift"]).shape == (t.num_layers + 1, len(t.tokens))
    np.testing.assert_allclose(result["shift"], run.shift, atol=1e-9)
    np.testing.assert_allclose(result["last_hidden_state"], run.trace.hidden_states[-1], atol=1e-6)
    np.testing.assert_allclose(result["value_zeroing"], value_zeroing(t, 1), atol=1e-9)


def test_a_masked_token_changes_the_embeddings():
    out = cli(TEXT, "--mask", "4", "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["tokens"][4] == "[MASK]" and result["first_changed_layer"] == 0 and result["shift"][0][4] > 0


@pytest.mark.parametrize("args", [["--heads-off", "99.99"], ["--heads-off", "abc"], ["--mask", "-1"],
                                  ["--zero-value", "1:999"], [], ["--value-zeroing", "99"]])
def test_what_is_not_there_is_one_line_and_exit_2(args):
    out = cli("the cat sat", *args, "--json")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip().splitlines()[-1].startswith("error: ") and "Traceback" not in out.stderr
