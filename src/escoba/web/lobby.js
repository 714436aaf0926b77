// The lobby (index.html): create a room and go to it; list the rooms this browser has a
// seat in (from the tickets in localStorage, see rooms.js).
//
// Stable hooks for browser tests (data-testid):
//   nickname        the nickname input (remembered between visits)
//   preset          the game select; option values are the preset keys (escoba, scopa, ...)
//   players         the players select, "2" | "3" | "4"
//   partnerships    checkbox, enabled only with 4 players
//   seat-kind-<n>   one select per other seat n = 1..players-1 (seat 0 is the creator):
//                   "person" (a friend joins with the link) or a computer level
//   create-room     the big "Play" submit button
//   my-room         each entry of the "your rooms" list (with data-room)
// Rule options live in a <details id="options">, one field per option named `option-<name>`.

import { mountHeader } from "./header.js";
import { applyTexts, known, register, t } from "./i18n.js";
import {
  LEVELS, MAX_NICKNAME, PRESETS, api, allTickets, choiceName, dropTicket, errorText, lastNickname,
  levelName, optionName, presetName, rememberNickname, saveTicket,
} from "./rooms.js";

const form = document.getElementById("create-form");
const nicknameInput = document.getElementById("nickname");
const presetSelect = document.getElementById("preset");
const playersSelect = document.getElementById("players");
const partnerships = document.getElementById("partnerships");
const seatRows = document.getElementById("seat-rows");
const optionFields = document.getElementById("option-fields");
const errorBox = document.getElementById("create-error");

let catalogue = { presets: {}, options: {}, levels: LEVELS };
// The chosen kind of each other seat, kept while the number of players changes.
const seatKinds = ["person", "medium", "medium", "medium"];

function fillPresets() {
  const chosen = presetSelect.value || "escoba";
  const names = Object.keys(catalogue.presets).length ? Object.keys(catalogue.presets) : PRESETS;
  const ordered = [...PRESETS.filter((name) => names.includes(name)), ...names.filter((name) => !PRESETS.includes(name))];
  presetSelect.replaceChildren(
    ...ordered.map((name) => {
      const option = document.createElement("option");
      option.value = name;
      option.textContent = presetName(name);
      return option;
    }),
  );
  presetSelect.value = ordered.includes(chosen) ? chosen : ordered[0];
  describePreset();
}

function describePreset() {
  document.getElementById("preset-blurb").textContent = known(`lobby.blurb.${presetSelect.value}`) ?? "";
}

function seatLabel(seat) {
  if (partnerships.checked && playersSelect.value === "4") {
    return seat === 2 ? t("lobby.seat_partner") : t("lobby.seat_opponent", { n: seat + 1 });
  }
  return t("lobby.seat_n", { n: seat + 1 });
}

function fillSeats() {
  const players = Number(playersSelect.value);
  const rows = [];
  for (let seat = 1; seat < players; seat += 1) {
    const row = document.createElement("div");
    row.className = "seat-row";
    const label = document.createElement("label");
    label.className = "seat-label";
    label.htmlFor = `seat-kind-${seat}`;
    label.textContent = seatLabel(seat);
    const select = document.createElement("select");
    select.id = `seat-kind-${seat}`;
    select.dataset.testid = `seat-kind-${seat}`;
    const person = new Option(t("lobby.kind_person"), "person");
    const levels = (catalogue.levels?.length ? catalogue.levels : LEVELS).map(
      (level) => new Option(t("lobby.kind_computer", { level: levelName(level) }), level),
    );
    select.append(person, ...levels);
    select.value = seatKinds[seat];
    select.addEventListener("change", () => {
      seatKinds[seat] = select.value;
    });
    row.append(label, select);
    rows.push(row);
  }
  seatRows.replaceChildren(...rows);
  const four = players === 4;
  partnerships.disabled = !four;
  if (!four) partnerships.checked = false;
  document.getElementById("partnerships-label").classList.toggle("disabled", !four);
}

