// @ts-check
// The lobby (index.html): play now (lobby-quick.js), the open tables (lobby-tables.js); create
// a room and go to it; list the rooms this browser has a seat in (from the tickets in
// localStorage, see rooms.js).
//
// Stable hooks for browser tests (data-testid):
//   nickname        the nickname input (remembered between visits)
//   preset          the game select; option values are the preset keys (escoba, scopa, ...);
//                   choosing a Scopone seats 4 players in partnerships (GET /api/presets, seating)
//   players         the players select, "2" | "3" | "4"
//   partnerships    checkbox, enabled only with 4 players
//   seat-kind-<n>   one select per other seat n = 1..players-1 (seat 0 is the creator):
//                   "person" (a friend joins with the link) or a computer level
//   clock           the time control: "" (none), a preset name, or "custom" (then
//                   clock-per-move and clock-reserve, in seconds)
//   listed          checkbox: an open table, listed for anyone to sit at (default private)
//   watchable       checkbox, enabled with listed: its match may be watched from the lobby
//   rated           checkbox, enabled while signed in: a rated game; it makes the table open
//                   and clocked (Standard, unless a clock is chosen), every other seat a
//                   person's and the game's own rules (those fields are locked while it is on);
//                   rated-hint says what it needs, or links to /account while signed out
//   nickname-account  while signed in: the note that you sit under your username (the
//                   nickname field then shows it, read-only)
//   create-room     the big "Play" submit button
//   my-room         each entry of the "your rooms" list (with data-room)
// Rule options live in a <details id="options">, one field per option named `option-<name>`;
// an option that makes no sense with the others (OPTION_NEEDS) is unchecked and disabled.

import { accountState, currentAccount } from "./account-state.js";
import { mountHeader } from "./header.js";
import { applyTexts, known, t, tn } from "./i18n.js";
import { mountQuickMatch, refreshQuickTexts } from "./lobby-quick.js";
import { mountOpenTables, drawTables } from "./lobby-tables.js";
import { followGame, language } from "./prefs.js";
import {
  LEVELS, MAX_NICKNAME, PRESETS, api, allTickets, choiceName, clockName, dropTicket, errorText, knowPresets,
  lastNickname, levelName, optionName, presetName, rememberNickname, rememberRoom, rulesName, saveTicket,
} from "./rooms.js";

/** @param {string} id a field's */
const inputById = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
/** @param {string} id a list's */
const selectById = (id) => /** @type {HTMLSelectElement} */ (document.getElementById(id));

const form = document.getElementById("create-form");
const nicknameInput = inputById("nickname");
const presetSelect = selectById("preset");
const playersSelect = selectById("players");
const partnerships = inputById("partnerships");
const seatRows = document.getElementById("seat-rows");
const optionFields = document.getElementById("option-fields");
const errorBox = document.getElementById("create-error");
const listed = inputById("listed");
const watchable = inputById("watchable");
const rated = inputById("rated");
// The rule options' fields (their inputs and lists, used alike), each named by its option.
const optionInputs = () => /** @type {NodeListOf<HTMLInputElement>} */ (optionFields.querySelectorAll("[data-kind]"));

let catalogue = { presets: {}, seating: {}, options: {}, levels: LEVELS, ratings: {} };
// Options that only make sense with another's value: what escoba.rules refuses otherwise.
const OPTION_NEEDS = {
  ace_takes_all: (values) => values.capture === "match",
  primiera_needs_all_suits: (values) => values.sevens === "primiera",
};
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

// A preset played at its own seating (Scopone: 4 players in partnerships) is seated so.
function seatPreset() {
  const seating = catalogue.seating?.[presetSelect.value];
  if (!seating) return;
  playersSelect.value = String(seating.players);
  partnerships.checked = Boolean(seating.partnerships);
  fillSeats();
}

