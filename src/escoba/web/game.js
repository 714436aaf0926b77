// @ts-check
// The game screen, /room/<id> (room.html): take a seat (or watch), connect to the room's
// WebSocket, draw each state the server sends and send your plays, hints and rematches.
// Modules: game-net.js (socket), game-view.js (board and animation), game-dialogs.js (score
// pad, rules), game-join.js (the invite form), game-names.js (words), game-log.js (the hand's
// log and the captured piles), game-effects.js (sounds, the mute switch, the sweep banner),
// i18n.js (the texts, from the server's catalogues), rooms.js (tickets, API).
//
// Stable hooks for browser tests (data-testid):
//   join-nickname, join-room, watch-room   the invite form when this browser has no seat
//   hand-card (data-card)       your cards; click one to play it (on your turn, data-moves
//                               counts its legal moves: more than 1 opens the capture choice)
//   table-card (data-card)      cards on the table; while choosing a capture, click to pick
//   capture-choice              one button per legal capture set of the chosen card
//                               (data-captures = the set's cards, space separated)
//   hint-button, hint-text      ask the coach / its answer (the best card is marked .hinted)
//   take-back                   take back your last move of this hand (shown only where every
//                               other seat is a computer; enabled when you have one to take back)
//   scorepad-button, scorepad-dialog, scorepad-close (the score explained: score-explained.js)
//   log-button, log-dialog, piles-button, piles-dialog   the hand's log, the captured cards
//                               (key l, key p; see game-log.js)
//   rules-button, rules-dialog
//   invite-link                 <a> whose text and href are the full invite URL
//   turn-indicator (data-seat)  whose turn it is (data-seat empty when nobody's)
//   totals                      every side's points in the match
//   stock-size                  cards left in the stock
//   hand-number                 "Hand n" (1 for the first hand)
//   status                      "connected" / "reconnecting" (data-state holds the same word
//                               in English whatever the language)
//   error-toast                 the last refusal or failure, in words (gone once the state
//                               it was about has passed)
//   announcer                   the live region: each move and whose turn it is, in words
//   sound-button                the mute switch (aria-pressed="true" while muted)
//   sweep-banner                "Sweep!" and who, at the top of the felt for a moment after a
//                               sweep (gone with the next move)
//   key-legend                  the keys, in the rules dialog: 1-9 and 0 a card (0 the tenth,
//                               in Scopone), then 1-n a capture set, Escape cancels, h hint,
//                               r rules, s score pad
//   winner, rematch-button      when the match is over
//   analyse-button              then too: the match's replay with its analysis (game-analyse.js)
//   talk-button, talk-panel, phrase-<id>, talk-bubble, ...   table talk: see game-talk.js
//   abandoned-banner, replace-seat, claim-match   a seat abandoned: see game-abandon.js
//   clock-<seat>                a seat's clock: see game-clock.js
//   rated-tag, rating-changes, rating-change, rating-status   a rated room and the ratings a
//                               match gave: see game-ratings.js
// Seat panels are #seat-north etc. with data-seat, class .to-move on the player to move.

import { mountHeader } from "./header.js";
import { applyTexts, t } from "./i18n.js";
import { deckStyle, language } from "./prefs.js";
import { dropTicket, errorText, loadTicket, rulesName } from "./rooms.js";
import { RoomSocket } from "./game-net.js";
import { Board, reducedMotion } from "./game-view.js";
import { closeDialog, showRules, showScorepad, winnerText } from "./game-dialogs.js";
import { setUpJoin, showJoin, showMissing } from "./game-join.js";
import { leftoversNote, noteState, redraw as redrawLog, showLog, showPiles } from "./game-log.js";
import { eventText, moveText, seatName, spokenCard } from "./game-names.js";
import { drawSoundButton, eventEffects, toggleSound } from "./game-effects.js";
import { wakeSound } from "./sound.js";
import { drawTalk, heardTalk, retranslateTalk, setUpTalk } from "./game-talk.js";
import { followClock } from "./game-clock.js";
import { analyseMatch } from "./game-analyse.js";
import { drawAbandoned, setUpAbandoned, withEnd } from "./game-abandon.js";
import { followRatings, ratingsAnnouncement, ratingsBlock, setUpRatings } from "./game-ratings.js";

