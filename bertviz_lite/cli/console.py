"""What every command shares: its one-line errors, its progress on stderr, and the model and trace it loads
(saying what takes the time)."""
from __future__ import annotations

import argparse
import json
import sys
import time

from ..errors import InputError

PROG = "bertviz-lite"


class Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, not argparse's usage block
        self.exit(2, f"error: {message} (see {PROG} --help)\n")


def progress(message: str) -> None:
    """What a long command is doing, on stderr (stdout keeps only the result, e.g. the JSON)."""
    print(f"… {message}", file=sys.stderr, flush=True)


def load(model: str, task: str = "base"):
    """The model, saying what takes the time: importing torch and transformers, then loading."""
    start = time.perf_counter()
    progress(f"loading {model} ({task})")
    from ..loading.loader import load_model

    loaded = load_model(model, task)
    took = time.perf_counter() - start
    progress(f"loaded {model}: {loaded.weights_kind} weights from the {loaded.origin} in {took:.1f} s")
    if loaded.warning:
        print(f"note: {loaded.warning}", file=sys.stderr)
    return loaded


def traced(args, task: str = "base", refuse=None):
    """The trace of args.text (and pair). `refuse(loaded)` names why an analysis cannot run on this model, or
    None: it is asked of the architecture first, before any weights are built or read, then of the model."""
    from ..loading.loader import load_skeleton
    from ..stepthrough.trace import trace

    if refuse is not None and (problem := refuse(load_skeleton(args.model, task))):
        raise InputError(problem)
    loaded = load(args.model, task)
    if refuse is not None and (problem := refuse(loaded)):  # what only the checkpoint says (a head it lacks)
        raise InputError(problem)
    progress("running the model")
    t = trace(loaded, args.text, args.pair)
    if t.notice:
        print(f"note: {t.notice}", file=sys.stderr)
    return t


def analysed(args, doing: str, compute, as_json=lambda t, result: result.to_json(), task: str = "base",
             refuse=None):
    """Trace, run one analysis and print its JSON when asked (then None); else (trace, result) to print."""
    t = traced(args, task, refuse)
    progress(doing)
    result = compute(t)
    if args.json:
        print(json.dumps(as_json(t, result)))
        return None
    return t, result


def state_name(i: int) -> str:
    """Hidden state i: the embeddings' output, then each layer's, layers counted from 0 as everywhere."""
    return "embeddings" if i == 0 else f"layer {i - 1}"


def quiet_transformers() -> None:
    """The CLI says what matters itself; transformers' load reports and bars would bury it."""
    from transformers.utils import logging

    logging.set_verbosity_error()
    logging.disable_progress_bar()
