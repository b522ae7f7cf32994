// GENERATED FILE: do not edit by hand. Built from frontend/src (entry src/app_taps.js) by `npm run build` in
// frontend/ (esbuild, see frontend/build.mjs); edit the modules there and build again. tests/test_frontend.py
// checks that this file is what the modules build to.

// src/app_taps.js
function byFinger(event) {
  return !!event && (String(event.type).startsWith("touch") || event.pointerType === "touch" || !!(event.sourceCapabilities && event.sourceCapabilities.firesTouchEvents));
}
function heardAs(data) {
  if (typeof data === "string") return data;
  return Array.isArray(data) && data.length === 2 ? data.join(",") : null;
}
function targetOf(chart, row, column) {
  const traces = chart._fullData || [];
  if (traces.some((t) => Array.isArray(t.customdata) && Array.isArray(t.customdata[0]))) return `${row},${column}`;
  const targets = traces.find((t) => Array.isArray(t.customdata) && typeof t.customdata[0] === "string");
  const map = traces.find((t) => t.type === "heatmap");
  if (!targets || !map || !map.z || !map.z[0]) return null;
  const found = targets.customdata[row * map.z[0].length + column];
  return typeof found === "string" ? found : null;
}
function listen({ data, setTriggerValue }) {
  let chart = null;
  let stopped = false;
  const ours = (event) => (
    // the keys' events bubble from whichever figure Streamlit draws now
    /** @type {Chart | null} */
    event.target instanceof Element ? event.target.closest(`.st-key-${data.chart} .js-plotly-plot`) : null
  );
  const heard = (event) => {
    const point = event.points && event.points[0];
    const data2 = point && heardAs(point.customdata);
    if (byFinger(event.event) && data2) setTriggerValue("point", data2);
  };
  const picked = (event) => {
    const figure = ours(event);
    if (!figure) return;
    const { row, column, target: given } = (
      /** @type {CustomEvent} */
      event.detail
    );
    const target = given !== void 0 ? heardAs(given) : targetOf(figure, row, column);
    if (target) setTriggerValue("point", target);
  };
  const closed = (event) => {
    if (ours(event)) setTriggerValue("closed", true);
  };
  const attach = () => {
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
export {
  listen as default
};
