"""What a person sees on a projector, measured in the page: the readability check's eyes.

`problems(page)` runs one script in a Chromium page (Playwright) and returns every problem a lecturer would see on
a 1280×720 screen, each a `Problem(kind, what)`:

- "overlap": two text boxes of one figure overlap (cell numbers, tick labels, annotations, bar texts, legend). The
  boxes are read from the SVG in the page, rotated as drawn (a 45° tick label is a rotated rectangle, not the box
  around it), and trimmed of the blank that a font's line height puts above and below the letters, so that rows
  of text set at their own size do not count as touching;
- "small": text under 12 px, in a figure (its font size times the scale it is drawn at: a sunburst shrinks labels
  to fit) or in the page;
- "cut": text past the edge of its figure, or a page element whose text is wider than the element shows (an
  ellipsis, a table that scrolls sideways), or nearly fits its height but not quite (a table's last row cut in
  half; a long list that is meant to scroll, two or more screens of it, is not a problem);
- "fold": what the page declares as its point (`lecture.point`: a container whose key starts with "point"; in an
  exported site, an element with a `data-point` attribute) is not
  whole above the 720-px fold (a figure too tall for the screen scrolls inside a box of its own, which must then
  fit), or the page declares none; on a phone (`phone=True`) it must start above the 844-px fold, before long
  controls: at least 200 px of it (or all of it, if shorter);
- "narrow" (projector only; a phone's figures are as wide as its screen): a figure narrower than 400 px, or a panel of a figure of several (a subplot's plotting area) narrower
  than 400 px; small multiples (a figure whose layout.meta says `small_multiples`) hold panels of 100 px or more;
- "numbers": a heatmap in the page's point of 16 rows and columns or fewer whose values are not written in its cells, or
  are written under 14 px (lecture mode only: a back row reads a matrix of a short sentence);
- "title": a figure's title, or a text in it other than an axis title, that is a note on its layout ("every 4th
  labelled", "columns numbered as the rows"): a title says what the figure is, a caption says how it is drawn;
- "sideways" (phone only): the page, or a figure, is wider than the screen;
- "header" (phone only): text under the app's header bar, at the top of the page;
- "toolbar": a visible Plotly tool bar over a text of its figure (on a phone it shows without a hover);
- "error": an exception or an error box (an exported site's: an element with a `data-error` attribute).

The page's hover layer, a tool bar that shows only under the mouse and hidden elements are not looked at: a person
does not see them.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

FOLD = 720  # a projector's height in CSS pixels
PHONE = {"width": 390, "height": 844}  # a phone's screen in CSS pixels (an iPhone 12 to 15)
SMALLEST_PX = 12
NUMBERS_PX = 14  # a cell number in a lecture's matrix of up to WRITTEN_COLUMNS rows and columns
WRITTEN_COLUMNS = 16
POINT_SHOWN_PX = 200  # on a phone, how much of the page's point must be above the fold (all of it, if shorter)
NARROWEST_PX = 400  # a figure's width, and a panel's in a figure of several
SMALL_MULTIPLE_PX = 100  # a panel's width in small multiples
LAYOUT_NOTE = r"\blabell?ed\b|numbered as|\bevery (other|\d+(st|nd|rd|th))\b"  # words that say how a figure is drawn

CHECK = r"""
({fold, smallest, shownPx, phone, numbersPx, writtenColumns, narrowest, smallMultiple, layoutNote}) => {
  const problems = [];
  const add = (kind, what) => problems.push({kind, what});
  const label = (s) => (s || '').replace(/[\u200b\u200c\u200d\ufeff]/g, '').replace(/\s+/g, ' ').trim().slice(0, 60);
  const root = document.querySelector("[data-testid='stMain']") || document.body;
  const POINT = "[class*='st-key-point'], [data-point]";  // the app's lecture.point, an exported site's data-point
  const SCROLLS = "[class*='st-key-scrolls'], [data-scrolls]";  // a box the page says scrolls: the app's, a site's
  const SELECT_ARROW_PX = 20;  // a <select>'s drop-down arrow, beside its padding

  function hidden(el, stop) {  // display, visibility and opacity along the ancestors up to `stop`
    for (let e = el; e && e !== stop; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.display === 'none' || s.visibility === 'hidden' || parseFloat(s.opacity) === 0) return true;
    }
    return false;
  }

  // --- figures: every text of every Plotly chart, as drawn -----------------------------------------------------
  function corners(el) {  // the letters' box in screen pixels, rotated as drawn
    const b = el.getBBox();
    const m = el.getScreenCTM();
    if (!m || b.width === 0 || b.height === 0) return null;
    const line = b.height / Math.max(1, el.querySelectorAll('tspan.line').length);  // a wrapped title's one line
    const top = b.y + 0.2 * line, bottom = b.y + b.height - 0.15 * line;  // a line's blank above and below
    const left = b.x + 0.5, right = b.x + b.width - 0.5;
    return [[left, top], [right, top], [right, bottom], [left, bottom]].map(([x, y]) =>
      [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
  }
  function separated(p, q) {  // separating axis test for two convex quadrilaterals, with 1 px to spare
    for (const poly of [p, q]) {
      for (let i = 0; i < 4; i++) {
        const [x1, y1] = poly[i], [x2, y2] = poly[(i + 1) % 4];
        const n = [y1 - y2, x2 - x1], len = Math.hypot(n[0], n[1]) || 1;
        const proj = (pts) => pts.map(([x, y]) => (x * n[0] + y * n[1]) / len);
        const a = proj(p), c = proj(q);
        if (Math.max(...a) <= Math.min(...c) + 1 || Math.max(...c) <= Math.min(...a) + 1) return true;
      }
    }
    return false;
  }
  const plots = [...root.querySelectorAll('.js-plotly-plot')].filter((p) => !hidden(p, null));
  plots.forEach((plot, k) => {
    const frame = plot.getBoundingClientRect();
    const title = label(plot.querySelector('.gtitle')?.textContent) || `figure ${k + 1}`;
    const scrolledOut = (t) => {  // a legend entry scrolled out of its legend's box (Plotly's legend scrolls when
      const bg = t.closest('.legend')?.querySelector('.bg');  // taller than the figure): not seen, and reached by
      if (!bg) return false;  // scrolling the legend
      const shown = bg.getBoundingClientRect(), box = t.getBoundingClientRect();
      return box.bottom < shown.top || box.top > shown.bottom;
    };
    const texts = [...plot.querySelectorAll('svg text')].filter((t) =>
      label(t.textContent) && !t.closest('.hoverlayer') && !hidden(t, plot) && !scrolledOut(t) &&
      getComputedStyle(t).fillOpacity !== '0');
    const boxes = [];
    for (const t of texts) {
      const box = corners(t);
      if (!box) continue;
      const m = t.getScreenCTM(), scale = Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
      const sizes = [t, ...t.querySelectorAll('tspan')].filter((e) => label(e.textContent))
        .map((e) => parseFloat(getComputedStyle(e).fontSize) * scale);
      const size = Math.min(...sizes);
      if (size < smallest - 0.01) add('small', `${title}: '${label(t.textContent)}' at ${size.toFixed(1)} px`);
      const xs = box.map((c) => c[0]), ys = box.map((c) => c[1]);
      if (Math.min(...xs) < frame.left - 2 || Math.max(...xs) > frame.right + 2 ||
          Math.min(...ys) < frame.top - 2 || Math.max(...ys) > frame.bottom + 2)
        add('cut', `${title}: '${label(t.textContent)}' past the figure's edge`);
      boxes.push([t, box]);
    }
    let overlaps = 0, first = '';
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++)
        if (!separated(boxes[i][1], boxes[j][1])) {
          overlaps += 1;
          if (!first) first = `'${label(boxes[i][0].textContent)}' and '${label(boxes[j][0].textContent)}'`;
        }
    if (overlaps) add('overlap', `${title}: ${overlaps} pair(s) of texts overlap, e.g. ${first}`);

    if (frame.width < narrowest - 0.5) add('narrow', `${title}: ${Math.round(frame.width)} px wide`);
    const full = plot._fullLayout || {};
    const multiples = !!(full.meta && full.meta.small_multiples);
    const panels = Object.values(full._plots || {}).map((p) => p.xaxis).filter((x) => x && x._length);
    if (panels.length > 1 || multiples)
      for (const x of panels)
        if (x._length < (multiples ? smallMultiple : narrowest) - 0.5) {
          add('narrow', `${title}: a panel ${Math.round(x._length)} px wide`);
          break;
        }
    for (const t of texts)
      if (new RegExp(layoutNote, 'i').test(label(t.textContent)) && !t.closest('.g-xtitle, .g-ytitle, [class*=g-x], [class*=g-y]'))
        add('title', `${title}: '${label(t.textContent)}' says how the figure is drawn`);
    if (numbersPx && plot.closest(POINT))
      for (const trace of plot._fullData || [])
        if (trace.type === 'heatmap' && trace.visible !== false && trace.z && trace.z.length &&
            trace.z.length <= writtenColumns && trace.z[0].length <= writtenColumns) {
          const written = trace.texttemplate && trace.texttemplate !== '';
          if (!written) add('numbers', `${title}: a ${trace.z.length} × ${trace.z[0].length} matrix without its numbers`);
          else if (trace.textfont.size < numbersPx - 0.01)
            add('numbers', `${title}: cell numbers at ${trace.textfont.size} px`);
        }
    for (const bar of plot.querySelectorAll('.modebar-group')) {  // shown under the mouse only, unless told always
      if (hidden(bar, null)) continue;
      const r = bar.getBoundingClientRect();
      const under = boxes.find(([t, box]) => box.some(([x, y]) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom));
      if (under) add('toolbar', `${title}: the tool bar covers '${label(under[0].textContent)}'`);
    }
    if (phone && !plot.closest(SCROLLS) && (frame.right > innerWidth + 1 || frame.left < -1))
      add('sideways', `${title}: ${Math.round(frame.width)} px wide on a ${innerWidth}-px screen`);
  });

  // --- the page: type size, and text an element cuts ------------------------------------------------------------
  const scrollers = new Set(["stMain", "stAppScrollToBottomContainer", "stAppViewContainer", "stSidebar",
                             "stSidebarContent", "stApp"]);
  for (const el of root.querySelectorAll('*')) {
    if (el.closest('.js-plotly-plot') || el.closest('svg')) continue;
    if (el.closest("[data-testid='stTooltipContent'], .katex-mathml")) continue;  // hidden, for screen readers
    const own = [...el.childNodes].filter((n) => n.nodeType === 3 && label(n.textContent)).map((n) => n.textContent);
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1 || hidden(el, null)) continue;  // visually hidden
    const s = getComputedStyle(el);
    if (own.length && parseFloat(s.fontSize) < smallest - 0.01)
      add('small', `'${label(own.join(' '))}' at ${parseFloat(s.fontSize).toFixed(1)} px`);
    if (scrollers.has(el.dataset.testid) || el.closest(SCROLLS)) continue;  // a box the page
    // says scrolls (a figure longer or wider than the screen), and what it holds
    const text = label(el.innerText || '');
    const grid = el.matches('.dvn-scroller');  // a data table's scrolling box (its cells are drawn on a canvas)
    if (!grid && text.length < 2) {  // a lone symbol (◀, ✕): its font's advance is wider than its ink, so
      if (el.clientWidth < 0.4 * parseFloat(s.fontSize) && el.scrollWidth > el.clientWidth + 1)  // cut if very narrow
        add('cut', `'${text}' has ${el.clientWidth} px of room`);
      continue;
    }
    const cutsX = ['hidden', 'clip', 'auto', 'scroll'].includes(s.overflowX) || s.textOverflow === 'ellipsis';
    const cutsY = ['hidden', 'clip', 'auto', 'scroll'].includes(s.overflowY);
    if (cutsX && el.scrollWidth > el.clientWidth + 1)
      add('cut', `'${text || 'a table'}' is wider than its box (${el.scrollWidth} > ${el.clientWidth} px)`);
    else if (cutsY && el.scrollHeight > el.clientHeight + 2 && el.scrollHeight < 1.5 * el.clientHeight)
      // almost all of it shows: a last row cut in half. A long list (199 parameters) that scrolls is meant to.
      add('cut', `'${text || 'a table'}' is taller than its box (${el.scrollHeight} > ${el.clientHeight} px)`);
  }

  const measure = document.createElement('canvas').getContext('2d');
  for (const input of root.querySelectorAll('input[role=combobox]')) {  // a picker's choice, cut at its box's edge
    if (!input.value || hidden(input, null)) continue;
    const s = getComputedStyle(input);
    measure.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const room = input.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
    if (measure.measureText(input.value).width > room + 1)
      add('cut', `'${label(input.value)}' is wider than its picker (${Math.round(room)} px)`);
  }

  for (const select of root.querySelectorAll('select')) {  // a site's picker: its choice, cut before the arrow
    const chosen = select.selectedOptions[0]?.textContent || '';
    if (!chosen || hidden(select, null)) continue;
    const s = getComputedStyle(select);
    measure.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const room = select.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - SELECT_ARROW_PX;
    if (measure.measureText(chosen).width > room + 1)
      add('cut', `'${label(chosen)}' is wider than its picker (${Math.round(room)} px)`);
  }

  // --- the page's point above the fold ------------------------------------------------------------------------------
  const points = [...root.querySelectorAll(POINT)].filter((p) => !hidden(p, null));
  if (!points.length) add('fold', 'the page declares no point (lecture.point)');
  for (const p of points) {
    const r = p.getBoundingClientRect();
    const name = p.dataset.point || [...p.classList].find((c) => c.startsWith('st-key-point'));
    if (phone ? r.top + Math.min(r.height, shownPx) > fold : r.bottom > fold + 1)
      add('fold', `${name} spans y = ${Math.round(r.top)} to ${Math.round(r.bottom)}, the fold is at ${fold}`);
  }

  // --- a phone: nothing wider than the screen, nothing under the header ---------------------------------------------
  if (phone) {
    const page = document.scrollingElement, main = document.querySelector("[data-testid='stMain']");
    for (const [name, el] of [['the page', page], ['the main column', main]])
      if (el && el.scrollWidth > el.clientWidth + 1)
        add('sideways', `${name} is ${el.scrollWidth} px wide on a ${el.clientWidth}-px screen`);
    const header = document.querySelector("[data-testid='stHeader']");
    const bar = header && !hidden(header, null) ? header.getBoundingClientRect() : null;
    if (bar && bar.height > 1)
      for (const el of root.querySelectorAll('p, h1, h2, h3, span, label, li, code')) {
        if (hidden(el, null) || !label(el.textContent) || el.closest('.js-plotly-plot')) continue;
        const r = el.getBoundingClientRect();
        if (r.width > 1 && r.height > 1 && r.top < bar.bottom - 1 && r.bottom > bar.top) {
          add('header', `'${label(el.textContent)}' lies under the header (y = ${Math.round(r.top)} < ${Math.round(bar.bottom)})`);
          break;
        }
      }
  }

  // --- errors ---------------------------------------------------------------------------------------------------
  for (const e of root.querySelectorAll("[data-testid='stException'], [data-testid='stAlertContentError'], [data-error]"))
    add('error', label(e.innerText));
  return problems;
}
"""


@dataclass(frozen=True)
class Problem:
    kind: str  # overlap, small, cut, fold, narrow, numbers, title, sideways, header, toolbar, error
    what: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.what}"


def settle(page, timeout_ms: int = 180_000) -> None:
    """Wait until the app is idle (twice: a run can be followed at once by another) and its charts are drawn."""
    page.wait_for_selector("[data-testid='stApp']", timeout=timeout_ms)
    for _ in range(2):
        time.sleep(0.3)
        page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']", timeout=timeout_ms)
    page.wait_for_function(  # every chart Streamlit placed, drawn by Plotly (it draws after the run ends)
        "[...document.querySelectorAll(\"[data-testid='stPlotlyChart'], .js-plotly-plot\")]"
        ".every(p => p.querySelector('.main-svg'))", timeout=timeout_ms)
    laid_out(page)


SIZES = ("[...document.querySelectorAll('.main-svg, table')]"
         ".map(e => { const r = e.getBoundingClientRect(); return `${r.width},${r.height}`; }).join(';')")


def laid_out(page, most_s: float = 15.0) -> None:
    """Until every chart and table keeps its size for 0.4 s: Plotly's last layout pass (autosize to the column) and
    web fonts. A fixed 0.4 s was too short on a busy machine, and a phone's figures were measured before they had
    shrunk to its column."""
    last, deadline = None, time.monotonic() + most_s
    while time.monotonic() < deadline:
        time.sleep(0.4)
        now = page.evaluate(SIZES)
        if now == last:
            return
        last = now


def problems(page, phone: bool = False) -> list[Problem]:
    """Every problem on the page as it is now (see the module's docstring): as a projector shows it in lecture mode,
    or as a phone does (`phone`: its fold, no sideways scroll, nothing under the header; numbers are not required
    in cells there, where fewer decimals or none with the value on tap is the better choice)."""
    found = page.evaluate(CHECK, {"fold": PHONE["height"] if phone else FOLD, "smallest": SMALLEST_PX,
                                  "shownPx": POINT_SHOWN_PX, "phone": phone, "numbersPx": 0 if phone else NUMBERS_PX,
                                  "writtenColumns": WRITTEN_COLUMNS, "narrowest": 0 if phone else NARROWEST_PX,
                                  "smallMultiple": SMALL_MULTIPLE_PX, "layoutNote": LAYOUT_NOTE})
    return [Problem(p["kind"], p["what"]) for p in found]
