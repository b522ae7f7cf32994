// The page's one polite live region (WCAG 4.1.3 Status Messages): what a walked cell, a shortcut's choice or an
// explanation's result line says to a screen reader. A module of its own, so that the app's small bundles that only
// speak (app_into_view.js) carry nothing else.

let announcer = /** @type {HTMLElement | null} */ (null);

/**
 * Say `words` to a screen reader, politely (one live region for the page).
 * @param {string} words
 */
export function announce(words) {
  if (!announcer || !announcer.isConnected) {
    announcer = document.createElement("div");
    announcer.className = "visually-hidden";
    announcer.setAttribute("aria-live", "polite");
    document.body.append(announcer);
  }
  announcer.textContent = words;
}
