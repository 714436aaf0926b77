// @ts-check
// A player's page, /players/<username> (profile.html), from GET /api/players/<username>: the
// ratings in each game (rating ± deviation, provisional until it settles, rank), each game's
// rating history as a chart (rating-chart.js), the statistics (matches, win rate by game and by
// opponent, sweeps, best hands) and the last matches, with their replays where the reader may
// open them and the rating each rated match gave or took. The page of an account deleted says so; an
// unknown name says there is no such player.
//
// data-testid for browser tests:
//   profile-name           the player's name (<h1>)
//   profile-ratings        the list of ratings; each item data-testid="profile-rating",
//                          data-game="<game>", holding rating-value ("1532 ± 64"),
//                          provisional (when so) and rank
//   ratings-none           said when the player has no rating yet
//   rating-chart, chart-point, chart-table   a game's history (see rating-chart.js)
//   stats-summary          "12 matches · 7 won (58%) · 9 sweeps"
//   stats-by-game          table; rows data-testid="stats-game", data-game
//   stats-by-opponent      table; rows data-testid="stats-opponent", data-username
//   best-hands             list; items data-testid="best-hand"
//   profile-matches        the last matches; rows data-testid="profile-match", data-match,
//                          holding match-change ("+12", "−9") and replay-link where allowed
//   profile-missing        no such player
//   profile-deleted        the player deleted their account
//   profile-error          the page could not be loaded

import { mountHeader } from "./header.js";
import { applyTexts, t, tn } from "./i18n.js";
import { language } from "./prefs.js";
import { LEVELS, api, errorText, levelName, presetName } from "./rooms.js";
import { ratingChart, parseTime } from "./rating-chart.js";
import { GAMES, gameName, playerHref, ratingText, signed } from "./ratings.js";
import { el } from "./history.js";

const $ = (id) => document.getElementById(id);
const username = decodeURIComponent(window.location.pathname.split("/").filter(Boolean)[1] ?? "");

const page = {
  player: null, // the answer of GET /api/players/<username>
  missing: false, // 404: no such player
  failure: null, // {code, message}: why it could not be loaded
};


function count(value) {
  return Number.isInteger(value) ? value : 0;
}

function percent(won, played) {
  if (!played) return "—";
  try {
    return new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 0 }).format(won / played);
  } catch {
    return `${Math.round((100 * won) / played)}%`;
  }
}

/**
 * @param {string} iso
 * @param {Intl.DateTimeFormatOptions} [options]
 */
function formatDate(iso, options = { dateStyle: "medium", timeStyle: "short" }) {
  const date = parseTime(iso);
  if (!date) return "—";
  try {
    return new Intl.DateTimeFormat(language(), options).format(date);
  } catch {
    return date.toISOString().slice(0, 16).replace("T", " ");
  }
}

// A player's name as a link to their page; a name the server does not give (a deleted
// player's) as words.
function playerLink(name) {
  if (typeof name !== "string" || !name) return el("span", { class: "deleted-name", text: t("profile.deleted_name") });
  return el("a", { href: playerHref(name), text: name });
}

// An opponent in the list of matches: an account (met in a rated match, or among the
// opponents counted in the statistics) links to its page; a match with no account on the other
// side names its seats as they sat, a computer by its level.
function opponentName(name, match, accounts) {
  if (match.rated || accounts.has(name)) return playerLink(name);
  if (LEVELS.includes(name)) return el("span", { text: t("common.computer", { level: levelName(name) }) });
  return el("span", { text: name || "—" });
}

// The games in their usual order, then any other the server rates.
function orderedGames(byGame) {
  const games = Object.keys(byGame ?? {});
  return [...GAMES.filter((game) => games.includes(game)), ...games.filter((game) => !GAMES.includes(game))];
}

// -- ratings

