// @ts-check
// The bar at the top of every page: links, the account's (Sign in, or the signed-in person's
// name, to their profile, and their account's page), and the language and deck-style pickers;
// below it, the notice shown while the server cannot be reached (offline.js, which also
// registers the service worker that lets the pages open without the server).
//
// data-testid for browser tests:
//   nav-account           "Sign in" (to /account), or the signed-in username (to /players/...)
//   nav-account-settings  the signed-in person's account page (hidden while signed out)
//   nav-leaderboard       the leaderboard
//   nav-puzzles           the puzzles

import { accountState, currentAccount } from "./account-state.js";
import { DECK_STYLES, LANGUAGES, deckStyle, language, setDeckStyle, setLanguage } from "./prefs.js";
import { applyTexts, capitalised, t, useLanguage } from "./i18n.js";
import { startOffline } from "./offline.js";

/** @param {HTMLElement} container the page's bar, filled here */
export function mountHeader(container) {
  container.classList.add("site-header");
  // On a phone the links and pickers fold into a menu, so that the bar is one row (base.css).
  container.innerHTML = `
    <a class="brand" href="/">escoba</a>
    <button type="button" class="menu-button" aria-expanded="false" aria-controls="site-menu">
      <span class="menu-icon" aria-hidden="true"></span><span data-i18n="nav.menu"></span></button>
    <div class="site-menu" id="site-menu">
      <nav>
        <a href="/" data-i18n="common.play"></a>
        <a href="/history" data-i18n="common.your_matches"></a>
        <a href="/scorepad" data-i18n="common.scorepad"></a>
        <a href="/learn" data-i18n="learn.link"></a>
        <a href="/leaderboard" data-testid="nav-leaderboard" data-i18n="nav.leaderboard"></a>
        <a href="/puzzles" data-testid="nav-puzzles" data-i18n="nav.puzzles"></a>
        <a href="/account" class="account-link" data-testid="nav-account"></a>
        <a href="/account" class="account-settings" data-testid="nav-account-settings" data-i18n="nav.account" hidden></a>
      </nav>
      <label class="picker"><span data-i18n="nav.language"></span>
        <select id="language-picker" name="language"></select></label>
      <label class="picker"><span data-i18n="nav.deck"></span>
        <select id="deck-picker" name="deck"></select></label>
    </div>`;
  wireMenu(container);
  const languages = /** @type {HTMLSelectElement} */ (container.querySelector("#language-picker"));
  const decks = /** @type {HTMLSelectElement} */ (container.querySelector("#deck-picker"));
  const fill = () => {
    // Texts go in as text, never as markup.
    languages.replaceChildren(...LANGUAGES.map((lang) => new Option(t(`language.${lang}`), lang)));
    decks.replaceChildren(...DECK_STYLES.map((style) => new Option(capitalised(t(`deck.${style}`)), style)));
    languages.value = language();
    decks.value = deckStyle();
    applyTexts(container);
    showAccount(container);
  };
  languages.addEventListener("change", async () => {
    const chosen = languages.value;
    try {
      // The texts first, so that the page redraws at once in the new language.
      if (await useLanguage(chosen)) setLanguage(chosen);
    } catch (error) {
      console.warn(String(/** @type {Error} */ (error)?.message ?? error));
      languages.value = language();
    }
  });
  decks.addEventListener("change", () => setDeckStyle(decks.value));
  window.addEventListener("escoba:prefs", fill);
  window.addEventListener("escoba:account", () => showAccount(container));
  document.documentElement.lang = language();
  fill();
  accountState(); // asked once for the page; showAccount draws it on "escoba:account"
  startOffline(container);
}

// Signed out: "Sign in". Signed in: the username, a link to the profile, and "Account". The
// name goes in as text.
/** @param {HTMLElement} container */
function showAccount(container) {
  const account = currentAccount()?.account ?? null;
  const link = /** @type {HTMLAnchorElement} */ (container.querySelector(".account-link"));
  const settings = /** @type {HTMLAnchorElement} */ (container.querySelector(".account-settings"));
  if (account) {
    link.textContent = account.username;
    link.href = `/players/${encodeURIComponent(account.username)}`;
    link.title = t("nav.profile");
    link.classList.add("signed-in");
  } else {
    link.textContent = t("nav.sign_in");
    link.href = "/account";
    link.removeAttribute("title");
    link.classList.remove("signed-in");
  }
  settings.hidden = !account;
}

// The phone's menu: the button opens and closes it; Escape, or a click or the focus going
// elsewhere, closes it.
/** @param {HTMLElement} container */
function wireMenu(container) {
  const button = /** @type {HTMLButtonElement} */ (container.querySelector(".menu-button"));
  /** @param {boolean} wanted */
  const open = (wanted) => {
    container.classList.toggle("menu-open", wanted);
    button.setAttribute("aria-expanded", String(wanted));
  };
  button.addEventListener("click", () => open(!container.classList.contains("menu-open")));
  container.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !container.classList.contains("menu-open")) return;
    event.stopPropagation();
    open(false);
    button.focus();
  });
  document.addEventListener("click", (event) => {
    if (!container.contains(/** @type {Node | null} */ (event.target))) open(false);
  });
  container.addEventListener("focusout", (event) => {
    if (event.relatedTarget && !container.contains(/** @type {Node} */ (event.relatedTarget))) open(false);
  });
}
