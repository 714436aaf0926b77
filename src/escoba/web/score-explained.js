// @ts-check
// A finished hand's score explained, for the game's score pad and the replay: for every
// category each side's count and its points (cards 22 – 18 → 1 – 0, coins, the seven of coins,
// the sevens or primiera comparison card by card, re bello and napola where played, sweeps) and the leftovers with who took
// them; and a side's captured cards grouped by suit. Everything comes from the server's
// HandResultView (escoba.explain_hand): nothing is counted again here.
//
// data-testid for browser tests:
//   explained            the table; each count cell has data-category, data-side, data-count
//                        (and data-points: that side's points in the category)
//   explained-leftovers  the leftovers line (data-cards: the cards, space separated;
//                        data-seat: the last capturer's seat, empty when nobody captured)
//   show-pile            one button per side (data-side) that opens that side's captured cards
//   pile                 a side's captured cards (data-side, data-count), in suit groups
//                        (pile-suit, data-suit) of pile-card (data-card) faces

import { SUITS, isCard, suitWord } from "./cards.js";
import { cardFace, cardLabel } from "./game-names.js";
import { t, tn } from "./i18n.js";
import { deckStyle } from "./prefs.js";
import { categoryName } from "./rooms.js";

// Score-pad order; a result names the categories its rules can score (result.categories).
const CATEGORIES = ["cards", "coins", "seven_of_coins", "sevens", "all_sevens", "re_bello", "napola", "sweeps"];
const COIN_RUN = ["Ad", "2d", "3d", "4d", "5d", "6d", "7d", "Jd", "Qd", "Kd"]; // napola's run, from the ace
const FRENCH_SUITS = { d: "game.suit_coins", h: "game.suit_cups", s: "game.suit_swords", c: "game.suit_clubs" };
const SYMBOLS = { d: "♦", h: "♥", s: "♠", c: "♣" };

function node(tag, attributes = {}, ...children) {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") made.className = value;
    else if (name === "text") made.textContent = value;
    else made.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    made.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return made;
}

const list = (value) => (Array.isArray(value) ? value : []);
let tables = 0; // numbers each explained table, for its headers' ids

// A small face of a card, named for a screen reader and on hover in the deck shown.
export function miniCard(card, extra = "") {
  const holder = node("span", { class: `mini-card ${extra}`.trim(), role: "img", "aria-label": cardLabel(card), title: cardLabel(card) });
  holder.dataset.card = String(card);
  // cardFace draws from a validated card text only; anything else is shown as text.
  if (isCard(card)) holder.innerHTML = cardFace(card);
  else holder.textContent = String(card);
  return holder;
}

// A suit's name in the deck shown: "♦ coins" (French cards), "oros", "denari".
export function suitName(suit) {
  const style = deckStyle();
  return style === "french" ? `${SYMBOLS[suit]} ${t(FRENCH_SUITS[suit])}` : suitWord(suit, style);
}

// Cards named in the deck shown: "7♦ 5♠", "siete de oros, cinco de espadas" (or by `name`).
export function cardWords(cards, name = cardLabel) {
  return list(cards).map(name).join(deckStyle() === "french" && name === cardLabel ? " " : ", ");
}

// One side's captured cards, grouped by suit (coins first), each group in rank order.
export function pileView(cards, side, title) {
  const held = list(cards).filter(isCard);
  const box = node("section", { class: "pile-view", "data-testid": "pile", "data-side": side, "data-count": held.length });
  box.append(node("h3", { text: `${title} · ${tn("count.cards_taken", held.length)}` }));
  if (!held.length) box.append(node("p", { class: "muted", text: t("common.pile_empty") }));
  for (const suit of SUITS) {
    const ofSuit = held.filter((card) => card[1] === suit);
    if (!ofSuit.length) continue;
    const group = node("div", { class: "pile-suit", "data-testid": "pile-suit", "data-suit": suit });
    group.append(node("span", { class: "pile-suit-name", text: `${suitName(suit)} (${ofSuit.length})` }));
    const row = node("div", { class: "pile-cards" });
    for (const card of ofSuit) {
      const face = miniCard(card);
      face.dataset.testid = "pile-card";
      row.append(face);
    }
    group.append(row);
    box.append(group);
  }
  return box;
}

// The cell of one side in one category: what it counts, then the points it scored.
function cell(category, side, count, points, ...shown) {
  const td = node("td", { class: points ? "scored" : "zero", "data-category": category, "data-side": side, "data-count": count, "data-points": points });
  td.append(node("span", { class: "count" }, ...shown));
  td.append(node("span", { class: "points", text: points ? `+${points}` : "–" }));
  return td;
}

function cards(shown) {
  return node("span", { class: "mini-cards" }, ...list(shown).map((card) => miniCard(card)));
}

