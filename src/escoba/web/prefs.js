// The visitor's choices kept in the browser: language and deck style.
// Pages listen for the "escoba:prefs" event on window to redraw when either changes.

export const LANGUAGES = ["en", "de", "es", "it"];
export const DECK_STYLES = ["french", "spanish", "italian"];

const LANGUAGE_KEY = "escoba.language";
const DECK_KEY = "escoba.deck";

function stored(key) {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage can be disabled; fall back to defaults
  }
}

function store(key, value) {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    /* not kept, but the page still switches */
  }
}

export function language() {
  const chosen = stored(LANGUAGE_KEY);
  if (LANGUAGES.includes(chosen)) return chosen;
  const browser = (navigator.language || "en").slice(0, 2).toLowerCase();
  return LANGUAGES.includes(browser) ? browser : "en";
}

export function deckStyle() {
  const chosen = stored(DECK_KEY);
  if (DECK_STYLES.includes(chosen)) return chosen;
  return language() === "es" ? "spanish" : language() === "it" ? "italian" : "french";
}

function changed() {
  document.documentElement.lang = language();
  window.dispatchEvent(new CustomEvent("escoba:prefs", { detail: { language: language(), deck: deckStyle() } }));
}

export function setLanguage(value) {
  if (!LANGUAGES.includes(value)) throw new Error(`unknown language ${value}`);
  store(LANGUAGE_KEY, value);
  changed();
}

export function setDeckStyle(value) {
  if (!DECK_STYLES.includes(value)) throw new Error(`unknown deck style ${value}`);
  store(DECK_KEY, value);
  changed();
}
