// The replay viewer (/replay/<match id>): a finished match position by position, every hand
// face up, with the play that led to each position, the hands' score breakdowns and the result.
//
// The position is kept in the address (#step=12) so a reload or a shared link opens it again.
// Keys: ← → one play, Shift+← → (or Page Up/Down) one hand, Home/End, Space to play/pause.
//
// data-testid for browser tests:
//   replay-first, replay-prev-hand, replay-prev, replay-next, replay-next-hand, replay-last
//                     the step buttons (disabled at either end)
//   replay-step       "step i / n" (1-based; "Schritt", "paso", "passo" in de/es/it)
//   replay-slider     the position slider (1..n)
//   replay-play       autoplay start/pause (data-playing="true" while playing)
//   replay-speed      the autoplay speed (0.5, 1, 2, 4)
//   replay-hand       one seat's panel, with data-seat="<seat>": the name and the cards in hand
//                     (data-dealer, data-to-move and data-played="true" mark it)
//   replay-table      the cards on the table (the played card, when dropped, has class "played")
//   replay-stock      the cards left to deal
//   replay-event      the last play in words, e.g. "Ana plays 7♦ and takes 5♣ 3♦ — sweep!"
//   replay-side       one side's score line, with data-side="<side>"
//   replay-result     the finished hand's score breakdown (hidden unless the position ends a
//                     hand), and at the end of the match the final totals and the winner
//                     (data-final="true"; the winner line has data-testid replay-winner)
//   replay-error      the message when the match is unknown or unfinished, or loading failed

import { isCard } from "./cards.js";
import { cardBack, cardFace, cardLabel } from "./game-names.js";
import { mountHeader } from "./header.js";
import { el, leader, seatName, sideName, sideOf, sidesOf } from "./history.js";
import { applyTexts, known, register, t } from "./i18n.js";
import { deckStyle } from "./prefs.js";
import { ApiError, api, presetName } from "./rooms.js";