// The sevens category as the rule set compares it: setenta's best card of each suit, best
// first; primiera's best card of each suit with its points and the sum; or the sevens taken.
function sevensCell(result, tally, side, points) {
  const mode = result.sevens_mode;
  if (mode === "ranking") {
    const ranked = list(tally.ranked);
    return cell("sevens", side, ranked.join(" "), points, cards(ranked));
  }
  if (mode === "primiera") {
    const shown = list(tally.best).map((card, index) => {
      if (!card) return null;
      return node("span", { class: "with-points" }, miniCard(card), node("small", { text: String(list(tally.best_points)[index] ?? 0) }));
    });
    const total = node("strong", { class: "total", text: `= ${tally.primiera}` });
    const missing = result.primiera_needs_all_suits && !tally.complete
      ? node("small", { class: "note", text: t("common.primiera_incomplete") })
      : null;
    return cell("sevens", side, tally.primiera, points, node("span", { class: "mini-cards" }, ...shown), total, missing);
  }
  const sevens = list(tally.sevens);
  return cell("sevens", side, sevens.length, points, cards(sevens), node("span", { class: "n", text: String(sevens.length) }));
}

// The explained breakdown of `result` (a HandResultView): `names` per side, `mine` the
// viewer's side (or -1), `seatName(seat)` names the last capturer, `onPile(side)` opens a
// side's captured cards (no buttons without it).
export function explainedTable(result, { rules, names, mine = -1, seatName, onPile = null }) {
  const tallies = list(result.tallies);
  const breakdown = result.breakdown ?? {};
  const table = node("table", { class: "grid explained", "data-testid": "explained" });
  const head = node("tr", {}, node("th", { scope: "col" }));
  tables += 1;
  const number = tables;
  const headId = (side) => `explained-${number}-side-${side}`;
  names.forEach((name, side) => {
    head.append(node("th", { scope: "col", id: headId(side), class: side === mine ? "mine" : null, text: name }));
  });
  const body = node("tbody");
  const points = (category, side) => list(breakdown[category])[side] ?? 0;
  const row = (category, cells) => {
    const tr = node("tr", { "data-category": category });
    tr.append(node("th", { scope: "row", text: categoryName(category, rules) }), ...cells);
    body.append(tr);
  };
  // The rows of the categories these rules can score (escoba.scoring.categories_in_play).
  const inPlay = list(result.categories);
  const shown = [...CATEGORIES.filter((key) => inPlay.includes(key)), ...inPlay.filter((key) => !CATEGORIES.includes(key))];
  for (const category of shown) {
    row(category, tallies.map((tally, side) => {
      const scored = points(category, side);
      if (category === "cards") return cell(category, side, tally.cards, scored, String(tally.cards));
      if (category === "coins") return cell(category, side, tally.coins, scored, String(tally.coins));
      if (category === "seven_of_coins") {
        return cell(category, side, tally.seven_of_coins ? 1 : 0, scored, tally.seven_of_coins ? miniCard("7d") : "");
      }
      if (category === "sevens") return sevensCell(result, tally, side, scored);
      if (category === "all_sevens") {
        const count = list(tally.sevens).length;
        return cell(category, side, count, scored, tn("count.sevens", count));
      }
      if (category === "re_bello") {
        return cell(category, side, tally.king_of_coins ? 1 : 0, scored, tally.king_of_coins ? miniCard("Kd") : "");
      }
      if (category === "napola") {
        const run = Number(tally.coin_run) || 0;
        return cell(category, side, run, scored, cards(COIN_RUN.slice(0, run)));
      }
      if (category === "sweeps") return cell(category, side, tally.sweeps, scored, String(tally.sweeps));
      return cell(category, side, "", scored, "");
    }));
  }
  const sum = node("tr", { class: "sum" }, node("th", { scope: "row", text: t("common.hand_points") }));
  for (const gained of list(result.points)) sum.append(node("td", { text: String(gained) }));
  body.append(sum);
  if (onPile) {
    const piles = node("tr", { class: "piles" }, node("th", { scope: "row", text: t("common.piles_title") }));
    tallies.forEach((tally, side) => {
      // Named by its own words, described by its column's side: "See cards (18)", "Bea".
      const button = node("button", {
        type: "button", class: "show-pile", "data-testid": "show-pile", "data-side": side,
        "aria-describedby": headId(side),
        text: t("common.show_pile", { count: list(tally.pile).length }),
      });
      button.addEventListener("click", () => onPile(side));
      piles.append(node("td", {}, button));
    });
    body.append(piles);
  }
  table.append(node("thead", {}, head), body);
  const notes = [];
  if (result.sevens_mode === "ranking") notes.push(node("p", { class: "note", text: t("common.setenta_compared") }));
  return node("div", { class: "explained-score" }, table, leftoversLine(result, seatName), ...notes);
}

// "5♣ 3♥ → Ana (captured last)", or that none were left; cards named by `name`.
export function leftoversText(result, seatName, name = cardLabel) {
  const left = list(result.leftovers);
  if (!left.length) return t("common.leftovers_none");
  const cards = cardWords(left, name);
  if (result.last_capturer === null || result.last_capturer === undefined) return t("common.leftovers_uncounted", { cards });
  return t("common.leftovers_to", { cards, who: seatName(result.last_capturer) });
}

function leftoversLine(result, seatName) {
  const left = list(result.leftovers);
  const line = node("p", {
    class: "leftovers", "data-testid": "explained-leftovers",
    "data-cards": left.join(" "), "data-seat": result.last_capturer ?? "",
  });
  line.append(node("strong", { text: `${t("common.leftovers")}: ` }), leftoversText(result, seatName));
  return line;
}
