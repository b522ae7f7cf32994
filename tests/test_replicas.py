"""Three replicas of the app behind HAProxy with deploy/haproxy.cfg, on loopback (processes, not containers): a
hall spreads over every replica and each tab keeps its own; a download made on a replica arrives through the
balancer; answers to a lecture's question on two replicas are one count (their shared Redis); a replica killed
under a Chromium tab mid-lecture, and the tab comes back on a live one with its view and what the user typed; a
restarted replica rejoins. Skipped where haproxy or Chromium is missing (.ci/run
installs both). With BVL_COMPOSE set, the hall is `docker-compose -f deploy/compose.yaml up --scale app=3`, started
by hand (tests/compose_hall.py)."""
import asyncio
import csv
import io
import os
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from bertviz_lite import BUNDLED_MODEL, load_model, parameter_table
from bertviz_lite.benchmarks.balancer import Balanced, haproxy, redis_server
from bertviz_lite.benchmarks.tab import open_view

from tiers import server

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent
LINK = "layers?" + urllib.parse.urlencode({"model": BUNDLED_MODEL, "text": "the bank of the river", "layer": 2})
FAILOVER_S = 20  # a tab whose replica died is back, with its view, within this (HAProxy's and Streamlit's
# reconnection take about a second; a replica that never drew the view loads its model first)
COMPOSE = os.environ.get("BVL_COMPOSE")  # the compose project's name: run against its containers instead
pytestmark = [server, pytest.mark.skipif(haproxy() is None and not COMPOSE,
                                           reason="needs haproxy (Debian: apt-get install haproxy)")]


@pytest.fixture(scope="module")
def balanced():
    if COMPOSE:
        from compose_hall import ComposeHall
        yield ComposeHall(COMPOSE)
        return
    hall = Balanced(ROOT, replicas=3)
    yield hall
    hall.stop()


def first_cookie(url: str) -> str:
    """What a browser's first request gets from the balancer: the cookie that names its replica."""
    return urllib.request.urlopen(f"{url}/", timeout=30).headers["Set-Cookie"].split(";")[0]


def test_a_hall_spreads_over_every_replica_and_each_tab_keeps_its_replica(balanced):
    before = [int(r["stot"]) for r in balanced.replicas()]
    tabs = [first_cookie(balanced.url) for _ in range(12)]
    assert len(set(tabs)) == 3  # the first requests were spread, each tab told its replica by a cookie
    new_cookies = []

    async def tab(cookie: str) -> None:
        for _ in range(3):  # the page, then two reconnects (a rerun over a new connection, as after a network blip)
            await open_view(balanced.url, *LINK.split("?"), cookie=cookie,
                            connected=lambda ws: new_cookies.append(ws.response.headers.get("Set-Cookie")))

    async def hall():
        await asyncio.gather(*(tab(c) for c in tabs))

    asyncio.run(hall())
    assert new_cookies == [None] * 36  # every connection went where its cookie said: no tab changed replica
    served = [int(r["stot"]) - b for r, b in zip(balanced.replicas(), before)]
    assert all(n >= 12 for n in served), served  # a share each: 4 tabs × (1 page + 3 connections)


@pytest.fixture
def page():
    playwright = pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        pytest.skip("needs Debian's chromium")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield browser.new_page(viewport={"width": 1280, "height": 720}, accept_downloads=True)
        finally:
            browser.close()


def wait_idle(page) -> None:
    page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']", timeout=120_000)
    time.sleep(0.3)
    page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']", timeout=120_000)


def test_a_csv_made_on_one_replica_downloads_through_the_balancer(balanced, page):
    """Streamlit serves a download from the memory of the replica that made it: without stickiness every other
    click would get 404 from another replica."""
    page.goto(f"{balanced.url}/architecture?model={urllib.parse.quote(BUNDLED_MODEL)}")
    wait_idle(page)
    for _ in range(3):  # three times: with three replicas, a balancer without stickiness fails two in three
        with page.expect_download(timeout=30_000) as download:
            page.get_by_role("button", name="Download the table as CSV").click()
        rows = list(csv.DictReader(io.StringIO(Path(download.value.path()).read_text())))
        own = parameter_table(load_model(BUNDLED_MODEL).model)
        assert [r["name"] for r in rows] == own.name.tolist()
        assert sum(int(r["numel"]) for r in rows) == int(own.numel.sum())


HALL_BARS = """() => { const gd = [...document.querySelectorAll('.js-plotly-plot')]
    .find(g => g.data && g.data[0].type === 'bar' && g.data[0].orientation === 'h');
  return gd ? Object.fromEntries(gd.data[0].y.map((label, k) => [label, gd.data[0].x[k]])) : null; }"""


