// @ts-check
// The analysis of a finished match on the replay page (/replay/<id>): every move that stood
// valued against the best one the computer finds (POST /api/matches/<id>/analysis; the server
// works it out in the background and this section asks again every two seconds until it is
// done), then the evaluation graph (analysis-chart.js), each player's accuracy and count of
// inaccuracies, mistakes and blunders, and the list of the costly moves, each naming the card
// played and the best one in the reader's deck and language. A mark on the graph, a point of
// it or an entry of the list moves the replay to that move; the costly move the replay is at
// is shown beside the board.
//
// The analysis is asked for by the "Analyse" button, by ?analyse=1 in the address (the
// history page's and the game's "Analyse" links), or on opening a match this browser asked to
// analyse before; a public match's analysis, if any, is shown without asking
// (GET, which never starts one). ?poll=<ms> shortens the wait between two asks (for tests).
//
// data-testid for browser tests:
//   analysis          the section, with data-status="none|queued|running|done|failed"
//   analysis-request  the "Analyse" button (and "Try again" after a failure)
//   analysis-progress "Analysing… 37 / 180 moves"
//   analysis-error    why the analysis could not be asked for or read
//   analysis-player   a player's accuracy and counts (a table row), data-seat; its cells
//                     data-count="inaccuracy|mistake|blunder" and data-accuracy
//   analysis-mistakes the list of costly moves; each entry analysis-mistake, data-step,
//                     data-judgement (a button moving the replay there; aria-current="step"
//                     while the replay is at it)
//   analysis-current  beside the board: the costly move the replay is at (hidden elsewhere)
//   and the graph's own (analysis-chart.js)

import { isCostly, leadChart, moveAt, showStep } from "./analysis-chart.js";
import { isCard } from "./cards.js";
import { cardLabel } from "./game-names.js";
import { el } from "./history.js";
import { t } from "./i18n.js";
import { deckStyle, language } from "./prefs.js";
import { ApiError, api, errorText } from "./rooms.js";

/** @typedef {import("./analysis-chart.js").AnalysedMove} AnalysedMove */
/** @typedef {Protocol.AnalysisView} Analysis the server's answer (POST /api/matches/<id>/analysis) */

/**
 * What the replay tells this section of the match.
 * @typedef {object} Replay
 * @property {string} id the match's
 * @property {() => string[]} tokens the seat tokens this browser holds
 * @property {boolean} public whether anyone may see the match
 * @property {number[][]} sides each side's seats
 * @property {(seat: number) => string} seatName
 * @property {(side: number) => string} sideName
 * @property {(step: number) => void} go moves the replay to a step
 */

const POLL = 2000; // ms between two asks while the analysis is being worked out
const ASKED = "escoba.analysed"; // this browser's matches asked to be analysed (localStorage)
const CLASSES = /** @type {const} */ (["inaccuracy", "mistake", "blunder"]);
const SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" }; // as a chess annotator marks them
const COLUMNS = { inaccuracy: "analysis.col.inaccuracies", mistake: "analysis.col.mistakes", blunder: "analysis.col.blunders" };

const view = {
  /** @type {Replay | null} */
  replay: null,
  /** @type {Analysis | null} */
  data: null,
  /** @type {string | null} the reason the last ask failed */
  error: null,
  asking: false,
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  timer: undefined,
  step: 0,
  width: 0,
  /** @type {Element | null} */
  graph: null,
};

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

function pollDelay() {
  const asked = Number(new URLSearchParams(window.location.search).get("poll"));
  return Number.isFinite(asked) && asked >= 20 ? Math.min(asked, 60_000) : POLL;
}

function askedBefore() {
  try {
    const kept = JSON.parse(localStorage.getItem(ASKED) ?? "[]");
    return Array.isArray(kept) && kept.includes(view.replay?.id);
  } catch {
    return false;
  }
}

