// @ts-check
// Rated matches on the game screen: "Rated" in the room's bar while its matches count for the
// players' ratings (RoomInfo.rated), and once a rated match has ended, each player's change
// (GET /api/rooms/<room>/ratings: "Ana 1500 → 1532 (+32)"), shown with the winner on the felt
// and in the last hand's score pad; or why the match counted for nobody (ended before the
// first move) or did not count (the same players met too often today).
//
// Stable hooks for browser tests (data-testid):
//   rated-tag          "Rated" in the bar (hidden in a casual room)
//   rating-changes     the block of changes (in the over box and in the score pad); each line
//                      data-testid="rating-change", data-seat, data-username, data-before,
//                      data-after; or rating-status (data-status="aborted" | "daily_limit" |
//                      "casual") saying why there is none

import { t } from "./i18n.js";
import { api } from "./rooms.js";
import { seatName } from "./game-names.js";
import { changeText, gameName, playerHref } from "./ratings.js";

const byId = (id) => document.getElementById(id);
const TRIES = 12; // the ratings are stored just after the last move: asked again until they are
const WAIT = 700; // ms between two asks

let roomId = "";
let redraw = () => {};
let asked = null; // the match (its number in the room) whose ratings were asked for
/** @type {{ number: number, ratings: Protocol.RoomRatings } | null} */
let answer = null; // {number, ratings}: the server's answer for that match
let timer = null;

export function setUpRatings(room, onAnswer) {
  roomId = room;
  redraw = onAnswer;
}

async function ask(number, tries) {
  /** @type {Protocol.RoomRatings | null} */
  let ratings = null;
  try {
    ratings = await api(`/api/rooms/${encodeURIComponent(roomId)}/ratings`);
  } catch {
    ratings = null; // the server cannot say yet: asked again below
  }
  if (asked !== number) return;
  const settled = ratings && ratings.status !== null && ratings.status !== undefined
    && !(ratings.status === "rated" && !(ratings.changes ?? []).length);
  if (settled) {
    answer = { number, ratings };
    redraw();
  } else if (tries > 1) {
    timer = setTimeout(() => ask(number, tries - 1), WAIT);
  }
}

// Follow the state: a rated match over is asked for its ratings once; a new match forgets them.
/** @param {TableState} state */
export function followRatings({ room, match }) {
  byId("rated-tag").hidden = !room.rated;
  const number = room.match_number;
  if (!room.rated || !match.over) {
    if (asked !== null && asked !== number) {
      clearTimeout(timer);
      asked = null;
      answer = null;
    }
    return;
  }
  if (asked === number) return;
  clearTimeout(timer);
  asked = number;
  answer = null;
  ask(number, TRIES);
}

/**
 * @param {Protocol.RatingChangeView} change
 * @param {Protocol.RoomInfo} room
 * @param {number | null} mySeat
 */
function changeLine(change, room, mySeat) {
  const line = document.createElement("li");
  line.dataset.testid = "rating-change";
  line.dataset.seat = String(change.seat);
  line.dataset.username = change.username ?? "";
  line.dataset.before = String(change.before);
  line.dataset.after = String(change.after);
  const delta = change.after - change.before;
  line.className = delta > 0 ? "up" : delta < 0 ? "down" : "even";
  // an account deleted since is named so, with no page to link to
  const name = change.username ? document.createElement("a") : document.createElement("span");
  if (name instanceof HTMLAnchorElement) name.href = playerHref(change.username);
  name.textContent = change.username || t("profile.deleted_name");
  const value = document.createElement("span");
  value.className = "change";
  value.textContent = changeText(change.before, change.after);
  line.append(name);
  if (change.seat === mySeat) line.append(` (${seatName(room, change.seat, mySeat)})`);
  line.append(" ", value);
  return line;
}

// The ratings of the match just ended, as a new element (one for the felt, one for the score
// pad), or null while there is nothing to show.
/** @param {TableState} state */
export function ratingsBlock({ room, match }) {
  if (!room.rated || !match.over || !answer || answer.number !== room.match_number) return null;
  const { ratings } = answer;
  const box = document.createElement("div");
  box.className = "rating-changes";
  box.dataset.testid = "rating-changes";
  const changes = Array.isArray(ratings.changes) ? ratings.changes : [];
  if (ratings.status === "rated" && changes.length) {
    const title = document.createElement("p");
    title.className = "rating-title";
    title.textContent = t("ratings.changes_title", { game: gameName(changes[0].game) });
    const list = document.createElement("ul");
    list.append(...changes.map((change) => changeLine(change, room, match.seat)));
    box.append(title, list);
    return box;
  }
  const status = document.createElement("p");
  status.dataset.testid = "rating-status";
  status.dataset.status = ratings.status;
  status.textContent = {
    aborted: t("ratings.aborted"),
    daily_limit: t("ratings.daily_limit"),
  }[ratings.status] ?? t("ratings.not_rated");
  box.append(status);
  return box;
}

// What a screen reader is told once the ratings are known: "Your rating: 1500 → 1532 (+32)."
/** @param {TableState} state */
export function ratingsAnnouncement({ room, match }) {
  if (!answer || answer.number !== room.match_number) return "";
  const { ratings } = answer;
  if (ratings.status === "aborted") return t("ratings.aborted");
  if (ratings.status === "daily_limit") return t("ratings.daily_limit");
  const mine = (ratings.changes ?? []).find((change) => change.seat === match.seat);
  return mine ? t("ratings.your_rating", { change: changeText(mine.before, mine.after) }) : "";
}