register({
  en: {
    "replay.page_title": "Replay",
    "replay.title": "Replay: {game}",
    "replay.loading": "Loading the replay…",
    "replay.not_found": "There is no finished match {id}: it may still be running, or the address is wrong.",
    "replay.load_error": "The replay could not be loaded: {message}",
    "replay.empty": "This match has no recorded positions.",
    "replay.back": "← Finished matches",
    "replay.match": "match {id}",
    "replay.partnerships": "partnerships",
    "replay.target": "to {points} points",
    "replay.versus": "vs",
    "replay.controls": "Replay controls",
    "replay.first": "First position",
    "replay.prev_hand": "Previous hand",
    "replay.prev": "Previous play",
    "replay.next": "Next play",
    "replay.next_hand": "Next hand",
    "replay.last": "Last position",
    "replay.step": "step {i} / {n}",
    "replay.slider": "Position in the match",
    "replay.play": "Play",
    "replay.pause": "Pause",
    "replay.speed": "Speed",
    "replay.keys": "Keys: ← → one play · Shift + ← → one hand · Home / End · Space play / pause",
    "replay.hand": "Hand {hand}",
    "replay.dealer": "dealer",
    "replay.to_move": "to move",
    "replay.no_cards": "no cards",
    "replay.table_empty": "The table is empty.",
    "replay.stock": "Stock: {count}",
    "replay.stock_title": "{count} cards left to deal",
    "replay.last_play": "Last play",
    "replay.scores": "Score",
    "replay.captured": "cards: {count}",
    "replay.sweeps": "sweeps: {count}",
    "replay.event.start": "Hand {hand} is dealt: {dealer} deals.",
    "replay.event.initial_sweep": "{who} deals and takes the table ({cards}). Sweeps: {sweeps}.",
    "replay.event.drop": "{who} plays {card}.",
    "replay.event.take": "{who} plays {card} and takes {cards}.",
    "replay.event.take_sweep": "{who} plays {card} and takes {cards} — sweep!",
    "replay.result.title": "Hand {hand} is over",
    "replay.result.cards_taken": "Cards taken",
    "replay.result.hand": "This hand",
    "replay.result.total": "Match total",
    "replay.cat.cards": "Most cards",
    "replay.cat.coins": "Most coins",
    "replay.cat.seven_of_coins": "Seven of coins",
    "replay.cat.sevens": "Most sevens",
    "replay.cat.primiera": "Primiera",
    "replay.cat.all_sevens": "All four sevens",
    "replay.cat.sweeps": "Sweeps",
    "replay.final.title": "The match is over",
    "replay.final.winner": "{winner} wins the match, {score}.",
    "replay.final.no_winner": "Final score: {score}.",
    "replay.final.hands": "Hand by hand",
    "replay.final.hand_col": "Hand",
  },
  de: {
    "replay.page_title": "Wiederholung",
    "replay.title": "Wiederholung: {game}",
    "replay.loading": "Die Wiederholung wird geladen …",
    "replay.not_found": "Es gibt keine beendete Partie {id}: Vielleicht läuft sie noch, oder die Adresse ist falsch.",
    "replay.load_error": "Die Wiederholung konnte nicht geladen werden: {message}",
    "replay.empty": "Zu dieser Partie sind keine Stellungen gespeichert.",
    "replay.back": "← Beendete Partien",
    "replay.match": "Partie {id}",
    "replay.partnerships": "Paare",
    "replay.target": "bis {points} Punkte",
    "replay.versus": "gegen",
    "replay.controls": "Steuerung der Wiederholung",
    "replay.first": "Zum Anfang",
    "replay.prev_hand": "Vorige Runde",
    "replay.prev": "Voriger Zug",
    "replay.next": "Nächster Zug",
    "replay.next_hand": "Nächste Runde",
    "replay.last": "Zum Ende",
    "replay.step": "Schritt {i} / {n}",
    "replay.slider": "Stelle in der Partie",
    "replay.play": "Abspielen",
    "replay.pause": "Anhalten",
    "replay.speed": "Tempo",
    "replay.keys": "Tasten: ← → ein Zug · Umschalt + ← → eine Runde · Pos1 / Ende · Leertaste abspielen / anhalten",
    "replay.hand": "Runde {hand}",
    "replay.dealer": "Geber",
    "replay.to_move": "am Zug",
    "replay.no_cards": "keine Karten",
    "replay.table_empty": "Der Tisch ist leer.",
    "replay.stock": "Stapel: {count}",
    "replay.stock_title": "Noch {count} Karten zu geben",
    "replay.last_play": "Letzter Zug",
    "replay.scores": "Stand",
    "replay.captured": "Karten: {count}",
    "replay.sweeps": "Abräumer: {count}",
    "replay.event.start": "Runde {hand} wird gegeben: {dealer} gibt.",
    "replay.event.initial_sweep": "{who} gibt und nimmt den Tisch ({cards}). Abräumer: {sweeps}.",
    "replay.event.drop": "{who} spielt {card}.",
    "replay.event.take": "{who} spielt {card} und sticht {cards}.",
    "replay.event.take_sweep": "{who} spielt {card} und sticht {cards} — abgeräumt!",
    "replay.result.title": "Runde {hand} ist vorbei",
    "replay.result.cards_taken": "Gestochene Karten",
    "replay.result.hand": "Diese Runde",
    "replay.result.total": "Gesamtstand",
    "replay.cat.cards": "Meiste Karten",
    "replay.cat.coins": "Meiste Karo",
    "replay.cat.seven_of_coins": "Karo-7",
    "replay.cat.sevens": "Meiste Siebenen",
    "replay.cat.primiera": "Primiera",
    "replay.cat.all_sevens": "Alle vier Siebenen",
    "replay.cat.sweeps": "Abräumer",
    "replay.final.title": "Die Partie ist vorbei",
    "replay.final.winner": "{winner} gewinnt die Partie, {score}.",
    "replay.final.no_winner": "Endstand: {score}.",
    "replay.final.hands": "Runde für Runde",
    "replay.final.hand_col": "Runde",
  },
  es: {
    "replay.page_title": "Repetición",
    "replay.title": "Repetición: {game}",
    "replay.loading": "Cargando la repetición…",
    "replay.not_found": "No hay ninguna partida terminada {id}: puede que aún se esté jugando o que la dirección sea errónea.",
    "replay.load_error": "No se pudo cargar la repetición: {message}",
    "replay.empty": "Esta partida no tiene posiciones guardadas.",
    "replay.back": "← Partidas terminadas",
    "replay.match": "partida {id}",
    "replay.partnerships": "por parejas",
    "replay.target": "a {points} puntos",
    "replay.versus": "contra",
    "replay.controls": "Controles de la repetición",
    "replay.first": "Al principio",
    "replay.prev_hand": "Mano anterior",
    "replay.prev": "Jugada anterior",
    "replay.next": "Jugada siguiente",
    "replay.next_hand": "Mano siguiente",
    "replay.last": "Al final",
    "replay.step": "paso {i} / {n}",
    "replay.slider": "Posición en la partida",
    "replay.play": "Reproducir",
    "replay.pause": "Pausa",
    "replay.speed": "Velocidad",
    "replay.keys": "Teclas: ← → una jugada · Mayús + ← → una mano · Inicio / Fin · Espacio reproducir / pausa",
    "replay.hand": "Mano {hand}",
    "replay.dealer": "reparte",
    "replay.to_move": "le toca",
    "replay.no_cards": "sin cartas",
    "replay.table_empty": "La mesa está vacía.",
    "replay.stock": "Mazo: {count}",
    "replay.stock_title": "Quedan {count} cartas por repartir",
    "replay.last_play": "Última jugada",
    "replay.scores": "Puntos",
    "replay.captured": "cartas: {count}",
    "replay.sweeps": "escobas: {count}",
    "replay.event.start": "Se reparte la mano {hand}: reparte {dealer}.",
    "replay.event.initial_sweep": "{who} reparte y se lleva la mesa ({cards}). Escobas: {sweeps}.",
    "replay.event.drop": "{who} juega {card}.",
    "replay.event.take": "{who} juega {card} y se lleva {cards}.",
    "replay.event.take_sweep": "{who} juega {card} y se lleva {cards}: ¡escoba!",
    "replay.result.title": "Se acabó la mano {hand}",
    "replay.result.cards_taken": "Cartas capturadas",
    "replay.result.hand": "Esta mano",
    "replay.result.total": "Total de la partida",
    "replay.cat.cards": "Más cartas",
    "replay.cat.coins": "Más oros",
    "replay.cat.seven_of_coins": "Siete de oros",
    "replay.cat.sevens": "Más sietes",
    "replay.cat.primiera": "Primera",
    "replay.cat.all_sevens": "Los cuatro sietes",
    "replay.cat.sweeps": "Escobas",
    "replay.final.title": "La partida ha terminado",
    "replay.final.winner": "{winner} gana la partida, {score}.",
    "replay.final.no_winner": "Resultado final: {score}.",
    "replay.final.hands": "Mano a mano",
    "replay.final.hand_col": "Mano",
  },
  it: {
    "replay.page_title": "Replay",
    "replay.title": "Replay: {game}",
    "replay.loading": "Caricamento del replay…",
    "replay.not_found": "Non c'è nessuna partita finita {id}: forse è ancora in corso, o l'indirizzo è sbagliato.",
    "replay.load_error": "Impossibile caricare il replay: {message}",
    "replay.empty": "Questa partita non ha posizioni registrate.",
    "replay.back": "← Partite finite",
    "replay.match": "partita {id}",
    "replay.partnerships": "a coppie",
    "replay.target": "a {points} punti",
    "replay.versus": "contro",
    "replay.controls": "Comandi del replay",
    "replay.first": "All'inizio",
    "replay.prev_hand": "Mano precedente",
    "replay.prev": "Giocata precedente",
    "replay.next": "Giocata successiva",
    "replay.next_hand": "Mano successiva",
    "replay.last": "Alla fine",
    "replay.step": "passo {i} / {n}",
    "replay.slider": "Posizione nella partita",
    "replay.play": "Avvia",
    "replay.pause": "Pausa",
    "replay.speed": "Velocità",
    "replay.keys": "Tasti: ← → una giocata · Maiusc + ← → una mano · Home / Fine · Spazio avvia / pausa",
    "replay.hand": "Mano {hand}",
    "replay.dealer": "mazziere",
    "replay.to_move": "di turno",
    "replay.no_cards": "nessuna carta",
    "replay.table_empty": "Il tavolo è vuoto.",
    "replay.stock": "Mazzo: {count}",
    "replay.stock_title": "Restano {count} carte da distribuire",
    "replay.last_play": "Ultima giocata",
    "replay.scores": "Punteggio",
    "replay.captured": "carte: {count}",
    "replay.sweeps": "scope: {count}",
    "replay.event.start": "Si distribuisce la mano {hand}: distribuisce {dealer}.",
    "replay.event.initial_sweep": "{who} distribuisce e prende il tavolo ({cards}). Scope: {sweeps}.",
    "replay.event.drop": "{who} gioca {card}.",
    "replay.event.take": "{who} gioca {card} e prende {cards}.",
    "replay.event.take_sweep": "{who} gioca {card} e prende {cards}: scopa!",
    "replay.result.title": "La mano {hand} è finita",
    "replay.result.cards_taken": "Carte prese",
    "replay.result.hand": "Questa mano",
    "replay.result.total": "Totale della partita",
    "replay.cat.cards": "Carte",
    "replay.cat.coins": "Denari",
    "replay.cat.seven_of_coins": "Settebello",
    "replay.cat.sevens": "Più sette",
    "replay.cat.primiera": "Primiera",
    "replay.cat.all_sevens": "I quattro sette",
    "replay.cat.sweeps": "Scope",
    "replay.final.title": "La partita è finita",
    "replay.final.winner": "{winner} vince la partita, {score}.",
    "replay.final.no_winner": "Punteggio finale: {score}.",
    "replay.final.hands": "Mano per mano",
    "replay.final.hand_col": "Mano",
  },
});

