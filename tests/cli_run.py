"""The command line run in this process, as the tests of its commands call it: what `python -m bertviz_lite ARGS`
prints and returns, without starting an interpreter and importing torch again (seconds a call). One test still
runs the module as a program (`test_cli.test_module_entry_point`)."""
from __future__ import annotations

import contextlib
import io
import subprocess

from bertviz_lite.cli import main


def run_cli(capsys, *args):
    """(exit status, stdout, stderr) of the command, with pytest's capsys."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def cli(*args: str) -> subprocess.CompletedProcess:
    """The command's exit status, stdout and stderr, as subprocess.run(..., capture_output=True, text=True) gives
    them; a usage error's SystemExit is its exit status, and any other exception fails the test (a traceback)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exit_:
            code = exit_.code
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())