function rememberAsked() {
  try {
    const kept = JSON.parse(localStorage.getItem(ASKED) ?? "[]");
    const list = Array.isArray(kept) ? kept.filter((id) => id !== view.replay?.id) : [];
    // The newest first, a few hundred at most.
    localStorage.setItem(ASKED, JSON.stringify([view.replay?.id, ...list].slice(0, 300)));
  } catch {
    /* no storage: the match is asked for again with the button */
  }
}

// -- asking the server

/** @param {boolean} request whether to ask for the analysis to be made (else only read it) */
async function fetchAnalysis(request) {
  const replay = view.replay;
  if (!replay) return;
  clearTimeout(view.timer);
  view.asking = true;
  render();
  const lang = language();
  const deck = deckStyle();
  const path = `/api/matches/${encodeURIComponent(replay.id)}/analysis`;
  try {
    /** @type {Analysis} */
    const data = request
      ? await api(path, { method: "POST", body: { tokens: replay.tokens(), language: lang, deck } })
      : await api(`${path}?language=${encodeURIComponent(lang)}&deck=${encodeURIComponent(deck)}`);
    view.data = data;
    view.error = null;
    if (request) rememberAsked();
  } catch (problem) {
    view.error = problem instanceof ApiError ? errorText(problem.code, problem.message) : String(problem);
  }
  view.asking = false;
  const status = view.data?.status;
  // Asked again until it is done (a public match's, read without asking, follows the analysis
  // someone else asked for); a failed ask stops it, and offers to try again.
  if (!view.error && (status === "queued" || status === "running")) {
    view.timer = setTimeout(() => fetchAnalysis(request), pollDelay());
  }
  render();
}

// -- words

// A move's text ("5s:Kc+3d", "3s") in words, the cards named in the reader's deck.
/** @param {string | null | undefined} move */
export function moveWords(move) {
  if (typeof move !== "string" || !move) return "—";
  const [card, taken = ""] = move.split(":");
  const captures = taken.split("+").filter(isCard);
  if (!captures.length) return t("analysis.drop", { card: cardLabel(card) });
  // As the server's texts name a move (escoba.messages.move_name).
  return t("analysis.take", { card: cardLabel(card), cards: captures.map(cardLabel).join(" + ") });
}

/** @param {string} judgement */
function className(judgement) {
  const names = { inaccuracy: t("analysis.inaccuracy"), mistake: t("analysis.mistake"), blunder: t("analysis.blunder") };
  return names[/** @type {keyof typeof names} */ (judgement)] ?? judgement;
}

/** @param {AnalysedMove} move */
function playedWords(move) {
  return t("analysis.played", { who: view.replay?.seatName(move.seat) ?? "", move: moveWords(move.move) });
}

// A costly move in a line: "Mistake ?: Ana played 7♦ taking 5♣; best: 3♠", its mark's title.
/** @param {AnalysedMove} move */
function markTitle(move) {
  const sign = SIGNS[/** @type {keyof typeof SIGNS} */ (move.judgement)] ?? "";
  return `${className(move.judgement)} ${sign} · ${t("common.hand_n", { n: move.hand_number + 1 })} · ${playedWords(move)}; ${t("analysis.best", { move: moveWords(move.best) })}`;
}

/** @param {number | null | undefined} accuracy */
function percent(accuracy) {
  if (typeof accuracy !== "number" || !Number.isFinite(accuracy)) return "—";
  try {
    return new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 0 }).format(accuracy / 100);
  } catch {
    return `${Math.round(accuracy)}%`;
  }
}

// -- drawing

/**
 * A costly move's entry: its class, the hand, the move played, the best one and why.
 * @param {AnalysedMove} move
 * @param {boolean} button whether it moves the replay (the list's) or only tells (beside the board)
 */