const CATEGORIES = ["cards", "coins", "seven_of_coins", "sevens", "all_sevens", "sweeps"];
const BASE_DELAY = 1100; // milliseconds a position stays at 1× autoplay
const HAND_END_PAUSE = 3; // a hand's end stays this many times longer, to read its score
const PLAY_ICON = '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M7 4v16l13-8z"/></svg>';
const PAUSE_ICON = '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 4h4v16H6zM14 4h4v16h-4z"/></svg>';

const state = {
  id: null,
  data: null, // the server's replay
  steps: [],
  sides: [],
  starts: [], // the positions where a hand begins: the first one and each hand's end
  index: 0,
  failure: null, // {code, message} when the replay could not be shown
  timer: null,
  playing: false,
};

const $ = (id) => document.getElementById(id);

// -- reading the server's data

// The match id in the address, and whether it can name a match at all (digits only).
function matchId() {
  const found = /^\/replay\/([^/]*)\/?$/.exec(window.location.pathname);
  let id = found ? found[1] : "";
  try {
    id = decodeURIComponent(id);
  } catch {
    /* keep it as written */
  }
  return { id: id.slice(0, 40), valid: /^\d{1,15}$/.test(id) };
}

function list(value) {
  return Array.isArray(value) ? value : [];
}

function cards(value) {
  return list(value).filter((card) => typeof card === "string");
}

