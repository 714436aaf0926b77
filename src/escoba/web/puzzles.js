// @ts-check
// Puzzles (puzzles.html): a position where one move is clearly best, from GET /api/puzzles/next
// (the seat to move's view only: its hand, the table, what each side took, the score, its legal
// moves). The player picks a hand card, then how to play it (each capture it can make, or
// putting it down): always a second press, so that a slip of the finger is not a wrong answer.
// The try goes to POST /api/puzzles/<id>/attempt, which says whether it was the best move, names
// the answer (highlighted on the board) with why, and the rating change.
//
// Signed in, the account's puzzle rating and streak are the server's (only a puzzle's first try
// counts). Otherwise this browser keeps them in localStorage ("escoba.puzzles": the rating's
// mu and sigma, the rating shown, the streak and the best one) and sends the rating with each
// try. The puzzles seen this session are not given again (sessionStorage).
//
// data-testid for browser tests:
//   puzzle-standing    "Puzzle rating 1500 · Streak 0"
//   puzzle, puzzle-title, puzzle-facts, puzzle-taken, puzzle-task
//                      the puzzle: data-id on puzzle; its theme's title; game, difficulty,
//                      score and stock; what each side took this hand
//   table-cards        the table; each card data-testid="table-card", data-card
//   hand-cards         the hand; buttons data-testid="hand-card", data-card, aria-pressed
//   choices            the chosen card's ways to be played; buttons data-testid="move-choice",
//                      data-move (the engine's text, "7d:3s+4h")
//   outcome, verdict   after a try: verdict data-solved="true" | "false"; answer, explanation,
//                      rating-change, streak. The answer's cards get class "answer" (and
//                      data-answer="true"), a wrong try's class "tried"
//   next-puzzle        another puzzle
//   puzzle-error       the puzzle could not be loaded or the try not sent

import { currentAccount, accountState } from "./account-state.js";
import { cardName, cardSvg } from "./cards.js";
import { mountHeader } from "./header.js";
import { applyTexts, t, textLanguage, tn } from "./i18n.js";
import { deckStyle } from "./prefs.js";
import { changeText } from "./ratings.js";
import { api, errorText, presetName } from "./rooms.js";

const LOCAL_KEY = "escoba.puzzles";
const SEEN_KEY = "escoba.puzzles.seen";
const MOST_SEEN = 200; // the server takes up to 500 ids to leave out

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * @typedef {{ mu: number, sigma: number, rating: number, streak: number, best: number }} Local
 * this browser's puzzle standing while not signed in
 */

const page = {
  /** @type {Protocol.PuzzleView | null} */
  view: null,
  /** @type {string | null} the hand card chosen */
  card: null,
  /** @type {Protocol.PuzzleOutcome | null} */
  outcome: null,
  /** @type {string | null} */
  failure: null,
  busy: false,
  asked: 0, // loads are numbered: a slow answer never replaces a later one
};

// -- what this browser keeps

/** @param {Storage | null} store @param {string} key */
function read(store, key) {
  try {
    return store?.getItem(key) ?? null;
  } catch {
    return null; // storage disabled: nothing kept
  }
}

/** @param {Storage | null} store @param {string} key @param {string} value */
function write(store, key, value) {
  try {
    store?.setItem(key, value);
  } catch {
    // storage disabled or full: nothing kept
  }
}

function local() {
  /** @type {Local} */
  const fresh = { mu: 25, sigma: 25 / 3, rating: 1500, streak: 0, best: 0 };
  try {
    const kept = JSON.parse(read(window.localStorage, LOCAL_KEY) ?? "null");
    const numbers = ["mu", "sigma", "rating", "streak", "best"].every((name) => Number.isFinite(kept?.[name]));
    return numbers && kept.sigma > 0 ? /** @type {Local} */ (kept) : fresh;
  } catch {
    return fresh;
  }
}

