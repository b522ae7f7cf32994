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
  const heard = (event) => {
    const point = event.points && event.points[0];
    const data2 = point && heardAs(point.customdata);
    if (byFinger(event.event) && data2) setTriggerValue("point", data2);
  };
  const picked = (event) => {
    const { row, column } = (
      /** @type {CustomEvent} */
      event.detail
    );
    const target = chart && targetOf(chart, row, column);
    if (target) setTriggerValue("point", target);
  };
  const closed = () => setTriggerValue("closed", true);
  const attach = () => {
    if (stopped) return;
    chart = document.querySelector(`.st-key-${data.chart} .js-plotly-plot`);
    if (chart && typeof chart.on === "function" && !chart.__tapsHeard) {
      chart.__tapsHeard = true;
      chart.on("plotly_click", heard);
      chart.addEventListener("bvl-pick", picked);
      chart.addEventListener("bvl-close", closed);
    } else if (!chart || typeof chart.on !== "function") setTimeout(attach, 200);
  };
  attach();
  return () => {
    stopped = true;
    if (chart && chart.removeListener) {
      chart.removeListener("plotly_click", heard);
      chart.removeEventListener("bvl-pick", picked);
      chart.removeEventListener("bvl-close", closed);
      chart.__tapsHeard = false;
    }
  };
}
export {
  listen as default
};
