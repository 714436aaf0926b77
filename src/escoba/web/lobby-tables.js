// @ts-check
// The lobby's open tables (index.html, "Open tables"): the list the server pushes over
// /ws/lobby (a "tables" message when connected, then "table" and "table_gone" as tables open,
// fill, finish or empty), drawn as it changes. A table with a free seat has a "Sit down"
// button that takes the seat (POST /api/rooms/{room}/join) and goes to the room; a match in
// progress that may be watched has a "Watch" link.
//
// Stable hooks for browser tests (data-testid):
//   open-tables       the list (ul); its items are open-table, with data-room and data-status
//                     ("waiting" | "playing")
//   open-tables-none  the line shown while no table is open
//   take-seat         an open table's "Sit down" button
//   watch-table       an open table's "Watch" link
//   rated-badge       the "Rated" mark of a rated table

import { t } from "./i18n.js";
import { connectLobby, onLobbyMessage } from "./lobby-net.js";
import {
  api, changeName, clockName, errorText, levelName, presetName, rememberNickname, rememberRoom, saveTicket,
} from "./rooms.js";

/** @type {Map<string, Protocol.TableListing>} */
const tables = new Map(); // room id -> its entry, as the server last said it
/** @type {HTMLElement | null} */
let list = null;
/** @type {HTMLElement | null} */
let none = null;
/** @type {HTMLElement | null} */
let errorBox = null;
let nickname = () => "";
let askNickname = () => {};

// "Scopa · to 6": the preset's name and the options changed from it.
/** @param {Protocol.TableListing} table */
function gameName(table) {
  const changes = Object.entries(table.changes ?? {}).map(([option, value]) => changeName(option, value));
  return [presetName(table.preset), ...changes].join(" · ");
}

/** @param {Protocol.TableSeat} seat */
function seatName(seat) {
  if (seat.kind === "computer") return t("common.computer", { level: levelName(seat.level) });
  // A signed-in person sits under their username.
  return seat.free ? t("lobby.seat_free") : seat.account ?? seat.nickname ?? "?";
}

/** @param {string} message */
function showError(message) {
  /** @type {HTMLElement} */ (errorBox).textContent = message;
  /** @type {HTMLElement} */ (errorBox).hidden = !message;
}

/**
 * @param {Protocol.TableListing} table
 * @param {number | null} seat null: the first free one
 * @param {HTMLButtonElement} button
 */
async function takeSeat(table, seat, button) {
  showError("");
  const name = nickname();
  if (!name) {
    showError(t("common.need_nickname"));
    askNickname();
    return;
  }
  button.disabled = true;
  try {
    /** @type {Protocol.SeatTicket} */
    const ticket = await api(`/api/rooms/${encodeURIComponent(table.id)}/join`, {
      method: "POST", body: { nickname: name, seat },
    });
    rememberNickname(name);
    saveTicket(ticket.room, { seat: ticket.seat, token: ticket.token, nickname: name });
    rememberRoom(ticket.room, {
      preset: Object.keys(table.changes ?? {}).length ? null : table.preset,
      rules: table.rules,
      seats: table.seats.map((entry) => (entry.seat === ticket.seat ? { ...entry, nickname: name } : entry)),
    });
    window.location.assign(`/room/${encodeURIComponent(ticket.room)}`);
  } catch (error) {
    const refusal = /** @type {import("./rooms.js").ApiError} */ (error);
    showError(errorText(refusal.code, refusal.message));
    button.disabled = false;
  }
}

/** @param {Protocol.TableListing} table */
function tableItem(table) {
  const item = document.createElement("li");
  item.dataset.testid = "open-table";
  item.dataset.room = table.id;
  item.dataset.status = table.status;
  const title = document.createElement("span");
  title.className = "table-game";
  title.textContent = gameName(table);
  if (table.rated) {
    const badge = document.createElement("span");
    badge.className = "rated-badge";
    badge.dataset.testid = "rated-badge";
    badge.textContent = t("lobby.rated_badge");
    title.append(" ", badge);
  }
  const detail = document.createElement("span");
  detail.className = "table-detail";
  const parts = [table.seats.map(seatName).join(", "), t(`language.${table.language}`)];
  if (table.clock) parts.push(clockName(table.clock));
  if (table.status === "playing") parts.push(t("lobby.room_playing"));
  detail.textContent = parts.join(" · ");
  item.append(title, detail);
  if (table.status === "waiting") {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "primary";
    button.dataset.testid = "take-seat";
    button.textContent = t("lobby.take_seat");
    const seat = table.seats.find((entry) => entry.free)?.seat ?? null;
    button.addEventListener("click", () => takeSeat(table, seat, button));
    item.append(button);
  } else {
    const link = document.createElement("a");
    link.className = "button";
    link.dataset.testid = "watch-table";
    link.href = table.invite;
    link.textContent = t("lobby.watch");
    item.append(link);
  }
  return item;
}

// Draw the tables: those with a free seat first, each kind in the order they came.
export function drawTables() {
  if (!list) return;
  const entries = [...tables.values()];
  const ordered = [...entries.filter((table) => table.status === "waiting"), ...entries.filter((table) => table.status !== "waiting")];
  list.replaceChildren(...ordered.map(tableItem));
  /** @type {HTMLElement} */ (none).hidden = ordered.length > 0;
}

/** @param {Protocol.LobbyMessage} message */
function heard(message) {
  if (message.type === "tables") {
    tables.clear();
    for (const table of message.tables) tables.set(table.id, table);
  } else if (message.type === "table") {
    tables.delete(message.table.id); // a changed table goes to the end of its kind
    tables.set(message.table.id, message.table);
  } else if (message.type === "table_gone") {
    tables.delete(message.id);
  } else {
    return;
  }
  drawTables();
}

// Show the open tables in `section`; `nicknameOf()` is the nickname a seat is taken with, and
// `focusNickname()` is called when there is none yet.
/**
 * @param {HTMLElement} section
 * @param {{ nicknameOf: () => string, focusNickname: () => void }} hooks
 */
export function mountOpenTables(section, { nicknameOf, focusNickname }) {
  list = section.querySelector("[data-testid=open-tables]");
  none = section.querySelector("[data-testid=open-tables-none]");
  errorBox = section.querySelector(".error");
  nickname = nicknameOf;
  askNickname = focusNickname;
  drawTables();
  onLobbyMessage(heard);
  connectLobby();
}
