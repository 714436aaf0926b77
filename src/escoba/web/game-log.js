// @ts-check
// The log of the hand and the captured cards, on the game screen (room.html).
//
// The log lists the hand's events in words, newest last: deals, the dealer's initial sweep,
// every play with what it took and its sweep. The server sends the current hand's history
// only, so the page keeps the hand that just ended (its history, its last play and its
// result) to show above the new one, closed by who took the leftovers.
// Each side's pile of captured cards, grouped by suit: this hand's so far (captures are
// made face up), or a finished hand's from its score pad.
//
// data-testid for browser tests:
//   log-button, log-dialog     the "Log" button (key L) and its dialog
//   log-hand                   one hand's section (data-hand: its number, 1 for the first;
//                              data-finished="true" for the hand that just ended)
//   log-entry                  one event in words (data-kind: play, deal, initial_sweep,
//                              redeal, leftovers)
//   piles-button, piles-dialog the button of the captured cards (key P) and its dialog: one
//                              score-explained.js `pile` per side

import { eventText, seatName, sideName, spokenCard } from "./game-names.js";
import { t } from "./i18n.js";
import { leftoversText, pileView } from "./score-explained.js";

const byId = (id) => document.getElementById(id);

let finished = null; // {hand, events, result} of the hand that ended last, seen by this page
let piles = null; // what the piles dialog shows: {index} of a finished hand, or null for now

function openDialog(dialog) {
  if (dialog.open) return;
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
}

function item(text, kind) {
  const entry = document.createElement("li");
  entry.dataset.testid = "log-entry";
  entry.dataset.kind = kind;
  entry.textContent = text;
  return entry;
}

function handSection(number, entries, isFinished) {
  const section = document.createElement("section");
  section.dataset.testid = "log-hand";
  section.dataset.hand = String(number);
  section.dataset.finished = String(isFinished);
  const heading = document.createElement("h3");
  heading.textContent = t("common.hand_n", { n: number });
  const events = document.createElement("ol");
  events.append(...entries);
  if (!entries.length) {
    const none = document.createElement("p");
    none.className = "muted";
    none.textContent = t("game.log_empty");
    section.append(heading, none);
  } else {
    section.append(heading, events);
  }
  return section;
}

// Called with every state the server sends: a hand that ends is kept for the log.
export function noteState(previous, message, state) {
  const { match } = state;
  if (message.hand_ended) {
    const result = match.results[match.results.length - 1];
    // the page saw this hand being played (the match's last hand starts no new one)
    const sameHand = previous && previous.match.results.length === match.results.length - 1;
    const events = sameHand ? [...previous.match.history] : [];
    if (message.event) events.push(message.event);
    finished = { hand: match.results.length, events, result, complete: Boolean(sameHand) };
  } else if (previous?.match.over && !match.over) {
    finished = null; // a rematch: a new match begins
  }
  if (/** @type {HTMLDialogElement} */ (byId("log-dialog")).open) drawLog(state);
  if (/** @type {HTMLDialogElement} */ (byId("piles-dialog")).open && piles === null) drawPiles(state);
}

function drawLog({ room, match }) {
  const me = match.seat;
  const name = (seat) => seatName(room, seat, me);
  const sections = [];
  if (finished && finished.hand === match.results.length) {
    const entries = finished.events.map((event) => item(eventText(event, room, me), event.kind));
    if (!finished.complete) entries.unshift(item("…", "gap"));
    if (finished.result) entries.push(item(`${t("common.leftovers")}: ${leftoversText(finished.result, name)}`, "leftovers"));
    sections.push(handSection(finished.hand, entries, true));
  }
  if (!match.over) {
    const entries = match.history.map((event) => item(eventText(event, room, me), event.kind));
    sections.push(handSection(match.hand_number + 1, entries, false));
  }
  const body = byId("log-body");
  body.replaceChildren(...sections);
  body.scrollTop = body.scrollHeight; // newest last, in view
}

/** @param {TableState} state */
export function showLog(state) {
  if (!state) return;
  byId("log-title").textContent = t("game.log_title");
  drawLog(state);
  openDialog(byId("log-dialog"));
  const body = byId("log-body");
  body.scrollTop = body.scrollHeight;
}

function drawPiles({ room, match }, side = null) {
  const result = piles === null ? null : match.results[piles.index];
  const sections = room.sides.map((_seats, index) => {
    const cards = result ? result.tallies?.[index]?.pile ?? [] : match.captured[index] ?? [];
    return pileView(cards, index, sideName(room, index, match.seat));
  });
  byId("piles-title").textContent = result
    ? `${t("common.piles_title")} · ${t("common.hand_n", { n: piles.index + 1 })}`
    : t("common.piles_title");
  const body = byId("piles-body");
  body.replaceChildren(...sections);
  const wanted = side === null ? null : sections[side];
  if (wanted) {
    wanted.tabIndex = -1;
    wanted.scrollIntoView({ block: "nearest" });
  }
  return wanted;
}

// Each side's captured cards: this hand's so far, or (with `index`) a finished hand's, with
// `side`'s pile brought into view.
export function showPiles(state, { index = null, side = null } = {}) {
  if (!state) return;
  piles = index === null ? null : { index };
  openDialog(byId("piles-dialog"));
  drawPiles(state, side)?.focus({ preventScroll: true });
}

/** @param {TableState} state */
export function redraw(state) {
  if (!state) return;
  if (/** @type {HTMLDialogElement} */ (byId("log-dialog")).open) drawLog(state);
  if (/** @type {HTMLDialogElement} */ (byId("piles-dialog")).open) drawPiles(state);
}

// Who took the cards left on the table at the end of the hand that just ended, in words, with
// the cards' spoken names: for the announcement of its end ("" when none were left).
export function leftoversNote({ room, match }) {
  const result = match.results[match.results.length - 1];
  if (!result?.leftovers?.length) return "";
  const who = (seat) => seatName(room, seat, match.seat);
  return `${t("common.leftovers")}: ${leftoversText(result, who, spokenCard)}`;
}
