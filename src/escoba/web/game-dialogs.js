// @ts-check
// The dialogs of the game screen: the score pad (one hand's score explained, category by
// category, with each side's captured cards on demand, and the running totals) and the rules
// cheat sheet (from the server, in the chosen language).

import { t } from "./i18n.js";
import { deckStyle, language } from "./prefs.js";
import { api, errorText, presetName } from "./rooms.js";
import { seatName, sideName, sideOf } from "./game-names.js";
import { element } from "./game-view.js";
import { showPiles } from "./game-log.js";
import { explainedTable } from "./score-explained.js";

const byId = (id) => document.getElementById(id);

function openDialog(dialog) {
  if (dialog.open) return;
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
}

export function closeDialog(dialog) {
  if (!dialog.open) return;
  if (typeof dialog.close === "function") dialog.close();
  else dialog.removeAttribute("open");
}

// The winner in words, from the viewer's side: "You win!" or "Ana wins".
export function winnerText({ room, match }) {
  if (match.winner === null || match.winner === undefined) return "";
  const mine = room.sides[match.winner]?.includes(match.seat);
  const name = sideName(room, match.winner, match.seat);
  let text;
  if (mine) text = room.sides[match.winner].length > 1 ? t("game.winner_you_partner", { name }) : t("game.winner_you");
  else text = t(room.sides[match.winner]?.length > 1 ? "game.winner_side" : "game.winner", { name });
  // a match claimed: the other side left the table
  return room.ended ? `${text} ${t("game.won_by_abandonment")}` : text;
}

function headRow(room, mySeat, first) {
  const row = element("tr");
  row.append(element("th", "", first));
  room.sides.forEach((seats, side) => {
    const cell = element("th", seats.includes(mySeat) ? "mine" : "", sideName(room, side, mySeat));
    cell.scope = "col";
    row.append(cell);
  });
  return row;
}

function runningTable({ room, match }) {
  const table = element("table", "grid running");
  const head = element("thead");
  head.append(headRow(room, match.seat, t("common.hand")));
  const body = element("tbody");
  const running = room.sides.map(() => 0);
  match.results.forEach((result, index) => {
    const row = element("tr");
    row.append(element("th", "", String(index + 1)));
    result.points.forEach((points, side) => {
      running[side] += points;
      const cell = element("td");
      cell.append(element("span", "gain", `+${points}`), element("span", "run", String(running[side])));
      row.append(cell);
    });
    body.append(row);
  });
  const total = element("tr", "sum");
  total.append(element("th", "", t("common.total")), ...match.totals.map((n) => element("td", "", String(n))));
  body.append(total);
  table.append(head, body);
  return table;
}

// Show the score pad for the hand at `index` of match.results (default the last finished).
// The winner and the rematch stay on the felt, shown once the last hand's pad is closed:
// nothing covers the running totals.
/**
 * @param {TableState} state
 * @param {number} [index] the hand's, in the match's results
 */
export function showScorepad(state, index = state.match.results.length - 1) {
  const dialog = byId("scorepad-dialog");
  const { match } = state;
  const result = match.results[index];
  const body = byId("scorepad-body");
  const parts = [];
  if (result) {
    byId("scorepad-title").textContent = t("common.hand_over", { n: index + 1 });
    const { room } = state;
    // Each category with the counts behind it, and each side's captured cards on demand.
    parts.push(explainedTable(result, {
      rules: room.rules,
      names: room.sides.map((_, side) => sideName(room, side, match.seat)),
      mine: sideOf(room, match.seat),
      seatName: (seat) => seatName(room, seat, match.seat),
      onPile: (side) => showPiles(state, { index, side }),
    }));
    parts.push(element("h3", "", t("game.running_totals", { n: state.room.rules?.target_score ?? "?" })));
    parts.push(runningTable(state));
  } else {
    byId("scorepad-title").textContent = t("common.scorepad");
    parts.push(element("p", "", t("game.no_hand_yet")));
  }
  body.replaceChildren(...parts);
  byId("scorepad-close").textContent = match.over ? t("common.close") : t("game.continue");
  openDialog(dialog);
}

const sheets = new Map();

// `preset` names the game in the title ("Cheat sheet: Scopa"), as the pages name it.
export async function showRules(room, preset) {
  const dialog = byId("rules-dialog");
  const lang = language();
  // The card values and examples name the cards as this page shows them.
  const deck = deckStyle();
  byId("rules-title").textContent = t("game.rules");
  const body = byId("rules-body");
  openDialog(dialog);
  let sheet = sheets.get(`${room}/${lang}/${deck}`);
  if (!sheet) {
    body.replaceChildren(element("p", "", t("common.loading")));
    try {
      sheet = await api(
        `/api/rooms/${encodeURIComponent(room)}/cheatsheet?language=${lang}&deck=${encodeURIComponent(deck)}`,
      );
      sheets.set(`${room}/${lang}/${deck}`, sheet);
    } catch (error) {
      body.replaceChildren(element("p", "error", errorText(error.code, error.message)));
      return;
    }
  }
  byId("rules-title").textContent = t("game.cheat_title", { game: presetName(preset) });
  body.replaceChildren(
    ...(sheet.sections ?? []).map((section) => {
      const part = element("section");
      if (section.title) part.append(element("h3", "", section.title));
      const list = element("ul");
      for (const line of section.lines ?? []) list.append(element("li", "", line));
      part.append(list);
      return part;
    }),
  );
}
