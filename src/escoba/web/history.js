// @ts-check
// The history page (/history): "Your matches", the finished matches in which this browser held
// a seat, found by the seat tokens it keeps (rooms.js allTickets), with the statistics of the
// held seats' sides (matches, wins by the opponents met, points, sweeps) and, on each, a switch
// that makes it public; then the matches their players made public. Every row links to its
// replay. The last list of your matches is kept in the browser, and shown while the server
// cannot be reached.
//
// Also the helpers the replay viewer (replay.js) shares with it: the seat tokens to present,
// the sides of a match and their names, the finishing date, and a small DOM builder that puts
// every server text in with textContent (nicknames are user input).
//
// data-testid for browser tests:
//   history-list    the <tbody> holding your matches
//   history-row     one of your matches (<tr>), with data-match="<match id>"; it links to
//                   /replay/<id>
//   history-analyse a row's "Analyse" link: the replay with its analysis (/replay/<id>?analyse=1)
//   history-public  the public switch of one of your matches (a checkbox, in its row)
//   history-stats   the statistics table; each row data-testid="stats-row", with
//                   data-opponents="<level>|people|mixed|all"
//   history-left-out  the note that matches with take backs are not counted in the statistics
//   take-backs      in a row (yours or public) whose match had moves taken back: how many
//   history-empty   the message shown when no match of yours has finished
//   history-saved   the note that the list is the one last seen (the server cannot be reached)
//   history-error   the message shown when your matches could not be loaded, or a switch failed
//   public-list     the <tbody> holding the public matches; each row data-testid="public-row"
//   public-empty    the message shown when no match is public
//   public-error    the message shown when the public matches could not be loaded

import { mountHeader } from "./header.js";
import { applyTexts, t, tn } from "./i18n.js";
import { language } from "./prefs.js";
import { markOffline } from "./offline.js";
import { allTickets, api, levelName, rulesName } from "./rooms.js";

// -- helpers shared with replay.js

const MAX_TOKENS = 256; // the server takes at most this many tokens at once

// The seat tokens this browser holds, the newest first: they show their matches.
export function heldTokens() {
  return allTickets().slice(0, MAX_TOKENS).map((ticket) => ticket.token);
}

// Replays opened in this browser are kept in its Cache Storage, to be read again while the
// server cannot be reached (the service worker's own copies are another cache, of files).
const REPLAYS = "escoba.replays";

function replayKey(id) {
  return `/kept/replay/${encodeURIComponent(id)}`;
}

export async function keepReplay(id, data) {
  try {
    const cache = await window.caches.open(REPLAYS);
    await cache.put(replayKey(id), new Response(JSON.stringify(data), { headers: { "Content-Type": "application/json" } }));
  } catch {
    /* no Cache Storage here (not a secure context, or storage is full): nothing kept */
  }
}

export async function keptReplay(id) {
  try {
    const kept = await (await window.caches.open(REPLAYS)).match(replayKey(id));
    return kept ? await kept.json() : null;
  } catch {
    return null;
  }
}

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

