// The history page (/history): every finished match, newest first, each linking to its replay.
//
// Also the helpers the replay viewer (replay.js) shares with it: the sides of a match and
// their names, the finishing date, and a small DOM builder that puts every server
// text in with textContent (nicknames are user input).
//
// data-testid for browser tests:
//   history-list    the <tbody> holding the rows
//   history-row     one finished match (<tr>), with data-match="<match id>"; it links to /replay/<id>
//   history-empty   the message shown when no match has finished yet
//   history-error   the message shown when the list could not be loaded

import { mountHeader } from "./header.js";
import { applyTexts, t } from "./i18n.js";
import { language } from "./prefs.js";
import { api, levelName, presetName } from "./rooms.js";

// -- helpers shared with replay.js

// An element with attributes and children; strings become text nodes, never markup.
export function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") element.className = value;
    else if (name === "text") element.textContent = value;
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

// The seats of each side: partners sit across (0+2 against 1+3), otherwise one seat a side.
export function sidesOf(players, partnerships) {
  if (partnerships && players === 4) return [[0, 2], [1, 3]];
  return Array.from({ length: players }, (_, seat) => [seat]);
}

export function sideOf(seat, sides) {
  return sides.findIndex((seats) => seats.includes(seat));
}

// A computer seat is named by its level in the reader's language; a person by the nickname.
export function seatName(names, seat, levels = null) {
  const level = levels?.[seat];
  if (typeof level === "string" && level) return t("common.computer", { level: levelName(level) });
  const name = names?.[seat];
  return typeof name === "string" && name ? name : `#${seat + 1}`;
}

export function sideName(names, seats, levels = null) {
  return seats.map((seat) => seatName(names, seat, levels)).join(" & ");
}

// The server's time is UTC; a time without a zone is read as UTC, not as local time.
export function parseUtc(iso) {
  if (typeof iso !== "string" || !iso) return null;
  const zoned = /(Z|[+-]\d\d:?\d\d)$/i.test(iso) ? iso : `${iso}Z`;
  const date = new Date(zoned);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatDate(date, lang = language()) {
  if (!date) return "—";
  try {
    return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(date);
  } catch {
    return date.toISOString().slice(0, 16).replace("T", " ");
  }
}

// The winning side from the final totals: the single highest, else none.
export function leader(totals) {
  if (!Array.isArray(totals) || totals.length === 0) return null;
  const best = Math.max(...totals);
  const at = totals.flatMap((total, side) => (total === best ? [side] : []));
  return at.length === 1 ? at[0] : null;
}

// -- the page

let matches = null; // null while loading; an array once loaded
let failure = null; // the message when loading failed

function row(match) {
  const sides = sidesOf(match.players, match.partnerships);
  const totals = Array.isArray(match.totals) ? match.totals : [];
  const winner = Number.isInteger(match.winner) ? match.winner : null;
  const href = `/replay/${encodeURIComponent(match.id)}`;
  const date = parseUtc(match.finished_at);

  const game = el("td", { class: "game", "data-label": t("common.game") },
    el("span", { class: "preset", text: presetName(match.preset) }));
  const details = [];
  if (match.partnerships) details.push(t("common.partnerships"));
  if (match.number > 1) details.push(t("history.match_number", { number: match.number }));
  if (details.length) game.append(el("span", { class: "details", text: details.join(" · ") }));

  const players = el("span", { class: "sides" });
  sides.forEach((seats, side) => {
    if (side > 0) players.append(el("span", { class: "versus", text: ` ${t("common.versus")} ` }));
    players.append(el("span", { class: side === winner ? "side won" : "side", text: sideName(match.names, seats, match.levels) }));
  });

  const score = el("span", { class: "totals" });
  totals.forEach((total, side) => {
    if (side > 0) score.append(el("span", { class: "dash", text: " – " }));
    score.append(el("span", { class: side === winner ? "won" : null, text: String(total) }));
  });

  const winnerCell = el("td", { class: "winner", "data-label": t("history.col.winner") },
    winner === null || !sides[winner]
      ? el("span", { text: t("history.no_winner") })
      : el("span", { class: "won", text: `★ ${sideName(match.names, sides[winner], match.levels)}` }));

  const tr = el("tr", { "data-testid": "history-row", "data-match": match.id },
    el("td", { class: "date", "data-label": t("history.col.date") },
      el("a", { href, text: formatDate(date), title: date ? date.toLocaleString(language()) : null })),
    game,
    el("td", { class: "players", "data-label": t("common.players") }, players),
    el("td", { class: "score", "data-label": t("history.col.score") }, score),
    winnerCell,
    el("td", { class: "action" },
      el("a", { class: "button primary", href, title: t("history.watch_title", { id: match.id }), text: `▶ ${t("history.watch")}` })));
  // The whole row opens the replay; the links inside keep their own behaviour.
  tr.addEventListener("click", (event) => {
    if (event.target.closest("a")) return;
    window.location.assign(href);
  });
  return tr;
}

function render() {
  document.title = `${t("common.finished_matches")} · Escoba`;
  applyTexts(document.querySelector("main"));
  const loading = document.getElementById("history-loading");
  const empty = document.getElementById("history-empty");
  const error = document.getElementById("history-error");
  const table = document.getElementById("history-table");
  const body = document.getElementById("history-list");
  loading.hidden = matches !== null || failure !== null;
  error.hidden = failure === null;
  if (failure !== null) error.textContent = t("history.error", { message: failure });
  empty.hidden = !(matches && matches.length === 0);
  table.hidden = !(matches && matches.length > 0);
  body.replaceChildren(...(matches ?? []).map(row));
}

async function load() {
  try {
    const data = await api("/api/matches");
    matches = Array.isArray(data?.matches) ? data.matches : [];
  } catch (problem) {
    failure = String(problem?.message ?? problem);
  }
  render();
}

function start() {
  mountHeader(document.getElementById("site-header"));
  window.addEventListener("escoba:prefs", render);
  render();
  load();
}

// Only on the history page itself: replay.js imports the helpers above.
if (document.getElementById("history-list")) start();
