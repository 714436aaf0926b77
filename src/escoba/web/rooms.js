// @ts-check
// Shared by the lobby (lobby.js), the game screen (game.js) and the history, replay and score
// pad pages: the seat tickets kept in localStorage, JSON requests to the server that turn its
// error bodies into exceptions (and carry the account's CSRF token when they change something),
// and the names of presets, computer levels, rule options, scoring categories and error codes
// in the reader's language.

import { csrfHeaders, currentAccount, refreshAccount } from "./account-state.js";
import { capitalised, known, t } from "./i18n.js";

/**
 * A room's rules: each option's value (GET /api/presets names them).
 * @typedef {{ [option: string]: any }} Rules
 */
/**
 * A seat's ticket kept in this browser: {seat, token, nickname}, when it was stored, and what
 * its room is once known (rememberRoom).
 * @typedef {{ seat: number, token: string, nickname: string, at?: number, about?: any }} Ticket
 */

const TICKET_PREFIX = "escoba.ticket.";
const NICKNAME_KEY = "escoba.nickname";

export const PRESETS = [
  "escoba", "escoba-fournier", "escoba-primiera", "escoba-classic", "scopa", "escova", "scopone-scientifico", "scopone-classico",
];
export const LEVELS = ["beginner", "easy", "medium", "hard"];
export const MAX_NICKNAME = 24;

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: nothing is remembered
  }
}

// The ticket for a room: {seat, token, nickname} (plus `at`, when it was stored), or null.
/**
 * @param {string} room
 * @returns {Ticket | null}
 */
export function loadTicket(room) {
  const raw = storage()?.getItem(TICKET_PREFIX + room);
  if (!raw) return null;
  try {
    const ticket = JSON.parse(raw);
    if (typeof ticket?.token !== "string" || !Number.isInteger(ticket.seat)) return null;
    return ticket;
  } catch {
    return null;
  }
}

/**
 * @param {string} room
 * @param {{ seat: number, token: string, nickname: string }} ticket
 */
export function saveTicket(room, { seat, token, nickname }) {
  storage()?.setItem(TICKET_PREFIX + room, JSON.stringify({ seat, token, nickname, at: Date.now() }));
}

// What a room is, kept with its ticket to name it in "Your rooms" before the server answers:
// {preset, rules, seats: [{seat, kind, level, nickname}]}, as GET /api/rooms/{room} says it.
/**
 * @param {string} room
 * @param {{ preset?: string | null, rules?: Rules | null,
 *   seats?: { seat: number, kind: string, level?: string | null, nickname?: string | null }[] } | null} about
 */
export function rememberRoom(room, about) {
  const ticket = loadTicket(room);
  if (!ticket || !about) return;
  const seats = (Array.isArray(about.seats) ? about.seats : []).map((seat) => ({
    seat: seat.seat, kind: seat.kind, level: seat.level ?? null, nickname: seat.nickname ?? null,
  }));
  const kept = { ...ticket, about: { preset: about.preset ?? null, rules: about.rules ?? null, seats } };
  storage()?.setItem(TICKET_PREFIX + room, JSON.stringify(kept));
}

/** @param {string} room */
export function dropTicket(room) {
  storage()?.removeItem(TICKET_PREFIX + room);
}

// Every stored ticket as {room, seat, token, nickname, at}, the newest first.
/** @returns {(Ticket & { room: string })[]} */
export function allTickets() {
  const store = storage();
  if (!store) return [];
  const tickets = [];
  for (let index = 0; index < store.length; index += 1) {
    const key = store.key(index);
    if (!key?.startsWith(TICKET_PREFIX)) continue;
    const room = key.slice(TICKET_PREFIX.length);
    const ticket = loadTicket(room);
    if (ticket) tickets.push({ room, ...ticket });
  }
  return tickets.sort((a, b) => (b.at ?? 0) - (a.at ?? 0));
}

export function lastNickname() {
  return storage()?.getItem(NICKNAME_KEY) ?? "";
}

// The name to offer next time. Signed in, a person sits under their username, which is not
// kept as the name to use signed out.
/** @param {string} nickname */
export function rememberNickname(nickname) {
  if (currentAccount()?.account) return;
  storage()?.setItem(NICKNAME_KEY, nickname);
}