function ratingCard(game, rating) {
  const rank = Number.isInteger(rating.rank)
    ? el("a", { class: "rank", "data-testid": "rank", href: `/leaderboard?game=${encodeURIComponent(game)}`, text: t("profile.rank", { rank: rating.rank }) })
    : el("span", { class: "rank", "data-testid": "rank", text: t("profile.unranked") });
  return el("li", { class: "rating-card", "data-testid": "profile-rating", "data-game": game },
    el("h3", { text: gameName(game) }),
    el("p", { class: "rating-value", "data-testid": "rating-value", text: ratingText(rating.rating, rating.deviation) }),
    el("p", { class: "rating-meta" },
      rating.provisional ? el("span", { class: "provisional", "data-testid": "provisional", title: t("profile.provisional_hint"), text: t("ratings.provisional") }) : null,
      rank,
      el("span", { class: "matches", text: tn("profile.rated_matches", count(rating.matches)) })));
}

function drawRatings(player) {
  const games = orderedGames(player.ratings);
  $("ratings").replaceChildren(...games.map((game) => ratingCard(game, player.ratings[game])));
  $("ratings-none").hidden = games.length > 0;
}

// -- charts

let chartWidth = 0;

function drawCharts(player) {
  const history = player.history ?? {};
  const games = orderedGames(history).filter((game) => Array.isArray(history[game]) && history[game].length > 0);
  $("charts-section").hidden = games.length === 0;
  if (!games.length) return;
  const box = $("charts");
  chartWidth = Math.floor(box.clientWidth);
  if (!chartWidth) return;
  box.replaceChildren(...games.map((game) => ratingChart(game, history[game], chartWidth)));
}

// The charts are drawn at the width they are shown at: again when it changes.
const resized = new ResizeObserver(() => {
  if (page.player && Math.floor($("charts").clientWidth) !== chartWidth) drawCharts(page.player);
});

// -- statistics

function statsRow(game, line) {
  return el("tr", { "data-testid": "stats-game", "data-game": game },
    el("th", { scope: "row", text: gameName(game) }),
    el("td", { "data-stat": "matches", text: String(count(line.matches)) }),
    el("td", { "data-stat": "won", text: String(count(line.won)) }),
    el("td", { "data-stat": "win_rate", text: percent(count(line.won), count(line.matches)) }),
    el("td", { "data-stat": "sweeps", text: String(count(line.sweeps)) }));
}

function opponentRow(line) {
  return el("tr", { "data-testid": "stats-opponent", "data-username": line.username ?? "" },
    el("th", { scope: "row" }, playerLink(line.username)),
    el("td", { "data-stat": "matches", text: String(count(line.matches)) }),
    el("td", { "data-stat": "won", text: String(count(line.won)) }),
    el("td", { "data-stat": "win_rate", text: percent(count(line.won), count(line.matches)) }));
}

function bestHand(hand, replays) {
  const where = t("profile.best_hand_where", { game: gameName(hand.game), hand: hand.hand, match: hand.match });
  return el("li", { "data-testid": "best-hand", "data-match": hand.match },
    el("strong", { text: tn("profile.points", count(hand.points)) }), " · ",
    replays.has(hand.match) ? el("a", { href: `/replay/${encodeURIComponent(hand.match)}`, text: where }) : el("span", { text: where }));
}

function drawStats(player) {
  const stats = player.stats ?? {};
  const played = count(stats.matches);
  $("stats-summary").textContent = [
    tn("profile.summary_matches", played),
    t("profile.summary_won", { won: count(stats.won), rate: percent(count(stats.won), played) }),
    tn("profile.summary_sweeps", count(stats.sweeps)),
  ].join(" · ");
  const games = orderedGames(stats.by_game);
  $("by-game-box").hidden = games.length === 0;
  $("by-game").replaceChildren(...games.map((game) => statsRow(game, stats.by_game[game])));
  const opponents = Array.isArray(stats.by_opponent) ? stats.by_opponent : [];
  $("by-opponent-box").hidden = opponents.length === 0;
  $("by-opponent").replaceChildren(...opponents.map(opponentRow));
  const hands = Array.isArray(stats.best_hands) ? stats.best_hands : [];
  const replays = new Set((player.matches ?? []).filter((match) => match.replay).map((match) => match.id));
  $("best-hands-box").hidden = hands.length === 0;
  $("best-hands").replaceChildren(...hands.map((hand) => bestHand(hand, replays)));
}

// -- the last matches

function resultText(won) {
  if (won === true) return t("profile.result_won");
  if (won === false) return t("profile.result_lost");
  return t("profile.result_none");
}

