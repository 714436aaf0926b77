// Words for the game screen: names of seats and sides, cards, moves and table events, in the
// chosen language and deck style. Everything returned here is plain text (for textContent),
// except cardFace/cardBack, which return the SVG markup drawn by cards.js.

import { cardBackSvg, cardName, cardSvg, isCard } from "./cards.js";
import { t, tn } from "./i18n.js";
import { deckStyle, language } from "./prefs.js";
import { levelName } from "./rooms.js";

// Card texts come from the server: only well-formed ones are drawn.
export function cardFace(card) {
  if (!isCard(card)) return "";
  return cardSvg(card, deckStyle(), { language: language() });
}

export function cardBack() {
  return cardBackSvg(deckStyle());
}

export function cardLabel(card) {
  return isCard(card) ? cardName(card, deckStyle(), language()) : String(card);
}

export function cardList(cards) {
  return cards.map(cardLabel).join(" + ");
}

export function sideOf(room, seat) {
  return room.sides.findIndex((seats) => seats.includes(seat));
}

// A seat as the viewer sees it: "you", the nickname, "computer (medium)" or "free seat".
export function seatName(room, seat, mySeat) {
  if (seat === mySeat) return t("common.you");
  const info = room.seats.find((entry) => entry.seat === seat);
  if (!info) return t("common.seat_n", { n: seat + 1 });
  if (info.kind === "computer") return t("common.computer", { level: levelName(info.level) });
  if (!info.taken || !info.nickname) return t("game.free_seat");
  return info.nickname;
}

// A side: its seats' names joined, "you & Ana" in partnerships.
export function sideName(room, side, mySeat) {
  const seats = room.sides[side] ?? [];
  const infos = seats.map((seat) => room.seats.find((entry) => entry.seat === seat));
  if (seats.length > 1 && infos.every((info) => info?.kind === "computer")) {
    return t("common.computers", { levels: infos.map((info) => levelName(info.level)).join(" & ") });
  }
  const mine = seats.includes(mySeat);
  const ordered = mine ? [mySeat, ...seats.filter((seat) => seat !== mySeat)] : seats;
  return ordered.map((seat) => seatName(room, seat, mySeat)).join(" & ");
}

export function moveText(move) {
  if (!move.captures.length) return t("game.move_drop", { card: cardLabel(move.card) });
  return t("game.move_take", { card: cardLabel(move.card), cards: cardList(move.captures) });
}

// One line about a table event: who played what and took what.
export function eventText(event, room, mySeat) {
  if (!event) return "";
  if (event.kind === "play") {
    const who = seatName(room, event.seat, mySeat);
    const you = event.seat === mySeat;
    let text;
    if (event.captures.length) {
      text = t(you ? "game.event_take_you" : "game.event_take", {
        who, card: cardLabel(event.card), cards: cardList(event.captures),
      });
    } else {
      text = t(you ? "game.event_drop_you" : "game.event_drop", { who, card: cardLabel(event.card) });
    }
    return event.sweep ? `${text} ${t("game.event_sweep")}` : text;
  }
  if (event.kind === "deal") return t("game.event_deal", { round: event.round ?? 1 });
  if (event.kind === "initial_sweep") {
    return t("game.event_initial_sweep", {
      who: seatName(room, event.dealer, mySeat), cards: cardList(event.cards), sweeps: tn("count.sweeps", event.sweeps),
    });
  }
  if (event.kind === "redeal") return t("game.event_redeal", { cards: cardList(event.cards) });
  return "";
}
