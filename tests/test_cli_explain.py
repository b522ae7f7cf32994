"""`bertviz-lite explain` and `diagram`: the issue's JSON, numbers that agree with the trace, and bad requests as
one line with exit status 2."""
import json

import numpy as np
import pytest

from bertviz_lite import BUNDLED_MODEL, load_model, trace
from bertviz_lite.cli import main

TEXT = "the bank of the river"


def run_cli(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_explain_a_score_as_json(capsys):
    code, out, _ = run_cli(capsys, "explain", BUNDLED_MODEL, TEXT, "--step", "layers.2.attn.scores", "--head", "3",
                           "--at", "4,1", "--json")
    assert code == 0
    e = json.loads(out)
    assert {k: e[k] for k in ("step", "head", "at", "op")} == {"step": "layers.2.attn.scores", "head": 3, "at": [4, 1],
                                                               "op": "mask"}
    stored = float(trace(load_model(BUNDLED_MODEL), TEXT).cache["layers.2.attn.scores"][3, 4, 1])
    assert e["value"] == pytest.approx(stored, abs=1e-7)
    assert sum(t["value"] for t in e["terms"]) == pytest.approx(e["value"], abs=1e-5)
    assert e["terms"][-1] == {"label": "mask", "value": 0.0} and len(e["terms"]) == 32 + 1
    assert e["recomputed"] == pytest.approx(e["value"], abs=1e-5) and e["abs_diff"] <= 1e-5
    q, k = np.array(e["inputs"]["query"]), np.array(e["inputs"]["key"])
    assert q @ k / e["inputs"]["scale"] == pytest.approx(e["value"], abs=1e-5)
    assert isinstance(e["formula"], str) and "mask" in e["formula"]


def test_explain_in_words_and_with_a_pair(capsys):
    code, out, _ = run_cli(capsys, "explain", BUNDLED_MODEL, TEXT, "--pair", "a dog", "--step", "layers.0.attn.norm",
                           "--at", "3,17")
    assert code == 0 and "layer_norm" in out and "recomputed from these numbers" in out


@pytest.mark.parametrize("args,fragment", [
    (["--step", "layers.0.attn.nope", "--at", "1,1"], "not a sub-step name"),
    (["--step", "layers.0.attn.c2p", "--at", "1,1"], "no step attn.c2p"),
    (["--step", "layers.0.attn.scores", "--at", "1,99"], "no key 99"),
    (["--step", "layers.0.attn.scores", "--at=-1,1"], "not one"),
    (["--step", "layers.0.attn.scores", "--at", "a,b"], "not one"),
    (["--step", "layers.0.ffn.out", "--head", "2", "--at", "1,1"], "no head axis"),
    (["--step", "layers.7.ffn.out", "--at", "1,1"], "no layer 7"),
])
def test_bad_requests_are_one_line_and_status_2(capsys, args, fragment):
    code, out, err = run_cli(capsys, "explain", BUNDLED_MODEL, TEXT, *args)
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert code == 2 and out == "" and len(errors) == 1 and fragment in errors[0], err
    assert "Traceback" not in err


def test_diagram_json_has_every_step_and_every_edge(capsys, new_tiny_dirs):
    code, out, _ = run_cli(capsys, "diagram", new_tiny_dirs["deberta-v2"], "--layer", "1", "--json")
    assert code == 0
    d = json.loads(out)
    keys = [n["key"] for n in d["nodes"]]
    assert keys[0] == "input" and keys[-1] == "ffn.norm" and {"attn.c2c", "attn.c2p", "attn.p2c"} <= set(keys)
    assert ["attn.c2p", "attn.scores"] in d["edges"] and ["positions.relative_positions", "attn.c2p"] in d["edges"]
    assert {n["key"]: n["op"] for n in d["nodes"]}["attn.c2p"] == "relative_dot"
    assert all(e[1] in keys for e in d["edges"])
    assert sum(len(n["inputs"]) for n in d["nodes"]) == len(d["edges"])


def test_diagram_in_words_and_a_layer_that_is_not_there(capsys):
    code, out, _ = run_cli(capsys, "diagram", "bert-base-uncased", "--layer", "11")
    assert code == 0 and "17 sub-steps" in out and "encoder.layer.11.attention.self.query" in out
    code, out, err = run_cli(capsys, "diagram", "bert-base-uncased", "--layer", "12")
    assert code == 2 and "no layer 12" in err
