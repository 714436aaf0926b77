// @ts-check
// The leaderboard, /leaderboard?game=escoba (leaderboard.html), from GET /api/leaderboard/<game>:
// one tab for each rated game; the top players (rank, name linking to their page, rating ±
// deviation, rated matches), the reader's own standing when signed in ("You: rank 12"), and
// the computer levels on the same scale, marked in the list where they stand and listed below
// it.
//
// data-testid for browser tests:
//   leaderboard-tabs       the tabs; each data-testid="game-tab", data-game, aria-selected
//   leaderboard-players    the table's body; players' rows data-testid="leaderboard-row",
//                          data-username, data-rank, data-rating (the reader's row .you);
//                          computer levels' marks among them data-testid="computer-mark",
//                          data-level
//   leaderboard-you        the reader's own rank and rating (signed in only)
//   leaderboard-empty      said when nobody is ranked in this game yet
//   leaderboard-computers  the levels' table; rows data-testid="computer-rating", data-level,
//                          data-rating
//   leaderboard-error      the board could not be loaded

import { mountHeader } from "./header.js";
import { applyTexts, t, tn } from "./i18n.js";
import { api, errorText, levelName } from "./rooms.js";
import { GAMES, gameName, number, playerHref, ratingText } from "./ratings.js";
import { el } from "./history.js";

const $ = (id) => document.getElementById(id);

const page = {
  game: chosenGame(),
  /** @type {Map<string, Protocol.Leaderboard>} */
  boards: new Map(), // game -> the server's answer
  failure: null, // {code, message}
  asked: 0, // loads are numbered: a slow answer for another game is not shown
};

function chosenGame() {
  const game = new URLSearchParams(window.location.search).get("game");
  return GAMES.includes(game) ? game : GAMES[0];
}


// -- the tabs (the ARIA tabs pattern: arrows move between them, the chosen one is in the Tab order)

function drawTabs() {
  const tabs = GAMES.map((game) => {
    const selected = game === page.game;
    const tab = el("button", {
      type: "button", role: "tab", id: `tab-${game}`, "data-testid": "game-tab", "data-game": game,
      "aria-selected": String(selected), "aria-controls": "leaderboard-panel", tabindex: selected ? "0" : "-1",
      text: gameName(game),
    });
    tab.addEventListener("click", () => choose(game));
    return tab;
  });
  $("game-tabs").replaceChildren(...tabs);
  $("leaderboard-panel").setAttribute("aria-labelledby", `tab-${page.game}`);
}

function onTabKey(event) {
  const index = GAMES.indexOf(page.game);
  const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: GAMES.length - 1 }[event.key];
  if (next === undefined) return;
  event.preventDefault();
  choose(GAMES[(next + GAMES.length) % GAMES.length]);
  $(`tab-${page.game}`)?.focus();
}

function choose(game) {
  if (game === page.game) return;
  page.game = game;
  const address = new URL(window.location.href);
  address.searchParams.set("game", game);
  window.history.replaceState(null, "", address);
  render();
  if (!page.boards.has(game)) load();
}

// -- the board

/**
 * @param {Protocol.BoardEntry} player
 * @param {Protocol.YourRank | null} you
 */
function playerRow(player, you) {
  const mine = Boolean(you && Number.isInteger(you.rank) && you.rank === player.rank);
  const name = el("a", { href: playerHref(player.username), text: player.username });
  return el("tr", {
    class: mine ? "you" : null, "data-testid": "leaderboard-row", "data-username": player.username,
    "data-rank": player.rank, "data-rating": player.rating,
  },
  el("td", { class: "rank", "data-label": t("leaderboard.col.rank"), text: number(player.rank) }),
  el("th", { scope: "row", class: "player" }, name, mine ? el("span", { class: "you-mark", text: t("leaderboard.you_mark") }) : null),
  el("td", { class: "rating", "data-label": t("profile.col.rating"), text: ratingText(player.rating, player.deviation) }),
  el("td", { class: "matches", "data-label": t("profile.col.matches"), text: number(player.matches) }));
}

