"""The exported site's JavaScript (frontend/: ES modules in frontend/src, bundled by esbuild into
bertviz_lite/export/assets/site.js, which is committed so that the package needs no node): the committed bundle is
what the modules build to, they lint and type-check clean, and their unit tests (node's own runner) pass against the
numbers Python writes (tests/frontend_fixtures.py).

Where node and npm are on PATH these run in the default suite; where frontend/node_modules is missing, `npm ci`
installs the pinned tools first (.ci/run does it before the tests). Skipped, with the reason, where node is missing or
`npm ci` cannot install (offline)."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from frontend_fixtures import write_fixtures

FRONTEND = Path(__file__).resolve().parents[1] / "frontend"
NODE, NPM = shutil.which("node"), shutil.which("npm")


@pytest.fixture(scope="module")
def frontend() -> Path:
    """frontend/, its pinned tools installed (`npm ci` from package-lock.json where node_modules is missing)."""
    if NODE is None or NPM is None:
        pytest.skip("node and npm are not on PATH: the front end's build, lint, type check and unit tests need them")
    if not (FRONTEND / "node_modules").is_dir():
        done = subprocess.run([NPM, "ci", "--no-audit", "--no-fund"], cwd=FRONTEND, capture_output=True, text=True,
                              timeout=600)
        if done.returncode != 0:
            pytest.skip(f"`npm ci` in frontend/ failed (offline?), so its tools are missing: {done.stderr[-600:]}")
    return FRONTEND


def run(frontend: Path, *command: str, env: dict | None = None) -> str:
    done = subprocess.run(list(command), cwd=frontend, capture_output=True, text=True, timeout=300, env=env)
    said = f"{done.stdout[-6000:]}\n{done.stderr[-6000:]}"
    assert done.returncode == 0, f"`{' '.join(command)}` failed in frontend/:\n{said}"
    return done.stdout


def test_the_committed_bundle_is_what_the_modules_build_to(frontend):
    """site.js is built from frontend/src and committed: a module changed without `npm run build` fails here."""
    assert "is current" in run(frontend, NODE, "build.mjs", "--check")


def test_the_modules_lint_clean(frontend):
    run(frontend, NPM, "run", "--silent", "lint")


def test_the_modules_type_check(frontend):
    """tsc over the modules and the tests: those typed with JSDoc (numbers.js, page.js, …) under --strict."""
    run(frontend, NPM, "run", "--silent", "check")


def test_the_modules_unit_tests_pass_against_the_numbers_python_writes(frontend, tmp_path):
    fixtures = write_fixtures(tmp_path / "fixtures")
    env = {**os.environ, "BVL_FIXTURES": str(fixtures)}
    out = run(frontend, NODE, "--test", "--test-reporter=tap", "test/", env=env)  # TAP: its counts, on any node
    assert "# fail 0" in out and "# pass 0" not in out, out[-3000:]


def test_every_module_is_typed():
    """Every module is type-checked under --strict: none opts out (the last, figures.js's port of the app's figure
    fitting, is gone: the site's figures are the app's own, issue 54)."""
    untyped = {p.name for p in (FRONTEND / "src").glob("*.js") if "@ts-nocheck" in p.read_text(encoding="utf-8")}
    assert not untyped, f"modules opting out of the type check: {sorted(untyped)}"
