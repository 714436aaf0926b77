// @ts-check
// Page texts from the server's gettext catalogues (GET /api/texts?language=fr: the "web" domain
// and the game words it shares with the Python side). The chosen language's texts are fetched
// once per page load, before any page module runs (this module awaits them at the top level),
// and once more for each language picked later (useLanguage, before the page redraws).
// No text lives in the scripts: a key the catalogue lacks shows as the key itself.

import { LANGUAGES, language } from "./prefs.js";

/**
 * A catalogue's texts by key: a text, or its plural forms by CLDR category.
 * @typedef {{ [key: string]: string | { [form: string]: string } }} Texts
 */
/** @type {Map<string, Promise<Texts>>} */
const fetched = new Map(); // language -> Promise of its texts, kept for switching back
/** @type {Map<string, Intl.PluralRules>} */
const pluralRules = new Map(); // language -> Intl.PluralRules
/** @type {Texts} */
let texts = {};
let shown = "en"; // the language of `texts`
let asked = 0; // choices are numbered: a slow download never overrides a later choice

/**
 * @param {string} lang
 * @returns {Promise<Texts>}
 */
async function download(lang) {
  const response = await fetch(`/api/texts?language=${encodeURIComponent(lang)}`);
  if (!response.ok) throw new Error(`the texts in ${lang} could not be loaded (HTTP ${response.status})`);
  return response.json();
}

/**
 * @param {string} lang
 * @returns {Promise<Texts>}
 */
function textsIn(lang) {
  if (!fetched.has(lang)) {
    // A failed download is forgotten, so that the next choice of this language tries again.
    const pending = download(lang).catch((error) => {
      fetched.delete(lang);
      throw error;
    });
    fetched.set(lang, pending);
  }
  return /** @type {Promise<Texts>} */ (fetched.get(lang));
}

// Load a language's texts and use them from now on (true), unless another language was asked
// for meanwhile (false). Pages redraw afterwards, on prefs' event.
/** @param {string} lang */
export async function useLanguage(lang) {
  if (!LANGUAGES.includes(/** @type {Language} */ (lang))) throw new Error(`unknown language ${lang}: choose one of ${LANGUAGES.join(", ")}`);
  const number = ++asked;
  const loaded = await textsIn(lang);
  if (number !== asked) return false;
  texts = loaded;
  shown = lang;
  return true;
}

// The language the texts are in (the chosen one, unless its texts could not be loaded).
export function textLanguage() {
  return shown;
}

/** @typedef {{ [name: string]: unknown }} Params the values of a text's {name} placeholders */

/**
 * @param {string} template
 * @param {Params} params
 */
function fill(template, params) {
  // One pass over the template: a value that contains "{name}" is never filled in again.
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

function plurals() {
  if (!pluralRules.has(shown)) pluralRules.set(shown, new Intl.PluralRules(shown));
  return /** @type {Intl.PluralRules} */ (pluralRules.get(shown));
}

// t("common.seat_n", {n: 3}) -> "Seat 3"; {name} placeholders are filled from params.
/**
 * @param {string} key
 * @param {Params} [params]
 */
export function t(key, params = {}) {
  const entry = texts[key];
  if (entry === undefined) return fill(key, params);
  return fill(typeof entry === "string" ? entry : entry.other, params);
}

// The form for `count` things: tn("common.stock_left", 1) -> "1 card left in the stock".
// {count} is the count unless params say otherwise. A form the catalogue lacks (CLDR's "many"
// for a million in French, say) is its "other".
/**
 * @param {string} key
 * @param {number} count
 * @param {Params} [params]
 */
export function tn(key, count, params = {}) {
  const entry = texts[key];
  const values = { count, ...params };
  if (entry === undefined) return fill(key, values);
  if (typeof entry === "string") return fill(entry, values);
  return fill(entry[plurals().select(count)] ?? entry.other, values);
}

// The text for key, or null when the catalogue has none (t() would hand back the key itself).
/**
 * @param {string} key
 * @param {Params} [params]
 */
export function known(key, params) {
  return key in texts ? t(key, params) : null;
}

// A text that heads a line, a menu entry or a table row: "most cards" -> "Most cards".
/** @param {string} text */
export function capitalised(text) {
  return text ? text[0].toLocaleUpperCase(shown) + text.slice(1) : text;
}

// Fill every element marked data-i18n="key" (text) or data-i18n-title / -placeholder / -aria.
/** @param {ParentNode} [root] */
export function applyTexts(root = document) {
  /** @param {string} selector */
  const all = (selector) => /** @type {NodeListOf<HTMLInputElement>} */ (root.querySelectorAll(selector));
  for (const element of all("[data-i18n]")) element.textContent = t(/** @type {string} */ (element.dataset.i18n));
  for (const element of all("[data-i18n-title]")) element.title = t(/** @type {string} */ (element.dataset.i18nTitle));
  for (const element of all("[data-i18n-placeholder]")) {
    element.placeholder = t(/** @type {string} */ (element.dataset.i18nPlaceholder));
  }
  for (const element of all("[data-i18n-aria]")) {
    element.setAttribute("aria-label", t(/** @type {string} */ (element.dataset.i18nAria)));
  }
}

// The chosen language's texts before the page draws anything; English if those fail.
try {
  await useLanguage(language());
} catch (error) {
  console.warn(String(/** @type {Error} */ (error)?.message ?? error));
  if (language() !== "en") await useLanguage("en").catch(() => {});
}
