// @ts-check
// The visitor's choices kept in the browser: language, deck style and sound.
// Pages listen for the "escoba:prefs" event on window to redraw when either changes; a new
// language's texts are loaded first (header.js calls i18n.js's useLanguage before setLanguage).

// BCP 47 codes, as the server's catalogues name them (GET /api/texts?language=pt-BR).
/** @type {Language[]} */
export const LANGUAGES = ["en", "de", "es", "it", "fr", "pt-BR"];
export const DECK_STYLES = ["french", "spanish", "italian"];

const LANGUAGE_KEY = "escoba.language";
const DECK_KEY = "escoba.deck";
// The deck of the game last chosen in the lobby (gameDeck below): used until a deck is picked.
const GAME_DECK_KEY = "escoba.deck.game";

/** @param {string} key */
function stored(key) {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage can be disabled; fall back to defaults
  }
}

// What was chosen on this page, for when storage is disabled.
/** @type {{ [key: string]: string }} */
const chosenHere = {};

/**
 * @param {string} key
 * @param {string} value
 */
function store(key, value) {
  chosenHere[key] = value;
  try {
    window.localStorage.setItem(key, value);
  } catch {
    /* not kept, but the page still switches */
  }
}

// The browser's first language we have: "pt-BR" and "pt" (or "pt-PT") give pt-BR, "fr-CA" fr.
/** @returns {Language} */
function browserLanguage() {
  const wanted = navigator.languages?.length ? navigator.languages : [navigator.language || "en"];
  for (const tag of wanted) {
    const lower = String(tag).toLowerCase();
    const exact = LANGUAGES.find((lang) => lang.toLowerCase() === lower);
    if (exact) return exact;
    const base = LANGUAGES.find((lang) => lang.split("-")[0].toLowerCase() === lower.split("-")[0]);
    if (base) return base;
  }
  return "en";
}

/** @returns {Language} */
export function language() {
  const chosen = /** @type {Language | null} */ (chosenHere[LANGUAGE_KEY] ?? stored(LANGUAGE_KEY));
  return chosen !== null && LANGUAGES.includes(chosen) ? chosen : browserLanguage();
}

// The deck picked in the header; else the deck of the game chosen in the lobby; else the
// language's own (Spanish cards for Spanish, Italian for Italian, French otherwise).
export function deckStyle() {
  const chosen = chosenHere[DECK_KEY] ?? stored(DECK_KEY);
  if (DECK_STYLES.includes(chosen)) return chosen;
  const game = chosenHere[GAME_DECK_KEY] ?? stored(GAME_DECK_KEY);
  if (DECK_STYLES.includes(game)) return game;
  return language() === "es" ? "spanish" : language() === "it" ? "italian" : "french";
}

// Whether the visitor picked a deck themselves (then it is kept whatever game is chosen).
export function deckPicked() {
  return DECK_STYLES.includes(chosenHere[DECK_KEY] ?? stored(DECK_KEY));
}

// The deck each game is played with where it is played: Spanish cards for Escoba, Italian
// for Scopa and Scopone, and for Escova the French deck Brazilian players deal (the Escova
// seed of ../shared/RULES.md counts diamonds and calls the 7♦ "sete belo").
/** @type {{ [preset: string]: string }} */
export const GAME_DECKS = {
  escoba: "spanish", "escoba-fournier": "spanish", "escoba-primiera": "spanish", "escoba-classic": "spanish",
  scopa: "italian", "scopone-scientifico": "italian", "scopone-classico": "italian", escova: "french",
};

// A game was chosen: its deck is shown, unless the visitor picked a deck themselves.
/** @param {string} preset */
export function followGame(preset) {
  const style = GAME_DECKS[preset];
  if (!style || deckPicked()) return;
  const before = deckStyle();
  store(GAME_DECK_KEY, style);
  if (deckStyle() !== before) changed();
}

function changed() {
  document.documentElement.lang = language();
  window.dispatchEvent(new CustomEvent("escoba:prefs", { detail: { language: language(), deck: deckStyle() } }));
}

/** @param {string} value */
export function setLanguage(value) {
  if (!LANGUAGES.includes(/** @type {Language} */ (value))) throw new Error(`unknown language ${value}: choose one of ${LANGUAGES.join(", ")}`);
  store(LANGUAGE_KEY, value);
  changed();
}

// Sound effects: off or on as chosen here; before any choice, off for a visitor who asks for
// reduced motion and on for anybody else.
const SOUND_KEY = "escoba.sound";

export function soundMuted() {
  const chosen = chosenHere[SOUND_KEY] ?? stored(SOUND_KEY);
  if (chosen === "on") return false;
  if (chosen === "off") return true;
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

/** @param {boolean} muted */
export function setSoundMuted(muted) {
  store(SOUND_KEY, muted ? "off" : "on");
}

/** @param {string} value */
export function setDeckStyle(value) {
  if (!DECK_STYLES.includes(value)) throw new Error(`unknown deck style ${value}`);
  store(DECK_KEY, value);
  changed();
}
