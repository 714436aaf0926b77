// @ts-check
// "Play now" in the lobby (index.html): a quick match with whoever else wants the same game
// and number of players, over the lobby's WebSocket (lobby-net.js). While waiting the panel
// shows for how long, and a way to stop; after the server's wait it offers to fill the free
// seats with computers of a level. Paired, the page keeps the seat's ticket and goes to the
// room. A connection lost while waiting asks again once it is back (the server forgets a
// person whose connection closed).
//
// Stable hooks for browser tests (data-testid):
//   quick-game, quick-players   the game and the number of players
//   quick-rated                 a rated game (signed in only): paired with rated seekers only
//   play-now                    the button that starts waiting
//   quick-status                what is going on ("Looking for players for Escoba · 0:12")
//   cancel-seek                 stop waiting
//   fill-level, fill-seats      the computers' level, and the button that plays with them

import { currentAccount } from "./account-state.js";
import { t } from "./i18n.js";
import { connectLobby, onLobbyMessage, onLobbyOpen, sendLobby } from "./lobby-net.js";
import { followGame, language } from "./prefs.js";
import {
  LEVELS, PRESETS, errorText, levelName, presetName, rememberNickname, rememberRoom, saveTicket,
} from "./rooms.js";

/** @type {HTMLElement | null} */
let panel = null;
let nickname = () => "";
let askNickname = () => {};
/** @type {{ rules: string, players: number, nickname: string, rated: boolean, since: number } | null} */
let seeking = null; // {rules, players, nickname, rated, since} while waiting
let waited = false;
/** @type {number | undefined} */
let ticking;

// A field or button of the panel (its inputs, lists and buttons used alike).
/** @param {string} id */
const byTestId = (id) => /** @type {HTMLInputElement} */ (/** @type {HTMLElement} */ (panel).querySelector(`[data-testid=${id}]`));

function elapsed() {
  const seconds = Math.floor((Date.now() - /** @type {{ since: number }} */ (seeking).since) / 1000); // while seeking
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** @param {string} message */
function showError(message) {
  const box = /** @type {HTMLElement} */ (/** @type {HTMLElement} */ (panel).querySelector(".error"));
  box.textContent = message;
  box.hidden = !message;
}

function draw() {
  const waiting = seeking !== null;
  byTestId("play-now").hidden = waiting;
  byTestId("quick-game").disabled = waiting;
  byTestId("quick-players").disabled = waiting || byTestId("quick-game").value.startsWith("scopone");
  byTestId("quick-rated").disabled = waiting || !currentAccount()?.account;
  byTestId("quick-waiting").hidden = !waiting;
  byTestId("quick-fill").hidden = !(waiting && waited);
  if (waiting && seeking) {
    const words = seeking.rated ? "lobby.quick_waiting_rated" : "lobby.quick_waiting";
    byTestId("quick-status").textContent = t(words, { game: presetName(seeking.rules), time: elapsed() });
  }
}

function fillChoices() {
  const game = byTestId("quick-game");
  const chosen = game.value || "escoba";
  game.replaceChildren(...PRESETS.map((preset) => new Option(presetName(preset), preset)));
  game.value = chosen;
  const level = byTestId("fill-level");
  const picked = level.value || "medium";
  level.replaceChildren(...LEVELS.map((name) => new Option(levelName(name), name)));
  level.value = picked;
}

function gameChosen() {
  // Scopone is played by four in two pairs; the other games by 2, 3 or 4.
  if (byTestId("quick-game").value.startsWith("scopone")) byTestId("quick-players").value = "4";
  draw();
}

function seek() {
  if (!seeking) return;
  /** @type {Protocol.SeekMessage} */
  const message = { type: "seek", rules: seeking.rules, players: seeking.players, nickname: seeking.nickname, language: language() };
  if (seeking.rated) message.rated = true;
  sendLobby(message);
}

function start() {
  showError("");
  const name = nickname();
  if (!name) {
    showError(t("common.need_nickname"));
    askNickname();
    return;
  }
  const rules = byTestId("quick-game").value;
  const rated = byTestId("quick-rated").checked && Boolean(currentAccount()?.account);
  seeking = { rules, players: Number(byTestId("quick-players").value), nickname: name, rated, since: Date.now() };
  waited = false;
  rememberNickname(name);
  seek(); // or once the socket opens
  ticking = window.setInterval(draw, 1000);
  draw();
}

function stop() {
  if (seeking) sendLobby({ type: "cancel_seek" });
  seeking = null;
  waited = false;
  window.clearInterval(ticking);
  draw();
}

/** @param {Protocol.LobbyMessage} message */
function heard(message) {
  if (!seeking) return;
  if (message.type === "seek_waited") {
    waited = true;
    draw();
  } else if (message.type === "paired") {
    const { ticket } = message;
    saveTicket(ticket.room, { seat: ticket.seat, token: ticket.token, nickname: seeking.nickname });
    rememberRoom(ticket.room, { preset: seeking.rules, rules: null, seats: [] });
    followGame(seeking.rules); // the room shows the game's own cards, unless a deck was picked
    window.location.assign(ticket.invite);
  } else if (message.type === "error" && ["bad_rules", "bad_seating", "bad_nickname", "server_busy", "restarting", "storage_failed", "too_many_rooms", "too_many_computers", "sign_in_needed", "not_ratable"].includes(message.code)) {
    stop();
    showError(errorText(message.code, message.message));
  }
}

export function refreshQuickTexts() {
  if (!panel) return;
  fillChoices();
  draw();
}

// The "Play now" panel in `section`; `nicknameOf()` is the nickname to play under, and
// `focusNickname()` is called when there is none yet.
/**
 * @param {HTMLElement} section
 * @param {{ nicknameOf: () => string, focusNickname: () => void }} hooks
 */
export function mountQuickMatch(section, { nicknameOf, focusNickname }) {
  panel = section;
  nickname = nicknameOf;
  askNickname = focusNickname;
  fillChoices();
  byTestId("quick-game").addEventListener("change", gameChosen);
  byTestId("play-now").addEventListener("click", start);
  byTestId("cancel-seek").addEventListener("click", stop);
  byTestId("fill-seats").addEventListener("click", () => {
    sendLobby({ type: "fill", level: /** @type {Protocol.FillMessage["level"]} */ (byTestId("fill-level").value) });
  });
  onLobbyMessage(heard);
  onLobbyOpen(seek); // the server forgot whoever waited on a connection lost
  connectLobby();
  draw();
}
