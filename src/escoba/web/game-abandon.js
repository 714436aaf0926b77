// @ts-check
// Seats nobody abandons, on the game screen: when a person's seat is abandoned (away longer
// than the grace period, or three timeouts in a row), the people still at the table see who
// left and choose: a computer takes the seat and the match goes on, or, when everybody on the
// other side has left, they claim the match. A match claimed so is shown over, won by the
// side that stayed.
//
// Stable hooks for browser tests (data-testid): abandoned-banner, replace-level,
// replace-seat (one button per abandoned seat, with data-seat), claim-match.

import { t } from "./i18n.js";
import { seatName, sideOf } from "./game-names.js";
import { LEVELS, levelName } from "./rooms.js";

const byId = (id) => document.getElementById(id);
/** @type {(message: Protocol.ClientMessage) => void} */
let send = () => {};

// The state as the page draws it: a match claimed by abandonment is over, won by the side
// that claimed it (the engine's own view of it does not know).
/**
 * @param {TableState} state
 * @returns {TableState}
 */
export function withEnd(state) {
  const ended = state.room.ended;
  if (!ended) return state;
  return { ...state, match: { ...state.match, over: true, winner: ended.winner, to_move: null, legal: [] } };
}

// Whether every person on the other side of `me` has abandoned the match (and one at least).
function othersGone(room, me) {
  const mine = sideOf(room, me);
  const people = room.seats.filter((seat) => seat.kind === "person" && sideOf(room, seat.seat) !== mine);
  return people.length > 0 && people.every((seat) => seat.abandoned);
}

/** @param {TableState} state */
export function drawAbandoned({ room, match }) {
  const banner = byId("abandoned-banner");
  const me = match.seat;
  const gone = room.seats.filter((seat) => seat.abandoned);
  const deciding = me !== null && !match.over && gone.length > 0 && !gone.some((seat) => seat.seat === me);
  banner.hidden = !deciding;
  if (!deciding) return;
  const names = gone.map((seat) => seatName(room, seat.seat, me)).join(", ");
  byId("abandoned-text").textContent = t("game.abandoned", { names });
  const level = /** @type {HTMLSelectElement} */ (byId("replace-level"));
  const chosen = level.value || "medium";
  level.replaceChildren(...LEVELS.map((name) => new Option(levelName(name), name)));
  level.value = chosen;
  byId("replace-buttons").replaceChildren(...gone.map((seat) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.testid = "replace-seat";
    button.dataset.seat = String(seat.seat);
    button.textContent = t("game.replace_seat", { name: seatName(room, seat.seat, me) });
    button.addEventListener("click", () => send({ type: "replace", seat: seat.seat, level: /** @type {Protocol.ReplaceMessage["level"]} */ (level.value) }));
    return button;
  }));
  byId("claim-match").hidden = !othersGone(room, me);
}

export function setUpAbandoned(sender) {
  send = sender;
  byId("claim-match").addEventListener("click", () => send({ type: "claim" }));
}
