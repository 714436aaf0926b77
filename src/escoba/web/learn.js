// @ts-check
// The tutorial (learn.html): six short lessons, one step at a time. The lessons come from the
// server (GET /api/tutorial, escoba.tutorial) with their texts in the page's language and their
// cards named in the chosen deck style; a step to play lists every try the player can make and
// what it gets (accepted or not, and why), so this page checks nothing itself.
//
// Stable hooks for browser tests (data-testid):
//   lessons            the lessons, one button each (lesson-<n>, from 0)
//   step, progress     the step shown; "Step 3 of 13 · ..."
//   step-text          what the step says and asks
//   table-cards, hand-cards   the cards, buttons table-card / hand-card with data-card="4h"
//   play               plays the chosen card with the chosen table cards
//   verdict            the answer to a try (data-accepted="true" | "false")
//   score              a hand's scoring (score steps)
//   back, next, play-match
// The step reached is kept in localStorage ("escoba.learn.step"), and the steps done in
// "escoba.learn.done": a step to play once its right move was made, any other once shown. A
// lesson is ticked (class "done") when all its steps are done, so reading past an exercise
// never ticks it; every lesson done sets "escoba.learned".

import { cardSvg } from "./cards.js";
import { mountHeader } from "./header.js";
import { applyTexts, capitalised, t, textLanguage } from "./i18n.js";
import { deckStyle } from "./prefs.js";

const STEP_KEY = "escoba.learn.step";
const LEARNED_KEY = "escoba.learned";
const DONE_KEY = "escoba.learn.done";

const state = { view: null, index: 0, card: null, taken: new Set(), done: new Set() };

function stored(key) {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage disabled: the tutorial still works, from its first step
  }
}

function store(key, value) {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // storage disabled: nothing is kept
  }
}

function storedDone() {
  try {
    const kept = JSON.parse(stored(DONE_KEY) ?? "[]");
    return new Set(Array.isArray(kept) ? kept.filter(Number.isInteger) : []);
  } catch {
    return new Set(); // not a list of steps: nothing done yet
  }
}

// A step done: kept, and once every lesson is done the tutorial counts as learned.
function markDone(index) {
  if (state.done.has(index)) return;
  state.done.add(index);
  store(DONE_KEY, JSON.stringify([...state.done].sort((a, b) => a - b)));
  if (state.view.lessons.every((_, number) => lessonDone(number))) store(LEARNED_KEY, "1");
}

function lessonDone(number) {
  const lesson = state.view.lessons[number];
  for (let index = lesson.first; index < lesson.first + lesson.steps; index += 1) {
    if (!state.done.has(index)) return false;
  }
  return true;
}

function element(tag, attributes = {}, text = null) {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
  if (text !== null) made.textContent = text; // texts go in as text, never as markup
  return made;
}

async function load() {
  const query = new URLSearchParams({ language: textLanguage(), deck: deckStyle() });
  const error = document.getElementById("load-error");
  try {
    const response = await fetch(`/api/tutorial?${query}`);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    state.view = await response.json();
    error.hidden = true;
  } catch (failure) {
    console.warn(`the lessons could not be loaded: ${failure?.message ?? failure}`);
    error.hidden = false;
    return;
  }
  const steps = state.view.steps.length;
  state.done = new Set([...storedDone()].filter((index) => index >= 0 && index < steps));
  state.index = Math.min(Math.max(Number.parseInt(stored(STEP_KEY) ?? "0", 10) || 0, 0), steps - 1);
  render();
}

function lessonOf(index) {
  return state.view.lessons[state.view.steps[index].lesson];
}

function renderLessons() {
  const list = document.getElementById("lessons");
  const current = state.view.steps[state.index].lesson;
  list.replaceChildren(
    ...state.view.lessons.map((lesson, number) => {
      const item = element("li");
      const button = element("button", { type: "button", "data-testid": `lesson-${number}` }, lesson.title);
      if (number === current) button.setAttribute("aria-current", "step");
      if (lessonDone(number)) button.classList.add("done");
      button.addEventListener("click", () => go(lesson.first));
      item.append(button);
      return item;
    }),
  );
}

function cardButton(card, testid, pressed, onClick) {
  const button = element("button", {
    type: "button",
    class: "card-button",
    "data-testid": testid,
    "data-card": card.code,
    "aria-pressed": String(pressed),
  });
  // The drawn card names itself (its role is img, its label the card's name).
  button.innerHTML = cardSvg(card.code, deckStyle(), { language: textLanguage() });
  button.addEventListener("click", onClick);
  return button;
}