/** @param {Protocol.BoardComputer} computer */
function computerMark(computer) {
  return el("tr", { class: "computer-mark", "data-testid": "computer-mark", "data-level": computer.level },
    el("td", { colspan: 4 }, el("span", { text: t("leaderboard.computer_mark", { level: levelName(computer.level), rating: number(computer.rating) }) })));
}

// The players' rows, each computer level's mark before the first player it rates above.
/** @param {Protocol.Leaderboard} board */
function boardRows(board) {
  const players = Array.isArray(board.players) ? board.players : [];
  const computers = (Array.isArray(board.computers) ? board.computers : []).slice().sort((a, b) => b.rating - a.rating);
  const rows = [];
  let next = 0;
  for (const player of players) {
    while (next < computers.length && computers[next].rating > player.rating) rows.push(computerMark(computers[next++]));
    rows.push(playerRow(player, board.you));
  }
  // The levels below the last player shown are in the table under the list only.
  return rows;
}

/** @param {Protocol.YourRank | null} you */
function youText(you) {
  const parts = [ratingText(you.rating, you.deviation)];
  if (you.provisional) parts.push(t("ratings.provisional"));
  parts.push(tn("profile.rated_matches", Number.isInteger(you.matches) ? you.matches : 0));
  const standing = Number.isInteger(you.rank) ? t("leaderboard.you_rank", { rank: you.rank }) : t("leaderboard.you_unranked");
  return `${standing} · ${parts.join(" · ")}`;
}

function render() {
  applyTexts(document.querySelector("main"));
  drawTabs();
  const game = page.game;
  document.title = `${t("leaderboard.title")} · ${gameName(game)} · Escoba`;
  const board = page.boards.get(game) ?? null;
  $("leaderboard-loading").hidden = board !== null || page.failure !== null;
  $("leaderboard-error").hidden = page.failure === null;
  if (page.failure) $("leaderboard-error").textContent = t("leaderboard.error", { message: errorText(page.failure.code, page.failure.message) });
  const players = Array.isArray(board?.players) ? board.players : [];
  $("leaderboard-caption").textContent = t("leaderboard.caption", { game: gameName(game) });
  $("leaderboard-table").hidden = players.length === 0;
  $("leaderboard-players").replaceChildren(...(board ? boardRows(board) : []));
  $("leaderboard-empty").hidden = !(board && players.length === 0);
  $("leaderboard-empty").textContent = t("leaderboard.empty", { game: gameName(game) });
  const you = board?.you ?? null;
  $("leaderboard-you").hidden = !you;
  if (you) $("leaderboard-you").textContent = youText(you);
  const computers = Array.isArray(board?.computers) ? board.computers.slice().sort((a, b) => b.rating - a.rating) : [];
  $("computers-section").hidden = computers.length === 0;
  $("leaderboard-computers").replaceChildren(...computers.map((computer) => el("tr", {
    "data-testid": "computer-rating", "data-level": computer.level, "data-rating": computer.rating,
  },
  el("th", { scope: "row", text: t("common.computer", { level: levelName(computer.level) }) }),
  el("td", { class: "rating", text: number(computer.rating) }))));
}

async function load() {
  const game = page.game;
  const asked = ++page.asked;
  page.failure = null;
  render();
  try {
    const board = await api(`/api/leaderboard/${encodeURIComponent(game)}`);
    page.boards.set(game, board);
  } catch (problem) {
    if (asked === page.asked) page.failure = { code: problem?.code ?? "", message: String(problem?.message ?? problem) };
  }
  if (asked === page.asked) render();
}

function start() {
  mountHeader($("site-header"));
  $("game-tabs").addEventListener("keydown", onTabKey);
  window.addEventListener("escoba:prefs", render);
  window.addEventListener("escoba:server", (event) => {
    if (event.detail?.reachable && page.failure !== null) load();
  });
  render();
  load();
}

start();