function entry(move, button) {
  const sign = SIGNS[/** @type {keyof typeof SIGNS} */ (move.judgement)] ?? "";
  const parts = [
    el("span", { class: "entry-head" },
      el("span", { class: `judgement ${move.judgement}`, text: `${className(move.judgement)} ${sign}` }),
      el("span", { class: "entry-hand", text: t("common.hand_n", { n: move.hand_number + 1 }) })),
    el("span", { class: "entry-played", text: playedWords(move) }),
    el("span", { class: "entry-best", text: t("analysis.best", { move: moveWords(move.best) }) }),
    move.text ? el("span", { class: "entry-text", text: move.text }) : null,
  ];
  if (!button) return el("div", { class: `costly-entry ${move.judgement}` }, ...parts);
  const go = el("button", { type: "button", class: "costly-entry" }, ...parts);
  go.addEventListener("click", () => view.replay?.go(move.step));
  return el("li", {
    class: `costly ${move.judgement}`, "data-testid": "analysis-mistake",
    "data-step": move.step, "data-judgement": move.judgement,
  }, go);
}

/** @param {Analysis} data */
function playersTable(data) {
  const head = el("tr", {},
    el("th", { scope: "col", text: t("analysis.col.player") }),
    el("th", { scope: "col", text: t("analysis.col.accuracy") }),
    // Each class's heading with its mark's shape and sign; a phone shows those alone.
    ...CLASSES.map((judgement) => el("th", { scope: "col", class: `count ${judgement}` },
      el("span", { class: `shape ${judgement}`, "aria-hidden": "true" }),
      el("span", { class: "sign", "aria-hidden": "true", text: SIGNS[judgement] }),
      el("span", { class: "words", text: t(COLUMNS[judgement]) }))));
  const rows = (data.players ?? []).map((player) => {
    const side = view.replay?.sides.findIndex((seats) => seats.includes(player.seat)) ?? 0;
    return el("tr", { "data-testid": "analysis-player", "data-seat": player.seat },
      el("th", { scope: "row", class: `side-${Math.max(0, side)}` },
        el("span", { class: "swatch", "aria-hidden": "true" }), view.replay?.seatName(player.seat) ?? ""),
      el("td", { "data-accuracy": player.accuracy ?? "", text: percent(player.accuracy) }),
      ...CLASSES.map((judgement) => el("td", {
        class: `count ${judgement}`, "data-count": judgement, text: String(player.counts?.[judgement] ?? 0),
      })));
  });
  return el("table", { class: "grid analysis-players" },
    el("caption", { class: "visually-hidden", text: t("analysis.players") }),
    el("thead", {}, head), el("tbody", {}, ...rows));
}

/** @param {Analysis} data */
function doneParts(data) {
  const replay = /** @type {Replay} */ (view.replay);
  const moves = (data.moves ?? []).filter((move) => move && Number.isInteger(move.step));
  const costly = moves.filter((move) => isCostly(move.judgement));
  const parts = [playersTable(data)];
  const twoSides = replay.sides.length === 2 && moves.length > 0 && moves.every((move) => typeof move.lead === "number");
  view.graph = null;
  if (twoSides) {
    view.width = Math.floor($("analysis-body").clientWidth);
    const names = [replay.sideName(0), replay.sideName(1)];
    view.graph = leadChart(moves, {
      width: Math.max(view.width, 260),
      sides: names,
      label: t("analysis.graph_label", { first: names[0], second: names[1], count: costly.length }),
      title: markTitle,
      go: replay.go,
      handName: (n) => t("common.hand_n", { n }),
    });
    parts.push(el("figure", { class: "lead-figure" },
      el("figcaption", { text: t("analysis.graph_caption") }), view.graph,
      el("p", { class: "legend", "aria-hidden": "true" },
        ...CLASSES.map((judgement) => el("span", { class: `key ${judgement}` },
          el("span", { class: `shape ${judgement}` }), className(judgement))))));
  } else if (moves.length) {
    parts.push(el("p", { class: "note", text: t("analysis.no_graph") }));
  }
  parts.push(el("h3", { text: t("analysis.costly") }));
  if (costly.length) {
    parts.push(el("ol", { class: "costly-list", "data-testid": "analysis-mistakes" }, ...costly.map((move) => entry(move, true))));
  } else parts.push(el("p", { class: "note", "data-testid": "analysis-mistakes", text: t("analysis.none_costly") }));
  return parts;
}