// A refusal from the server: HTTP status, the error body's code and message.
export class ApiError extends Error {
  /**
   * @param {number} status the HTTP status (0: the server could not be reached)
   * @param {string} code
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const SAFE_METHODS = ["GET", "HEAD", "OPTIONS"];

// A JSON request; a refusal becomes an ApiError. A request that changes something carries the
// signed-in session's CSRF token (account-state.js); refused for a token gone stale (signed in
// or out in another tab), it is sent once more with the token the server holds now.
/**
 * @param {string} path
 * @param {{ method?: string, body?: unknown }} [request]
 * @returns {Promise<any>}
 */
export async function api(path, { method = "GET", body } = {}) {
  const unsafe = !SAFE_METHODS.includes(method.toUpperCase());
  let answer = await send(path, method, body, unsafe ? await csrfHeaders() : {});
  if (unsafe && answer.status === 403 && answer.data?.code === "bad_csrf") {
    await refreshAccount();
    answer = await send(path, method, body, await csrfHeaders());
  }
  const { response, data } = answer;
  if (!response.ok) {
    let message = typeof data?.message === "string" ? data.message : response.statusText;
    if (Array.isArray(data?.detail) && data.detail[0]?.msg) message = String(data.detail[0].msg);
    else if (typeof data?.detail === "string") message = data.detail;
    throw new ApiError(response.status, typeof data?.code === "string" ? data.code : `http_${response.status}`, message);
  }
  return data;
}

/**
 * @param {string} path
 * @param {string} method
 * @param {unknown} body
 * @param {{ [header: string]: string }} extra headers
 */
async function send(path, method, body, extra) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: { ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...extra },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(0, "network", String(/** @type {Error} */ (error)?.message ?? error));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  return { response, status: response.status, data };
}

/** @param {string | null | undefined} preset */
export function presetName(preset) {
  if (!preset) return t("rules.custom");
  return known(`rules.preset.${preset}`) ?? preset;
}

// -- rules named by their preset and what differs from it

// The most changed options a name lists ("Escoba · to 21 · no sevens category · re bello");
// rules further from every preset are "Custom rules".
export const MAX_NAMED_CHANGES = 3;

// Each option's short words, by its value: "to 6", "no re bello" (literal keys, for
// scripts/web_texts.py).
/** @type {{ [option: string]: string }} */
const SHORT_INT = {
  target_score: "rules.short.target_score",
  win_by: "rules.short.win_by",
  hand_cards: "rules.short.hand_cards",
  table_cards: "rules.short.table_cards",
  all_sevens_bonus: "rules.short.all_sevens_bonus",
};
/** @type {{ [option: string]: string }} */
const SHORT_BOOL = {
  forced_capture: "rules.short.forced_capture",
  last_play_sweep_counts: "rules.short.last_play_sweep_counts",
  initial_table_sweeps: "rules.short.initial_table_sweeps",
  kings_redeal: "rules.short.kings_redeal",
  primiera_needs_all_suits: "rules.short.primiera_needs_all_suits",
  all_coins_two: "rules.short.all_coins_two",
  big_wins: "rules.short.big_wins",
  ace_takes_all: "rules.short.ace_takes_all",
  re_bello: "rules.short.re_bello",
  napola: "rules.short.napola",
};

// An option's value in a few words: "to 6", "no re bello", "primiera".
/**
 * @param {string} option
 * @param {unknown} value
 */
export function changeName(option, value) {
  if (option in SHORT_INT) return t(SHORT_INT[option], { n: value });
  if (option in SHORT_BOOL) {
    const words = t(SHORT_BOOL[option]);
    return value ? words : t("rules.short.without", { option: words });
  }
  if (typeof value === "boolean") return value ? optionName(option) : t("rules.short.without", { option: optionName(option) });
  return option === "sevens" || option === "capture" ? choiceName(option, value) : `${optionName(option)} ${value}`;
}

// The preset nearest to a full set of rules (GET /api/presets' "presets"), with the options
// that differ from it: {preset, changes: [[option, value], ...]}; the first of PRESETS wins a tie.
/**
 * @param {Rules} rules
 * @param {{ [preset: string]: Rules }} presets
 * @returns {{ preset: string, changes: [string, unknown][] } | null}
 */
