// @ts-check
// The replay viewer (/replay/<match id>): a finished match position by position, every hand
// face up, with the play that led to each position, the hands' score breakdowns and the result.
//
// The position is kept in the address (#step=12) so a reload or a shared link opens it again.
// Keys: ← → one play, Shift+← → (or Page Up/Down) one hand, Home/End, Space to play/pause.
//
// data-testid for browser tests:
//   replay-first, replay-prev-hand, replay-prev, replay-next, replay-next-hand, replay-last
//                     the step buttons (disabled at either end)
//   replay-step       "step i / n" (1-based; "Schritt", "paso", "passo" in de/es/it)
//   replay-slider     the position slider (1..n)
//   replay-play       autoplay start/pause (data-playing="true" while playing)
//   replay-speed      the autoplay speed (0.5, 1, 2, 4)
//   replay-hand       one seat's panel, with data-seat="<seat>": the name and the cards in hand
//                     (data-dealer, data-to-move and data-played="true" mark it)
//   replay-table      the cards on the table (the played card, when dropped, has class "played")
//   replay-stock      the cards left to deal
//   replay-event      the last play in words, e.g. "Ana plays 7♦ and takes 5♣ 3♦ — sweep!", or
//                     a take back: "Ana takes back 7♦."
//   replay-side       one side's score line, with data-side="<side>"
//   replay-result     the finished hand's score breakdown (hidden unless the position ends a
//                     hand), and at the end of the match the final totals and the winner
//                     (data-final="true"; the winner line has data-testid replay-winner)
//   replay-error      the message when the match is unknown or unfinished, or loading failed
//   analysis, analysis-graph, analysis-mark, analysis-mistake, analysis-current ...
//                     the match's analysis under the replay and beside the board: see
//                     replay-analysis.js and analysis-chart.js

import { isCard } from "./cards.js";
import { cardBack, cardFace, cardLabel } from "./game-names.js";
import { mountHeader } from "./header.js";
import { el, heldTokens, keepReplay, keptReplay, leader, seatName, sideName, sideOf, sidesOf } from "./history.js";
import { applyTexts, t, tn } from "./i18n.js";
import { deckStyle } from "./prefs.js";
import { ApiError, api, rulesName } from "./rooms.js";
import { analysisAt, setUpAnalysis } from "./replay-analysis.js";
import { explainedTable } from "./score-explained.js";

const BASE_DELAY = 1100; // milliseconds a position stays at 1× autoplay
const HAND_END_PAUSE = 3; // a hand's end stays this many times longer, to read its score
const PLAY_ICON = '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M7 4v16l13-8z"/></svg>';
const PAUSE_ICON = '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 4h4v16H6zM14 4h4v16h-4z"/></svg>';

const state = {
  id: null,
  data: null, // the server's replay
  /** @type {Protocol.ReplayStep[]} */
  steps: [],
  sides: [],
  starts: [], // the positions where a hand begins: the first one and each hand's end
  index: 0,
  failure: null, // {code, message} when the replay could not be shown
  timer: null,
  playing: false,
};

const $ = (id) => document.getElementById(id);

// -- reading the server's data

// The match id in the address, and whether it can name a match at all (digits only).
function matchId() {
  const found = /^\/replay\/([^/]*)\/?$/.exec(window.location.pathname);
  let id = found ? found[1] : "";
  try {
    id = decodeURIComponent(id);
  } catch {
    /* keep it as written */
  }
  return { id: id.slice(0, 40), valid: /^\d{1,15}$/.test(id) };
}

function list(value) {
  return Array.isArray(value) ? value : [];
}

function cards(value) {
  return list(value).filter((card) => typeof card === "string");
}

function name(seat) {
  return seatName(state.data?.names, seat, state.data?.levels);
}

// Cards as words in the chosen deck: "7♦ 5♠", "siete de oros, cinco de espadas".
function labels(list) {
  return list.map(cardLabel).join(deckStyle() === "french" ? " " : ", ");
}

// A new hand begins at this position: the first one, or the one after a hand's last play.
function beginsHand(index) {
  if (index === 0) return true;
  return state.steps[index].hand_number !== state.steps[index - 1].hand_number;
}

// -- drawing

function cardElement(card, extra = "") {
  const slot = el("span", { class: `card-slot ${extra}`.trim() });
  // cardFace draws from the card code alone; unknown codes never reach innerHTML.
  if (isCard(card)) slot.innerHTML = cardFace(card);
  else slot.append(el("span", { class: "card-unknown", text: String(card) }));
  return slot;
}