function render() {
  const replay = view.replay;
  const section = $("analysis-section");
  if (!replay) {
    section.hidden = true;
    return;
  }
  section.hidden = false;
  const data = view.data;
  const status = data?.status ?? "none";
  section.dataset.status = status;
  /** @type {(Node | null)[]} */
  const parts = [];
  const request = (/** @type {string} */ key) => {
    const button = el("button", { type: "button", class: "primary", "data-testid": "analysis-request", text: t(key) });
    if (view.asking) button.setAttribute("disabled", "");
    button.addEventListener("click", () => fetchAnalysis(true));
    return button;
  };
  if (status === "done" && data) parts.push(...doneParts(data));
  else if (status === "queued" || status === "running") {
    const total = Number.isInteger(data?.total) ? Number(data?.total) : 0;
    const done = Math.min(Number(data?.done ?? 0), total || Infinity);
    const progress = el("progress", { max: total || 1, "aria-hidden": "true" });
    if (total) progress.setAttribute("value", String(done));
    parts.push(el("p", { class: "progress-line", "data-testid": "analysis-progress", role: "status" },
      total ? t("analysis.progress", { done, total }) : t("analysis.waiting")), progress);
  } else if (status === "failed") {
    parts.push(el("p", { class: "error", text: t("analysis.failed") }), request("analysis.retry"));
  } else {
    parts.push(el("p", { class: "note", text: t("analysis.intro") }), request("analysis.request"));
  }
  if (view.error) {
    parts.push(el("p", { class: "error", role: "alert", "data-testid": "analysis-error", text: t("analysis.load_error", { message: view.error }) }));
    if (status === "queued" || status === "running") parts.push(request("analysis.retry"));
  }
  $("analysis-body").replaceChildren(...parts.filter((part) => part !== null));
  showAt(view.step);
}

// Where the replay is: the graph's line there, the list's entry of that move marked, and the
// costly move's entry beside the board.
/** @param {number} step */
function showAt(step) {
  const moves = view.data?.status === "done" ? (view.data.moves ?? []) : [];
  const here = moveAt(moves, step);
  if (view.graph) showStep(view.graph, here);
  for (const item of document.querySelectorAll("[data-testid=analysis-mistake]")) {
    const current = here !== null && item.getAttribute("data-step") === String(here.step) && here.step === step;
    item.classList.toggle("current", current);
    const button = item.querySelector("button");
    if (current) button?.setAttribute("aria-current", "step");
    else button?.removeAttribute("aria-current");
  }
  const panel = $("analysis-current");
  const costly = here !== null && here.step === step && isCostly(here.judgement) ? here : null;
  panel.hidden = !costly;
  if (costly) {
    panel.dataset.step = String(costly.step);
    panel.replaceChildren(el("h2", { text: t("analysis.this_move") }), entry(costly, false));
  } else panel.replaceChildren();
}

// -- what the replay calls

/**
 * The replay is shown: start the section for its match.
 * @param {Replay} replay
 * @param {number} step where the replay is
 */
export function setUpAnalysis(replay, step) {
  view.replay = replay;
  view.step = step;
  const wanted = new URLSearchParams(window.location.search).get("analyse") === "1";
  render();
  if (wanted || askedBefore()) fetchAnalysis(true);
  else if (replay.public) fetchAnalysis(false);
  window.addEventListener("escoba:prefs", () => {
    // The moves' texts are the server's, in the language and deck asked for: asked again.
    if (view.data) fetchAnalysis(askedBefore());
    else render();
  });
  new ResizeObserver(() => {
    const width = Math.floor($("analysis-body").clientWidth);
    if (view.graph && width !== view.width) render();
  }).observe($("analysis-body"));
}

/**
 * The replay moved (or was drawn again in another language): follow it.
 * @param {number} step
 */
export function analysisAt(step) {
  view.step = step;
  if (view.replay) showAt(step);
}