function changeCell(match) {
  if (!match.rated) return el("span", { class: "casual", text: t("profile.casual") });
  if (!Number.isFinite(match.change)) return el("span", { class: "casual", text: t("profile.not_counted") });
  const direction = match.change > 0 ? "up" : match.change < 0 ? "down" : "even";
  return el("span", { class: `change ${direction}`, "data-testid": "match-change", text: signed(match.change) });
}

function matchRow(match, accounts) {
  const opponents = Array.isArray(match.opponents) ? match.opponents : [];
  const names = el("span", { class: "opponents" });
  opponents.forEach((name, index) => {
    if (index > 0) names.append(", ");
    names.append(opponentName(name, match, accounts));
  });
  const game = el("td", { "data-label": t("common.game") }, el("span", { class: "game-name", text: gameName(match.game) }));
  if (match.preset && presetName(match.preset) !== gameName(match.game)) {
    game.append(el("span", { class: "preset", text: presetName(match.preset) }));
  }
  const replay = match.replay
    ? el("a", {
      class: "button", "data-testid": "replay-link", href: `/replay/${encodeURIComponent(match.id)}`,
      title: t("profile.replay_title", { id: match.id }), text: `▶ ${t("profile.col.replay")}`,
    })
    : null;
  return el("tr", { "data-testid": "profile-match", "data-match": match.id },
    el("td", { class: "date", "data-label": t("profile.col.date"), text: formatDate(match.finished_at) }),
    game,
    el("td", { "data-label": t("profile.col.opponents") }, opponents.length ? names : "—"),
    el("td", { class: `result ${match.won === true ? "won" : ""}`, "data-label": t("profile.col.result"), text: resultText(match.won) }),
    el("td", { class: "rating-change", "data-label": t("profile.col.rating") }, changeCell(match)),
    el("td", { class: "action" }, replay));
}

function drawMatches(player) {
  const matches = Array.isArray(player.matches) ? player.matches : [];
  $("matches-none").hidden = matches.length > 0;
  $("matches-table").hidden = matches.length === 0;
  const accounts = new Set((player.stats?.by_opponent ?? []).map((line) => line.username).filter(Boolean));
  $("matches").replaceChildren(...matches.map((match) => matchRow(match, accounts)));
}

// -- the page

function render() {
  applyTexts(document.querySelector("main"));
  const player = page.player;
  const deleted = Boolean(player?.deleted);
  $("profile-loading").hidden = player !== null || page.missing || page.failure !== null;
  $("profile-error").hidden = page.failure === null;
  if (page.failure) $("profile-error").textContent = t("profile.error", { message: errorText(page.failure.code, page.failure.message) });
  $("profile-missing").hidden = !page.missing;
  $("profile-missing-text").textContent = t("profile.missing_text", { name: username });
  $("profile-deleted").hidden = !deleted;
  $("profile-body").hidden = !player || deleted;
  if (page.missing) document.title = `${t("profile.missing_title")} · Escoba`;
  else if (deleted) document.title = `${t("profile.deleted_title")} · Escoba`;
  else document.title = `${player?.username ?? username} · Escoba`;
  if (!player || deleted) return;
  $("profile-name").textContent = player.username;
  $("profile-since").textContent = t("profile.since", { date: formatDate(player.created_at, { dateStyle: "long" }) });
  drawRatings(player);
  drawStats(player);
  drawMatches(player);
  drawCharts(player); // once the page around it is laid out: the charts take its width
}

async function load() {
  if (!username) {
    page.missing = true;
    render();
    return;
  }
  try {
    page.player = await api(`/api/players/${encodeURIComponent(username)}`);
    page.failure = null;
    page.missing = false;
  } catch (problem) {
    if (problem?.status === 404) page.missing = true;
    else page.failure = { code: problem?.code ?? "", message: String(problem?.message ?? problem) };
  }
  render();
}

function start() {
  mountHeader($("site-header"));
  window.addEventListener("escoba:prefs", render);
  window.addEventListener("escoba:server", (event) => {
    if (event.detail?.reachable && page.failure !== null) load();
  });
  resized.observe($("charts"));
  render();
  load();
}

start();