function seatLabel(seat) {
  if (partnerships.checked && playersSelect.value === "4") {
    return seat === 2 ? t("lobby.seat_partner") : t("lobby.seat_opponent", { n: seat + 1 });
  }
  return t("common.seat_n", { n: seat + 1 });
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
    const ratings = catalogue.ratings?.[presetSelect.value] ?? {};
    const levels = (catalogue.levels?.length ? catalogue.levels : LEVELS).map((level) => {
      // A level's rating in the chosen game, where it is rated: "Computer: hard · about 1600"
      const named = Number.isFinite(ratings[level])
        ? t("level.rated", { level: levelName(level), rating: ratings[level] })
        : levelName(level);
      return new Option(t("lobby.kind_computer", { level: named }), level);
    });
    select.append(person, ...levels);
    select.value = seatKinds[seat];
    select.addEventListener("change", () => {
      seatKinds[seat] = select.value;
    });
    row.append(label, select);
    rows.push(row);
  }
  seatRows.replaceChildren(...rows);
  if (rated.checked) personSeats();
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
  for (const input of optionInputs()) {
    const value = values[input.name] ?? catalogue.options[input.name]?.default;
    if (input.dataset.kind === "bool") input.checked = Boolean(value);
    else if (value !== undefined && value !== null) input.value = String(value);
  }
  markChanged();
}

// Disable (and clear) the options the other options' values make meaningless.
function checkNeeds() {
  const values = {};
  for (const input of optionInputs()) values[input.name] = inputValue(input);
  for (const [name, needs] of Object.entries(OPTION_NEEDS)) {
    const input = /** @type {HTMLInputElement | null} */ (optionFields.querySelector(`[data-kind][name="${name}"]`));
    if (!input) continue;
    const allowed = needs(values);
    if (!allowed) input.checked = false;
    input.disabled = !allowed;
    input.closest(".option").classList.toggle("disabled", !allowed);
  }
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
  for (const input of optionInputs()) {
    const value = inputValue(input);
    if (input.dataset.kind === "int" && !Number.isFinite(value)) continue;
    if (value !== values[input.name]) changed[input.name] = value;
  }
  return changed;
}

function markChanged() {
  checkNeeds();
  const changed = overrides();
  for (const input of optionInputs()) {
    input.closest(".option").classList.toggle("changed", input.name in changed);
  }
  const count = Object.keys(changed).length;
  const summary = document.querySelector("#options summary");
  summary.textContent = count ? tn("lobby.options_changed", count) : t("lobby.options");
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
    showError(t("common.need_nickname"));
    nicknameInput.focus();
    return;
  }
  const players = Number(playersSelect.value);
  /** @type {Protocol.CreateRoom["seats"]} */
  const seats = ["person"];
  for (let seat = 1; seat < players; seat += 1) {
    seats.push(/** @type {Protocol.CreateRoom["seats"][number]} */ (selectById(`seat-kind-${seat}`).value));
  }
  /** @type {Protocol.CreateRoom} */
  const body = {
    rules: presetSelect.value,
    options: overrides(),
    players,
    partnerships: players === 4 && partnerships.checked,
    seats,
    seat: 0,
    nickname,
    clock: chosenClock(),
    listed: listed.checked,
    watchable: listed.checked && watchable.checked,
    language: language(),
  };
  if (rated.checked) body.rated = true;
  const button = /** @type {HTMLButtonElement} */ (form.querySelector("[data-testid=create-room]"));
  button.disabled = true;
  try {
    /** @type {Protocol.SeatTicket} */
    const ticket = await api("/api/rooms", { method: "POST", body });
    rememberNickname(nickname);
    followGame(body.rules); // the room shows the game's own cards, unless a deck was picked
    saveTicket(ticket.room, { seat: ticket.seat, token: ticket.token, nickname });
    const changed = Object.keys(body.options).length > 0;
    rememberRoom(ticket.room, {
      preset: changed ? null : body.rules,
      rules: { ...presetValues(), ...body.options },
      seats: seats.map((kind, seat) => (kind === "person"
        ? { seat, kind, nickname: seat === ticket.seat ? nickname : null }
        : { seat, kind: "computer", level: kind })),
    });
    window.location.assign(`/room/${encodeURIComponent(ticket.room)}`);
  } catch (error) {
    // A seating the deck does not share out (Scopone for three): said with the game's name.
    const seating = { game: presetName(presetSelect.value), players: tn("count.players", players) };
    showError(error.code === "bad_seating" ? t("lobby.bad_seating", seating) : errorText(error.code, error.message));
    button.disabled = false;
  }
}