const byId = (id) => document.getElementById(id);
const roomId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean)[1] ?? "");
const inviteUrl = `${window.location.origin}/room/${encodeURIComponent(roomId)}`;

/** @type {TableState | null} */
let state = null; // the last {room, match} from the server
// choice: the card being played and its capture sets; hint: the coach's answer; lastEvent: the
// play to describe; sent: a play is on its way; paused: a hand just ended, its score pad is due.
const ui = { choice: null, hint: null, lastEvent: null, sent: false, hintAsked: false, paused: false };
let socket = null;
let scorepadTimer = null;
// States held back while a dialog is open or a finished hand's score pad is due: the moves
// made meanwhile (the computer's, a friend's) are shown one by one, animated as usual, once
// it is closed. A take back replaces them all: the position it gives is shown at once.
let held = [];
let releaseTimer = null;
let takingBack = false; // a take back is on its way: the moves held back are about to go
const RELEASE_GAP = 600; // ms between two held moves, time for each to be seen
let connection = "connecting";
/** @type {boolean | "done"} */
let inviteShown = false; // false, true while opened for a free seat, "done" after
const overBox = byId("over-box");

const board = new Board({
  onHandCard: clickHandCard,
  onTableCard: clickTableCard,
  onChoose: (move) => play(move),
  onCancel: cancelChoice,
});

// -- messages to the player