// A computer seat is named by its level in the reader's language ("Computer 2 (easy)", with
// its number among the computer seats when there are several); a person by the nickname.
export function seatName(names, seat, levels = null) {
  const level = levels?.[seat];
  if (typeof level === "string" && level) {
    const computers = (levels ?? []).flatMap((each, index) => (typeof each === "string" && each ? [index] : []));
    if (computers.length < 2) return t("common.computer", { level: levelName(level) });
    return t("common.computer_n", { n: computers.indexOf(seat) + 1, level: levelName(level) });
  }
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

const SAVED_KEY = "escoba.your_matches"; // the last list of your matches, for offline reading

const page = {
  yours: null, // {matches, total, by_opponents} once loaded
  saved: false, // yours is the copy kept in the browser (the server could not be reached)
  failure: null, // why your matches could not be loaded
  publicMatches: null, // the public matches once loaded
  publicFailure: null, // {code, message}: why the public matches could not be loaded
  switchFailure: null, // why a public switch could not be turned
};

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function save(data) {
  try {
    storage()?.setItem(SAVED_KEY, JSON.stringify(data));
  } catch {
    /* full or disabled: nothing kept */
  }
}

function savedCopy() {
  try {
    const data = JSON.parse(storage()?.getItem(SAVED_KEY) ?? "null");
    return Array.isArray(data?.matches) ? data : null;
  } catch {
    return null;
  }
}

/**
 * @param {Protocol.MatchSummary} match
 * @param {number | null} [yourSide]
 */
function sidesCell(match, yourSide = null) {
  const sides = sidesOf(match.players, match.partnerships);
  const winner = Number.isInteger(match.winner) ? match.winner : null;
  const players = el("span", { class: "sides" });
  sides.forEach((seats, side) => {
    if (side > 0) players.append(el("span", { class: "versus", text: ` ${t("common.versus")} ` }));
    const classes = ["side", side === winner ? "won" : "", side === yourSide ? "yours" : ""];
    players.append(el("span", { class: classes.filter(Boolean).join(" "), text: sideName(match.names, seats, match.levels) }));
  });
  return players;
}

/**
 * A finished match's row: one of yours (a YourMatch) or a public one (a MatchSummary).
 * @param {Protocol.MatchSummary & Partial<Protocol.YourMatch>} match
 * @param {{ yours?: boolean }} [how]
 */
function row(match, { yours = false } = {}) {
  const sides = sidesOf(match.players, match.partnerships);
  const totals = Array.isArray(match.totals) ? match.totals : [];
  const winner = Number.isInteger(match.winner) ? match.winner : null;
  const href = `/replay/${encodeURIComponent(match.id)}`;
  const date = parseUtc(match.finished_at);

  const game = el("td", { class: "game", "data-label": t("common.game") },
    el("span", { class: "preset", text: rulesName(match.preset, match.rules) }));
  const details = [];
  if (match.partnerships) details.push(t("common.partnerships"));
  if (match.number > 1) details.push(t("history.match_number", { number: match.number }));
  if (details.length) game.append(el("span", { class: "details", text: details.join(" · ") }));
  // Moves were taken back: a match replayed at will, marked and left out of the statistics.
  if (Number.isInteger(match.take_backs) && match.take_backs > 0) {
    game.append(el("span", {
      class: "take-backs", "data-testid": "take-backs", title: yours ? t("history.take_backs_hint") : null,
      text: `↶ ${tn("history.take_backs", match.take_backs)}`,
    }));
  }

  const score = el("span", { class: "totals" });
  totals.forEach((total, side) => {
    if (side > 0) score.append(el("span", { class: "dash", text: " – " }));
    score.append(el("span", { class: side === winner ? "won" : null, text: String(total) }));
  });

  const winnerCell = el("td", { class: "winner", "data-label": t("history.col.winner") },
    winner === null || !sides[winner]
      ? el("span", { text: t("history.no_winner") })
      : el("span", { class: "won", text: `★ ${sideName(match.names, sides[winner], match.levels)}` }));

  const cells = [
    el("td", { class: "date", "data-label": t("history.col.date") },
      el("a", { href, text: formatDate(date), title: date ? date.toLocaleString(language()) : null })),
    game,
    el("td", { class: "players", "data-label": t("common.players") }, sidesCell(match, yours ? match.side : null)),
    el("td", { class: "score", "data-label": t("history.col.score") }, score),
    winnerCell,
  ];
  if (yours) cells.push(el("td", { class: "public", "data-label": t("history.col.public") }, publicSwitch(/** @type {Protocol.YourMatch} */ (match))));
  // Beside the replay, its analysis: the replay opened asking for it (replay-analysis.js).
  cells.push(el("td", { class: "action" },
    el("a", { class: "button primary", href, title: t("history.watch_title", { id: match.id }), text: `▶ ${t("history.watch")}` }),
    el("a", {
      class: "button", href: `${href}?analyse=1`, "data-testid": "history-analyse",
      title: t("history.analyse_title", { id: match.id }), text: t("history.analyse"),
    })));
  const tr = el("tr", { "data-testid": yours ? "history-row" : "public-row", "data-match": match.id }, ...cells);
  // The whole row opens the replay; the links and the switch inside keep their own behaviour.
  tr.addEventListener("click", (event) => {
    if (event.target.closest("a, label, input, button")) return;
    window.location.assign(href);
  });
  return tr;
}

/** @param {Protocol.YourMatch} match */
function publicSwitch(match) {
  const box = el("input", {
    type: "checkbox",
    "data-testid": "history-public",
    "data-needs-server": true,
    "aria-label": t("history.public_aria", { id: match.id }),
  });
  box.checked = Boolean(match.public);
  box.disabled = page.saved;
  box.addEventListener("change", () => turn(match, box));
  return el("label", { class: "public-switch", title: t("history.public_hint") }, box,
    el("span", { text: t("history.col.public") }));
}

/**
 * @param {Protocol.YourMatch} match
 * @param {HTMLInputElement} box
 */
async function turn(match, box) {
  const wanted = box.checked;
  box.disabled = true;
  try {
    /** @type {Protocol.PublicSwitch} */
    const answer = await api(`/api/matches/${encodeURIComponent(match.id)}/public`, {
      method: "PUT",
      body: { tokens: heldTokens(), public: wanted },
    });
    match.public = Boolean(answer?.public);
    page.switchFailure = null;
    save(page.yours);
    loadPublic();
  } catch (problem) {
    page.switchFailure = String(problem?.message ?? problem);
  }
  box.disabled = false;
  render();
  // The switch lost the focus while it waited (disabled) and was drawn anew: give it back.
  /** @type {HTMLElement | null} */ (document.querySelector(`[data-testid=history-row][data-match="${CSS.escape(String(match.id))}"] [data-testid=history-public]`))?.focus();
}

function opponentsName(kind) {
  if (kind === "all") return t("history.stats.total");
  if (kind === "people") return t("history.stats.people");
  if (kind === "mixed") return t("history.stats.mixed");
  return t("common.computer", { level: levelName(kind) });
}

/** @param {Protocol.MatchTally} line */
function statsRow(line) {
  const kind = line.opponents ?? "all";
  return el("tr", { "data-testid": "stats-row", "data-opponents": kind, class: kind === "all" ? "total" : null },
    el("th", { scope: "row", text: opponentsName(kind) }),
    ...["matches", "wins", "points", "sweeps"].map((name) =>
      el("td", { "data-stat": name, text: String(Number.isInteger(line[name]) ? line[name] : 0) })));
}

// The public switch that has the focus, by its match: the rows are drawn anew, the focus stays.
function focusedSwitch() {
  const focused = document.activeElement;
  if (!focused?.matches?.("[data-testid=history-public]")) return null;
  return /** @type {HTMLElement | null} */ (focused.closest("[data-match]"))?.dataset.match ?? null;
}

function render() {
  const refocus = focusedSwitch();
  document.title = `${t("common.your_matches")} · Escoba`;
  applyTexts(document.querySelector("main"));
  const $ = (id) => document.getElementById(id);
  const yours = page.yours;
  const matches = yours?.matches ?? [];
  $("history-loading").hidden = yours !== null || page.failure !== null;
  const failure = page.switchFailure !== null
    ? t("history.public_error", { message: page.switchFailure })
    : page.failure !== null ? t("history.error", { message: page.failure }) : null;
  $("history-error").hidden = failure === null;
  if (failure !== null) $("history-error").textContent = failure;
  $("history-saved").hidden = !page.saved;
  $("history-empty").hidden = !(yours && matches.length === 0);
  $("history-table").hidden = matches.length === 0;
  $("history-list").replaceChildren(...matches.map((match) => row(match, { yours: true })));
  $("history-stats-section").hidden = matches.length === 0;
  const lines = yours ? [...(yours.by_opponents ?? []), yours.total ?? {}] : [];
  $("history-stats").replaceChildren(...lines.map(statsRow));
  const leftOut = Number.isInteger(yours?.left_out) ? yours.left_out : 0;
  $("history-left-out").hidden = leftOut === 0;
  $("history-left-out").textContent = leftOut ? tn("history.stats.left_out", leftOut) : "";

  const shown = page.publicMatches ?? [];
  $("public-error").hidden = page.publicFailure === null;
  if (page.publicFailure !== null) {
    // Unreachable, the banner says why: here only when the list comes back.
    const { code, message } = page.publicFailure;
    $("public-error").textContent = code === "network" ? t("history.public_offline") : t("history.error", { message });
  }
  $("public-empty").hidden = !(page.publicMatches && shown.length === 0);
  $("public-table").hidden = shown.length === 0;
  $("public-list").replaceChildren(...shown.map((match) => row(match)));
  markOffline();
  if (refocus !== null) {
    /** @type {HTMLElement | null} */ (document.querySelector(`[data-testid=history-row][data-match="${CSS.escape(refocus)}"] [data-testid=history-public]`))?.focus();
  }
}

async function loadYours() {
  try {
    /** @type {Protocol.YourMatches} */
    const data = await api("/api/matches/mine", { method: "POST", body: { tokens: heldTokens() } });
    page.yours = { ...data, matches: Array.isArray(data?.matches) ? data.matches : [] };
    page.saved = false;
    page.failure = null;
    save(page.yours);
  } catch (problem) {
    const copy = problem?.code === "network" ? savedCopy() : null;
    if (copy) {
      page.yours = copy;
      page.saved = true;
    } else page.failure = String(problem?.message ?? problem);
  }
  render();
}

async function loadPublic() {
  try {
    const data = await api("/api/matches");
    page.publicMatches = Array.isArray(data?.matches) ? data.matches : [];
    page.publicFailure = null;
  } catch (problem) {
    page.publicFailure = { code: problem?.code ?? "", message: String(problem?.message ?? problem) };
  }
  render();
}

function start() {
  mountHeader(document.getElementById("site-header"));
  window.addEventListener("escoba:prefs", render);
  // The server is back: show what it holds now.
  window.addEventListener("escoba:server", (event) => {
    if (event.detail?.reachable && (page.saved || page.failure !== null || page.publicFailure !== null)) {
      loadYours();
      loadPublic();
    }
  });
  render();
  loadYours();
  loadPublic();
}

// Only on the history page itself: replay.js imports the helpers above.
if (document.getElementById("history-list")) start();