function roomStatusText(info) {
  return info.status === "over" ? t("common.match_over") : t("lobby.room_playing");
}

// What a room is, for its link in "Your rooms": "Escoba vs Computer (medium) · as Marta",
// "Scopa · to 6 with Bo · as Marta"; the room's id only while nothing is known of it.
function roomTitle(ticket) {
  const nickname = ticket.nickname ?? "?";
  const about = ticket.about;
  if (!about || !Array.isArray(about.seats)) {
    const shortId = ticket.room.length > 10 ? `${ticket.room.slice(0, 8)}…` : ticket.room;
    return t("lobby.room_as", { room: shortId, nickname });
  }
  const game = rulesName(about.preset, about.rules);
  const others = about.seats.filter((seat) => seat.seat !== ticket.seat);
  const names = others.map((seat) => {
    if (seat.kind === "computer") return t("common.computer", { level: levelName(seat.level) });
    return seat.nickname || t("lobby.seat_free");
  });
  const people = others.some((seat) => seat.kind !== "computer");
  const title = t(people ? "lobby.room_with" : "lobby.room_vs", { game, others: names.join(", ") });
  return `${title} · ${t("lobby.room_as_you", { nickname })}`;
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
      link.dataset.testid = "my-room-link";
      link.textContent = roomTitle(ticket);
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
        rememberRoom(ticket.room, info);
        const item = list.querySelector(`li[data-room="${CSS.escape(ticket.room)}"]`);
        if (!item) return;
        item.querySelector("a").textContent = roomTitle({ ...ticket, about: info });
        item.querySelector(".room-detail").textContent = roomStatusText(info);
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
  for (const input of optionInputs()) values[input.name] = inputValue(input);
  fillOptions();
  for (const input of optionInputs()) {
    if (input.dataset.kind === "bool") input.checked = values[input.name];
    else input.value = String(values[input.name]);
  }
  markChanged();
  listRooms();
  drawTables();
  fillClocks();
  showAccount();
}

// The clock choices: none, the server's presets ("Standard · 20 s a move, 1:00 in reserve"),
// or a custom one.
function fillClocks() {
  const select = selectById("clock");
  const chosen = select.value;
  const presets = Object.entries(catalogue.clocks ?? {});
  select.replaceChildren(
    new Option(t("lobby.clock_none"), ""),
    ...presets.map(([name, clock]) => new Option(`${t(`lobby.clock.${name}`)} · ${clockName(clock)}`, name)),
    new Option(t("lobby.clock_custom"), "custom"),
  );
  select.value = [...select.options].some((option) => option.value === chosen) ? chosen : "";
  if (rated.checked) markRated();
  markClock();
}

function markClock() {
  const custom = selectById("clock").value === "custom";
  for (const box of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".clock-custom"))) box.hidden = !custom;
}

function chosenClock() {
  const value = selectById("clock").value;
  if (!value) return null;
  if (value === "custom") {
    return {
      per_move: Number(inputById("clock-per-move").value),
      reserve: Number(inputById("clock-reserve").value),
    };
  }
  return catalogue.clocks?.[value] ?? null;
}

function markListed() {
  watchable.disabled = !listed.checked;
  document.getElementById("watchable-label").classList.toggle("disabled", !listed.checked);
}

