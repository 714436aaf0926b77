// @ts-check
// The installable app, on every page (header.js starts it): registers the service worker
// (/sw.js, which keeps the pages' files so that they open without the server) and tells the
// reader plainly when the server cannot be reached, with a banner under the header. While it
// cannot, every element marked data-needs-server (the lobby's Play button, the history's public
// switches) is disabled, and pages may ask serverReachable() or listen for "escoba:server" on
// window (detail: {reachable}).
//
// data-testid for browser tests:
//   offline-banner   the banner (hidden while the server answers)

import { applyTexts } from "./i18n.js";

const RETRY_MS = 15000; // how often an unreachable server is asked again
let reachable = true;
/** @type {HTMLElement | null} */
let banner = null;
/** @type {number | null} */
let retry = null;
let asking = null;

export function serverReachable() {
  return reachable;
}

function show() {
  document.body?.classList.toggle("offline", !reachable);
  if (banner) banner.hidden = reachable;
  for (const element of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("[data-needs-server]"))) {
    if (!reachable && !element.disabled) {
      element.disabled = true;
      element.dataset.offlineDisabled = "true"; // only what was disabled here comes back
    } else if (reachable && element.dataset.offlineDisabled) {
      element.disabled = false;
      delete element.dataset.offlineDisabled;
    }
  }
}

/** @param {boolean} now whether the server answers */
function set(now) {
  const changed = now !== reachable;
  reachable = now;
  show();
  if (!reachable && retry === null) retry = window.setInterval(ask, RETRY_MS);
  if (reachable && retry !== null) {
    window.clearInterval(retry);
    retry = null;
  }
  if (changed) window.dispatchEvent(new CustomEvent("escoba:server", { detail: { reachable } }));
}

// Ask the server whether it answers (never from a cache). One question at a time.
export function ask() {
  asking ??= fetch("/api/health", { cache: "no-store" })
    // Any answer of the server's own counts (a busy one still answers); a proxy's "bad
    // gateway" or "gateway timeout" means the server behind it is not there.
    .then((response) => response.status !== 502 && response.status !== 504)
    .catch(() => false)
    .then((answered) => {
      asking = null;
      set(answered);
      return answered;
    });
  return asking;
}

// Disable the marked elements of a part drawn after the page started, while offline.
export function markOffline() {
  show();
}

/** @param {HTMLElement} header the page's bar: the banner goes under it */
export function startOffline(header) {
  banner = document.createElement("div");
  banner.className = "offline-banner";
  banner.setAttribute("role", "status");
  banner.dataset.testid = "offline-banner";
  banner.hidden = true;
  banner.innerHTML = `<span data-i18n="common.offline"></span>
    <button type="button" data-i18n="common.offline_retry"></button>`;
  /** @type {HTMLButtonElement} */ (banner.querySelector("button")).addEventListener("click", ask);
  applyTexts(banner);
  header.after(banner);
  window.addEventListener("escoba:prefs", () => applyTexts(/** @type {HTMLElement} */ (banner)));
  window.addEventListener("online", ask);
  window.addEventListener("offline", () => set(false));
  ask();
  // Service workers need a secure context (https, or http on localhost or 127.0.0.1).
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((error) => {
      console.warn(`the pages cannot be kept for offline use: ${error?.message ?? error}`);
    });
  }
}
