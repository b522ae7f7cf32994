"""The site in browsers other than Chromium: Firefox (Debian's firefox-esr, driven over WebDriver BiDi by
puppeteer-core: frontend/drive/firefox.mjs) and WebKit, Safari's engine (WebKitGTK's MiniBrowser, driven by Selenium
through Debian's WebKitWebDriver on an Xvfb display). A journey is the same for each: steps that open an address,
wait for a selector, or run an async function in the page and keep what it gives (JSON); each browser gives back
those results and the page's errors."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

FRONTEND = Path(__file__).resolve().parent.parent / "frontend"
FIREFOX = shutil.which("firefox-esr") or shutil.which("firefox")
WEBKIT_DRIVER = shutil.which("WebKitWebDriver")
MINIBROWSER = next((str(p) for p in Path("/usr/lib").glob("*/webkit2gtk-4.*/MiniBrowser")), None)
XVFB = shutil.which("Xvfb")
WIDTH, HEIGHT = 1280, 720


def goto(url: str) -> dict:
    return {"goto": url}


def wait(selector: str, timeout_s: int = 180) -> dict:
    return {"wait": selector, "timeout": timeout_s * 1000}


def evaluate(source: str, arg=None) -> dict:
    """An async function's source, run in the page with `arg`; its result is kept."""
    return {"evaluate": source, "arg": arg}


def missing(browser: str) -> str | None:
    """Why `browser` cannot run here, or None."""
    if browser == "firefox":
        if not FIREFOX:
            return "needs Firefox (Debian: apt-get install firefox-esr)"
        if not (FRONTEND / "node_modules" / "puppeteer-core").is_dir() or not shutil.which("node"):
            return "needs node and the front end's tools (cd frontend && npm ci)"
        return None
    if not (WEBKIT_DRIVER and MINIBROWSER and XVFB):
        return "needs WebKitGTK's driver and Xvfb (Debian: apt-get install webkit2gtk-driver xvfb)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "needs selenium (pip install -r requirements-dev.txt)"
    return None


def journey(browser: str, steps: list[dict]) -> tuple[list, list[str]]:
    """What each evaluate step gave in `browser`, and the page's errors."""
    return firefox(steps) if browser == "firefox" else webkit(steps)


def firefox(steps: list[dict]) -> tuple[list, list[str]]:
    journey_json = json.dumps({"browser": FIREFOX, "width": WIDTH, "height": HEIGHT, "steps": steps})
    done = subprocess.run(["node", "drive/firefox.mjs"], cwd=FRONTEND, input=journey_json, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout)
    return out["results"], out["errors"]


class Display:
    """An Xvfb display of its own (WebKitGTK draws on one), stopped on exit."""

    def __enter__(self) -> str:
        read, write = os.pipe()
        self.process = subprocess.Popen([XVFB, "-displayfd", str(write), "-screen", "0", "1920x1080x24", "-nolisten",
                                         "tcp"], pass_fds=(write,), stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as given:
            return f":{given.readline().strip()}"

    def __exit__(self, *exc) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


ASYNC = ("const done = arguments[arguments.length - 1];"
         "(%s)(arguments[0]).then((r) => done(JSON.stringify(r)), (e) => done(JSON.stringify({error: String(e)})));")
ERRORS = ("window.__errors = [];"
          "window.addEventListener('error', (e) => window.__errors.push(String(e.message)));"
          "window.addEventListener('unhandledrejection', (e) => window.__errors.push(String(e.reason)));")


def webkit(steps: list[dict]) -> tuple[list, list[str]]:
    from selenium import webdriver
    from selenium.webdriver.support.ui import WebDriverWait
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service

    options = Options()
    options.binary_location = MINIBROWSER
    options.add_argument("--automation")
    results, errors = [], []
    with Display() as display:
        service = Service(executable_path=WEBKIT_DRIVER, env={**os.environ, "DISPLAY": display})
        driver = webdriver.WebKitGTK(options=options, service=service)
        try:
            driver.set_window_size(WIDTH, HEIGHT)
            driver.set_script_timeout(600)
            for step in steps:
                if "goto" in step:
                    driver.get(step["goto"])
                    driver.execute_script(ERRORS)
                if "wait" in step:
                    selector = step["wait"]
                    WebDriverWait(driver, step["timeout"] / 1000, poll_frequency=0.25).until(
                        lambda d: d.execute_script("return document.querySelector(arguments[0]) !== null", selector))
                if "evaluate" in step:
                    results.append(json.loads(driver.execute_async_script(ASYNC % step["evaluate"], step["arg"])))
            errors = driver.execute_script("return window.__errors || []")
        finally:
            driver.quit()
    return results, errors