let toastTimer = null;
function toast(text) {
  const box = byId("error-toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(clearToast, 5000);
}

// A refusal is about the position it was made in: it goes when that position has passed.
function clearToast() {
  clearTimeout(toastTimer);
  byId("error-toast").hidden = true;
}

// The one live region: what just happened and whose turn it is now, said once each.
function announce(text) {
  const region = byId("announcer");
  if (!text) return;
  // emptied first, so that a line equal to the last one is said again
  region.textContent = "";
  requestAnimationFrame(() => {
    region.textContent = text;
  });
}

function turnText({ room, match }) {
  if (match.over) return t("common.match_over");
  if (match.to_move === null) return "";
  if (match.to_move === match.seat) return t("game.your_turn");
  return t("game.their_turn", { who: seatName(room, match.to_move, match.seat) });
}

// What a new state says aloud: the play (or deal) it brings, the end of the hand or match,
// and whose turn it is when that changed.
function announceState(previous, message) {
  const { match } = state;
  const parts = [];
  if (message.event) parts.push(eventText(message.event, state.room, match.seat, spokenCard));
  if (match.over && !previous?.match.over) parts.push(leftoversNote(state), winnerText(state) || t("common.match_over"));
  else if (message.hand_ended) parts.push(t("common.hand_over"), leftoversNote(state));
  const turnChanged = !previous || previous.match.to_move !== match.to_move || Boolean(message.event);
  if (turnChanged && !match.over && match.to_move !== null) parts.push(turnText(state));
  // each part a sentence of its own: "You played 7♦. Bea to play."
  announce(parts.filter(Boolean).map((part) => (/[.!?…]$/.test(part) ? part : `${part}.`)).join(" "));
}

let noteTimer = null;
function note(text) {
  let box = /** @type {HTMLElement | null} */ (document.querySelector(".toast.info"));
  if (!box) {
    box = document.createElement("div");
    box.className = "toast info";
    box.setAttribute("role", "status");
    document.body.append(box);
  }
  box.textContent = text;
  box.hidden = false;
  clearTimeout(noteTimer);
  noteTimer = setTimeout(() => {
    box.hidden = true;
  }, 2500);
}

function setStatus(value) {
  connection = value;
  const status = byId("status");
  status.dataset.state = value;
  status.textContent = t(`game.status_${value}`);
}

// -- drawing

function draw() {
  if (!state) return;
  board.render(state, ui);
  const { room, match } = state;
  byId("game-name").textContent = rulesName(room.preset, room.rules);
  drawTalk(room, match.seat);
  drawAbandoned(state);
  const mine = myTurn();
  /** @type {HTMLButtonElement} */ (byId("hint-button")).disabled = !mine || ui.paused;
  byId("hand").classList.toggle("waiting", ui.sent || ui.paused);
  document.title = `${mine ? "● " : ""}${rulesName(room.preset, room.rules)}`;
  byId("winner").textContent = winnerText(state);
  drawRatings();
  byId("rematch-button").hidden = match.seat === null;
  byId("analyse-button").hidden = match.seat === null;
  // the end of a match: the last hand's score pad first, then the winner
  overBox.hidden = !match.over || ui.paused;
  byId("hint-button").hidden = match.seat === null;
  const takeBack = /** @type {HTMLButtonElement} */ (byId("take-back"));
  takeBack.hidden = !againstComputers(room, match);
  takeBack.disabled = !myMoveThisHand(match) || ui.sent || ui.paused;
  // The invite opens by itself while a friend's seat is free, and closes once it is taken.
  const freeSeat = room.seats.some((seat) => seat.kind === "person" && !seat.taken);
  if (freeSeat && !inviteShown) {
    inviteShown = true;
    toggleInvite(true);
  } else if (!freeSeat && inviteShown === true) {
    inviteShown = "done";
    toggleInvite(false);
  }
}

// A rated match's changes of rating: with the winner on the felt, and atop the score pad.
function drawRatings() {
  followRatings(state);
  const felt = ratingsBlock(state);
  byId("over-ratings").replaceChildren(...(felt ? [felt] : []));
  const pad = ratingsBlock(state);
  byId("scorepad-ratings").replaceChildren(...(pad ? [pad] : []));
  byId("scorepad-ratings").hidden = !pad;
}

function ratingsKnown() {
  if (!state) return;
  drawRatings();
  announce(ratingsAnnouncement(state));
}

function scorepadClosed() {
  if (ui.paused) {
    ui.paused = false;
    draw();
  }
  releaseHeld();
}

// Whether a new move must wait: a dialog is open, or a finished hand's score pad is due.
function holding() {
  return ui.paused || takingBack || Boolean(document.querySelector("dialog[open]"));
}

function releaseHeld() {
  clearTimeout(releaseTimer);
  releaseTimer = null;
  if (!held.length || holding()) return;
  receiveState(held.shift());
  if (held.length) releaseTimer = setTimeout(releaseHeld, reducedMotion() ? 0 : RELEASE_GAP);
}

/** @param {Protocol.StateMessage} message */
function arrived(message) {
  if (message.event?.kind === "take_back") {
    // the moves held back are taken back too: straight to the position of the person's turn
    takingBack = false;
    held = [];
    clearTimeout(releaseTimer);
    releaseTimer = null;
    receiveState(message);
    return;
  }
  if (held.length || releaseTimer !== null || (state && message.event && holding())) {
    held.push(message);
    if (!releaseTimer) releaseHeld();
    return;
  }
  receiveState(message);
}

function receiveState(message) {
  const previous = state;
  const before = previous ? board.snapshot() : null;
  state = withEnd({ room: message.room, match: message.match }); // a claimed match is over
  const { match } = state;
  ui.sent = false;
  if (message.event || previous?.match.to_move !== match.to_move || match.over) clearToast();
  if (message.event) ui.lastEvent = message.event;
  if (message.event?.kind === "take_back") {
    // the position is the one before the move: no last play to describe from it
    ui.lastEvent = null;
    ui.choice = null;
    note(t("game.taken_back"));
  }
  if (message.event || match.to_move !== match.seat) {
    ui.hint = null;
    ui.hintAsked = false;
  }
  if (ui.choice) {
    const moves = match.legal.filter((move) => move.card === ui.choice.card);
    ui.choice = moves.length > 1 ? { ...ui.choice, moves } : null;
  }
  if (previous?.match.over && !match.over) {
    // a rematch started
    closeDialog(byId("scorepad-dialog"));
    ui.lastEvent = null;
  }
  if (message.hand_ended) {
    // no play until the finished hand's score pad has been seen
    ui.paused = true;
    ui.choice = null;
  }
  followClock(state.room.clock, match.seat); // its seconds left count from now
  draw();
  noteState(previous, message, state);
  announceState(previous, message);
  if (previous) eventEffects(state, previous, message);
  if (before && message.event) board.animate(message.event, before, state.room);
  if (message.hand_ended) {
    clearTimeout(scorepadTimer);
    const delay = reducedMotion() ? 0 : 650;
    scorepadTimer = setTimeout(() => showScorepad(state), delay);
  }
}

/** @param {Protocol.ServerMessage} message */
function receive(message) {
  switch (message.type) {
    case "welcome":
      setStatus("connected");
      byId("loading").hidden = true;
      byId("play-view").hidden = false;
      break;
    case "state":
      if (connection !== "connected") setStatus("connected");
      if (message.event) unanswered = null;
      arrived(message);
      break;
    case "hint":
      if (!ui.hintAsked) break;
      ui.hint = { moves: Array.isArray(message.moves) ? message.moves : [] };
      draw();
      announce(ui.hint.moves.length
        ? `${t("game.hint_title")} ${moveText(ui.hint.moves[0].move, spokenCard)}: ${ui.hint.moves[0].text}`
        : t("game.hint_none"));
      break;
    case "said":
      heardTalk(message);
      break;
    case "timeout":
      if (state) note(t("game.timeout", { name: seatName(state.room, message.seat, state.match.seat) }));
      break;
    case "error":
      refused(message);
      break;
    default:
      break; // pong and anything newer
  }
}

// A play refused because the room's server process is being replaced is sent again by
// itself a moment later, a few times: the person need not play it twice.
const RESEND_DELAY = 1500;
const RESENDS = 5;
let unanswered = null; // { message, resends } of the last play, until a state answers it

/** @param {Protocol.ErrorMessage} error */
function refused({ code, message }) {
  ui.sent = false;
  if (takingBack) {
    // the take back was refused: the moves held back for it are shown after all
    takingBack = false;
    setTimeout(releaseHeld, 0);
  }
  if (code === "restarting" && unanswered && unanswered.resends < RESENDS) {
    const waiting = unanswered;
    waiting.resends += 1;
    toast(errorText(code, message));
    setTimeout(() => {
      if (unanswered === waiting && myTurn() && socket?.send(waiting.message)) ui.sent = true;
    }, RESEND_DELAY);
    return;
  }
  if (code === "bad_token") {
    // The server no longer knows this seat (a new database, or another browser took it).
    socket?.stop();
    socket = null;
    dropTicket(roomId);
    toast(errorText(code, message));
    showJoin();
    return;
  }
  if (code === "not_found") {
    // the room is gone (its link is wrong, or the server's database was replaced)
    socket?.stop();
    socket = null;
    dropTicket(roomId);
    showMissing();
    return;
  }
  if (ui.hintAsked && !ui.hint) ui.hintAsked = false;
  toast(errorText(code, message));
  draw();
}

// -- playing

// Taking back is for a person playing computers only: every other seat is a computer's.
function againstComputers(room, match) {
  return match.seat !== null && room.seats.every((seat) => seat.seat === match.seat || seat.kind === "computer");
}

function myMoveThisHand(match) {
  return !match.over && match.history.some((event) => event.kind === "play" && event.seat === match.seat);
}

function takeBack() {
  if (!socket?.send({ type: "take_back" })) {
    toast(t("game.not_connected"));
    return;
  }
  ui.choice = null;
  ui.sent = true;
  // a computer reply still held back is being taken back: it is never shown
  takingBack = true;
  clearTimeout(releaseTimer);
  releaseTimer = null;
  draw();
}

function myTurn() {
  const match = state?.match;
  return Boolean(match && match.seat !== null && match.to_move === match.seat && !match.over);
}

function play(move) {
  const message = { type: "play", card: move.card, captures: move.captures };
  if (!socket?.send(message)) {
    toast(t("game.not_connected"));
    return;
  }
  unanswered = { message, resends: 0 };
  ui.choice = null;
  ui.sent = true;
  // the hint was about the position this play leaves
  ui.hint = null;
  ui.hintAsked = false;
  clearToast();
  draw();
}

function clickHandCard(card) {
  if (!state || state.match.seat === null || ui.sent || ui.paused) return;
  if (state.match.over) {
    toast(errorText("match_over"));
    return;
  }
  if (!myTurn()) {
    toast(errorText("not_your_turn"));
    return;
  }
  if (ui.choice?.card === card) {
    cancelChoice();
    return;
  }
  const moves = state.match.legal.filter((move) => move.card === card);
  if (!moves.length) {
    toast(t("game.not_playable"));
    return;
  }
  if (moves.length === 1) {
    play(moves[0]);
    return;
  }
  ui.choice = { card, moves, selected: [] };
  ui.lastChosen = card;
  draw();
  announce(choiceText());
}

// The capture choice in words, each set with its key: "Choose what the 7 of coins takes:
// 1: ..., 2: ...".
function choiceText() {
  const { card, moves } = ui.choice;
  const sets = moves.map((move, index) => `${index + 1}: ${moveText(move, spokenCard)}`);
  return `${t("game.choose_capture", { card: spokenCard(card) })} ${sets.join("; ")}`;
}

function clickTableCard(card) {
  const choice = ui.choice;
  if (!choice) return;
  let selected = choice.selected.includes(card)
    ? choice.selected.filter((each) => each !== card)
    : [...choice.selected, card];
  const fits = (list) => choice.moves.filter((move) => list.every((each) => move.captures.includes(each)));
  let candidates = fits(selected);
  if (!candidates.length) {
    selected = [card];
    candidates = fits(selected);
  }
  if (!candidates.length) {
    toast(t("game.not_in_any_set"));
    return;
  }
  if (candidates.length === 1 && selected.length) {
    play(candidates[0]);
    return;
  }
  ui.choice = { ...choice, selected };
  draw();
}

function cancelChoice() {
  if (!ui.choice) return;
  ui.choice = null;
  draw();
}

// The game's keys (listed in the rules dialog): 1-9 and 0 a hand card, then 1-n a capture set,
// Escape cancels, h the hint, r the rules, s the score pad, u takes back (where the Take back
// button is offered). Not while typing, nor over a dialog (its own keys work there: Escape
// closes it).
function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
  if (!state || byId("play-view").hidden || document.querySelector("dialog[open]")) return;
  if (event.target.closest?.("input, select, textarea, [contenteditable]")) return;
  const key = event.key;
  if (key === "Escape") {
    if (ui.choice) cancelChoice();
    else if (!byId("hint-text").hidden) closeHint();
    return;
  }
  if (/^[0-9]$/.test(key)) {
    const index = (Number(key) + 9) % 10; // 1 the first card ... 9 the ninth, 0 the tenth
    if (ui.choice) {
      const move = ui.choice.moves[index];
      if (move) play(move);
    } else {
      const card = state.match.hand[index];
      if (card) clickHandCard(card);
    }
    event.preventDefault();
    return;
  }
  const action = {
    h: askHint, r: () => showRules(roomId, state?.room.preset), s: () => showScorepad(state), l: () => showLog(state), p: () => showPiles(state),
    u: () => {
      const button = /** @type {HTMLButtonElement} */ (byId("take-back"));
      if (!button.hidden && !button.disabled) takeBack();
    },
  }[key.toLowerCase()];
  if (action) {
    event.preventDefault();
    action();
  }
}