// -- rated games: an account, an open table, a clock, the game's own rules, people only

function personSeats() {
  for (const select of seatRows.querySelectorAll("select")) {
    select.value = "person";
    seatKinds[Number(select.id.split("-").pop())] = "person";
  }
}

function markRated() {
  const on = rated.checked;
  if (on) {
    listed.checked = true;
    const clock = selectById("clock");
    if (!clock.value) clock.value = catalogue.clocks?.standard ? "standard" : clock.options[1]?.value ?? "";
    personSeats();
    resetOptions();
  }
  listed.disabled = on;
  const none = /** @type {HTMLOptionElement | null} */ (document.querySelector("#clock option[value='']"));
  if (none) none.disabled = on;
  /** @type {HTMLFieldSetElement} */ (document.querySelector("fieldset.seats")).disabled = on;
  /** @type {HTMLFieldSetElement} */ (document.getElementById("option-set")).disabled = on;
  markListed();
  markClock();
}

// Signed in, you sit under your username: the name field shows it and cannot be changed, and
// rated games may be chosen. Signed out, the name is yours to type and rated games are not.
function showAccount() {
  const account = currentAccount()?.account ?? null;
  const note = document.getElementById("nickname-account");
  if (account) {
    nicknameInput.value = account.username;
    note.textContent = t("lobby.nickname_account", { username: account.username });
  } else if (nicknameInput.readOnly) {
    nicknameInput.value = lastNickname(); // the username was shown there: back to the own name
  }
  nicknameInput.readOnly = Boolean(account);
  note.hidden = !account;
  for (const box of [rated, inputById("quick-rated")]) {
    if (!account) box.checked = false;
    box.disabled = !account;
    box.closest("label").classList.toggle("disabled", !account);
  }
  for (const hint of document.querySelectorAll(".rated-hint")) {
    /** @type {HTMLElement} */ (hint.querySelector(".when-signed-in")).hidden = !account;
    /** @type {HTMLElement} */ (hint.querySelector(".when-signed-out")).hidden = Boolean(account);
  }
  markRated();
  refreshQuickTexts();
}

async function start() {
  mountHeader(document.getElementById("site-header"));
  applyTexts(document);
  // The name typed while the page's texts were still coming is kept; else the last one used
  if (!nicknameInput.value) nicknameInput.value = lastNickname();
  fillPresets();
  fillSeats();
  listRooms();
  markListed();
  listed.addEventListener("change", markListed);
  rated.addEventListener("change", markRated);
  window.addEventListener("escoba:account", showAccount);
  document.getElementById("clock").addEventListener("change", markClock);
  const nickname = {
    nicknameOf: () => nicknameInput.value.trim().slice(0, MAX_NICKNAME),
    focusNickname: () => nicknameInput.focus(),
  };
  mountQuickMatch(document.getElementById("quick-section"), nickname);
  mountOpenTables(document.getElementById("open-tables-section"), nickname);
  presetSelect.addEventListener("change", () => {
    // The cards follow the game (Scopa's Italian deck...) until a deck is picked in the header.
    followGame(presetSelect.value);
    describePreset();
    seatPreset();
    fillSeats(); // the levels' ratings are the chosen game's
    resetOptions();
  });
  playersSelect.addEventListener("change", fillSeats);
  partnerships.addEventListener("change", fillSeats);
  optionFields.addEventListener("change", markChanged);
  optionFields.addEventListener("input", markChanged);
  document.getElementById("options-reset").addEventListener("click", resetOptions);
  form.addEventListener("submit", createRoom);
  window.addEventListener("escoba:prefs", refreshTexts);
  accountState().then(showAccount);
  try {
    catalogue = await api("/api/presets");
    knowPresets(catalogue.presets);
    fillClocks();
    fillPresets();
    fillSeats();
    fillOptions();
  } catch (error) {
    showError(errorText(error.code, error.message));
  }
}

start();