function name(seat) {
  return seatName(state.data?.names, seat, state.data?.levels);
}

// Cards as words in the chosen deck: "7♦ 5♠", "siete de oros, cinco de espadas".
function labels(list) {
  return list.map(cardLabel).join(deckStyle() === "french" ? " " : ", ");
}

// A new hand begins at this position: the first one, or the one after a hand's last play.
function beginsHand(index) {
  if (index === 0) return true;
  return state.steps[index].hand_number !== state.steps[index - 1].hand_number;
}

// -- drawing

function cardElement(card, extra = "") {
  const slot = el("span", { class: `card-slot ${extra}`.trim() });
  // cardFace draws from the card code alone; unknown codes never reach innerHTML.
  if (isCard(card)) slot.innerHTML = cardFace(card);
  else slot.append(el("span", { class: "card-unknown", text: String(card) }));
  return slot;
}

function sideClass(seat) {
  return `side-${Math.max(0, sideOf(seat, state.sides))}`;
}

function renderSeats(step) {
  const grid = $("replay-seats");
  for (const old of grid.querySelectorAll(".seat")) old.remove();
  const players = state.data.players;
  const places = { 2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"] }[players]
    ?? Array.from({ length: players }, () => "top");
  const hands = list(step.hands);
  const played = step.event?.kind === "play" ? step.event.seat : null;
  grid.dataset.players = String(players);
  for (let seat = 0; seat < players; seat += 1) {
    const hand = cards(hands[seat]);
    const badges = el("span", { class: "badges" });
    if (step.dealer === seat) badges.append(el("span", { class: "badge dealer", text: t("replay.dealer") }));
    if (step.to_move === seat) badges.append(el("span", { class: "badge to-move", text: `▶ ${t("replay.to_move")}` }));
    const row = el("div", { class: "hand-cards" });
    if (hand.length) row.append(...hand.map((card) => cardElement(card)));
    else row.append(el("span", { class: "no-cards", text: t("replay.no_cards") }));
    grid.append(el("section", {
      class: `seat ${sideClass(seat)} place-${places[seat]}${played === seat ? " just-played" : ""}`,
      "data-testid": "replay-hand",
      "data-seat": seat,
      "data-dealer": step.dealer === seat ? "true" : null,
      "data-to-move": step.to_move === seat ? "true" : null,
      "data-played": played === seat ? "true" : null,
    }, el("header", {}, el("span", { class: "seat-name", text: name(seat) }), badges), row));
  }
}

function renderTable(step) {
  const table = cards(step.table);
  const event = step.event;
  const dropped = event?.kind === "play" && list(event.captures).length === 0 && !beginsHand(state.index) ? event.card : null;
  const box = $("replay-table");
  if (table.length) box.replaceChildren(...table.map((card) => cardElement(card, card === dropped ? "played" : "")));
  else box.replaceChildren(el("p", { class: "table-empty", text: t("replay.table_empty") }));

  const stock = $("replay-stock");
  const count = Number.isInteger(step.stock_size) ? step.stock_size : 0;
  const pile = el("span", { class: `stock-pile${count ? "" : " empty"}` });
  if (count) pile.innerHTML = cardBack();
  stock.replaceChildren(pile, el("span", { class: "stock-count", text: t("replay.stock", { count }) }));
  stock.title = t("replay.stock_title", { count });
}

function renderEvent(step) {
  const index = state.index;
  const event = step.event;
  const text = $("replay-event");
  const shown = $("replay-event-cards");
  const notes = [];
  shown.replaceChildren();
  if (event?.kind === "play") {
    const taken = cards(event.captures);
    const who = name(event.seat);
    const params = { who, card: cardLabel(event.card), cards: labels(taken) };
    const key = taken.length ? (event.sweep ? "replay.event.take_sweep" : "replay.event.take") : "replay.event.drop";
    text.textContent = t(key, params);
    text.className = `event-text ${sideClass(event.seat)}${event.sweep ? " sweep" : ""}`;
    shown.append(cardElement(event.card, "played"));
    if (taken.length) {
      shown.append(el("span", { class: "arrow", "aria-hidden": "true", text: "→" }));
      shown.append(...taken.map((card) => cardElement(card, "taken")));
    }
    if (beginsHand(index) && index < state.steps.length - 1) {
      notes.push(t("replay.event.start", { hand: step.hand_number + 1, dealer: name(step.dealer) }));
    }
  } else {
    text.textContent = t("replay.event.start", { hand: step.hand_number + 1, dealer: name(step.dealer) });
    text.className = "event-text";
  }
  // Cards taken before anybody played: the dealer's sweep of the first table.
  if (beginsHand(index) && index < state.steps.length - 1) {
    list(step.captured).forEach((pile, side) => {
      const taken = cards(pile);
      if (!taken.length) return;
      const dealerSide = sideOf(step.dealer, state.sides);
      const who = side === dealerSide ? name(step.dealer) : sideName(state.data.names, state.sides[side] ?? [], state.data.levels);
      notes.push(t("replay.event.initial_sweep", { who, cards: labels(taken), sweeps: list(step.sweeps)[side] ?? 0 }));
    });
  }
  $("replay-notes").replaceChildren(...notes.map((note) => el("li", { text: note })));
}

function renderScores(step) {
  const totals = list(step.totals);
  const captured = list(step.captured);
  const sweeps = list(step.sweeps);
  const event = step.event;
  const fresh = event?.kind === "play" && !beginsHand(state.index) ? cards(event.captures).length : 0;
  const capturer = fresh ? sideOf(event.seat, state.sides) : -1;
  $("replay-scores").replaceChildren(...state.sides.map((seats, side) => {
    const count = cards(captured[side]).length;
    const gained = side === capturer ? el("span", { class: "gain", text: ` +${fresh + 1}` }) : null;
    return el("li", { class: `side-line side-${side}`, "data-testid": "replay-side", "data-side": side },
      el("span", { class: "swatch", "aria-hidden": "true" }),
      el("span", { class: "side-names", text: sideName(state.data.names, seats, state.data.levels) }),
      el("span", { class: "side-total", text: String(totals[side] ?? 0) }),
      el("span", { class: "side-hand" },
        el("span", { text: t("replay.captured", { count }) }), gained,
        el("span", { text: ` · ${t("replay.sweeps", { count: sweeps[side] ?? 0 })}` })));
  }));
}

function categoryName(category) {
  if (category === "sevens" && state.data.rules?.sevens === "primiera") return t("replay.cat.primiera");
  return known(`replay.cat.${category}`) ?? category.replaceAll("_", " ");
}

function shownCategories(result) {
  const rules = state.data.rules ?? {};
  const breakdown = result.breakdown ?? {};
  const usual = CATEGORIES.filter((category) => category in breakdown);
  const others = Object.keys(breakdown).filter((category) => !CATEGORIES.includes(category));
  return [...usual, ...others].filter((category) => {
    const scored = list(breakdown[category]).some((points) => points);
    if (scored) return true;
    if (category === "sevens") return rules.sevens !== "none";
    if (category === "all_sevens") return Boolean(rules.all_sevens_bonus);
    return true;
  });
}

function scoreTable(rows, header) {
  const head = el("tr", {}, el("th", { scope: "col", text: header[0] }),
    ...header.slice(1).map((text, side) => el("th", { scope: "col", class: `side-${side}`, text })));
  return el("table", { class: "grid score-table" }, el("thead", {}, head),
    el("tbody", {}, ...rows.map(({ title, values, className }) => el("tr", { class: className ?? null },
      el("th", { scope: "row", text: title }),
      ...values.map((value) => el("td", { text: String(value ?? 0) }))))));
}

function renderResult(step) {
  const panel = $("replay-result");
  const results = list(step.results);
  const last = state.index === state.steps.length - 1;
  if (!step.hand_ended || !results.length) {
    panel.hidden = true;
    panel.replaceChildren();
    delete panel.dataset.final;
    return;
  }
  const result = results[results.length - 1];
  const names = state.sides.map((seats) => sideName(state.data.names, seats, state.data.levels));
  const rows = [
    { title: t("replay.result.cards_taken"), values: list(result.cards), className: "info" },
    ...shownCategories(result).map((category) => ({ title: categoryName(category), values: list(result.breakdown[category]) })),
    { title: t("replay.result.hand"), values: list(result.points), className: "sum" },
    { title: t("replay.result.total"), values: list(step.totals), className: "sum total" },
  ];
  const parts = [el("h2", { text: t("replay.result.title", { hand: results.length }) }), scoreTable(rows, ["", ...names])];
  if (last) {
    const totals = list(step.totals);
    const winner = Number.isInteger(state.data.winner) ? state.data.winner : leader(totals);
    const score = totals.join(" – ");
    parts.unshift(
      el("h2", { class: "final-title", text: t("replay.final.title") }),
      el("p", { class: "winner-line", "data-testid": "replay-winner" },
        winner === null
          ? t("replay.final.no_winner", { score })
          : `★ ${t("replay.final.winner", { winner: names[winner], score })}`),
    );
    let running = state.sides.map(() => 0);
    const hands = results.map((hand, number) => {
      running = running.map((total, side) => total + (list(hand.points)[side] ?? 0));
      return { title: String(number + 1), values: list(hand.points).map((points, side) => `${points} (${running[side]})`) };
    });
    parts.push(el("h3", { text: t("replay.final.hands") }), scoreTable(hands, [t("replay.final.hand_col"), ...names]));
  }
  panel.replaceChildren(...parts);
  panel.dataset.final = last ? "true" : "false";
  panel.hidden = false;
}

function renderControls() {
  const count = state.steps.length;
  const at = state.index;
  $("replay-step").textContent = t("replay.step", { i: at + 1, n: count });
  const slider = $("replay-slider");
  slider.max = String(count);
  slider.value = String(at + 1);
  slider.setAttribute("aria-valuetext", t("replay.step", { i: at + 1, n: count }));
  for (const id of ["replay-first", "replay-prev", "replay-prev-hand"]) $(id).disabled = at === 0;
  for (const id of ["replay-last", "replay-next", "replay-next-hand"]) $(id).disabled = at >= count - 1;
  const play = $("replay-play");
  // The icon is our own constant markup; the word goes in as text.
  play.innerHTML = state.playing ? PAUSE_ICON : PLAY_ICON;
  play.append(el("span", { text: state.playing ? t("replay.pause") : t("replay.play") }));
  play.dataset.playing = state.playing ? "true" : "false";
}

function renderHead() {
  const data = state.data;
  const game = presetName(data.preset);
  $("replay-title").textContent = t("replay.title", { game });
  const sides = state.sides.map((seats) => sideName(data.names, seats, data.levels)).join(` ${t("replay.versus")} `);
  const details = [sides, t("replay.match", { id: data.match ?? state.id })];
  if (data.partnerships) details.push(t("replay.partnerships"));
  if (Number.isInteger(data.rules?.target_score)) details.push(t("replay.target", { points: data.rules.target_score }));
  $("replay-about").textContent = details.join(" · ");
  document.title = `${t("replay.title", { game })} · Escoba`;
}

function render() {
  applyTexts(document.querySelector("main"));
  const loading = $("replay-loading");
  const failure = $("replay-failure");
  const view = $("replay-view");
  if (state.failure) {
    loading.hidden = true;
    view.hidden = true;
    failure.hidden = false;
    const { code, message } = state.failure;
    $("replay-error").textContent =
      code === "not_found" ? t("replay.not_found", { id: state.id ?? "?" })
        : code === "empty" ? t("replay.empty")
          : t("replay.load_error", { message });
    document.title = `${t("replay.page_title")} · Escoba`;
    return;
  }
  if (!state.data) {
    loading.hidden = false;
    document.title = `${t("replay.page_title")} · Escoba`;
    return;
  }
  loading.hidden = true;
  failure.hidden = true;
  view.hidden = false;
  const step = state.steps[state.index];
  renderHead();
  renderControls();
  const status = [t("replay.hand", { hand: step.hand_number + 1 })];
  status.push(`${t("replay.dealer")}: ${name(step.dealer)}`);
  $("replay-status").textContent = status.join(" · ");
  renderSeats(step);
  renderTable(step);
  renderEvent(step);
  renderScores(step);
  renderResult(step);
}

// -- moving through the match

function go(index, { keepPlaying = false } = {}) {
  const target = Math.max(0, Math.min(state.steps.length - 1, index));
  if (!keepPlaying) stop();
  state.index = target;
  const hash = `#step=${target + 1}`;
  if (window.location.hash !== hash) window.history.replaceState(null, "", hash);
  render();
}

function nextHandStart() {
  return state.starts.find((start) => start > state.index) ?? state.steps.length - 1;
}

function previousHandStart() {
  const before = state.starts.filter((start) => start < state.index);
  return before.length ? before[before.length - 1] : 0;
}

function speed() {
  const value = Number($("replay-speed").value);
  return Number.isFinite(value) && value > 0 ? value : 1;
}

function schedule() {
  clearTimeout(state.timer);
  if (!state.playing) return;
  const step = state.steps[state.index];
  const delay = (BASE_DELAY / speed()) * (step.hand_ended ? HAND_END_PAUSE : 1);
  state.timer = setTimeout(() => {
    if (!state.playing) return;
    if (state.index >= state.steps.length - 1) {
      stop();
      renderControls();
      return;
    }
    go(state.index + 1, { keepPlaying: true });
    if (state.index >= state.steps.length - 1) {
      stop();
      renderControls();
    } else schedule();
  }, delay);
}

function stop() {
  state.playing = false;
  clearTimeout(state.timer);
  state.timer = null;
}

function togglePlay() {
  if (state.playing) {
    stop();
    renderControls();
    return;
  }
  if (state.index >= state.steps.length - 1) go(0);
  state.playing = true;
  renderControls();
  schedule();
}

function onKey(event) {
  if (!state.data || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && target.closest("input, select, textarea, [contenteditable]")) return;
  const moves = {
    ArrowRight: () => (event.shiftKey ? nextHandStart() : state.index + 1),
    ArrowLeft: () => (event.shiftKey ? previousHandStart() : state.index - 1),
    PageDown: nextHandStart,
    PageUp: previousHandStart,
    Home: () => 0,
    End: () => state.steps.length - 1,
  };
  if (moves[event.key]) {
    event.preventDefault();
    go(moves[event.key]());
  } else if ((event.key === " " || event.key === "k") && !(target instanceof HTMLElement && target.closest("button, a"))) {
    event.preventDefault();
    togglePlay();
  }
}

function wire() {
  $("replay-first").addEventListener("click", () => go(0));
  $("replay-prev-hand").addEventListener("click", () => go(previousHandStart()));
  $("replay-prev").addEventListener("click", () => go(state.index - 1));
  $("replay-next").addEventListener("click", () => go(state.index + 1));
  $("replay-next-hand").addEventListener("click", () => go(nextHandStart()));
  $("replay-last").addEventListener("click", () => go(state.steps.length - 1));
  $("replay-slider").addEventListener("input", (event) => go(Number(event.target.value) - 1));
  $("replay-play").addEventListener("click", togglePlay);
  $("replay-speed").addEventListener("change", () => schedule());
  document.addEventListener("keydown", onKey);
  window.addEventListener("escoba:prefs", render);
  window.addEventListener("hashchange", () => {
    const asked = state.data ? askedStep() : null;
    if (asked !== null && asked !== state.index) go(asked);
  });
}

// -- loading

function accept(data) {
  const steps = list(data?.steps).filter((step) => step && typeof step === "object");
  if (!steps.length) {
    state.failure = { code: "empty", message: "" };
    return;
  }
  const players = Number.isInteger(data.players) && data.players > 0 ? data.players : list(steps[0].hands).length;
  state.data = { ...data, players, names: list(data.names) };
  state.steps = steps;
  state.sides = sidesOf(players, Boolean(data.partnerships));
  state.starts = steps.flatMap((step, index) => (index === 0 || step.hand_ended ? [index] : []));
  state.index = askedStep() ?? 0;
}

// The position named in the address, #step=12 (1-based), if any.
function askedStep() {
  const asked = /^#step=(\d{1,9})$/.exec(window.location.hash);
  if (!asked) return null;
  return Math.max(0, Math.min(state.steps.length - 1, Number(asked[1]) - 1));
}

async function load() {
  const { id, valid } = matchId();
  state.id = id;
  if (!valid) {
    state.failure = { code: "not_found", message: "" };
    render();
    return;
  }
  try {
    accept(await api(`/api/matches/${state.id}/replay`));
  } catch (problem) {
    // api() names a refusal by its error code and an unreachable server "network"
    if (problem instanceof ApiError) {
      state.failure = { code: problem.status === 404 ? "not_found" : problem.code, message: problem.message };
    } else state.failure = { code: "network", message: String(problem?.message ?? problem) };
  }
  render();
}

mountHeader($("site-header"));
wire();
render();
load();