function closeHint() {
  ui.hint = null;
  ui.hintAsked = false;
  byId("hint-text").hidden = true;
  draw();
}

// The skip link: straight to the first card of the hand (the first playable one on your turn).
function focusHand(event) {
  event.preventDefault();
  const hand = byId("hand");
  const card = hand.querySelector("[data-testid=hand-card].playable") ?? hand.querySelector("[data-testid=hand-card]");
  /** @type {HTMLElement} */ (card ?? hand).focus();
}

function askHint() {
  if (!myTurn()) {
    toast(errorText("not_your_turn"));
    return;
  }
  if (!socket?.send({ type: "hint", language: language(), deck: deckStyle() })) {
    toast(t("game.not_connected"));
    return;
  }
  ui.hintAsked = true;
  ui.hint = null;
  const box = byId("hint-text");
  box.hidden = false;
  box.textContent = t("game.hint_thinking");
}

function rematch() {
  if (!socket?.send({ type: "rematch" })) toast(t("game.not_connected"));
}

function toggleInvite(open) {
  const box = byId("invite-box");
  box.hidden = !open;
  byId("invite-button").setAttribute("aria-expanded", String(open));
}

async function copyInvite() {
  try {
    await navigator.clipboard.writeText(inviteUrl);
    note(t("game.copied"));
  } catch {
    const range = document.createRange();
    range.selectNodeContents(byId("invite-link"));
    window.getSelection()?.removeAllRanges();
    window.getSelection()?.addRange(range);
    note(t("game.copy_by_hand"));
  }
}

