// @ts-check
// Table talk on the game screen (room.html): the Talk panel with the quick phrases (each shown
// in the reader's own language), free text at a private table, a mute switch for each other
// person, and the last things said; it closes once something is said, so that the table is
// in sight again. What someone says shows for a moment in a bubble that names them.
// Everything said is drawn as text, never as markup. Spectators read only.
//
// Stable hooks for browser tests (data-testid):
//   talk-button        opens and closes the panel (aria-expanded)
//   talk-panel         the panel
//   phrase-<id>        a quick phrase's button (hello, good_luck, nice_sweep, well_played,
//                      oops, thanks, good_game, one_moment)
//   talk-form, talk-text   the free text (private tables only)
//   mute-<seat>        a checkbox muting that seat's talk (kept per room in this browser)
//   talk-lines         the last things said, one li each
//   talk-bubble        what was just said, for a few seconds

import { t } from "./i18n.js";
import { seatName } from "./game-names.js";

/** @type {Protocol.SayMessage["phrase"][]} */
export const PHRASES = ["hello", "good_luck", "nice_sweep", "well_played", "oops", "thanks", "good_game", "one_moment"];
const KEPT = 20;
const BUBBLE_MS = 4000;

const lines = []; // {seat, nickname, phrase, text}, oldest first
/**
 * @type {{ room: Protocol.RoomInfo | null, seat: number | null, roomId: string,
 *   send: (message: Protocol.ClientMessage) => boolean, say: (message: Protocol.SayMessage) => void }}
 */
let context = { room: null, seat: null, roomId: "", send: () => false, say: () => {} };
let bubbleTimer = null;

const byId = (id) => document.getElementById(id);

function mutedKey() {
  return `escoba.muted.${context.roomId}`;
}

function muted() {
  try {
    const kept = JSON.parse(window.localStorage.getItem(mutedKey()) ?? "[]");
    return new Set(Array.isArray(kept) ? kept : []);
  } catch {
    return new Set();
  }
}

function setMuted(seat, on) {
  const seats = muted();
  if (on) seats.add(seat);
  else seats.delete(seat);
  try {
    window.localStorage.setItem(mutedKey(), JSON.stringify([...seats]));
  } catch {
    // storage disabled: muted for this page only
  }
  drawLines();
}

function saidText(line) {
  const words = line.phrase ? t(`talk.phrase.${line.phrase}`) : line.text;
  const who = context.room ? seatName(context.room, line.seat, context.seat) : line.nickname ?? "?";
  return t("talk.line", { name: who, words });
}

function drawLines() {
  const hidden = muted();
  const list = byId("talk-lines");
  list.replaceChildren(...lines.filter((line) => !hidden.has(line.seat)).map((line) => {
    const item = document.createElement("li");
    item.textContent = saidText(line);
    return item;
  }));
  list.hidden = list.childElementCount === 0;
}

function drawPanel() {
  const { room, seat } = context;
  const seated = seat !== null && seat !== undefined;
  byId("talk-phrases").hidden = !seated;
  byId("talk-form").hidden = !seated || !room || room.listed;
  const mutes = byId("talk-mutes");
  const hidden = muted();
  const others = room ? room.seats.filter((entry) => entry.kind === "person" && entry.seat !== seat && entry.taken) : [];
  mutes.replaceChildren(...others.map((entry) => {
    const label = document.createElement("label");
    label.className = "check";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.dataset.testid = `mute-${entry.seat}`;
    box.checked = hidden.has(entry.seat);
    box.addEventListener("change", () => setMuted(entry.seat, box.checked));
    const words = document.createElement("span");
    words.textContent = t("talk.mute", { name: seatName(room, entry.seat, seat) });
    label.append(box, words);
    return label;
  }));
  mutes.hidden = others.length === 0;
  drawLines();
}

function showBubble(line) {
  const bubble = byId("talk-bubble");
  bubble.textContent = saidText(line);
  bubble.hidden = false;
  clearTimeout(bubbleTimer);
  bubbleTimer = setTimeout(() => {
    bubble.hidden = true;
  }, BUBBLE_MS);
}

// A "said" message from the server.
/** @param {Protocol.SaidMessage} message */
export function heardTalk(message) {
  const line = { seat: message.seat, nickname: message.nickname, phrase: message.phrase ?? null, text: message.text ?? null };
  lines.push(line);
  if (lines.length > KEPT) lines.shift();
  drawLines();
  if (!message.earlier && !muted().has(line.seat)) showBubble(line);
}

// The room and this page's seat changed (a state came), or the language did.
/**
 * @param {Protocol.RoomInfo} room
 * @param {number | null} seat
 */
export function drawTalk(room, seat) {
  context = { ...context, room, seat };
  // Against computers alone there is nobody to talk with: no Talk button takes room
  const people = room.seats.some((entry) => entry.kind === "person" && entry.seat !== seat);
  byId("talk-button").hidden = !people;
  if (!people) togglePanel(false);
  drawPanel();
}

function togglePanel(open) {
  const panel = byId("talk-panel");
  panel.hidden = !open;
  byId("talk-button").setAttribute("aria-expanded", String(open));
  if (open) drawPanel();
}

function phraseButtons() {
  byId("talk-phrases").replaceChildren(...PHRASES.map((phrase) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.testid = `phrase-${phrase}`;
    button.dataset.phrase = phrase;
    button.textContent = t(`talk.phrase.${phrase}`);
    button.addEventListener("click", () => {
      context.say({ type: "say", phrase });
      togglePanel(false); // said: the table is back in sight
    });
    return button;
  }));
}

export function retranslateTalk() {
  phraseButtons();
  drawPanel();
}

// `say(message)` sends a "say" message (and says so when it cannot).
export function setUpTalk(roomId, say) {
  context = { ...context, roomId, say };
  phraseButtons();
  byId("talk-button").addEventListener("click", () => togglePanel(byId("talk-panel").hidden));
  byId("talk-close").addEventListener("click", () => togglePanel(false));
  byId("talk-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = /** @type {HTMLInputElement} */ (byId("talk-text"));
    const text = input.value.trim();
    if (!text) return;
    context.say({ type: "say", text });
    input.value = "";
    togglePanel(false);
  });
}
