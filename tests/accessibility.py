"""The WCAG 2.0, 2.1 and 2.2 A and AA rules of axe-core, run in a Playwright page of the app or of a site: what each
rule finds, in words a failing test can print. axe-core is pinned as the live site's runtime is (by version and the
npm registry's integrity hash, fetched once into the same cache: export/runtime.py), and is never part of a site.
Beside it, what a reader who asked for less motion would still see move, and what the keyboard tests read: a grid
as Chromium's accessibility tree holds it, and a cell's hover words filled independently of cell_keys.js."""
from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from bertviz_lite.export.runtime import Package, package_files

AXE_CORE = Package("axe-core", "4.14.1",
                   "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ==",
                   ("axe.min.js",), "Mozilla Public License 2.0, Copyright (c) Deque Systems")
WCAG_AA = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa")


def axe_script() -> Path:
    return package_files(AXE_CORE)["axe.min.js"]


def violations(page, context: str = "document") -> list[dict]:
    """axe's violations of the WCAG A and AA rules on what `page` shows now: each rule's id, impact, help, and
    its elements (their selectors and axe's summary of what is wrong)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(axe_script()))
    return page.evaluate("""async ([context, tags]) => {
      const result = await axe.run(context === 'document' ? document : document.querySelector(context),
                                   { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary })) }));
    }""", [context, list(WCAG_AA)])


def said(found: list[dict], limit: int = 3) -> list[str]:
    """One line per rule broken: its id, how many elements, the first few of them and why."""
    return [f"{v['id']} ({v['impact']}, {len(v['nodes'])} elements): {v['help']}; "
            + "; ".join(f"{n['target']}: {n['summary'].splitlines()[-1].strip()}" for n in v["nodes"][:limit])
            for v in found]


def axe_problems(page) -> list[str]:
    """What axe finds on `page` now, a line per rule broken ("axe: color-contrast (serious, 2 elements): …"), for a
    test that lists it beside the readability check's problems."""
    return [f"axe: {line}" for line in said(violations(page))]


MOVING = """[...document.querySelectorAll('*')].filter(e => {
  const style = getComputedStyle(e);
  const seconds = (d) => d.split(',').map((t) => parseFloat(t) / (t.trim().endsWith('ms') ? 1000 : 1));
  return [...seconds(style.transitionDuration), ...seconds(style.animationDuration)].some((s) => s > 0.001)
      || style.scrollBehavior === 'smooth';
}).map(e => e.tagName.toLowerCase() + (e.dataset.testid ? `[data-testid=${e.dataset.testid}]` : '')
              + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ')[0] : ''))"""


def moving(page) -> list[str]:
    """The elements that would still move for a reader who asked for less motion (the page opened with
    `reduced_motion="reduce"`): a transition or animation over a millisecond, or smooth scrolling (WCAG 2.3.3)."""
    found = page.evaluate(MOVING)
    return [f"moves with reduced motion asked for: {len(found)} elements, e.g. {', '.join(sorted(set(found))[:5])}"
            ] if found else []


def accessibility_grid(page) -> dict:
    """The accessibility tree's grids as Chromium gives it to a screen reader (CDP Accessibility.getFullAXTree): each
    grid's name, its description (what aria-describedby points to), and its column headers, row headers and cells in
    the tree's order."""
    nodes = page.context.new_cdp_session(page).send("Accessibility.getFullAXTree")["nodes"]
    grids = {}
    for node in nodes:
        role, name = node.get("role", {}).get("value"), node.get("name", {}).get("value", "")
        if role == "grid":
            grids[name] = current = {"columnheader": [], "rowheader": [], "gridcell": [],
                                     "description": node.get("description", {}).get("value", "")}
        elif role in ("columnheader", "rowheader", "gridcell") and grids:
            current[role].append(name)
    return grids


def accessibility_figures(page) -> dict[str, str]:
    """The accessibility tree's figures and grids (a chart, walked or not) by name, each with its description, as
    Chromium gives them to a screen reader."""
    nodes = page.context.new_cdp_session(page).send("Accessibility.getFullAXTree")["nodes"]
    return {node.get("name", {}).get("value", ""): node.get("description", {}).get("value", "")
            for node in nodes if node.get("role", {}).get("value") in ("figure", "grid")}


POINTS = """[...document.querySelectorAll('.js-plotly-plot')].filter((g) => g.getClientRects().length)
  .map((g) => [g.getAttribute('role'), g.getAttribute('aria-label'), (g.layout.meta || {}).point || ''])"""


def points_heard(page) -> list[tuple[str, str, str, str]]:
    """Each figure on `page`: its role, its name, the point Python carried in it (layout.meta's, "" where the page
    says it instead) and what a screen reader hears as its description (the accessibility tree's)."""
    heard, shown = accessibility_figures(page), page.evaluate(POINTS)
    assert len({name for _, name, _ in shown}) == len(shown), shown  # a name heard once: by it, its description
    return [(role, name, point, heard.get(name, "")) for role, name, point in shown]


UNDESCRIBED = """[...document.querySelectorAll('.js-plotly-plot')].filter((g) => g.getClientRects().length).map((g) => {
  const name = g.getAttribute('aria-label') || '', role = g.getAttribute('role');
  const point = (g.getAttribute('aria-describedby') || '').split(/\\s+/).map((id) => document.getElementById(id))
    .filter(Boolean).map((e) => e.textContent.trim()).join(' ');
  return [!['figure', 'grid'].includes(role) || !name || name === 'Figure' ? `a ${role || 'figure'} with no name` : '',
          point ? '' : `'${name}': no description`].filter(Boolean).join(', ');
}).filter(Boolean)"""


