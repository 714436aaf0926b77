// Page texts in English, German, Spanish and Italian. Each page module registers its own
// texts; t() looks a key up in the chosen language, falling back to English.

import { LANGUAGES, language } from "./prefs.js";

const catalogues = Object.fromEntries(LANGUAGES.map((lang) => [lang, {}]));

export function register(texts) {
  for (const [lang, entries] of Object.entries(texts)) {
    if (!catalogues[lang]) throw new Error(`unknown language ${lang}`);
    Object.assign(catalogues[lang], entries);
  }
}

// t("points", {n: 3}) -> "3 points"; {name} placeholders are filled from params.
export function t(key, params = {}, lang = language()) {
  const template = catalogues[lang][key] ?? catalogues.en[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// The text for key, or null when no language has it (t() would hand back the key itself).
export function known(key, params) {
  const text = t(key, params);
  return text === key ? null : text;
}

// Fill every element marked data-i18n="key" (text) or data-i18n-title / -placeholder / -aria.
export function applyTexts(root = document) {
  for (const element of root.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
  for (const element of root.querySelectorAll("[data-i18n-title]")) element.title = t(element.dataset.i18nTitle);
  for (const element of root.querySelectorAll("[data-i18n-placeholder]")) {
    element.placeholder = t(element.dataset.i18nPlaceholder);
  }
  for (const element of root.querySelectorAll("[data-i18n-aria]")) {
    element.setAttribute("aria-label", t(element.dataset.i18nAria));
  }
}

register({
  en: {
    "nav.play": "Play", "nav.history": "Finished matches", "nav.scorepad": "Score pad",
    "nav.language": "Language", "nav.deck": "Cards",
    "deck.french": "French", "deck.spanish": "Spanish", "deck.italian": "Italian",
    "language.en": "English", "language.de": "Deutsch", "language.es": "Español", "language.it": "Italiano",
  },
  de: {
    "nav.play": "Spielen", "nav.history": "Beendete Partien", "nav.scorepad": "Punkteblock",
    "nav.language": "Sprache", "nav.deck": "Karten",
    "deck.french": "Französisch", "deck.spanish": "Spanisch", "deck.italian": "Italienisch",
  },
  es: {
    "nav.play": "Jugar", "nav.history": "Partidas terminadas", "nav.scorepad": "Hoja de puntos",
    "nav.language": "Idioma", "nav.deck": "Cartas",
    "deck.french": "Francesas", "deck.spanish": "Españolas", "deck.italian": "Italianas",
  },
  it: {
    "nav.play": "Gioca", "nav.history": "Partite finite", "nav.scorepad": "Segnapunti",
    "nav.language": "Lingua", "nav.deck": "Carte",
    "deck.french": "Francesi", "deck.spanish": "Spagnole", "deck.italian": "Italiane",
  },
});
