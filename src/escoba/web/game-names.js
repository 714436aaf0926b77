// @ts-check
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

export function cardList(cards, name = cardLabel) {
  return cards.map(name).join(" + ");
}

// French cards' words, for a screen reader: "J♦" is "jack of coins" ("Karo Bube"), the suits
// named as the rules name them (♦ coins, ♥ cups, ♠ swords, ♣ clubs: docs/glossary.md).
const FRENCH_SUITS = { d: "game.suit_coins", h: "game.suit_cups", s: "game.suit_swords", c: "game.suit_clubs" };
const FRENCH_RANKS = { A: "game.rank_ace", J: "game.rank_jack", Q: "game.rank_queen", K: "game.rank_king" };

// A card's name in words, in the player's language and deck style: "7 of coins",
// "sota de oros". The Spanish and Italian decks' names are words already.
export function spokenCard(card) {
  if (!isCard(card)) return String(card);
  if (deckStyle() !== "french") return cardLabel(card);
  const rank = card[0] in FRENCH_RANKS ? t(FRENCH_RANKS[card[0]]) : card[0];
  return t("game.card_spoken", { rank, suit: t(FRENCH_SUITS[card[1]]) });
}

/**
 * @param {Protocol.RoomInfo} room
 * @param {number | null} seat
 */
export function sideOf(room, seat) {
  return room.sides.findIndex((seats) => seats.includes(seat));
}

// A computer seat's number among the computer seats, counted in seat order from 1; null when
// the match has one computer only (its name needs no number then).
export function computerNumber(seats, seat) {
  const computers = seats.filter((entry) => entry.kind === "computer").map((entry) => entry.seat).sort((a, b) => a - b);
  return computers.length > 1 && computers.includes(seat) ? computers.indexOf(seat) + 1 : null;
}

// "Computer (medium)", or "Computer 2 (medium)" when the match has several.
export function computerName(seats, seat, level) {
  const n = computerNumber(seats, seat);
  return n === null ? t("common.computer", { level: levelName(level) }) : t("common.computer_n", { n, level: levelName(level) });
}

// A seat as the viewer sees it: "you", the nickname, "Computer 2 (medium)" or "free seat".
/**
 * @param {Protocol.RoomInfo} room
 * @param {number} seat
 * @param {number | null} mySeat
 */
export function seatName(room, seat, mySeat) {
  if (seat === mySeat) return t("common.you");
  const info = room.seats.find((entry) => entry.seat === seat);
  if (!info) return t("common.seat_n", { n: seat + 1 });
  if (info.kind === "computer") return computerName(room.seats, seat, info.level);
  if (!info.taken || !info.nickname) return t("game.free_seat");
  return info.nickname;
}

// Whether the seat is the viewer's partner: another seat of the viewer's side.
export function isPartner(room, seat, mySeat) {
  return mySeat !== null && mySeat !== undefined && seat !== mySeat && Boolean(room.sides[sideOf(room, mySeat)]?.includes(seat));
}

// A seat's name as a screen reader says it: "Computer 2 (medium), your partner".
export function seatLabel(room, seat, mySeat) {
  const name = seatName(room, seat, mySeat);
  return isPartner(room, seat, mySeat) ? t("game.seat_partner", { name }) : name;
}

// A seat's name as a phone shows it over a narrow seat: a computer's level alone (its blue dot
// says "computer"), with its number when the match has several ("2 · medium").
export function shortSeatName(room, seat, mySeat) {
  const info = room.seats.find((entry) => entry.seat === seat);
  if (info?.kind !== "computer" || seat === mySeat) return seatName(room, seat, mySeat);
  const number = computerNumber(room.seats, seat);
  return number === null ? levelName(info.level) : `${number} · ${levelName(info.level)}`;
}

// A side: its seats' names joined, "you & Ana" in partnerships.
/**
 * @param {Protocol.RoomInfo} room
 * @param {number} side
 * @param {number | null} mySeat
 */
export function sideName(room, side, mySeat) {
  const seats = room.sides[side] ?? [];
  const mine = seats.includes(mySeat);
  const ordered = mine ? [mySeat, ...seats.filter((seat) => seat !== mySeat)] : seats;
  return ordered.map((seat) => seatName(room, seat, mySeat)).join(" & ");
}

export function moveText(move, name = cardLabel) {
  if (!move.captures.length) return t("game.move_drop", { card: name(move.card) });
  return t("game.move_take", { card: name(move.card), cards: cardList(move.captures, name) });
}

// One line about a table event: who played what and took what. Cards are named by `name`:
// cardLabel ("7♦") on screen, spokenCard ("7 of diamonds") for a screen reader.
export function eventText(event, room, mySeat, name = cardLabel) {
  if (!event) return "";
  if (event.kind === "play") {
    const who = seatName(room, event.seat, mySeat);
    const you = event.seat === mySeat;
    let text;
    if (event.captures.length) {
      text = t(you ? "game.event_take_you" : "game.event_take", {
        who, card: name(event.card), cards: cardList(event.captures, name),
      });
    } else {
      text = t(you ? "game.event_drop_you" : "game.event_drop", { who, card: name(event.card) });
    }
    return event.sweep ? `${text} ${t("game.event_sweep")}` : text;
  }
  if (event.kind === "deal") return t("game.event_deal", { round: event.round ?? 1 });
  if (event.kind === "initial_sweep") {
    return t("game.event_initial_sweep", {
      who: seatName(room, event.dealer, mySeat), cards: cardList(event.cards, name), sweeps: tn("count.sweeps", event.sweeps),
    });
  }
  if (event.kind === "redeal") return t("game.event_redeal", { cards: cardList(event.cards, name) });
  return "";
}
