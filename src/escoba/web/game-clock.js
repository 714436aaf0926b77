// @ts-check
// The table's clocks on the game screen: beside each person seat's name, its time, running
// down on the seat to move (from the seconds left the server sent with the state, counted on
// this page's own clock), its reserve on the others. At 5 seconds or less the running one turns
// red, and each second ticks (unless muted) for the person whose time it is.
//
// Stable hooks for browser tests: clock-<seat> (data-running="true" on the seat to move,
// class "low" at 5 s or less).

import { playSound } from "./sound.js";

const LOW = 5; // seconds left at which the seat to move is warned
/** @type {{ seat: number, left: number, at: number, mine: boolean } | null} */
let running = null; // {seat, left, at, mine}
/** @type {number | null} */
let ticker = null;
/** @type {number | null} */
let lastTick = null;

/** @param {number} seconds */
export function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** @returns {number | null} */
function left() {
  return running ? running.left - (performance.now() - running.at) / 1000 : null;
}

function tick() {
  const now = left();
  for (const node of document.querySelectorAll(".seat-clock[data-running=true]")) {
    node.textContent = clockText(now ?? 0);
    node.classList.toggle("low", now !== null && now <= LOW);
  }
  if (running?.mine && now !== null && now <= LOW && now > 0) {
    const second = Math.ceil(now);
    if (second !== lastTick) {
      lastTick = second;
      playSound("tick");
    }
  }
}

// A state came: `clock` is room.clock (or null), `me` this page's seat.
/**
 * @param {Protocol.ClockView | null} clock
 * @param {number | null} me
 */
export function followClock(clock, me) {
  running = clock && clock.turn !== null && clock.left !== null
    ? { seat: clock.turn, left: clock.left, at: performance.now(), mine: clock.turn === me }
    : null;
  lastTick = null;
  if (running && !ticker) ticker = window.setInterval(tick, 250);
  if (!running && ticker) {
    window.clearInterval(ticker);
    ticker = null;
  }
}

// The clock element for `seat` in a seat's head, or null when the table has no clock.
/**
 * @param {Protocol.ClockView | null} clock
 * @param {number} seat
 * @param {Protocol.SeatInfo["kind"]} kind
 */
export function seatClock(clock, seat, kind) {
  if (!clock || kind !== "person") return null;
  const node = document.createElement("span");
  node.className = "seat-clock";
  node.dataset.testid = `clock-${seat}`;
  const mine = running && running.seat === seat;
  node.dataset.running = String(Boolean(mine));
  const seconds = mine ? /** @type {number} */ (left()) : clock.per_move + (clock.reserves[seat] ?? 0); // running: a number
  node.textContent = clockText(seconds);
  node.classList.toggle("low", Boolean(mine) && seconds <= LOW);
  return node;
}