export function nearestPreset(rules, presets) {
  /** @type {{ preset: string, changes: [string, unknown][] } | null} */
  let best = null;
  const names = [...PRESETS.filter((name) => name in presets), ...Object.keys(presets).filter((name) => !PRESETS.includes(name))];
  for (const name of names) {
    const values = presets[name];
    const changes = Object.keys(values).filter((option) => option in rules && rules[option] !== values[option])
      .map((option) => /** @type {[string, unknown]} */ ([option, rules[option]]));
    if (!best || changes.length < best.changes.length) best = { preset: name, changes };
  }
  return best;
}

/** @type {{ [preset: string]: Rules } | null} */
let presetRules = null; // the presets' options, once GET /api/presets answered
// biome-ignore lint/correctness/noUnusedVariables: read by ??= below, so that the presets are asked once
let presetsAsked = null;

// Give the presets' options already fetched (the lobby has them), or fetch them once.
/** @param {unknown} presets */
export function knowPresets(presets) {
  if (presets && typeof presets === "object") presetRules = /** @type {{ [preset: string]: Rules }} */ (presets);
}

function askPresets() {
  presetsAsked ??= api("/api/presets").then(
    (catalogue) => {
      knowPresets(catalogue?.presets);
      // The names of rules off a preset change: pages redraw as for a new language.
      window.dispatchEvent(new CustomEvent("escoba:prefs", { detail: { presets: true } }));
    },
    () => null,
  );
}

// A game's name from its preset (null when the rules equal none) and its full rules: the
// preset's name, or the nearest preset's with what was changed ("Scopa · to 6"), or "Custom
// rules" when more than MAX_NAMED_CHANGES options differ from every preset.
/**
 * @param {string | null | undefined} preset
 * @param {Rules | null | undefined} rules
 */
export function rulesName(preset, rules) {
  if (preset || !rules || typeof rules !== "object") return presetName(preset);
  if (!presetRules) {
    askPresets();
    return presetName(null);
  }
  const nearest = nearestPreset(rules, presetRules);
  if (!nearest || nearest.changes.length > MAX_NAMED_CHANGES) return presetName(null);
  return [presetName(nearest.preset), ...nearest.changes.map(([option, value]) => changeName(option, value))].join(" · ");
}

// A time control in words: "20 s a move + 1:00".
/** @param {Protocol.ClockSpec} clock */
export function clockName(clock) {
  const reserve = Math.round(clock.reserve);
  const spare = `${Math.floor(reserve / 60)}:${String(reserve % 60).padStart(2, "0")}`;
  return t("lobby.clock_words", { per_move: Math.round(clock.per_move), reserve: spare });
}

/** @param {string | null} level */
export function levelName(level) {
  return known(`level.${level}`) ?? String(level);
}

/** @param {string} option */
export function optionName(option) {
  return known(`rules.option.${option}`) ?? option.replaceAll("_", " ");
}

// The name of an option's value: "sum of 15"; the sevens rules by the names the Python side
// gives them too (setenta, most sevens, primiera).
/**
 * @param {string} option
 * @param {unknown} value
 */
export function choiceName(option, value) {
  const key = option === "sevens" ? `cheat.sevens.${value}` : `rules.option.${option}.${value}`;
  return known(key) ?? String(value);
}

// A scoring category's name ("Most cards"), naming these rules' sevens category: "Sevens
// category (setenta)", as the Python side's cheat sheet does.
/**
 * @param {string} category
 * @param {Rules | null} [rules]
 */
export function categoryName(category, rules) {
  if (category === "sevens" && rules?.sevens && rules.sevens !== "none") {
    return capitalised(t("cheat.category.sevens_named", { label: choiceName("sevens", rules.sevens) }));
  }
  return capitalised(known(`cheat.category.${category}`) ?? category.replaceAll("_", " "));
}

// A refusal in the reader's language when its code is known, else the server's own words.
/**
 * @param {string} code
 * @param {string | null} [message] the server's own words
 */
export function errorText(code, message) {
  return known(`error.${code}`) ?? message ?? code;
}