def undescribed(page) -> list[str]:
    """The figures on `page` that a screen reader could not name or would hear no point of (issue 56: each figure
    named by its title and described by its point in one line, frontend/src/figure_name.js)."""
    return [f"figure: {line}" for line in page.evaluate(UNDESCRIBED)]


def hovered(template: str, trace: dict, r: int, c: int) -> str:
    """What a hover template says of cell (r, c), filled here as Plotly's d3-format writes ".Nf" (a minus sign),
    independently of cell_keys.js."""
    def field(match):
        name, index, digits = match.group(1), match.group(2), match.group(3)
        value = {"x": trace["x"][c], "y": trace["y"][r]}.get(name)
        if name in ("z", "text", "customdata"):
            value = trace.get(name)[r][c]
        if index is not None:
            value = value[int(index)]
        if name == "z" and value is None:
            return "masked"
        return f"{value:.{digits}f}".replace("-", "−") if digits else str(value)
    said = re.sub(r"<extra>.*?</extra>", "", template)
    said = re.sub(r"%\{(\w+)(?:\[(\d+)\])?(?::\.(\d+)f)?\}", field, said)
    return html.unescape(re.sub(r"<[^>]+>", "", re.sub(r"<br\s*/?>", ", ", said)))  # a token as Plotly shows it


MAIN_CONTROLS = {  # a phone's main controls, by where they are: the app's (Streamlit's) and a site's
    "app": ("[data-testid=stMain] [data-testid^=stBaseButton]:not([data-testid=stBaseButton-elementToolbar]), "
            "[data-testid=stMain] [role=radiogroup] button, "
            "[data-testid=stMain] [data-testid=stSelectbox] [role=group], [data-testid=stExpandSidebarButton]"),
    "site": "main button, main select, .next-view, nav summary, nav a",  # (a phone's pages: a menu)
}
SMALL = """(selector) => {
  const menus = [...document.querySelectorAll('details.pages-menu:not([open])')];  // a phone's pages, opened to
  menus.forEach(m => { m.open = true; });  // measure their links
  const small = [...document.querySelectorAll(selector)].filter(e => e.getClientRects().length)
    .map(e => [e, e.getBoundingClientRect()]).filter(([, r]) => r.width < 44 || r.height < 44)
    .map(([e, r]) => `${(e.getAttribute('aria-label') || e.textContent || e.tagName).trim().slice(0, 24)} `
                   + `${Math.round(r.width)}×${Math.round(r.height)}`);
  menus.forEach(m => { m.open = false; });
  return small; }"""


def small_controls(page, where: str) -> list[str]:
    """A phone's main controls under 44×44 CSS px (the issue's size for a finger; WCAG 2.5.8's 24 px is axe's
    target-size, checked everywhere), on the app (`where` "app") or a site."""
    found = page.evaluate(SMALL, MAIN_CONTROLS[where])
    return [f"controls under 44 px on a phone: {len(found)}, e.g. {'; '.join(found[:5])}"] if found else []


def tab_to_a_grid(page, view: str, presses: int = 80) -> None:
    """Press Tab until a walked figure (a grid) has the focus; fail, naming `view`, where none is reached."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.getAttribute('role')") == "grid":
            return
    pytest.fail(f"{presses} presses of Tab never reached a matrix on {view}")


LINE_SAID = re.compile(r"^(head \d+) (?:to key|from query) (\d+) .*: (\d\.\d)$")  # attention_views.py LINES_SAID


def token_lines(text: str, layer: int, side: str, index: int) -> set[tuple[str, int, str]]:
    """A head view's token's lines as drawn, from transformers' own attentions (the bundled model, every head, up to
    64 tokens: every weight of at least MIN_WEIGHT is a line): each (head, the far end's index, the weight's tenth as
    its opacity draws it)."""
    import numpy as np

    from bertviz_lite import BUNDLED_MODEL
    from bertviz_lite.attention_lines import MIN_WEIGHT
    from test_attention_views import own_attentions

    probs = own_attentions(BUNDLED_MODEL, text)[layer]  # (H, T, T)
    weights = probs[:, index, :] if side == "q" else probs[:, :, index]  # (H, T): its row, or its column
    heads, far = np.nonzero(weights >= np.float32(MIN_WEIGHT))
    tenths = np.clip(np.floor(weights[heads, far].astype(np.float32) * 10 + 0.5), 1, 10) / 10
    return {(f"head {h}", int(j), f"{t:.1f}") for h, j, t in zip(heads.tolist(), far.tolist(), tenths.tolist())}


def listed_lines(items: list[str]) -> set[tuple[str, int, str]]:
    """The lines a page lists in words ("head 8 from query 1 the: 0.7"), as `token_lines` gives them."""
    found = [LINE_SAID.match(item) for item in items]
    assert all(found), [item for item, match in zip(items, found) if not match]
    return {(m.group(1), int(m.group(2)), m.group(3)) for m in found}


def skip_to_the_figure(page) -> None:
    """The page's first Tab stop is "Skip to the figure" (skip_link.js), seen once focused; Enter on it puts the focus
    on the view's first walked figure."""
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip-link"
    assert page.evaluate("document.activeElement.getBoundingClientRect().top") >= 0  # on the screen, not above it
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement.getAttribute('role') === 'grid'")