@pytest.mark.skipif(bool(COMPOSE) or redis_server() is None, reason="needs redis-server (Debian: redis-server)")
def test_answers_on_two_replicas_are_one_count_for_the_lecturer(balanced, page):
    """Two students answer the tour's question, each on another replica; the lecturer's link (hall=1), on one of
    them, counts both: the replicas count in their shared Redis (issue 57)."""
    from bertviz_lite.tour import chapters
    from bertviz_lite import trace

    story = chapters(trace(load_model(BUNDLED_MODEL), "the quick brown fox jumps over the lazy dog"), 0)
    link = f"tour?chapter={[c.kind for c in story].index('stream') + 1}&ask=1&lecture=1"
    chosen = []
    for k, replica in enumerate(balanced.servers[:2]):
        tab = page.context.browser.new_page(viewport={"width": 390, "height": 844})
        tab.goto(f"{replica.url}/{link}")
        choice = tab.locator(f"[class*='st-key-choice_{k}'] button")
        choice.wait_for(timeout=120_000)
        chosen.append(choice.inner_text().strip())
        choice.click()
        tab.locator("[class*='st-key-answer']").wait_for(timeout=60_000)
        tab.close()
    page.goto(f"{balanced.servers[0].url}/{link}&hall=1")
    page.get_by_role("button", name="Show the answer").click()  # the lecturer's own: not counted
    page.wait_for_function(HALL_BARS, timeout=60_000)
    bars = {label.split(" (right)")[0]: n for label, n in page.evaluate(HALL_BARS).items()}
    assert {label: n for label, n in bars.items() if n} == {label: 1 for label in chosen}


def serving(balanced) -> int:
    """The replica holding the one open tab's connection."""
    open_now = [int(r["scur"]) for r in balanced.replicas()]
    assert sum(open_now) == 1, open_now
    return open_now.index(1)


def serving_other(balanced, lost: int) -> bool:
    return any(int(r["scur"]) for i, r in enumerate(balanced.replicas()) if i != lost)


def test_a_replica_lost_mid_lecture_and_its_tab_comes_back_with_its_view(balanced, page):
    page.goto(f"{balanced.url}/{LINK}")
    wait_idle(page)
    typed = "my own sentence about a river bank"
    box = page.get_by_label("Sentence", exact=True)
    box.fill(typed)
    box.press("Control+Enter")
    wait_idle(page)
    assert "my+own+sentence" in page.url
    lost = serving(balanced)
    balanced.servers[lost].kill()
    started = time.time()
    while time.time() - started < FAILOVER_S and not serving_other(balanced, lost):
        time.sleep(0.2)  # the tab reconnects by itself; the balancer sends it to a live replica
    time.sleep(0.5)
    wait_idle(page)  # where the view is drawn again from its URL (turns.redraw_on_reconnect)
    took = time.time() - started
    assert took < FAILOVER_S, took
    assert page.get_by_label("Sentence", exact=True).input_value() == typed  # nothing typed is lost
    assert "layer=2" in page.url and page.get_by_text("Layer 2 · step").count() >= 1  # the same view
    page.get_by_role("button", name="▶").first.click()  # and the lecture goes on: the first click counts
    wait_idle(page)
    assert "layer=3" in page.url and page.get_by_text("Layer 3 · step").count() >= 1
    assert "my+own+sentence" in page.url
    assert page.locator("[data-testid='stException']").count() == 0
    print(f"failover: the tab went on on replica {serving(balanced)} {took:.1f} s after replica {lost} died")

    balanced.restart(lost)  # and the replica rejoins: up again, and new tabs reach it
    assert balanced.wait_up([lost], 30)
    before = int(balanced.replicas()[lost]["stot"])
    for _ in range(6):
        first_cookie(balanced.url)
    assert int(balanced.replicas()[lost]["stot"]) > before


@pytest.mark.skipif(bool(COMPOSE), reason="starts its own replicas")
def test_the_load_benchmark_runs_through_the_balancer():
    """`bench --load --replicas N` works end to end on a small crowd (its figures are printed, not asserted)."""
    from bertviz_lite.benchmarks import load

    result = load.run(tabs=3, many=4, own=2, alone=2, soak=4, soak_at_once=2, idle_s=0, replicas=2, root=ROOT)
    assert [s["errors"] for s in result["scenarios"]] == [0] * len(result["scenarios"])
    assert "2 replicas behind HAProxy" in load.report(result)