/** @returns {string[]} */
function seen() {
  try {
    const kept = JSON.parse(read(window.sessionStorage, SEEN_KEY) ?? "[]");
    return Array.isArray(kept) ? kept.filter((id) => typeof id === "string").slice(-MOST_SEEN) : [];
  } catch {
    return [];
  }
}

/** @param {string} id */
function markSeen(id) {
  const ids = seen().filter((other) => other !== id);
  ids.push(id);
  write(window.sessionStorage, SEEN_KEY, JSON.stringify(ids.slice(-MOST_SEEN)));
}

function signedIn() {
  return Boolean(currentAccount()?.account);
}

// -- loading and trying

// A refusal or a network failure in the reader's words (the server's own when it has none).
/** @param {unknown} problem */
function problemText(problem) {
  const { code, message } = /** @type {{ code?: unknown, message?: unknown }} */ (problem ?? {});
  return errorText(typeof code === "string" ? code : "", String(message ?? problem));
}

/** @param {string | null} [id] this puzzle again (in another language), else the next one */
async function load(id = null) {
  const asked = ++page.asked;
  page.failure = null;
  await accountState(); // signed in or not decides whose rating picks the puzzle
  const query = new URLSearchParams({ language: textLanguage() });
  let path;
  if (id) {
    path = `/api/puzzles/${encodeURIComponent(id)}?${query}`;
  } else {
    if (!signedIn()) query.set("rating", String(local().rating));
    const skip = seen();
    if (skip.length) query.set("exclude", skip.join(","));
    path = `/api/puzzles/next?${query}`;
  }
  $("puzzle-loading").hidden = false;
  try {
    /** @type {Protocol.PuzzleView} */
    const view = await api(path);
    if (asked !== page.asked) return;
    const again = page.view?.id === view.id;
    page.view = view;
    if (!again) {
      page.card = null;
      page.outcome = null;
    }
    markSeen(view.id);
  } catch (problem) {
    if (asked !== page.asked) return;
    page.failure = problemText(problem);
  }
  $("puzzle-loading").hidden = true;
  render();
  if (!id && page.view && !page.failure) $("puzzle-title").focus({ preventScroll: true });
}

/** @param {string} move the engine's text */
async function tryMove(move) {
  const view = page.view;
  if (!view || page.outcome || page.busy) return;
  page.busy = true;
  const mine = local();
  const body = {
    move,
    rating: signedIn() ? null : { mu: mine.mu, sigma: mine.sigma },
    language: textLanguage(),
    deck: deckStyle(),
  };
  try {
    /** @type {Protocol.PuzzleOutcome} */
    const outcome = await api(`/api/puzzles/${encodeURIComponent(view.id)}/attempt`, { method: "POST", body });
    if (page.view !== view) return;
    page.outcome = outcome;
    page.failure = null;
    if (outcome.streak === null) {
      const streak = outcome.solved ? mine.streak + 1 : 0;
      write(window.localStorage, LOCAL_KEY, JSON.stringify({
        mu: outcome.rating.mu, sigma: outcome.rating.sigma, rating: outcome.rating_after,
        streak, best: Math.max(mine.best, streak),
      }));
    } else if (view.player) {
      view.player = { ...view.player, rating: outcome.rating_after, value: outcome.rating, streak: outcome.streak };
    }
  } catch (problem) {
    page.failure = problemText(problem);
  } finally {
    page.busy = false;
  }
  page.card = null;
  render();
  $(page.outcome ? "next-puzzle" : "hand-cards").focus({ preventScroll: true });
  $("outcome").scrollIntoView({ block: "nearest" });
}

// -- drawing

/** @param {string} card */
function named(card) {
  return cardName(card, deckStyle(), textLanguage());
}

/** @param {string} card */
function face(card) {
  return cardSvg(card, deckStyle(), { language: textLanguage() });
}

