"""The CLI: JSON shapes, the human listing, and errors as one line on stderr with a non-zero status."""
import json
import subprocess
import sys

import pytest

from bertviz_lite import parameter_table
from bertviz_lite.benchmarks.speed import report, run, text_of_length

from cli_run import run_cli
from tiers import server, slow


def test_params_json(capsys, tiny_dirs, tiny_loaded):
    code, out, _ = run_cli(capsys, "params", tiny_dirs["bert"], "--json")
    data = json.loads(out)
    table = parameter_table(tiny_loaded["bert"].model)
    assert code == 0
    assert data["architecture"] == "BertModel" and data["weights"] == "pretrained"
    assert data["total"] == data["trainable"] == int(table.numel.sum())
    assert sum(data["groups"].values()) == data["total"]
    assert len(data["parameters"]) == len(table)
    assert data["parameters"][0] == {"name": "embeddings.word_embeddings.weight", "shape": [120, 32],
                                     "numel": 3840, "trainable": True}


def test_params_listing_for_bert_base(capsys):
    code, out, err = run_cli(capsys, "params", "bert-base-uncased")
    assert code == 0
    assert "109,482,240" in out and "over 199 named parameters" in out
    assert "pooler" in out and "590,592" in out
    assert "Random weights" in err  # the offline default says so


def test_params_for_a_task_head(capsys, tiny_dirs):
    code, out, _ = run_cli(capsys, "params", tiny_dirs["distilbert"], "--task", "sequence-classification",
                           "--json")
    assert code == 0 and {"pre_classifier", "classifier"} <= set(json.loads(out)["groups"])


