// Shared by the lobby (lobby.js), the game screen (game.js) and the history, replay and score
// pad pages: the seat tickets kept in localStorage, JSON requests to the server that turn its
// error bodies into exceptions, and the names of presets, computer levels, rule options,
// scoring categories and error codes in the reader's language.

import { capitalised, known, t } from "./i18n.js";

const TICKET_PREFIX = "escoba.ticket.";
const NICKNAME_KEY = "escoba.nickname";

export const PRESETS = [
  "escoba", "escoba-fournier", "escoba-primiera", "escoba-classic", "scopa", "escova", "scopone-scientifico", "scopone-classico",
];
export const LEVELS = ["beginner", "easy", "medium", "hard", "expert", "master"];
export const MAX_NICKNAME = 24;

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: nothing is remembered
  }
}

// The ticket for a room: {seat, token, nickname} (plus `at`, when it was stored), or null.
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

export function saveTicket(room, { seat, token, nickname }) {
  storage()?.setItem(TICKET_PREFIX + room, JSON.stringify({ seat, token, nickname, at: Date.now() }));
}

export function dropTicket(room) {
  storage()?.removeItem(TICKET_PREFIX + room);
}

// Every stored ticket as {room, seat, token, nickname, at}, the newest first.
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

export function rememberNickname(nickname) {
  storage()?.setItem(NICKNAME_KEY, nickname);
}

// A refusal from the server: HTTP status, the error body's code and message.
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(path, { method = "GET", body } = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(0, "network", String(error?.message ?? error));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    let message = typeof data?.message === "string" ? data.message : response.statusText;
    if (Array.isArray(data?.detail) && data.detail[0]?.msg) message = String(data.detail[0].msg);
    else if (typeof data?.detail === "string") message = data.detail;
    throw new ApiError(response.status, typeof data?.code === "string" ? data.code : `http_${response.status}`, message);
  }
  return data;
}

export function presetName(preset) {
  if (!preset) return t("rules.custom");
  return known(`rules.preset.${preset}`) ?? preset;
}

export function levelName(level) {
  return known(`level.${level}`) ?? String(level);
}

export function optionName(option) {
  return known(`rules.option.${option}`) ?? option.replaceAll("_", " ");
}

// The name of an option's value: "sum of 15"; the sevens rules by the names the Python side
// gives them too (setenta, most sevens, primiera).
export function choiceName(option, value) {
  const key = option === "sevens" ? `cheat.sevens.${value}` : `rules.option.${option}.${value}`;
  return known(key) ?? String(value);
}

// A scoring category's name ("Most cards"), naming these rules' sevens category: "Sevens
// category (setenta)", as the Python side's cheat sheet does.
export function categoryName(category, rules) {
  if (category === "sevens" && rules?.sevens && rules.sevens !== "none") {
    return capitalised(t("cheat.category.sevens_named", { label: choiceName("sevens", rules.sevens) }));
  }
  return capitalised(known(`cheat.category.${category}`) ?? category.replaceAll("_", " "));
}

// A refusal in the reader's language when its code is known, else the server's own words.
export function errorText(code, message) {
  return known(`error.${code}`) ?? message ?? code;
}