function sideClass(seat) {
  return `side-${Math.max(0, sideOf(seat, state.sides))}`;
}

/** @param {Protocol.ReplayStep} step */
function renderSeats(step) {
  const grid = $("replay-seats");
  for (const old of grid.querySelectorAll(".seat")) old.remove();
  const players = state.data.players;
  const places = { 2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"] }[players]
    ?? Array.from({ length: players }, () => "top");
  const hands = list(step.hands);
  const played = step.event?.kind === "play" ? step.event.seat : null;
  grid.dataset.players = String(players);
  grid.classList.toggle("long-hands", (state.data.rules?.hand_cards ?? 3) > 4);
  for (let seat = 0; seat < players; seat += 1) {
    const hand = cards(hands[seat]);
    const badges = el("span", { class: "badges" });
    if (step.dealer === seat) badges.append(el("span", { class: "badge dealer", text: t("common.dealer") }));
    if (step.to_move === seat) badges.append(el("span", { class: "badge to-move", text: `▶ ${t("replay.to_move")}` }));
    const row = el("div", { class: "hand-cards" });
    if (hand.length) row.append(...hand.map((card) => cardElement(card)));
    else row.append(el("span", { class: "no-cards", text: t("replay.no_cards") }));
    grid.append(el("section", {
      class: `seat ${sideClass(seat)} place-${places[seat]}${played === seat ? " just-played" : ""}`,
      "data-testid": "replay-hand",
      "data-seat": seat,
      "data-dealer": step.dealer === seat ? "true" : null,
      "data-to-move": step.to_move === seat ? "true" : null,
      "data-played": played === seat ? "true" : null,
    }, el("header", {}, el("span", { class: "seat-name", text: name(seat) }), badges), row));
  }
}

/** @param {Protocol.ReplayStep} step */
function renderTable(step) {
  const table = cards(step.table);
  const event = step.event;
  const dropped = event?.kind === "play" && list(event.captures).length === 0 && !beginsHand(state.index) ? event.card : null;
  const box = $("replay-table");
  if (table.length) box.replaceChildren(...table.map((card) => cardElement(card, card === dropped ? "played" : "")));
  else box.replaceChildren(el("p", { class: "table-empty", text: t("common.table_empty") }));

  const stock = $("replay-stock");
  stock.hidden = state.data.deals_per_hand === 1; // dealt all at once (Scopone): never a stock
  const count = Number.isInteger(step.stock_size) ? step.stock_size : 0;
  const pile = el("span", { class: `stock-pile${count ? "" : " empty"}` });
  if (count) pile.innerHTML = cardBack();
  stock.replaceChildren(pile, el("span", { class: "stock-count", text: t("replay.stock", { count }) }));
  stock.title = tn("common.stock_left", count);
}

/** @param {Protocol.ReplayStep} step */
function renderEvent(step) {
  const index = state.index;
  const event = step.event;
  const text = $("replay-event");
  const shown = $("replay-event-cards");
  const notes = [];
  shown.replaceChildren();
  if (event?.kind === "play") {
    const taken = cards(event.captures);
    const who = name(event.seat);
    const params = { who, card: cardLabel(event.card), cards: labels(taken) };
    const key = taken.length ? (event.sweep ? "replay.event.take_sweep" : "replay.event.take") : "replay.event.drop";
    text.textContent = t(key, params);
    text.className = `event-text ${sideClass(event.seat)}${event.sweep ? " sweep" : ""}`;
    shown.append(cardElement(event.card, "played"));
    if (taken.length) {
      shown.append(el("span", { class: "arrow", "aria-hidden": "true", text: "→" }));
      shown.append(...taken.map((card) => cardElement(card, "taken")));
    }
    if (beginsHand(index) && index < state.steps.length - 1) {
      notes.push(t("replay.event.start", { hand: step.hand_number + 1, dealer: name(step.dealer) }));
    }
  } else if (event?.kind === "take_back") {
    text.textContent = t("replay.event.take_back", { who: name(event.seat), card: cardLabel(event.card) });
    text.className = `event-text taken-back ${sideClass(event.seat)}`;
    shown.append(cardElement(event.card, "taken-back"));
  } else {
    text.textContent = t("replay.event.start", { hand: step.hand_number + 1, dealer: name(step.dealer) });
    text.className = "event-text";
  }
  // Cards taken before anybody played: the dealer's sweep of the first table.
  if (beginsHand(index) && index < state.steps.length - 1) {
    list(step.captured).forEach((pile, side) => {
      const taken = cards(pile);
      if (!taken.length) return;
      const dealerSide = sideOf(step.dealer, state.sides);
      const who = side === dealerSide ? name(step.dealer) : sideName(state.data.names, state.sides[side] ?? [], state.data.levels);
      notes.push(t("replay.event.initial_sweep", { who, cards: labels(taken), sweeps: tn("count.sweeps", list(step.sweeps)[side] ?? 0) }));
    });
  }
  $("replay-notes").replaceChildren(...notes.map((note) => el("li", { text: note })));
}

/** @param {Protocol.ReplayStep} step */
function renderScores(step) {
  const totals = list(step.totals);
  const captured = list(step.captured);
  const sweeps = list(step.sweeps);
  const event = step.event;
  const fresh = event?.kind === "play" && !beginsHand(state.index) ? cards(event.captures).length : 0;
  const capturer = fresh ? sideOf(event.seat, state.sides) : -1;
  $("replay-scores").replaceChildren(...state.sides.map((seats, side) => {
    const count = cards(captured[side]).length;
    const gained = side === capturer ? el("span", { class: "gain", text: ` +${fresh + 1}` }) : null;
    return el("li", { class: `side-line side-${side}`, "data-testid": "replay-side", "data-side": side },
      el("span", { class: "swatch", "aria-hidden": "true" }),
      el("span", { class: "side-names", text: sideName(state.data.names, seats, state.data.levels) }),
      el("span", { class: "side-total", text: String(totals[side] ?? 0) }),
      el("span", { class: "side-hand" },
        el("span", { text: tn("count.cards", count) }), gained,
        el("span", { text: ` · ${tn("count.sweeps", sweeps[side] ?? 0)}` })));
  }));
}

function scoreTable(rows, header) {
  const head = el("tr", {}, el("th", { scope: "col", text: header[0] }),
    ...header.slice(1).map((text, side) => el("th", { scope: "col", class: `side-${side}`, text })));
  return el("table", { class: "grid score-table" }, el("thead", {}, head),
    el("tbody", {}, ...rows.map(({ title, values, className }) => el("tr", { class: className ?? null },
      el("th", { scope: "row", text: title }),
      ...values.map((value) => el("td", { text: String(value ?? 0) }))))));
}

function renderResult(step) {
  const panel = $("replay-result");
  // The match's finished hands come once; a step counts how many it has seen end.
  const results = list(state.data.results).slice(0, step.hands_scored ?? 0);
  const last = state.index === state.steps.length - 1;
  if (!step.hand_ended || !results.length) {
    panel.hidden = true;
    panel.replaceChildren();
    delete panel.dataset.final;
    return;
  }
  const result = results[results.length - 1];
  const names = state.sides.map((seats) => sideName(state.data.names, seats, state.data.levels));
  // The same explained score as the game's score pad: each category with its counts.
  const explained = explainedTable(result, { rules: state.data.rules ?? {}, names, seatName: name });
  const totalRow = [{ title: t("replay.result.total"), values: list(step.totals), className: "sum total" }];
  const parts = [el("h2", { text: t("common.hand_over", { n: results.length }) }), explained, scoreTable(totalRow, ["", ...names])];
  if (last) {
    const totals = list(step.totals);
    const winner = Number.isInteger(state.data.winner) ? state.data.winner : leader(totals);
    const score = totals.join(" – ");
    parts.unshift(
      el("h2", { class: "final-title", text: t("replay.final.title") }),
      el("p", { class: "winner-line", "data-testid": "replay-winner" },
        winner === null
          ? t("replay.final.no_winner", { score })
          : `★ ${t("common.winner_score", { name: names[winner], score })}`),
    );
    let running = state.sides.map(() => 0);
    const hands = results.map((hand, number) => {
      running = running.map((total, side) => total + (list(hand.points)[side] ?? 0));
      return { title: String(number + 1), values: list(hand.points).map((points, side) => `${points} (${running[side]})`) };
    });
    parts.push(el("h3", { text: t("replay.final.hands") }), scoreTable(hands, [t("common.hand"), ...names]));
  }
  panel.replaceChildren(...parts);
  panel.dataset.final = last ? "true" : "false";
  panel.hidden = false;
}

function renderControls() {
  const count = state.steps.length;
  const at = state.index;
  $("replay-step").textContent = t("replay.step", { i: at + 1, n: count });
  const slider = /** @type {HTMLInputElement} */ ($("replay-slider"));
  slider.max = String(count);
  slider.value = String(at + 1);
  slider.setAttribute("aria-valuetext", t("replay.step", { i: at + 1, n: count }));
  for (const id of ["replay-first", "replay-prev", "replay-prev-hand"]) /** @type {HTMLButtonElement} */ ($(id)).disabled = at === 0;
  for (const id of ["replay-last", "replay-next", "replay-next-hand"]) /** @type {HTMLButtonElement} */ ($(id)).disabled = at >= count - 1;
  const play = $("replay-play");
  // The icon is our own constant markup; the word goes in as text.
  play.innerHTML = state.playing ? PAUSE_ICON : PLAY_ICON;
  play.append(el("span", { text: state.playing ? t("replay.pause") : t("replay.play") }));
  play.dataset.playing = state.playing ? "true" : "false";
}

function renderHead() {
  const data = state.data;
  const game = rulesName(data.preset, data.rules);
  $("replay-title").textContent = t("replay.title", { game });
  const sides = state.sides.map((seats) => sideName(data.names, seats, data.levels)).join(` ${t("common.versus")} `);
  const details = [sides, t("replay.match", { id: data.match ?? state.id })];
  if (data.partnerships) details.push(t("common.partnerships"));
  if (Number.isInteger(data.rules?.target_score)) details.push(t("replay.target", { points: tn("count.points", data.rules.target_score) }));
  $("replay-about").textContent = details.join(" · ");
  document.title = `${t("replay.title", { game })} · Escoba`;
}

function render() {
  applyTexts(document.querySelector("main"));
  const loading = $("replay-loading");
  const failure = $("replay-failure");
  const view = $("replay-view");
  if (state.failure) {
    loading.hidden = true;
    view.hidden = true;
    failure.hidden = false;
    const { code, message } = state.failure;
    $("replay-error").textContent =
      code === "not_found" ? t("replay.not_found", { id: state.id ?? "?" })
        : code === "empty" ? t("replay.empty")
          : t("replay.load_error", { message });
    document.title = `${t("replay.page_title")} · Escoba`;
    return;
  }
  if (!state.data) {
    loading.hidden = false;
    document.title = `${t("replay.page_title")} · Escoba`;
    return;
  }
  loading.hidden = true;
  failure.hidden = true;
  view.hidden = false;
  const step = state.steps[state.index];
  renderHead();
  renderControls();
  const status = [t("common.hand_n", { n: step.hand_number + 1 })];
  status.push(`${t("common.dealer")}: ${name(step.dealer)}`);
  $("replay-status").textContent = status.join(" · ");
  renderSeats(step);
  renderTable(step);
  renderEvent(step);
  renderScores(step);
  renderResult(step);
  analysisAt(state.index);
}

// -- moving through the match

function go(index, { keepPlaying = false } = {}) {
  const target = Math.max(0, Math.min(state.steps.length - 1, index));
  if (!keepPlaying) stop();
  state.index = target;
  const hash = `#step=${target + 1}`;
  if (window.location.hash !== hash) window.history.replaceState(null, "", hash);
  render();
}

function nextHandStart() {
  return state.starts.find((start) => start > state.index) ?? state.steps.length - 1;
}

function previousHandStart() {
  const before = state.starts.filter((start) => start < state.index);
  return before.length ? before[before.length - 1] : 0;
}

function speed() {
  const value = Number(/** @type {HTMLSelectElement} */ ($("replay-speed")).value);
  return Number.isFinite(value) && value > 0 ? value : 1;
}

function schedule() {
  clearTimeout(state.timer);
  if (!state.playing) return;
  const step = state.steps[state.index];
  const delay = (BASE_DELAY / speed()) * (step.hand_ended ? HAND_END_PAUSE : 1);
  state.timer = setTimeout(() => {
    if (!state.playing) return;
    if (state.index >= state.steps.length - 1) {
      stop();
      renderControls();
      return;
    }
    go(state.index + 1, { keepPlaying: true });
    if (state.index >= state.steps.length - 1) {
      stop();
      renderControls();
    } else schedule();
  }, delay);
}

function stop() {
  state.playing = false;
  clearTimeout(state.timer);
  state.timer = null;
}

function togglePlay() {
  if (state.playing) {
    stop();
    renderControls();
    return;
  }
  if (state.index >= state.steps.length - 1) go(0);
  state.playing = true;
  renderControls();
  schedule();
}

function onKey(event) {
  if (!state.data || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && target.closest("input, select, textarea, [contenteditable]")) return;
  const moves = {
    ArrowRight: () => (event.shiftKey ? nextHandStart() : state.index + 1),
    ArrowLeft: () => (event.shiftKey ? previousHandStart() : state.index - 1),
    PageDown: nextHandStart,
    PageUp: previousHandStart,
    Home: () => 0,
    End: () => state.steps.length - 1,
  };
  if (moves[event.key]) {
    event.preventDefault();
    go(moves[event.key]());
  } else if ((event.key === " " || event.key === "k") && !(target instanceof HTMLElement && target.closest("button, a"))) {
    event.preventDefault();
    togglePlay();
  }
}

function wire() {
  $("replay-first").addEventListener("click", () => go(0));
  $("replay-prev-hand").addEventListener("click", () => go(previousHandStart()));
  $("replay-prev").addEventListener("click", () => go(state.index - 1));
  $("replay-next").addEventListener("click", () => go(state.index + 1));
  $("replay-next-hand").addEventListener("click", () => go(nextHandStart()));
  $("replay-last").addEventListener("click", () => go(state.steps.length - 1));
  $("replay-slider").addEventListener("input", (event) => go(Number(/** @type {HTMLInputElement} */ (event.target).value) - 1));
  $("replay-play").addEventListener("click", togglePlay);
  $("replay-speed").addEventListener("change", () => schedule());
  document.addEventListener("keydown", onKey);
  window.addEventListener("escoba:prefs", render);
  window.addEventListener("hashchange", () => {
    const asked = state.data ? askedStep() : null;
    if (asked !== null && asked !== state.index) go(asked);
  });
}

// -- loading

function accept(data) {
  const steps = list(data?.steps).filter((step) => step && typeof step === "object");
  if (!steps.length) {
    state.failure = { code: "empty", message: "" };
    return;
  }
  const players = Number.isInteger(data.players) && data.players > 0 ? data.players : list(steps[0].hands).length;
  state.data = { ...data, players, names: list(data.names) };
  state.steps = steps;
  state.sides = sidesOf(players, Boolean(data.partnerships));
  state.starts = steps.flatMap((step, index) => (index === 0 || step.hand_ended ? [index] : []));
  state.index = askedStep() ?? 0;
}

// The position named in the address, #step=12 (1-based), if any.
function askedStep() {
  const asked = /^#step=(\d{1,9})$/.exec(window.location.hash);
  if (!asked) return null;
  return Math.max(0, Math.min(state.steps.length - 1, Number(asked[1]) - 1));
}

async function load() {
  const { id, valid } = matchId();
  state.id = id;
  if (!valid) {
    state.failure = { code: "not_found", message: "" };
    render();
    return;
  }
  try {
    // A match is its players': the seat tokens this browser holds show it (or it is public).
    const data = await api(`/api/matches/${state.id}/replay`, { method: "POST", body: { tokens: heldTokens() } });
    keepReplay(state.id, data);
    accept(data);
  } catch (problem) {
    // The server cannot be reached: the copy kept when this replay was last opened, if any.
    const kept = problem?.code === "network" ? await keptReplay(state.id) : null;
    // api() names a refusal by its error code and an unreachable server "network"
    if (kept) accept(kept);
    else if (problem instanceof ApiError) {
      state.failure = { code: problem.status === 404 ? "not_found" : problem.code, message: problem.message };
    } else state.failure = { code: "network", message: String(problem?.message ?? problem) };
  }
  render();
  if (state.data) startAnalysis();
}

// The analysis of the match, below the replay (replay-analysis.js).
function startAnalysis() {
  const data = state.data;
  setUpAnalysis({
    id: String(data.match ?? state.id),
    tokens: heldTokens,
    public: Boolean(data.public),
    sides: state.sides,
    seatName: name,
    sideName: (side) => sideName(data.names, state.sides[side] ?? [], data.levels),
    go: (step) => go(step),
  }, state.index);
}

mountHeader($("site-header"));
wire();
render();
load();