// -- seats

function connect(greeting) {
  byId("join-view").hidden = true;
  byId("loading").hidden = false;
  setStatus("connecting");
  socket?.stop();
  socket = new RoomSocket(roomId, greeting, {
    onMessage: receive,
    onDrop: () => setStatus("reconnecting"),
  });
  socket.start();
}

// -- wiring

function retranslate() {
  applyTexts(document);
  setStatus(connection);
  draw();
  if (/** @type {HTMLDialogElement} */ (byId("scorepad-dialog")).open && state) showScorepad(state);
  if (/** @type {HTMLDialogElement} */ (byId("rules-dialog")).open) showRules(roomId, state?.room.preset);
  redrawLog(state);
  retranslateTalk();
  if (ui.hint && myTurn()) askHint(); // the coach's words again, in the new language
  if (!byId("join-view").hidden && byId("play-view").hidden && !socket) showJoin();
}

function start() {
  mountHeader(byId("site-header"));
  applyTexts(document);
  const link = /** @type {HTMLAnchorElement} */ (byId("invite-link"));
  link.href = inviteUrl;
  link.textContent = inviteUrl;
  setUpJoin(roomId, connect);
  byId("hint-button").addEventListener("click", askHint);
  byId("scorepad-button").addEventListener("click", () => state && showScorepad(state));
  byId("scorepad-close").addEventListener("click", () => closeDialog(byId("scorepad-dialog")));
  byId("scorepad-dialog").addEventListener("close", scorepadClosed);
  byId("rules-button").addEventListener("click", () => showRules(roomId, state?.room.preset));
  // the moves held back while a dialog was open are shown once it closes
  for (const id of ["rules-dialog", "log-dialog", "piles-dialog"]) byId(id).addEventListener("close", releaseHeld);
  byId("rules-close").addEventListener("click", () => closeDialog(byId("rules-dialog")));
  byId("log-button").addEventListener("click", () => showLog(state));
  byId("log-close").addEventListener("click", () => closeDialog(byId("log-dialog")));
  byId("piles-button").addEventListener("click", () => showPiles(state));
  byId("piles-close").addEventListener("click", () => closeDialog(byId("piles-dialog")));
  byId("rematch-button").addEventListener("click", rematch);
  byId("analyse-button").addEventListener("click", () => state && analyseMatch(roomId, state.room.match_number, state.room.match_id, toast));
  byId("take-back").addEventListener("click", takeBack);
  byId("invite-button").addEventListener("click", () => toggleInvite(byId("invite-box").hidden));
  byId("copy-invite").addEventListener("click", copyInvite);
  byId("hint-text").addEventListener("click", closeHint);
  byId("skip-to-hand").addEventListener("click", focusHand);
  byId("sound-button").addEventListener("click", toggleSound);
  const sendOrSay = (message) => {
    if (!socket?.send(message)) toast(t("game.not_connected"));
  };
  setUpTalk(roomId, sendOrSay);
  setUpAbandoned(sendOrSay);
  setUpRatings(roomId, ratingsKnown);
  drawSoundButton();
  // Browsers start audio only after the page had a click or a key.
  for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, wakeSound, { once: true, capture: true });
  byId("error-toast").addEventListener("click", (event) => {
    /** @type {HTMLElement} */ (event.currentTarget).hidden = true;
  });
  document.addEventListener("keydown", onKey);
  window.addEventListener("escoba:prefs", retranslate);
  if (!roomId) {
    showMissing();
    return;
  }
  const ticket = loadTicket(roomId);
  if (ticket) connect({ type: "join", token: ticket.token });
  else showJoin();
}

start();
