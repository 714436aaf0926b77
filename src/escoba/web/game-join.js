// @ts-check
// The invite on the game screen: when this browser has no seat in the room, show who plays,
// take a free person's seat (or watch), and keep the new ticket; or say the room is gone.

import { t, tn } from "./i18n.js";
import {
  MAX_NICKNAME, api, errorText, lastNickname, rememberNickname, rulesName, saveTicket,
} from "./rooms.js";
import { computerName } from "./game-names.js";
import { accountState, currentAccount } from "./account-state.js";

const byId = (id) => document.getElementById(id);
let roomId = "";
/** @type {(greeting: Protocol.JoinMessage | Protocol.WatchMessage) => void} */
let seated = () => {};

// Wire the join form once: onSeated(greeting) is called with the WebSocket greeting to send
// ({type: "join", token} after taking a seat, {type: "watch"} to spectate).
/**
 * @param {string} room the room's id
 * @param {(greeting: Protocol.JoinMessage | Protocol.WatchMessage) => void} onSeated
 */
export function setUpJoin(room, onSeated) {
  roomId = room;
  seated = onSeated;
  byId("join-form").addEventListener("submit", join);
  byId("watch-room").addEventListener("click", () => seated({ type: "watch" }));
}

export function showMissing() {
  byId("loading").hidden = true;
  byId("play-view").hidden = true;
  const view = byId("join-view");
  view.hidden = false;
  view.querySelector("h1").textContent = t("game.room_missing");
  for (const id of ["join-form", "join-full", "watch-room", "join-seats", "join-about", "join-rated"]) byId(id).hidden = true;
}

export async function showJoin() {
  byId("play-view").hidden = true;
  byId("loading").hidden = false;
  let info;
  try {
    info = await api(`/api/rooms/${encodeURIComponent(roomId)}`);
  } catch (error) {
    if (error.status === 404) {
      showMissing();
    } else {
      byId("loading").textContent = errorText(error.code, error.message);
    }
    return;
  }
  byId("loading").hidden = true;
  const view = byId("join-view");
  view.hidden = false;
  view.querySelector("h1").textContent = t("game.join_title");
  for (const id of ["join-seats", "join-about"]) byId(id).hidden = false;
  byId("join-about").textContent = info.partnerships
    ? t("game.join_about_pairs", { game: rulesName(info.preset, info.rules) })
    : t("game.join_about", { game: rulesName(info.preset, info.rules), players: tn("count.players", info.players) });
  // A rated room: its matches count for the players' ratings (a person sits signed in).
  byId("join-rated").hidden = !info.rated;
  const seats = info.seats.map((seat) => {
    const item = document.createElement("li");
    let name;
    if (seat.kind === "computer") name = computerName(info.seats, seat.seat, seat.level);
    else if (seat.taken) name = seat.nickname ?? "?";
    else name = t("game.free_seat");
    item.textContent = `${t("common.seat_n", { n: seat.seat + 1 })}: ${name}`;
    item.classList.toggle("free", seat.kind === "person" && !seat.taken);
    return item;
  });
  byId("join-seats").replaceChildren(...seats);
  const free = info.seats.filter((seat) => seat.kind === "person" && !seat.taken);
  byId("join-form").hidden = free.length === 0;
  byId("join-full").hidden = free.length > 0;
  byId("watch-room").hidden = false;
  byId("join-seat-field").hidden = free.length < 2;
  byId("join-seat").replaceChildren(
    ...free.map((seat) => new Option(t("common.seat_n", { n: seat.seat + 1 }), String(seat.seat))),
  );
  const nickname = /** @type {HTMLInputElement} */ (byId("join-nickname"));
  if (!nickname.value) nickname.value = lastNickname();
  if (free.length) nickname.focus();
  accountState().then(showAccount);
}

// Signed in, a person sits under their username: the field shows it, read-only.
function showAccount() {
  const account = currentAccount()?.account ?? null;
  const nickname = /** @type {HTMLInputElement} */ (byId("join-nickname"));
  const note = byId("join-account");
  if (account) {
    nickname.value = account.username;
    note.textContent = t("lobby.nickname_account", { username: account.username });
  } else if (nickname.readOnly) {
    nickname.value = lastNickname();
  }
  nickname.readOnly = Boolean(account);
  note.hidden = !account;
}

async function join(event) {
  event.preventDefault();
  const errorBox = byId("join-error");
  errorBox.hidden = true;
  const nickname = /** @type {HTMLInputElement} */ (byId("join-nickname")).value.trim().slice(0, MAX_NICKNAME);
  if (!nickname) {
    errorBox.textContent = t("common.need_nickname");
    errorBox.hidden = false;
    return;
  }
  /** @type {Protocol.JoinRoom} */
  const body = { nickname };
  if (!byId("join-seat-field").hidden) body.seat = Number(/** @type {HTMLSelectElement} */ (byId("join-seat")).value);
  const button = /** @type {HTMLButtonElement} */ (byId("join-form").querySelector("[data-testid=join-room]"));
  button.disabled = true;
  try {
    /** @type {Protocol.SeatTicket} */
    const ticket = await api(`/api/rooms/${encodeURIComponent(roomId)}/join`, { method: "POST", body });
    rememberNickname(nickname);
    saveTicket(ticket.room, { seat: ticket.seat, token: ticket.token, nickname });
    seated({ type: "join", token: ticket.token });
  } catch (error) {
    errorBox.textContent = errorText(error.code, error.message);
    errorBox.hidden = false;
    if (error.code === "room_full") showJoin();
  } finally {
    button.disabled = false;
  }
}
