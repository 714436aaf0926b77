// @ts-check
// Ratings in words, shared by the profile (profile.js), the leaderboard (leaderboard.js) and the
// game screen's end of a rated match (game-ratings.js): the rated games' names, a rating with
// its deviation ("1532 ± 64"), a change ("+12", "−9"), and a player's page address.

import { t } from "./i18n.js";

// The games rated apart, as the server names them (GET /api/leaderboard/{game}).
export const GAMES = ["escoba", "scopa", "scopone", "escova"];

// Literal keys (scripts/web_texts.py finds them written out).
/** @type {{ [game: string]: string }} */
const GAME_NAMES = {
  escoba: "ratings.game.escoba",
  scopa: "ratings.game.scopa",
  scopone: "ratings.game.scopone",
  escova: "ratings.game.escova",
};

/** @param {string} game */
export function gameName(game) {
  return game in GAME_NAMES ? t(GAME_NAMES[game]) : String(game);
}

// Whole numbers as they are: a rating is a number people compare, not a quantity to group.
/** @param {number} value */
export function number(value) {
  return Number.isFinite(value) ? String(Math.round(value)) : "—";
}

// "1532 ± 64"
/**
 * @param {number} rating
 * @param {number} deviation
 */
export function ratingText(rating, deviation) {
  return t("ratings.value", { rating: number(rating), deviation: number(deviation) });
}

// A change of rating with its sign: "+12", "−9" (a minus sign, not a hyphen), "±0".
/** @param {number} change */
export function signed(change) {
  if (!Number.isFinite(change)) return "";
  const value = Math.round(change);
  if (value > 0) return `+${value}`;
  if (value < 0) return `\u2212${-value}`;
  return "±0";
}

// "1500 → 1532 (+32)"
/**
 * @param {number} before
 * @param {number} after
 */
export function changeText(before, after) {
  return t("ratings.change", { before: number(before), after: number(after), change: signed(after - before) });
}

/** @param {string} username */
export function playerHref(username) {
  return `/players/${encodeURIComponent(username)}`;
}