// The cards of the answer, and of a wrong try, to be marked on the board.
function marks() {
  const outcome = page.outcome;
  /** @param {string | null | undefined} text */
  const cards = (text) => {
    if (!text) return { card: null, captures: new Set() };
    const [card, taken] = text.split(":");
    return { card, captures: new Set(taken ? taken.split("+") : []) };
  };
  return {
    answer: cards(outcome?.answer),
    tried: outcome && !outcome.solved ? cards(outcome.move) : cards(null),
  };
}

/** @param {Protocol.PuzzleView} view */
function sideNames(view) {
  const mine = view.sides.findIndex((seats) => seats.includes(view.match.seat ?? -1));
  return view.sides.map((_, side) => {
    if (side === mine) return t("common.you");
    return view.sides.length === 2 ? t("puzzles.opponent") : t("puzzles.side_n", { n: side + 1 });
  });
}

// The sides in the order they are told: the player's own first.
/** @param {Protocol.PuzzleView} view */
function sideOrder(view) {
  const mine = view.sides.findIndex((seats) => seats.includes(view.match.seat ?? -1));
  return view.sides.map((_, side) => side).sort((a, b) => Number(b === mine) - Number(a === mine));
}

/** @param {Protocol.PuzzleView} view */
function facts(view) {
  const names = sideNames(view);
  const score = sideOrder(view).map((side) => `${names[side]} ${view.match.totals[side]}`).join(" · ");
  const parts = [
    presetName(view.preset),
    t("puzzles.difficulty", { rating: view.rating }),
    t("puzzles.score", { score, target: Number(view.rules.target_score ?? 0) || "—" }),
  ];
  if (view.deals_per_hand > 1) parts.push(tn("common.stock_left", view.match.stock_size));
  return parts.join(" · ");
}

/** @param {Protocol.PuzzleView} view */
function taken(view) {
  const names = sideNames(view);
  return sideOrder(view).map((side) => {
    const sweeps = view.match.sweeps[side] ?? 0;
    const counts = [tn("count.cards_taken", view.match.captured[side]?.length ?? 0)];
    if (sweeps) counts.push(tn("count.sweeps", sweeps));
    return `${names[side]}: ${counts.join(", ")}`;
  }).join(" · ");
}

function standing() {
  const player = page.view?.player ?? null;
  if (signedIn() && player) {
    return [t("puzzles.your_rating", { rating: player.rating }), t("puzzles.streak", { count: player.streak })].join(" · ");
  }
  const mine = local();
  return [
    t("puzzles.your_rating", { rating: mine.rating }),
    t("puzzles.streak", { count: mine.streak }),
    t("puzzles.kept_here"),
  ].join(" · ");
}

/** @param {Protocol.PuzzleView} view */
function drawTable(view) {
  const { answer, tried } = marks();
  if (view.match.table.length === 0) {
    $("table-cards").replaceChildren(Object.assign(document.createElement("p"), { className: "empty", textContent: t("common.table_empty") }));
    return;
  }
  $("table-cards").replaceChildren(...view.match.table.map((card) => {
    const item = document.createElement("span");
    item.className = "card-slot";
    item.dataset.testid = "table-card";
    item.dataset.card = card;
    item.innerHTML = face(card); // our own SVG; the card's name is its label
    if (answer.captures.has(card)) {
      item.classList.add("answer");
      item.dataset.answer = "true";
    }
    if (tried.captures.has(card)) item.classList.add("tried");
    return item;
  }));
}

/** @param {Protocol.PuzzleView} view */
function drawHand(view) {
  const { answer, tried } = marks();
  const done = Boolean(page.outcome);
  $("hand-cards").replaceChildren(...view.match.hand.map((card) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "card-button";
    button.dataset.testid = "hand-card";
    button.dataset.card = card;
    button.setAttribute("aria-pressed", String(page.card === card));
    button.innerHTML = face(card);
    button.disabled = done || page.busy;
    if (answer.card === card) {
      button.classList.add("answer");
      button.dataset.answer = "true";
    }
    if (tried.card === card) button.classList.add("tried");
    button.addEventListener("click", () => choose(page.card === card ? null : card));
    return button;
  }));
}