function optionInput(name, spec) {
  let input;
  if (spec.kind === "bool") {
    input = document.createElement("input");
    input.type = "checkbox";
  } else if (spec.kind === "choice") {
    input = document.createElement("select");
    for (const choice of spec.choices ?? []) input.append(new Option(choiceName(name, choice), String(choice)));
  } else {
    input = document.createElement("input");
    input.type = "number";
    input.min = String(spec.min ?? 0);
    if (spec.max != null) input.max = String(spec.max);
    input.step = "1";
    input.inputMode = "numeric";
  }
  input.id = `option-${name}`;
  input.name = name;
  input.dataset.testid = `option-${name}`;
  input.dataset.kind = spec.kind;
  return input;
}

function fillOptions() {
  const fields = Object.entries(catalogue.options ?? {}).map(([name, spec]) => {
    const wrapper = document.createElement("div");
    wrapper.className = spec.kind === "bool" ? "option check" : "option";
    const input = optionInput(name, spec);
    const label = document.createElement("label");
    label.htmlFor = input.id;
    label.textContent = optionName(name);
    if (spec.kind === "bool") wrapper.append(input, label);
    else wrapper.append(label, input);
    return wrapper;
  });
  optionFields.replaceChildren(...fields);
  resetOptions();
}

function presetValues() {
  return catalogue.presets?.[presetSelect.value] ?? {};
}

function resetOptions() {
  const values = presetValues();
  for (const input of optionFields.querySelectorAll("[data-kind]")) {
    const value = values[input.name] ?? catalogue.options[input.name]?.default;
    if (input.dataset.kind === "bool") input.checked = Boolean(value);
    else if (value !== undefined && value !== null) input.value = String(value);
  }
  markChanged();
}

function inputValue(input) {
  if (input.dataset.kind === "bool") return input.checked;
  if (input.dataset.kind === "int") return Number.parseInt(input.value, 10);
  return input.value;
}

// The options that differ from the chosen preset: those are sent as overrides.
function overrides() {
  const values = presetValues();
  const changed = {};
  for (const input of optionFields.querySelectorAll("[data-kind]")) {
    const value = inputValue(input);
    if (input.dataset.kind === "int" && !Number.isFinite(value)) continue;
    if (value !== values[input.name]) changed[input.name] = value;
  }
  return changed;
}

function markChanged() {
  const changed = overrides();
  for (const input of optionFields.querySelectorAll("[data-kind]")) {
    input.closest(".option").classList.toggle("changed", input.name in changed);
  }
  const count = Object.keys(changed).length;
  const summary = document.querySelector("#options summary");
  summary.textContent = count ? t("lobby.options_changed", { n: count }) : t("lobby.options");
}

function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = !message;
}

async function createRoom(event) {
  event.preventDefault();
  showError("");
  const nickname = nicknameInput.value.trim().slice(0, MAX_NICKNAME);
  if (!nickname) {
    showError(t("lobby.need_nickname"));
    nicknameInput.focus();
    return;
  }
  const players = Number(playersSelect.value);
  const seats = ["person"];
  for (let seat = 1; seat < players; seat += 1) seats.push(document.getElementById(`seat-kind-${seat}`).value);
  const body = {
    rules: presetSelect.value,
    options: overrides(),
    players,
    partnerships: players === 4 && partnerships.checked,
    seats,
    seat: 0,
    nickname,
  };
  const button = form.querySelector("[data-testid=create-room]");
  button.disabled = true;
  try {
    const ticket = await api("/api/rooms", { method: "POST", body });
    rememberNickname(nickname);
    saveTicket(ticket.room, { seat: ticket.seat, token: ticket.token, nickname });
    window.location.assign(`/room/${encodeURIComponent(ticket.room)}`);
  } catch (error) {
    showError(errorText(error.code, error.message));
    button.disabled = false;
  }
}

function roomStatusText(info) {
  const names = info.seats.map((seat) => (seat.kind === "computer" ? levelName(seat.level) : seat.nickname ?? "…"));
  const status = info.status === "over" ? t("lobby.room_over") : t("lobby.room_playing");
  return `${presetName(info.preset)} · ${names.join(", ")} · ${status}`;
}

