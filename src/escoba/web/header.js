// The bar at the top of every page: links, and the language and deck-style pickers.

import { DECK_STYLES, LANGUAGES, deckStyle, language, setDeckStyle, setLanguage } from "./prefs.js";
import { applyTexts, t } from "./i18n.js";

export function mountHeader(container) {
  container.classList.add("site-header");
  container.innerHTML = `
    <a class="brand" href="/">escoba</a>
    <nav>
      <a href="/" data-i18n="nav.play"></a>
      <a href="/history" data-i18n="nav.history"></a>
      <a href="/scorepad" data-i18n="nav.scorepad"></a>
    </nav>
    <label class="picker"><span data-i18n="nav.language"></span>
      <select id="language-picker" name="language"></select></label>
    <label class="picker"><span data-i18n="nav.deck"></span>
      <select id="deck-picker" name="deck"></select></label>`;
  const languages = container.querySelector("#language-picker");
  const decks = container.querySelector("#deck-picker");
  const fill = () => {
    languages.innerHTML = LANGUAGES.map((lang) => `<option value="${lang}">${t(`language.${lang}`)}</option>`).join("");
    decks.innerHTML = DECK_STYLES.map((style) => `<option value="${style}">${t(`deck.${style}`)}</option>`).join("");
    languages.value = language();
    decks.value = deckStyle();
    applyTexts(container);
  };
  languages.addEventListener("change", () => setLanguage(languages.value));
  decks.addEventListener("change", () => setDeckStyle(decks.value));
  window.addEventListener("escoba:prefs", fill);
  document.documentElement.lang = language();
  fill();
}