function renderBoard(step) {
  const table = document.getElementById("table-cards");
  if (step.table.length === 0) {
    table.replaceChildren(element("p", { class: "empty" }, t("learn.empty_table")));
  } else {
    table.replaceChildren(
      ...step.table.map((card) =>
        cardButton(card, "table-card", state.taken.has(card.code), () => {
          if (state.taken.has(card.code)) state.taken.delete(card.code);
          else state.taken.add(card.code);
          renderBoard(step);
        }),
      ),
    );
  }
  document.getElementById("hand-cards").replaceChildren(
    ...step.hand.map((card) =>
      cardButton(card, "hand-card", state.card === card.code, () => {
        state.card = state.card === card.code ? null : card.code;
        renderBoard(step);
      }),
    ),
  );
}

function renderScore(step) {
  const cell = (tag, text) => element(tag, {}, text);
  document.getElementById("score-head").replaceChildren(
    cell("td", ""),
    ...step.sides.map((side) => cell("th", side)),
    cell("th", step.point_label),
  );
  document.getElementById("score-body").replaceChildren(
    ...step.rows.map((row) => {
      const line = element("tr", { "data-category": row.category });
      line.append(cell("th", capitalised(row.label)), ...row.shown.map((shown) => cell("td", shown)), cell("td", row.scored));
      return line;
    }),
  );
  // Each side's captured cards, drawn small: what the rows above count.
  document.getElementById("piles").replaceChildren(
    ...step.piles.map((pile, side) => {
      const group = element("div", { class: "pile", "data-testid": `pile-${side}` });
      const cards = element("div", { class: "pile-cards" });
      cards.innerHTML = pile.map((card) => cardSvg(card.code, deckStyle(), { language: textLanguage() })).join("");
      group.append(element("h3", {}, `${step.sides[side]} · ${step.rows[0].shown[side]}`), cards);
      return group;
    }),
  );
  document.getElementById("score-foot").replaceChildren(
    cell("td", step.total_label),
    ...step.points.map((points) => cell("td", String(points))),
    cell("td", ""),
  );
}

function say(text, accepted) {
  const verdict = document.getElementById("verdict");
  verdict.textContent = text;
  verdict.classList.toggle("right", accepted === true);
  verdict.classList.toggle("wrong", accepted === false);
  if (accepted === null) delete verdict.dataset.accepted;
  else verdict.dataset.accepted = String(accepted);
}

function render() {
  const { steps } = state.view;
  const step = steps[state.index];
  const last = state.index === steps.length - 1;
  document.getElementById("step").hidden = false;
  document.getElementById("progress").textContent = t("learn.progress", {
    n: state.index + 1,
    total: steps.length,
    lesson: lessonOf(state.index).title,
  });
  document.getElementById("step-text").textContent = step.text;
  document.getElementById("board").hidden = step.kind !== "play";
  if (step.kind === "play") renderBoard(step);
  document.getElementById("score").hidden = step.kind !== "score";
  if (step.kind === "score") renderScore(step);
  /** @type {HTMLButtonElement} */ (document.getElementById("back")).disabled = state.index === 0;
  document.getElementById("next").hidden = last;
  document.getElementById("play-match").hidden = !last;
  if (step.kind !== "play") markDone(state.index); // read: nothing more to do there
  renderLessons();
}

function go(index) {
  state.index = Math.min(Math.max(index, 0), state.view.steps.length - 1);
  state.card = null;
  state.taken = new Set();
  store(STEP_KEY, String(state.index));
  say("", null);
  render();
  document.getElementById("progress").focus?.();
}

function play() {
  const step = state.view.steps[state.index];
  if (state.card === null) {
    say(t("learn.pick_card"), null);
    return;
  }
  // The taken cards in the table's order, which is the canonical one: the try's own text.
  const taken = step.table.filter((card) => state.taken.has(card.code)).map((card) => card.code);
  const key = taken.length ? `${state.card}:${taken.join("+")}` : state.card;
  const answer = step.tries[key];
  if (!answer) return;
  say(answer.text, answer.accepted);
  if (answer.accepted) {
    markDone(state.index);
    renderLessons();
    state.card = null;
    state.taken = new Set();
    renderBoard(step);
  } // a wrong try stays chosen, to be changed a card at a time
  // The answer in view, under the cards that were tried (below the fold on a short screen).
  document.getElementById("verdict").scrollIntoView({ block: "nearest" });
  if (answer.accepted) document.getElementById("next").focus({ preventScroll: true });
}

document.getElementById("progress").tabIndex = -1;
mountHeader(document.getElementById("site-header"));
applyTexts(document);
document.getElementById("play").addEventListener("click", play);
document.getElementById("back").addEventListener("click", () => go(state.index - 1));
document.getElementById("next").addEventListener("click", () => go(state.index + 1));
// A new language or deck: the lessons again, in those words and cards.
window.addEventListener("escoba:prefs", () => {
  applyTexts(document);
  say("", null);
  load();
});
load();
