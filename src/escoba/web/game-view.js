// @ts-check
// The board of the game screen: the seats around the felt, the table cards, the stock, your
// hand, the capture choice, the hint, the totals; and the short animation of each play.
// It only draws: clicks go back to game.js through the handlers given to the constructor.

import { t, tn } from "./i18n.js";
import {
  cardBack, cardFace, cardLabel, cardList, eventText, isPartner, moveText, seatLabel, seatName, shortSeatName, sideName, sideOf,
  spokenCard,
} from "./game-names.js";
import { seatClock } from "./game-clock.js";

// Where each seat sits, counted from the viewer's seat in the order of play (anticlockwise:
// the next player sits on your right).
const POSITIONS = {
  2: ["south", "north"],
  3: ["south", "east", "west"],
  4: ["south", "east", "north", "west"],
};

const byId = (id) => document.getElementById(id);

export function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

// An element with a class and text (never markup).
export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function cardButton(card, kind) {
  const button = element("button", `card-slot ${kind}`);
  button.type = "button";
  button.dataset.testid = kind;
  button.dataset.card = card;
  button.innerHTML = cardFace(card); // markup from cards.js, for a validated card text
  // Named by words in the button (a screen reader's name is the button's text), not by the
  // picture's corner letters.
  button.querySelector("svg")?.setAttribute("aria-hidden", "true");
  button.prepend(element("span", "card-name visually-hidden", spokenCard(card)));
  return button;
}

// A picture that a screen reader names as a whole, by `label`.
function picture(node, label) {
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", label);
  return node;
}

function backs(count, className) {
  const holder = picture(element("div", count > 4 ? `${className} many` : className), tn("game.cards_in_hand", count));
  const back = cardBack();
  for (let index = 0; index < count; index += 1) {
    const slot = element("span", "back-slot");
    slot.innerHTML = back;
    holder.append(slot);
  }
  return holder;
}

// The cards that made each side's sweeps this hand, from the hand's events; initial sweeps
// (and anything the history no longer shows) become plain marks.
function sweepCards(match, room) {
  const cards = room.sides.map(() => []);
  for (const event of match.history) {
    if (event.kind === "play" && event.sweep) cards[sideOf(room, event.seat)]?.push(event.card);
    if (event.kind === "initial_sweep") {
      for (let index = 0; index < event.sweeps; index += 1) cards[sideOf(room, event.dealer)]?.push(null);
    }
  }
  return cards.map((list, side) => {
    const count = match.sweeps[side] ?? 0;
    const shown = list.slice(-count);
    while (shown.length < count) shown.unshift(null);
    return shown;
  });
}