/** @param {Protocol.PuzzleView} view */
function drawChoices(view) {
  const card = page.card;
  const box = $("choices");
  box.hidden = !card || Boolean(page.outcome);
  if (box.hidden || !card) {
    $("choice-buttons").replaceChildren();
    return;
  }
  $("choices-prompt").textContent = t("puzzles.choose", { card: named(card) });
  const moves = view.match.legal.filter((move) => move.card === card);
  const buttons = moves.map((move) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move-choice";
    button.dataset.testid = "move-choice";
    button.dataset.move = move.text;
    button.textContent = move.captures.length
      ? t("puzzles.take", { cards: move.captures.map(named).join(" + ") })
      : t("puzzles.drop");
    button.disabled = page.busy;
    button.addEventListener("click", () => tryMove(move.text));
    return button;
  });
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.className = "cancel";
  cancel.textContent = t("common.cancel");
  cancel.addEventListener("click", () => choose(null));
  $("choice-buttons").replaceChildren(...buttons, cancel);
}

function drawOutcome() {
  const outcome = page.outcome;
  $("outcome").hidden = !outcome;
  if (!outcome) return;
  const verdict = $("verdict");
  verdict.textContent = outcome.solved ? t("puzzles.solved") : t("puzzles.failed");
  verdict.dataset.solved = String(outcome.solved);
  verdict.className = `verdict ${outcome.solved ? "right" : "wrong"}`;
  $("answer").textContent = t("puzzles.answer", { move: outcome.answer_name });
  $("explanation").textContent = outcome.explanation;
  $("rating-change").textContent = outcome.counted
    ? t("puzzles.rating_change", { change: changeText(outcome.rating_before, outcome.rating_after) })
    : t("puzzles.not_counted");
  const streak = outcome.streak ?? local().streak;
  $("streak").textContent = t("puzzles.streak", { count: streak });
  $("streak").dataset.streak = String(streak);
}

function render() {
  applyTexts(document.querySelector("main") ?? document);
  const view = page.view;
  document.title = `${t("puzzles.title")} · Escoba`;
  $("puzzle-standing").textContent = standing();
  $("puzzle-error").hidden = page.failure === null;
  $("puzzle-error").textContent = page.failure === null ? "" : t("puzzles.error", { message: page.failure });
  $("puzzle").hidden = !view;
  if (!view) return;
  $("puzzle").dataset.id = view.id;
  $("puzzle-title").textContent = view.title;
  $("puzzle-facts").textContent = facts(view);
  $("puzzle-taken").textContent = taken(view);
  $("puzzle-task").textContent = page.outcome ? "" : t("puzzles.task");
  drawTable(view);
  drawHand(view);
  drawChoices(view);
  drawOutcome();
}

/** @param {string | null} card */
function choose(card) {
  if (page.outcome) return;
  const before = page.card;
  page.card = card;
  render();
  // The keyboard follows: to the first way of playing the card, or back to the card.
  if (card) /** @type {HTMLElement | null} */ ($("choice-buttons").querySelector("button"))?.focus();
  else if (before) /** @type {HTMLElement | null} */ ($("hand-cards").querySelector(`[data-card="${before}"]`))?.focus();
}

function start() {
  mountHeader($("site-header"));
  $("next-puzzle").addEventListener("click", () => load());
  $("choices").addEventListener("keydown", (event) => {
    if (event.key === "Escape") choose(null);
  });
  // A new language: this puzzle again in its words (a try's answer stays as it was said);
  // a new deck: its cards drawn again.
  window.addEventListener("escoba:prefs", () => {
    if (page.view && !page.outcome) load(page.view.id);
    else render();
  });
  window.addEventListener("escoba:account", () => render());
  render();
  load();
}

start();
