// GENERATED FILE: do not edit by hand. Built from frontend/src (entry src/app_into_view.js) by `npm run build` in
// frontend/ (esbuild, see frontend/build.mjs); edit the modules there and build again. tests/test_frontend.py
// checks that this file is what the modules build to.

// src/announce.js
var announcer = (
  /** @type {HTMLElement | null} */
  null
);
function announce(words2) {
  if (!announcer || !announcer.isConnected) {
    announcer = document.createElement("div");
    announcer.className = "visually-hidden";
    announcer.setAttribute("aria-live", "polite");
    document.body.append(announcer);
  }
  announcer.textContent = words2;
}

// src/app_into_view.js
var LAID_OUT_MS = 400;
function words(part) {
  const copy = (
    /** @type {HTMLElement} */
    part.cloneNode(true)
  );
  copy.querySelectorAll('[aria-hidden="true"]').forEach((icon) => icon.remove());
  return (copy.textContent || "").replace(/\s+/g, " ").trim();
}
function bring({ data }) {
  const look = () => {
    const part = (
      /** @type {HTMLElement | null} */
      document.querySelector(`.st-key-${data.part}`)
    );
    if (!part) return;
    const box = part.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) {
      const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
      part.scrollIntoView({ block: "center", behavior: still ? "auto" : "smooth" });
    }
    announce(words(part));
  };
  const timer = setTimeout(look, LAID_OUT_MS);
  return () => clearTimeout(timer);
}
export {
  bring as default
};
