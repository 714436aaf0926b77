// Shared by the lobby (lobby.js), the game screen (game.js) and the history, replay and score
// pad pages: the seat tickets kept in localStorage, JSON requests to the server that turn its
// error bodies into exceptions, and the names of presets, computer levels, rule options and
// error codes in the four languages.

import { known, register, t } from "./i18n.js";

const TICKET_PREFIX = "escoba.ticket.";
const NICKNAME_KEY = "escoba.nickname";

export const PRESETS = ["escoba", "escoba-fournier", "escoba-primiera", "escoba-classic", "scopa", "escova"];
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
  if (!preset) return t("game.preset.custom");
  return known(`game.preset.${preset}`) ?? preset;
}

export function levelName(level) {
  return known(`game.level.${level}`) ?? String(level);
}

export function optionName(option) {
  return known(`game.option.${option}`) ?? option.replaceAll("_", " ");
}

export function choiceName(option, value) {
  return known(`game.option.${option}.${value}`) ?? String(value);
}

// A refusal in the reader's language when its code is known, else the server's own words.
export function errorText(code, message) {
  return known(`game.error.${code}`) ?? message ?? code;
}

register({
  en: {
    "game.preset.escoba": "Escoba",
    "game.preset.escoba-fournier": "Escoba (Fournier)",
    "game.preset.escoba-primiera": "Escoba (primiera)",
    "game.preset.escoba-classic": "Escoba (classic)",
    "game.preset.scopa": "Scopa",
    "game.preset.escova": "Escova",
    "game.preset.custom": "Custom rules",
    "game.level.beginner": "beginner",
    "game.level.easy": "easy",
    "game.level.medium": "medium",
    "game.level.hard": "hard",
    "game.level.expert": "expert",
    "game.level.master": "master",
    "game.option.capture": "How a card takes",
    "game.option.capture.sum15": "sum of 15",
    "game.option.capture.match": "same value (or a sum)",
    "game.option.forced_capture": "A card that can take must take",
    "game.option.last_play_sweep_counts": "A sweep with the hand's last card counts",
    "game.option.initial_table_sweeps": "Dealer takes 15 or 30 on the first table",
    "game.option.kings_redeal": "Three kings on the first table: deal again",
    "game.option.sevens": "Sevens category",
    "game.option.sevens.ranking": "setenta",
    "game.option.sevens.sevens": "most sevens",
    "game.option.sevens.primiera": "primiera",
    "game.option.sevens.none": "none",
    "game.option.primiera_needs_all_suits": "Primiera needs all four suits",
    "game.option.all_coins_two": "All ten coins score 2",
    "game.option.all_sevens_bonus": "Bonus for all four sevens",
    "game.option.big_wins": "Big wins (30 cards, all coins, all sevens)",
    "game.option.target_score": "Points to win",
    "game.option.win_by": "Lead needed to win",
    "game.error.not_your_turn": "It is not your turn.",
    "game.error.illegal_move": "That move is not allowed.",
    "game.error.bad_message": "The server did not understand that.",
    "game.error.not_joined": "You have not taken a seat in this room.",
    "game.error.bad_token": "Your seat ticket is no longer valid.",
    "game.error.match_over": "The match is over.",
    "game.error.match_not_over": "The match is not over yet.",
    "game.error.room_full": "Every seat for a person is taken.",
    "game.error.network": "The server cannot be reached.",
  },
  de: {
    "game.preset.escoba-fournier": "Escoba (Fournier)",
    "game.preset.escoba-primiera": "Escoba (Primiera)",
    "game.preset.escoba-classic": "Escoba (klassisch)",
    "game.preset.custom": "Eigene Regeln",
    "game.level.beginner": "Anfänger",
    "game.level.easy": "leicht",
    "game.level.medium": "mittel",
    "game.level.hard": "schwer",
    "game.level.expert": "Experte",
    "game.level.master": "Meister",
    "game.option.capture": "Wie eine Karte sticht",
    "game.option.capture.sum15": "Summe 15",
    "game.option.capture.match": "gleicher Wert (oder Summe)",
    "game.option.forced_capture": "Wer stechen kann, muss stechen",
    "game.option.last_play_sweep_counts": "Abräumer mit der letzten Karte zählt",
    "game.option.initial_table_sweeps": "Geber nimmt 15 oder 30 vom ersten Tisch",
    "game.option.kings_redeal": "Drei Könige auf dem ersten Tisch: neu geben",
    "game.option.sevens": "Siebener-Wertung",
    "game.option.sevens.ranking": "Setenta",
    "game.option.sevens.sevens": "meiste Siebenen",
    "game.option.sevens.primiera": "Primiera",
    "game.option.sevens.none": "keine",
    "game.option.primiera_needs_all_suits": "Primiera braucht alle vier Farben",
    "game.option.all_coins_two": "Alle zehn Karo zählen 2",
    "game.option.all_sevens_bonus": "Bonus für alle vier Siebenen",
    "game.option.big_wins": "Große Siege (30 Karten, alle Karo, alle Siebenen)",
    "game.option.target_score": "Punkte zum Sieg",
    "game.option.win_by": "Nötiger Vorsprung",
    "game.error.not_your_turn": "Du bist nicht am Zug.",
    "game.error.illegal_move": "Dieser Zug ist nicht erlaubt.",
    "game.error.bad_message": "Der Server hat das nicht verstanden.",
    "game.error.not_joined": "Du sitzt nicht an diesem Tisch.",
    "game.error.bad_token": "Dein Platz-Ticket gilt nicht mehr.",
    "game.error.match_over": "Die Partie ist vorbei.",
    "game.error.match_not_over": "Die Partie ist noch nicht vorbei.",
    "game.error.room_full": "Alle Plätze für Personen sind besetzt.",
    "game.error.network": "Der Server ist nicht erreichbar.",
  },
  es: {
    "game.preset.escoba-primiera": "Escoba (primiera)",
    "game.preset.escoba-classic": "Escoba (clásica)",
    "game.preset.custom": "Reglas propias",
    "game.level.beginner": "principiante",
    "game.level.easy": "fácil",
    "game.level.medium": "medio",
    "game.level.hard": "difícil",
    "game.level.expert": "experto",
    "game.level.master": "maestro",
    "game.option.capture": "Cómo se lleva una carta",
    "game.option.capture.sum15": "suma de 15",
    "game.option.capture.match": "mismo valor (o suma)",
    "game.option.forced_capture": "Quien puede llevarse, debe hacerlo",
    "game.option.last_play_sweep_counts": "La escoba con la última carta cuenta",
    "game.option.initial_table_sweeps": "El que reparte se lleva 15 o 30 de la mesa inicial",
    "game.option.kings_redeal": "Tres reyes en la mesa inicial: repartir de nuevo",
    "game.option.sevens": "Categoría de sietes",
    "game.option.sevens.ranking": "setenta",
    "game.option.sevens.sevens": "más sietes",
    "game.option.sevens.primiera": "primiera",
    "game.option.sevens.none": "ninguna",
    "game.option.primiera_needs_all_suits": "La primiera necesita los cuatro palos",
    "game.option.all_coins_two": "Los diez oros valen 2",
    "game.option.all_sevens_bonus": "Premio por los cuatro sietes",
    "game.option.big_wins": "Grandes victorias (30 cartas, todos los oros, todos los sietes)",
    "game.option.target_score": "Puntos para ganar",
    "game.option.win_by": "Ventaja necesaria",
    "game.error.not_your_turn": "No es tu turno.",
    "game.error.illegal_move": "Esa jugada no está permitida.",
    "game.error.bad_message": "El servidor no lo ha entendido.",
    "game.error.not_joined": "No tienes asiento en esta sala.",
    "game.error.bad_token": "Tu entrada para el asiento ya no es válida.",
    "game.error.match_over": "La partida ha terminado.",
    "game.error.match_not_over": "La partida aún no ha terminado.",
    "game.error.room_full": "Todos los asientos para personas están ocupados.",
    "game.error.network": "No se puede contactar con el servidor.",
  },
  it: {
    "game.preset.escoba-primiera": "Escoba (primiera)",
    "game.preset.escoba-classic": "Escoba (classica)",
    "game.preset.custom": "Regole proprie",
    "game.level.beginner": "principiante",
    "game.level.easy": "facile",
    "game.level.medium": "medio",
    "game.level.hard": "difficile",
    "game.level.expert": "esperto",
    "game.level.master": "maestro",
    "game.option.capture": "Come si prende",
    "game.option.capture.sum15": "somma 15",
    "game.option.capture.match": "stesso valore (o somma)",
    "game.option.forced_capture": "Chi può prendere deve prendere",
    "game.option.last_play_sweep_counts": "La scopa con l'ultima carta conta",
    "game.option.initial_table_sweeps": "Il mazziere prende 15 o 30 dal primo tavolo",
    "game.option.kings_redeal": "Tre re sul primo tavolo: si rida",
    "game.option.sevens": "Categoria dei sette",
    "game.option.sevens.ranking": "setenta",
    "game.option.sevens.sevens": "più sette",
    "game.option.sevens.primiera": "primiera",
    "game.option.sevens.none": "nessuna",
    "game.option.primiera_needs_all_suits": "La primiera richiede tutti e quattro i semi",
    "game.option.all_coins_two": "Tutti i dieci denari valgono 2",
    "game.option.all_sevens_bonus": "Premio per tutti e quattro i sette",
    "game.option.big_wins": "Grandi vittorie (30 carte, tutti i denari, tutti i sette)",
    "game.option.target_score": "Punti per vincere",
    "game.option.win_by": "Scarto necessario",
    "game.error.not_your_turn": "Non è il tuo turno.",
    "game.error.illegal_move": "Questa giocata non è permessa.",
    "game.error.bad_message": "Il server non ha capito.",
    "game.error.not_joined": "Non hai un posto in questa stanza.",
    "game.error.bad_token": "Il tuo biglietto per il posto non è più valido.",
    "game.error.match_over": "La partita è finita.",
    "game.error.match_not_over": "La partita non è ancora finita.",
    "game.error.room_full": "Tutti i posti per persone sono occupati.",
    "game.error.network": "Il server non è raggiungibile.",
  },
});
