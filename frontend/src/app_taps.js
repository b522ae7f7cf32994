// The app's entry for a clickable chart's listener (bundled by build.mjs into app_pages/shell/js/app_taps.js and
// mounted after each such chart by app_pages/shell/taps.py): what picks one of its cells besides a mouse's click,
// which Streamlit hears as a selection.
// - A finger's tap: Plotly makes no selection of it (it emits a click only: plotly.js #6721), so a tapped cell was
//   never explained on a phone. The click a finger made hands on the point's customdata (figures.click_targets'
//   "row,column"; a model view's tile's [layer, head], written "layer,head").
// - Enter and Escape on the walked figure (app_keys.js hands them on as "bvl-pick" and "bvl-close"): the cell's
//   click target's customdata, as a click's (a head view's token's "side,index"), or a tile's "row,column", and the
//   explanation closed.

/**
 * @typedef {HTMLElement & { on?: (name: string, listener: (event: any) => void) => void,
 *   removeListener?: (name: string, listener: (event: any) => void) => void, _fullData?: any[],
 *   __tapsHeard?: boolean }} Chart
 */

/**
 * Whether a Plotly click's browser event was a finger's.
 * @param {any} event
 */
function byFinger(event) {
  return !!event && (String(event.type).startsWith("touch") || event.pointerType === "touch" ||
                     !!(event.sourceCapabilities && event.sourceCapabilities.firesTouchEvents));
}

/**
 * A point's customdata as the app hears it: a string as it is, a tile's [row, column] as "row,column".
 * @param {unknown} data
 * @returns {string | null}
 */
function heardAs(data) {
  if (typeof data === "string") return data;
  return Array.isArray(data) && data.length === 2 ? data.join(",") : null;
}

/**
 * The customdata of cell (row, column)'s click target: the targets lie one per cell, row by row (click_targets);
 * a figure of tiles (the model view) is picked by the tile's own place.
 * @param {Chart} chart
 * @param {number} row
 * @param {number} column
 * @returns {string | null}
 */
function targetOf(chart, row, column) {
  const traces = chart._fullData || [];
  if (traces.some((t) => Array.isArray(t.customdata) && Array.isArray(t.customdata[0]))) return `${row},${column}`;
  const targets = traces.find((t) => Array.isArray(t.customdata) && typeof t.customdata[0] === "string");
  const map = traces.find((t) => t.type === "heatmap");
  if (!targets || !map || !map.z || !map.z[0]) return null;
  const found = targets.customdata[row * map.z[0].length + column];
  return typeof found === "string" ? found : null;
}

/**
 * @param {{ data: { chart: string }, setTriggerValue: (name: string, value: unknown) => void }} component
 */
export default function listen({ data, setTriggerValue }) {
  /** @type {Chart | null} */
  let chart = null;
  let stopped = false;
  const ours = (/** @type {Event} */ event) =>  // the keys' events bubble from whichever figure Streamlit draws now
    /** @type {Chart | null} */ (event.target instanceof Element
      ? event.target.closest(`.st-key-${data.chart} .js-plotly-plot`) : null);
  const heard = (/** @type {any} */ event) => {
    const point = event.points && event.points[0];
    const data = point && heardAs(point.customdata);
    if (byFinger(event.event) && data) setTriggerValue("point", data);
  };
  const picked = (/** @type {Event} */ event) => {
    const figure = ours(event);
    if (!figure) return;
    const { row, column, target: given } = /** @type {CustomEvent} */ (event).detail;
    const target = given !== undefined ? heardAs(given) : targetOf(figure, row, column);
    if (target) setTriggerValue("point", target);
  };
  const closed = (/** @type {Event} */ event) => { if (ours(event)) setTriggerValue("closed", true); };
  const attach = () => {  // the chart is drawn after the run that mounts this: wait for it
    if (stopped) return;
    chart = document.querySelector(`.st-key-${data.chart} .js-plotly-plot`);
    if (chart && typeof chart.on === "function" && !chart.__tapsHeard) {
      chart.__tapsHeard = true;
      chart.on("plotly_click", heard);
    } else if (!chart || typeof chart.on !== "function") setTimeout(attach, 200);
  };
  attach();
  document.addEventListener("bvl-pick", picked);
  document.addEventListener("bvl-close", closed);
  return () => {
    stopped = true;
    document.removeEventListener("bvl-pick", picked);
    document.removeEventListener("bvl-close", closed);
    if (chart && chart.removeListener) {
      chart.removeListener("plotly_click", heard);
      chart.__tapsHeard = false;
    }
  };
}