export class Board {
  constructor({ onHandCard, onTableCard, onChoose, onCancel }) {
    this.board = byId("board");
    this.seats = { west: byId("seat-west"), north: byId("seat-north"), east: byId("seat-east"), south: byId("seat-south") };
    this.table = byId("table-cards");
    this.hand = byId("hand");
    this.flyers = [];
    this.lastHand = new Set();
    this.lastTable = new Set();
    this.hand.addEventListener("click", (event) => {
      const button = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest("[data-testid=hand-card]"));
      if (button) onHandCard(button.dataset.card);
    });
    this.table.addEventListener("click", (event) => {
      const button = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest("[data-testid=table-card]"));
      if (button) onTableCard(button.dataset.card);
    });
    this.onChoose = onChoose;
    this.pointed = null; // the index of the capture choice under the pointer
    // The capture choice and the hint open below the hand on a phone: brought into sight when
    // they open or grow (beside the hand on a wide screen, they are in sight already).
    const panel = byId("helper-panel");
    new ResizeObserver(() => {
      if (panel.offsetHeight) panel.scrollIntoView({ block: "nearest" });
    }).observe(panel);
    byId("choice-cancel").addEventListener("click", onCancel);
  }

  /** @param {TableState} state */
  render(state, ui) {
    const focused = this.focusedPart();
    const { room, match } = state;
    const me = match.seat;
    const view = me ?? 0;
    const players = room.players;
    const positions = POSITIONS[players] ?? POSITIONS[4];
    this.board.dataset.players = String(players);
    this.board.classList.toggle("watching", me === null);
    for (const [position, node] of Object.entries(this.seats)) node.hidden = !positions.includes(position);
    const sweeps = sweepCards(match, room);
    for (let seat = 0; seat < players; seat += 1) {
      const position = positions[(seat - view + players) % players];
      this.renderSeat(this.seats[position], seat, state, sweeps);
    }
    this.renderFelt(state, ui);
    this.renderHand(state, ui);
    this.renderChoice(ui);
    this.renderHint(ui);
    this.renderTotals(state);
    byId("hand-number").textContent = t("common.hand_n", { n: match.hand_number + 1 });
    this.refocus(focused, ui);
  }

  // The hand, the table and the capture choice are drawn anew each time: where the keyboard
  // was in them, so that it stays there (or moves on sensibly) after drawing.
  focusedPart() {
    const active = /** @type {HTMLButtonElement | null} */ (document.activeElement);
    if (!active || active === document.body) return null;
    const choice = byId("choice");
    if (choice.contains(active)) return { part: "choice", index: [...choice.querySelectorAll("button")].indexOf(active) };
    if (this.hand.contains(active)) return { part: "hand", card: active.dataset.card };
    if (this.table.contains(active)) return { part: "table", card: active.dataset.card };
    return null;
  }

  refocus(focused, ui) {
    if (!focused) return;
    const card = (where, wanted) => (wanted ? where.querySelector(`[data-card="${CSS.escape(wanted)}"]`) : null);
    const choices = [...byId("choice").querySelectorAll("button")];
    let target = null;
    if (ui.choice && focused.part === "hand") target = choices[0]; // a card with several captures was chosen
    else if (ui.choice && focused.part === "choice") target = choices[focused.index] ?? choices[0];
    else if (focused.part === "table") target = card(this.table, focused.card);
    else if (focused.part === "hand") target = card(this.hand, focused.card);
    else if (focused.part === "choice") target = card(this.hand, ui.lastChosen); // cancelled
    target ??= this.hand.querySelector("[data-testid=hand-card]") ?? this.hand;
    if (target !== document.activeElement) target.focus({ preventScroll: true });
  }

  /**
   * @param {HTMLElement} node
   * @param {number} seat
   * @param {TableState} state
   * @param {number} sweeps
   */
  renderSeat(node, seat, { room, match }, sweeps) {
    const me = match.seat;
    const info = room.seats.find((entry) => entry.seat === seat);
    const side = sideOf(room, seat);
    node.dataset.seat = String(seat);
    node.classList.toggle("to-move", match.to_move === seat && !match.over);
    node.classList.toggle("mine", seat === me);
    const partner = isPartner(room, seat, me);
    node.classList.toggle("partner", partner);
    const offline = info?.kind === "person" && (!info.taken || !info.connected);
    node.classList.toggle("offline", offline);
    node.setAttribute("aria-label", seatLabel(room, seat, me));

    const head = element("div", "seat-head");
    const dot = element("span", `dot ${info?.kind === "computer" ? "computer" : offline ? "away" : "here"}`);
    dot.title = info?.kind === "computer" ? t("game.computer_seat") : offline ? t("game.offline") : t("game.online");
    const name = element("span", "seat-name");
    if (info?.kind === "computer") {
      // phones show the level alone (and the computer's number): the blue dot says "computer"
      name.append(element("span", "long", seatName(room, seat, me)), element("span", "short", shortSeatName(room, seat, me)));
      name.title = seatName(room, seat, me);
    } else {
      name.textContent = seatName(room, seat, me);
    }
    head.append(dot, name);
    if (partner) {
      const tag = element("span", "partner-tag", t("game.partner"));
      tag.dataset.testid = "partner-tag";
      head.append(tag);
    }
    if (match.dealer === seat) {
      const chip = picture(element("span", "chip dealer", t("game.dealer_chip")), t("common.dealer"));
      chip.title = t("common.dealer");
      head.append(chip);
    }
    if (offline) head.append(element("span", "away-text", info.taken ? t("game.offline") : t("game.waiting_friend")));
    const clock = seatClock(room.clock, seat, info?.kind);
    if (clock) head.append(clock);

    const body = element("div", "seat-body");
    if (seat !== me) body.append(backs(match.hand_sizes[seat] ?? 0, "backs"));
    const pile = element("div", "pile");
    pile.dataset.side = String(side);
    const taken = match.captured[side]?.length ?? 0;
    pile.title = tn("count.cards_taken", taken);
    const stack = element("span", `pile-stack${taken ? "" : " empty"}`);
    if (taken) stack.innerHTML = cardBack();
    const count = picture(element("span", "pile-taken"), tn("count.cards_taken", taken));
    count.append(stack, element("span", "pile-count", String(taken)));
    pile.append(count);
    const marks = element("span", "sweeps");
    const sweepCount = match.sweeps[side] ?? 0;
    marks.title = tn("count.sweeps", sweepCount);
    if (sweepCount) {
      const named = (sweeps[side] ?? []).filter(Boolean).map((card) => t("game.sweep_with", { card: spokenCard(card) }));
      picture(marks, [tn("count.sweeps", sweepCount), ...named].join(", "));
    }
    for (const card of sweeps[side] ?? []) {
      const mark = element("span", card ? "sweep-card" : "sweep-mark");
      if (card) {
        mark.innerHTML = cardFace(card);
        mark.title = t("game.sweep_with", { card: cardLabel(card) });
      } else {
        mark.textContent = "★";
      }
      marks.append(mark);
    }
    pile.append(marks);
    body.append(pile);
    node.replaceChildren(head, body);
  }

  /** @param {TableState} state */
  renderFelt({ room, match }, ui) {
    const me = match.seat;
    // Dealt all at once (Scopone): there is never a stock to show.
    byId("stock").hidden = room.deals_per_hand === 1;
    byId("stock-card").innerHTML = match.stock_size ? cardBack() : "";
    byId("stock-card").classList.toggle("empty", !match.stock_size);
    byId("stock-size").textContent = String(match.stock_size);
    byId("stock").title = tn("common.stock_left", match.stock_size);
    byId("stock").setAttribute("aria-label", tn("common.stock_left", match.stock_size));
    const turn = byId("turn");
    turn.dataset.seat = match.to_move === null || match.over ? "" : String(match.to_move);
    turn.classList.toggle("mine", match.to_move === me && me !== null && !match.over);
    if (match.over) turn.textContent = t("common.match_over");
    else if (match.to_move === null) turn.textContent = "";
    else if (match.to_move === me) turn.textContent = t("game.your_turn");
    else turn.textContent = t("game.their_turn", { who: seatName(room, match.to_move, me) });

    const options = new Set(ui.choice ? ui.choice.moves.flatMap((move) => move.captures) : []);
    const selected = new Set(ui.choice?.selected ?? []);
    const hinted = new Set(ui.hint?.moves[0]?.move.captures ?? []);
    const fresh = [];
    const cards = match.table.map((card) => {
      const button = cardButton(card, "table-card");
      button.classList.toggle("option", options.has(card));
      button.classList.toggle("selected", selected.has(card));
      button.classList.toggle("hinted", hinted.has(card));
      if (!ui.choice) button.tabIndex = -1;
      if (!this.lastTable.has(card)) fresh.push(button);
      return button;
    });
    this.table.replaceChildren(...cards);
    this.table.classList.toggle("choosing", Boolean(ui.choice));
    if (this.lastTable.size === 0 || match.table.every((card) => !this.lastTable.has(card))) {
      for (const button of fresh) button.classList.add("enter");
    }
    this.lastTable = new Set(match.table);
    if (!match.table.length) this.table.append(element("p", "empty-table", t("common.table_empty")));

    // The latest play of this hand (or the dealer's initial sweep, or a redeal); before any,
    // the play that ended the previous hand; else the deal.
    const notable = match.history.findLast((event) => event.kind !== "deal");
    const shown = notable ?? ui.lastEvent ?? match.history.at(-1);
    byId("last-play").textContent = eventText(shown, room, me);
  }

  /** @param {TableState} state */
  renderHand({ match }, ui) {
    const myTurn = match.seat !== null && match.to_move === match.seat && !match.over && !ui.paused;
    const playable = new Set(match.legal.map((move) => move.card));
    const moveCount = (card) => match.legal.filter((move) => move.card === card).length;
    const hinted = ui.hint?.moves[0]?.move.card;
    const cards = match.hand.map((card) => {
      const button = cardButton(card, "hand-card");
      button.classList.toggle("playable", myTurn && playable.has(card));
      button.classList.toggle("dimmed", myTurn && playable.size > 0 && !playable.has(card));
      if (myTurn && !playable.has(card)) button.setAttribute("aria-disabled", "true");
      button.setAttribute("aria-keyshortcuts", String((match.hand.indexOf(card) + 1) % 10)); // 0: the tenth
      button.classList.toggle("chosen", ui.choice?.card === card);
      button.classList.toggle("hinted", hinted === card);
      if (myTurn) button.dataset.moves = String(moveCount(card));
      if (!this.lastHand.has(card)) button.classList.add("enter");
      return button;
    });
    this.hand.replaceChildren(...cards);
    // A long hand (Scopone's 10 cards) overlaps its cards to fit: game.css reads the count.
    this.hand.style.setProperty("--cards", String(Math.max(cards.length, 1)));
    this.hand.classList.toggle("my-turn", myTurn);
    // dimmed while it is somebody else's turn (or the hand is over): nothing to play now
    this.hand.classList.toggle("not-my-turn", match.seat !== null && !myTurn);
    this.lastHand = new Set(match.hand);
    if (match.seat === null) this.hand.append(element("p", "watching-note", t("game.watching")));
  }

  renderChoice(ui) {
    const box = byId("choice");
    box.hidden = !ui.choice;
    if (!ui.choice) {
      this.pointed = null;
      return;
    }
    byId("choice-prompt").textContent = t("game.choose_capture", { card: cardLabel(ui.choice.card) });
    const moves = ui.choice.moves;
    const buttons = moves.map((move, index) => {
      // numbered: key 1 takes the first set, 2 the second...
      const button = element("button", "capture-choice");
      button.append(element("kbd", "", String(index + 1)), move.captures.length ? cardList(move.captures) : t("game.drop"));
      button.type = "button";
      button.dataset.testid = "capture-choice";
      button.dataset.captures = move.captures.join(" ");
      button.title = moveText(move);
      button.setAttribute("aria-label", moveText(move, spokenCard));
      button.setAttribute("aria-keyshortcuts", String(index + 1));
      button.addEventListener("click", () => this.onChoose(move));
      // pointing at a set (or its focus) lights exactly its cards on the table; leaving it
      // lights the set that has the focus again, if any
      // (and again after the table is drawn anew, the pointer still there)
      button.addEventListener("mouseenter", () => {
        this.pointed = index;
        this.preview(move);
      });
      button.addEventListener("mouseleave", () => {
        this.pointed = null;
        this.preview(this.focusedChoice(moves));
      });
      button.addEventListener("focus", () => this.preview(move));
      button.addEventListener("blur", () => this.preview(this.pointed === null ? null : moves[this.pointed]));
      return button;
    });
    byId("choice-buttons").replaceChildren(...buttons);
    this.preview(moves[this.pointed] ?? this.focusedChoice(moves));
  }

  /** @param {Protocol.MoveView[]} moves */
  focusedChoice(moves) {
    const index = [...byId("choice-buttons").querySelectorAll("button")].indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
    return index >= 0 ? moves[index] : null;
  }

  /** @param {Protocol.MoveView | null} move */
  preview(move) {
    const lit = new Set(move?.captures ?? []);
    for (const node of /** @type {NodeListOf<HTMLElement>} */ (this.table.querySelectorAll("[data-testid=table-card]"))) {
      node.classList.toggle("preview", lit.has(node.dataset.card));
    }
  }

  renderHint(ui) {
    const box = byId("hint-text");
    // while a capture is chosen, the choice has the panel (the hinted cards stay marked)
    box.hidden = !ui.hint || Boolean(ui.choice);
    if (!ui.hint) return;
    if (!ui.hint.moves.length) {
      box.replaceChildren(element("p", "", t("game.hint_none")));
      return;
    }
    const lines = ui.hint.moves.slice(0, 2).map((entry, index) => {
      const line = element("p", index === 0 ? "best" : "second");
      line.append(element("strong", "", moveText(entry.move)), document.createTextNode(` — ${entry.text}`));
      return line;
    });
    box.replaceChildren(element("span", "hint-title", t("game.hint_title")), ...lines);
  }

  /** @param {TableState} state */
  renderTotals({ room, match }) {
    const me = match.seat;
    const best = Math.max(...match.totals);
    const entries = room.sides.map((seats, side) => {
      const entry = element("span", "total");
      entry.dataset.side = String(side);
      entry.classList.toggle("mine", seats.includes(me));
      entry.classList.toggle("leading", match.totals[side] === best && best > 0);
      entry.append(element("span", "total-name", sideName(room, side, me)), element("b", "total-points", String(match.totals[side] ?? 0)));
      return entry;
    });
    const target = element("span", "target", t("game.target", { n: room.rules?.target_score ?? "?" }));
    byId("totals").replaceChildren(...entries, target);
  }

  // Positions of everything that may move, taken before drawing the next state.
  snapshot() {
    const rects = (selector) => new Map(
      [...document.querySelectorAll(selector)].map((node) => [node.dataset.card, node.getBoundingClientRect()]),
    );
    const seats = new Map();
    for (const node of Object.values(this.seats)) {
      if (node.hidden || !node.dataset.seat) continue;
      seats.set(Number(node.dataset.seat), (node.querySelector(".backs") ?? node).getBoundingClientRect());
    }
    return { table: rects("#table-cards [data-card]"), hand: rects("#hand [data-card]"), seats };
  }

  // The play of `event`, drawn over the new state: the card slides from the player to the table;
  // what it takes slides with it to the player's pile.
  /**
   * @param {Protocol.EventView | null} event
   * @param {ReturnType<Board["snapshot"]>} before
   * @param {Protocol.RoomInfo} _room
   */
  animate(event, before, _room) {
    for (const flyer of this.flyers.splice(0)) flyer.remove();
    if (event?.kind !== "play" || reducedMotion()) return;
    const sample = this.table.querySelector(".card-slot")?.getBoundingClientRect() ?? before.table.values().next().value;
    const size = sample ? { width: sample.width, height: sample.height } : { width: 70, height: 105 };
    let from = before.hand.get(event.card);
    if (!from) {
      const seat = before.seats.get(event.seat);
      if (!seat) return;
      from = centred(seat, size);
    }
    if (!event.captures.length) {
      const target = this.table.querySelector(`[data-card="${CSS.escape(event.card)}"]`);
      if (!target) return;
      target.classList.add("arriving");
      this.fly(event.card, from, [target.getBoundingClientRect()], 340).finally(() => target.classList.remove("arriving"));
      return;
    }
    const seatNode = Object.values(this.seats).find((node) => node.dataset.seat === String(event.seat) && !node.hidden);
    const pileRect = seatNode?.querySelector(".pile-stack")?.getBoundingClientRect();
    const firstTaken = before.table.get(event.captures[0]);
    if (!pileRect || !firstTaken) return;
    const pile = centred(pileRect, size);
    const meeting = { left: firstTaken.left + 12, top: firstTaken.top - 8, width: firstTaken.width, height: firstTaken.height };
    this.fly(event.card, from, [meeting, pile], 480);
    for (const card of event.captures) {
      const rect = before.table.get(card);
      if (rect) this.fly(card, rect, [rect, pile], 480);
    }
  }

  // A copy of `card` travelling from rect `from` through `stops` in `duration` ms.
  fly(card, from, stops, duration) {
    const flyer = element("div", "flyer");
    flyer.innerHTML = cardFace(card);
    Object.assign(flyer.style, { left: `${from.left}px`, top: `${from.top}px`, width: `${from.width}px`, height: `${from.height}px` });
    document.body.append(flyer);
    this.flyers.push(flyer);
    const frames = [{ transform: "none", opacity: 1 }];
    stops.forEach((stop, index) => {
      const last = index === stops.length - 1 && stops.length > 1;
      frames.push({
        transform: `translate(${stop.left - from.left}px, ${stop.top - from.top}px) scale(${stop.width / from.width})`,
        opacity: last ? 0.2 : 1,
        offset: stops.length > 1 ? (index + 1) / stops.length : 1,
      });
    });
    const animation = flyer.animate(frames, { duration, easing: "ease-in-out" });
    return animation.finished.catch(() => {}).finally(() => flyer.remove());
  }
}

function centred(rect, size) {
  return {
    left: rect.left + rect.width / 2 - size.width / 2,
    top: rect.top + rect.height / 2 - size.height / 2,
    width: size.width,
    height: size.height,
  };
}