def test_trace_json(capsys, tiny_dirs):
    code, out, _ = run_cli(capsys, "trace", tiny_dirs["bert"], "this is a test", "--pair", "the cat", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["tokens"][0] == "[CLS]" and len(data["tokens"]) == len(data["input_ids"])
    assert data["token_type_ids"][-1] == 1
    assert data["num_layers"] == 3 and data["num_heads"] == 4
    assert [row["layer"] for row in data["layers"]] == [0, 1, 2]
    assert data["max_abs_diff"] == max(row["max_abs_diff"] for row in data["layers"]) <= 1e-5


def test_trace_listing(capsys, tiny_dirs):
    code, out, _ = run_cli(capsys, "trace", tiny_dirs["albert"], "the cat sat")
    assert code == 0 and "▁the" in out and "layer  2: max |step-through - hidden_states[3]|" in out


@pytest.mark.parametrize("args,fragment", [
    (["params", "/no/such/dir"], "no directory"),
    (["trace", "bert-base-uncased", "  "], "empty"),
    (["params", "nobody/nothing"], "not in the local cache"),
    (["prefetch", "bert-base-uncased"], "cannot be reached"),
])
def test_errors_are_one_line_on_stderr(capsys, args, fragment):
    code, out, err = run_cli(capsys, *args)
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert code == 1 and out == ""
    assert len(errors) == 1 and fragment in errors[0]
    assert "Traceback" not in err


def test_usage_errors_are_one_line():
    result = subprocess.run([sys.executable, "-m", "bertviz_lite", "params"], capture_output=True, text=True)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "required" in result.stderr


def test_module_entry_point(tiny_dirs):
    result = subprocess.run([sys.executable, "-m", "bertviz_lite", "params", tiny_dirs["electra"], "--json"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "embeddings_project" in json.loads(result.stdout)["groups"]


def test_prefetch_local_directory(capsys, tiny_dirs):
    code, out, _ = run_cli(capsys, "prefetch", tiny_dirs["roberta"])
    assert code == 0 and "ready for offline use" in out


def test_bench_text_has_exact_length(bert_base):
    for n in (5, 64, 128):
        assert len(bert_base.tokenizer(text_of_length(bert_base.tokenizer, n))["input_ids"]) == n


@slow
@pytest.mark.matrix  # two minutes of CI's sixty: run by hand, with the benchmarks themselves (docs/benchmark.md)
def test_bench_reports_every_figure():
    """A short run of the benchmark: the figures exist and are consistent (speed itself is not asserted)."""
    result = run(threads=2, tokens=16, long_tokens=64, repeats=1)
    assert result["first_view_ratio"] == pytest.approx(result["first_view_ms"] / result["raw_forward_ms"])
    assert 0 < result["trace_mb"] < result["all_steps_up_front_mb"]
    text = report(result)
    assert "first view" in text and "switch layer" in text and "× raw" in text
    assert result["tour_chapters"] >= 19 and "a tour chapter" in text
    assert result["split_ratio"] == pytest.approx(result["split_ms"] / result["outputs_raw_ms"])
    assert sorted(result["intervene"]) == [0, 6, 11] and result["intervene"][6]["target"] == pytest.approx(0.6)
    assert "similarity split" in text and "a head off in layer 6 of 12" in text and "value zeroing" in text
    assert result["ig_ratio"] == pytest.approx(result["ig_ms"] / result["attribution_raw_ms"])
    assert "integrated gradients, 32 steps" in text and "deletion curves of all 8 methods" in text
    assert result["ig_floor_ratio"] == pytest.approx(result["ig_ms"] / result["ig_floor_ms"])
    assert result["deletion_floor_ratio"] == pytest.approx(result["deletion_ms"] / result["deletion_floor_ms"])
    assert text.count("× its floor, target ≤ 1.2") == 2


def test_device_report_states_the_speed_up_it_measured():
    from bertviz_lite.benchmarks.devices import report as device_report

    rows = [{"model": "bert-base-uncased", "tokens": 512, "cpu_forward_ms": 600.0, "cuda_forward_ms": 6.0,
             "heatmap_ms": 8.0},
            {"model": "bert-large-uncased", "tokens": 512, "cpu_forward_ms": 1700.0, "heatmap_ms": None}]
    lines = device_report(rows).splitlines()
    assert "GPU     6.0 ms (100× faster)" in lines[1] and "heatmap figure to JSON (CPU)    8.0 ms" in lines[1]
    assert "GPU" not in lines[2] and "heatmap" not in lines[2]


def test_help_and_usage_errors_do_not_import_torch():
    """`--help` and a usage error answer before torch is imported (it takes seconds): checked, not timed."""
    code = ("import sys\nfrom bertviz_lite.cli import main\n"
            "for argv in (['--help'], ['params'], ['trace', '--nope']):\n"
            "    try:\n        main(argv)\n    except SystemExit:\n        pass\n"
            "print(sorted(m for m in ('torch', 'transformers', 'numpy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stderr


def test_long_commands_say_what_they_do_on_stderr_and_keep_stdout_for_the_result(capsys, tiny_dirs):
    code, out, err = run_cli(capsys, "trace", tiny_dirs["bert"], "the cat sat", "--json")
    assert code == 0 and json.loads(out)["tokens"][0] == "[CLS]"
    assert "… loading" in err and "… running the model" in err


def test_analysis_commands_json(capsys, tiny_dirs, tiny_loaded):
    L, H = 3, 4  # the tiny models' layers and heads
    code, out, _ = run_cli(capsys, "heads", tiny_dirs["bert"], "the cat sat.", "--pair", "a dog", "--json")
    heads = json.loads(out)
    assert code == 0 and set(heads["stats"]) == {"entropy", "cls", "sep", "punct", "self", "prev", "next"}
    assert all(len(grid) == L and all(len(row) == H for row in grid) for grid in heads["stats"].values())
    T = len(heads["tokens"])

    code, out, _ = run_cli(capsys, "rollout", tiny_dirs["roberta"], "the cat sat", "--json")
    rollout = json.loads(out)["rollout"]
    assert code == 0 and all(abs(sum(row) - 1) < 1e-5 for row in rollout) and len(rollout) == len(rollout[0])

    code, out, _ = run_cli(capsys, "contributions", tiny_dirs["albert"], "the cat sat", "--json")
    result = json.loads(out)
    assert code == 0 and set(result["mixing"]) == {"attention", "norm", "norm_residual", "norm_residual_ln"}
    assert all(len(v) == L for v in result["mixing"].values()) and result["max_abs_diff"] <= 1e-4

    code, out, _ = run_cli(capsys, "lens", tiny_dirs["distilbert"], "the cat sat", "--position", "2", "--json")
    lens = json.loads(out)
    assert code == 0 and lens["position"] == 2 and [x["layer"] for x in lens["layers"]] == list(range(L + 1))
    assert all(len(x["top"]) == 5 and set(x["top"][0]) == {"token", "prob"} for x in lens["layers"])
    assert lens["max_abs_diff"] <= 1e-4 and T > 0


def test_lens_without_a_head_is_one_line_on_stderr(capsys):
    code, out, err = run_cli(capsys, "lens", "sentence-transformers/all-MiniLM-L6-v2", "the [MASK] sat")
    assert code == 1 and out == "" and "error: " in err and "no trained masked-LM head" in err
    assert "--nearest" in err


def test_lens_nearest_prints_the_analysis_own_pieces(capsys):
    from bertviz_lite import BUNDLED_MODEL, load_model, nearest_pieces, trace

    code, out, _ = run_cli(capsys, "lens", BUNDLED_MODEL, "the bank of the river", "--position", "2", "--nearest",
                           "--json")
    expected = nearest_pieces(trace(load_model(BUNDLED_MODEL), "the bank of the river"), 2)
    assert code == 0 and json.loads(out) == json.loads(json.dumps(expected.to_json()))
    code, out, _ = run_cli(capsys, "lens", BUNDLED_MODEL, "the bank of the river", "--position", "2", "--nearest")
    assert code == 0 and "not a prediction" in out and "embeddings  bank 0.9" in out


@server
def test_load_benchmark_opens_sessions_like_browser_tabs():
    """The measuring tool works end to end on a small crowd (its figures are printed by .ci/run, not asserted)."""
    from bertviz_lite.benchmarks import load

    result = load.run(tabs=3, many=4, own=2, alone=2, soak=4, soak_at_once=2, idle_s=0)
    assert [s["errors"] for s in result["scenarios"]] == [0] * 14
    assert [s["sessions"] for s in result["scenarios"]] == [1, 2, 3, 4, 3 * load.PRESS_BURSTS, 1, 2, 3, 1, 2, 1, 3,
                                                            3 * load.PRESS_BURSTS, 2]  # (the hall answering: issue 57)
    assert len(result["scenarios"][4]["each"]) == len(result["scenarios"][12]["each"]) == load.PRESS_BURSTS
    assert all(s["cpu_per_view_s"] > 0 for s in result["scenarios"])
    assert result["memory"]["after_first_visit_mb"] > result["memory"]["started_mb"] > 0
    units = result["units"]
    assert 0 < units["raw_forward_s"] < units["import_s"] < units["first_page_s"]
    report = load.report(result)
    assert "one link, 3 tabs" in report and "one link, 4 tabs" in report and "× the import" in report
    assert "head view, 3 tabs" in report and "tour, 3 tabs" in report and "▶ pressed by 3 tabs" in report


@server
def test_serve_warms_the_views_it_is_given_before_anyone_comes():
    """`bertviz-lite serve` (the image's start command): the views BVL_WARM names are warmed as the server starts,
    with no visitor, and the page then opens."""
    import asyncio
    import os
    import subprocess
    import sys
    import urllib.parse

    from bertviz_lite import BUNDLED_MODEL
    from bertviz_lite.benchmarks.app_process import free_port, wait_healthy
    from bertviz_lite.benchmarks.tab import open_view

    port, link = free_port(), "layers?" + urllib.parse.urlencode({"model": BUNDLED_MODEL, "text": "the cat sat"})
    env = {**os.environ, "BVL_WARM": link, "HF_HUB_OFFLINE": "1"}
    server = subprocess.Popen([sys.executable, "-m", "bertviz_lite", "serve", "--", "--server.headless=true",
                               f"--server.port={port}", "--server.address=127.0.0.1"],
                              env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        lines = []
        for line in server.stderr:  # before any tab opens
            lines.append(line)
            if "bertviz-lite: warm" in line:
                break
        assert f"warmed {BUNDLED_MODEL} (base) in" in lines[-1], lines
        assert wait_healthy(f"http://127.0.0.1:{port}", 60)
        assert asyncio.run(open_view(f"http://127.0.0.1:{port}", *link.split("?"))) > 0
    finally:
        server.terminate()
        server.communicate(timeout=20)


def test_the_warm_up_fills_the_caches_the_pages_read(tiny_dirs, monkeypatch):
    """What serve's warm-up traces is what a page then gets: the sentence is run once, by the warm-up."""
    from bertviz_lite.serving import cache
    from bertviz_lite.serving.run_key import RunKey
    from bertviz_lite.serving.warmup import views, warm_in_background

    runs = []
    real_trace = cache.trace
    monkeypatch.setattr(cache, "trace", lambda *a, **k: runs.append(a[1]) or real_trace(*a, **k))
    text = "a sentence no other test traces"
    warm_in_background(views(f"layers?model={tiny_dirs['bert']}&text={text.replace(' ', '+')}")).join(60)
    assert runs == [text]
    assert cache.cached_trace(RunKey(tiny_dirs["bert"], "base", text)).text == text and runs == [text]