function listRooms() {
  const tickets = allTickets();
  const list = document.getElementById("my-rooms");
  document.getElementById("my-rooms-section").hidden = tickets.length === 0;
  list.replaceChildren(
    ...tickets.map((ticket) => {
      const item = document.createElement("li");
      item.dataset.testid = "my-room";
      item.dataset.room = ticket.room;
      const link = document.createElement("a");
      link.href = `/room/${encodeURIComponent(ticket.room)}`;
      const shortId = ticket.room.length > 10 ? `${ticket.room.slice(0, 8)}…` : ticket.room;
      link.textContent = t("lobby.room_as", { room: shortId, nickname: ticket.nickname ?? "?" });
      const detail = document.createElement("span");
      detail.className = "room-detail";
      const forget = document.createElement("button");
      forget.type = "button";
      forget.className = "forget";
      forget.textContent = "×";
      forget.title = t("lobby.forget");
      forget.setAttribute("aria-label", t("lobby.forget"));
      forget.addEventListener("click", () => {
        dropTicket(ticket.room);
        listRooms();
      });
      item.append(link, detail, forget);
      return item;
    }),
  );
  // Fill in the game and players of the most recent rooms; rooms that are gone say so.
  for (const ticket of tickets.slice(0, 12)) {
    api(`/api/rooms/${encodeURIComponent(ticket.room)}`).then(
      (info) => {
        const detail = list.querySelector(`li[data-room="${CSS.escape(ticket.room)}"] .room-detail`);
        if (detail) detail.textContent = roomStatusText(info);
      },
      (error) => {
        const item = list.querySelector(`li[data-room="${CSS.escape(ticket.room)}"]`);
        if (item && error.status === 404) {
          item.classList.add("gone");
          item.querySelector(".room-detail").textContent = t("lobby.room_gone");
        }
      },
    );
  }
}

function refreshTexts() {
  applyTexts(document);
  fillPresets();
  fillSeats();
  const values = {};
  for (const input of optionFields.querySelectorAll("[data-kind]")) values[input.name] = inputValue(input);
  fillOptions();
  for (const input of optionFields.querySelectorAll("[data-kind]")) {
    if (input.dataset.kind === "bool") input.checked = values[input.name];
    else input.value = String(values[input.name]);
  }
  markChanged();
  listRooms();
}

async function start() {
  mountHeader(document.getElementById("site-header"));
  applyTexts(document);
  nicknameInput.value = lastNickname();
  fillPresets();
  fillSeats();
  listRooms();
  presetSelect.addEventListener("change", () => {
    describePreset();
    resetOptions();
  });
  playersSelect.addEventListener("change", fillSeats);
  partnerships.addEventListener("change", fillSeats);
  optionFields.addEventListener("change", markChanged);
  optionFields.addEventListener("input", markChanged);
  document.getElementById("options-reset").addEventListener("click", resetOptions);
  form.addEventListener("submit", createRoom);
  window.addEventListener("escoba:prefs", refreshTexts);
  try {
    catalogue = await api("/api/presets");
    fillPresets();
    fillSeats();
    fillOptions();
  } catch (error) {
    showError(errorText(error.code, error.message));
  }
}

register({
  en: {
    "lobby.title": "Escoba, Scopa, Escova",
    "lobby.tagline": "The fishing card games of Spain, Italy and Brazil: play a card, take cards from the table, sweep it clean. Against the computer or with friends.",
    "lobby.new_room": "New game",
    "lobby.nickname": "Your name",
    "lobby.nickname_placeholder": "e.g. Ana",
    "lobby.need_nickname": "Please enter your name.",
    "lobby.game": "Game",
    "lobby.players": "Players",
    "lobby.partnerships": "Partners sit opposite (2 against 2)",
    "lobby.seats": "Seats",
    "lobby.seat_you": "You",
    "lobby.you_play_here": "you play here",
    "lobby.seat_n": "Seat {n}",
    "lobby.seat_partner": "Partner",
    "lobby.seat_opponent": "Opponent (seat {n})",
    "lobby.kind_person": "A friend (joins with the link)",
    "lobby.kind_computer": "Computer: {level}",
    "lobby.options": "Rule options",
    "lobby.options_changed": "Rule options ({n} changed)",
    "lobby.options_hint": "The chosen game sets these; change any of them here.",
    "lobby.options_reset": "Back to the game's rules",
    "lobby.play": "Play",
    "lobby.your_rooms": "Your rooms",
    "lobby.room_as": "Room {room} as {nickname}",
    "lobby.room_over": "match over",
    "lobby.room_playing": "playing",
    "lobby.room_gone": "this room no longer exists",
    "lobby.forget": "Forget this room",
    "lobby.blurb.escoba": "Take cards that make 15 with yours. Setenta for the sevens. First to 21.",
    "lobby.blurb.escoba-fournier": "Escoba where the most sevens win the sevens point. First to 21.",
    "lobby.blurb.escoba-primiera": "Escoba with the old primiera count for the sevens. First to 21.",
    "lobby.blurb.escoba-classic": "Escoba with most sevens, and a bonus for all four. First to 21.",
    "lobby.blurb.scopa": "Take a card of the same value, or cards that sum to it. Primiera. First to 11.",
    "lobby.blurb.escova": "The Brazilian Escoba: 15s, all ten coins score 2. First to 31.",
  },
  de: {
    "lobby.tagline": "Die Fischkartenspiele aus Spanien, Italien und Brasilien: Karte ausspielen, Karten vom Tisch nehmen, den Tisch abräumen. Gegen den Computer oder mit Freunden.",
    "lobby.new_room": "Neues Spiel",
    "lobby.nickname": "Dein Name",
    "lobby.nickname_placeholder": "z. B. Ana",
    "lobby.need_nickname": "Bitte gib deinen Namen ein.",
    "lobby.game": "Spiel",
    "lobby.players": "Spieler",
    "lobby.partnerships": "Partner sitzen sich gegenüber (2 gegen 2)",
    "lobby.seats": "Plätze",
    "lobby.seat_you": "Du",
    "lobby.you_play_here": "du spielst hier",
    "lobby.seat_n": "Platz {n}",
    "lobby.seat_partner": "Partner",
    "lobby.seat_opponent": "Gegner (Platz {n})",
    "lobby.kind_person": "Ein Freund (kommt über den Link)",
    "lobby.kind_computer": "Computer: {level}",
    "lobby.options": "Regeloptionen",
    "lobby.options_changed": "Regeloptionen ({n} geändert)",
    "lobby.options_hint": "Das gewählte Spiel legt diese fest; hier kannst du jede ändern.",
    "lobby.options_reset": "Zurück zu den Regeln des Spiels",
    "lobby.play": "Spielen",
    "lobby.your_rooms": "Deine Tische",
    "lobby.room_as": "Tisch {room} als {nickname}",
    "lobby.room_over": "Partie vorbei",
    "lobby.room_playing": "läuft",
    "lobby.room_gone": "diesen Tisch gibt es nicht mehr",
    "lobby.forget": "Diesen Tisch vergessen",
    "lobby.blurb.escoba": "Nimm Karten, die mit deiner 15 ergeben. Setenta für die Siebenen. Bis 21.",
    "lobby.blurb.escoba-fournier": "Escoba, bei der die meisten Siebenen den Siebenerpunkt holen. Bis 21.",
    "lobby.blurb.escoba-primiera": "Escoba mit der alten Primiera-Wertung. Bis 21.",
    "lobby.blurb.escoba-classic": "Escoba mit meisten Siebenen und Bonus für alle vier. Bis 21.",
    "lobby.blurb.scopa": "Nimm eine Karte gleichen Werts oder Karten, die ihn ergeben. Primiera. Bis 11.",
    "lobby.blurb.escova": "Die brasilianische Escoba: 15er, alle zehn Karo zählen 2. Bis 31.",
  },
  es: {
    "lobby.tagline": "Los juegos de cartas de pesca de España, Italia y Brasil: juega una carta, llévate cartas de la mesa, haz escoba. Contra el ordenador o con amigos.",
    "lobby.new_room": "Partida nueva",
    "lobby.nickname": "Tu nombre",
    "lobby.nickname_placeholder": "p. ej. Ana",
    "lobby.need_nickname": "Escribe tu nombre, por favor.",
    "lobby.game": "Juego",
    "lobby.players": "Jugadores",
    "lobby.partnerships": "Compañeros enfrentados (2 contra 2)",
    "lobby.seats": "Asientos",
    "lobby.seat_you": "Tú",
    "lobby.you_play_here": "juegas aquí",
    "lobby.seat_n": "Asiento {n}",
    "lobby.seat_partner": "Compañero",
    "lobby.seat_opponent": "Rival (asiento {n})",
    "lobby.kind_person": "Un amigo (entra con el enlace)",
    "lobby.kind_computer": "Ordenador: {level}",
    "lobby.options": "Opciones de reglas",
    "lobby.options_changed": "Opciones de reglas ({n} cambiadas)",
    "lobby.options_hint": "El juego elegido las fija; aquí puedes cambiar cualquiera.",
    "lobby.options_reset": "Volver a las reglas del juego",
    "lobby.play": "Jugar",
    "lobby.your_rooms": "Tus salas",
    "lobby.room_as": "Sala {room} como {nickname}",
    "lobby.room_over": "partida terminada",
    "lobby.room_playing": "en juego",
    "lobby.room_gone": "esta sala ya no existe",
    "lobby.forget": "Olvidar esta sala",
    "lobby.blurb.escoba": "Llévate cartas que sumen 15 con la tuya. Setenta para los sietes. A 21.",
    "lobby.blurb.escoba-fournier": "Escoba en la que más sietes gana el punto de los sietes. A 21.",
    "lobby.blurb.escoba-primiera": "Escoba con la antigua primiera. A 21.",
    "lobby.blurb.escoba-classic": "Escoba con más sietes y premio por los cuatro. A 21.",
    "lobby.blurb.scopa": "Llévate una carta del mismo valor o cartas que lo sumen. Primiera. A 11.",
    "lobby.blurb.escova": "La escoba brasileña: quinces, los diez oros valen 2. A 31.",
  },
  it: {
    "lobby.tagline": "I giochi di presa di Spagna, Italia e Brasile: gioca una carta, prendi carte dal tavolo, fai scopa. Contro il computer o con gli amici.",
    "lobby.new_room": "Nuova partita",
    "lobby.nickname": "Il tuo nome",
    "lobby.nickname_placeholder": "per es. Ana",
    "lobby.need_nickname": "Scrivi il tuo nome, per favore.",
    "lobby.game": "Gioco",
    "lobby.players": "Giocatori",
    "lobby.partnerships": "Compagni di fronte (2 contro 2)",
    "lobby.seats": "Posti",
    "lobby.seat_you": "Tu",
    "lobby.you_play_here": "giochi qui",
    "lobby.seat_n": "Posto {n}",
    "lobby.seat_partner": "Compagno",
    "lobby.seat_opponent": "Avversario (posto {n})",
    "lobby.kind_person": "Un amico (entra con il link)",
    "lobby.kind_computer": "Computer: {level}",
    "lobby.options": "Opzioni delle regole",
    "lobby.options_changed": "Opzioni delle regole ({n} cambiate)",
    "lobby.options_hint": "Il gioco scelto le stabilisce; qui puoi cambiarle.",
    "lobby.options_reset": "Torna alle regole del gioco",
    "lobby.play": "Gioca",
    "lobby.your_rooms": "Le tue stanze",
    "lobby.room_as": "Stanza {room} come {nickname}",
    "lobby.room_over": "partita finita",
    "lobby.room_playing": "in corso",
    "lobby.room_gone": "questa stanza non esiste più",
    "lobby.forget": "Dimentica questa stanza",
    "lobby.blurb.escoba": "Prendi carte che fanno 15 con la tua. Setenta per i sette. A 21.",
    "lobby.blurb.escoba-fournier": "Escoba in cui più sette vincono il punto dei sette. A 21.",
    "lobby.blurb.escoba-primiera": "Escoba con la vecchia primiera. A 21.",
    "lobby.blurb.escoba-classic": "Escoba con più sette e premio per tutti e quattro. A 21.",
    "lobby.blurb.scopa": "Prendi una carta dello stesso valore o carte che lo sommano. Primiera. A 11.",
    "lobby.blurb.escova": "L'escoba brasiliana: quindici, tutti i dieci denari valgono 2. A 31.",
  },
});

start();
