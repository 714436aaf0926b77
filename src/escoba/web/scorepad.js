// @ts-check
// The score pad (scorepad.html): people who play with a real deck enter what each side took
// after every hand; the server (POST /api/scorepad, escoba.scorepad) adds it up by the chosen
// rules and names the winner. This page only collects the counts and shows the answer: every
// check and every point comes from the server, in the page's language.
//
// Stable hooks for browser tests (data-testid; <side> counts from 0, <n> is the hand from 1):
//   preset                 game select; option values are preset names (escoba, scopa, ...)
//   rules-summary          one line describing the chosen rules
//   sides                  select "2" | "3" | "4" (disabled while the pad has hands)
//   side-name-<side>       name inputs (blank: "Side 1", "Side 2"...)
//   options                <details> with the scoring options:
//   option-<name>          sevens (select), primiera_needs_all_suits, all_coins_two, big_wins,
//                          re_bello, napola (checkboxes), all_sevens_bonus, target_score,
//                          win_by (numbers)
//   options-reset          back to the preset's options
//   entry-form             the hand being entered (submit = save-hand)
//   entry-title            "Hand 3" / "Editing hand 2"
//   entry-cards-<side>, entry-coins-<side>, entry-sevens-<side>, entry-coin_runs-<side>,
//   entry-sweeps-<side>    number inputs (sevens only when the rules count sevens, coin_runs
//                          with napola); the last side's cards/coins/sevens fill themselves in
//                          until typed into
//   entry-seven_of_coins-<side>               radio: who took the seven of coins
//   entry-king_of_coins-<side>                radio: who took the king of coins (re bello)
//   entry-sevens_winner-<side>, entry-sevens_winner-none
//                          radio: who wins the setenta / primiera, or nobody (only then)
//   save-hand, cancel-edit, entry-error       (entry-error: the server's refusal)
//   pad-error              the stored pad does not add up (e.g. after a rules change)
//   winner                 shown once the match is won
//   status                 who leads, what is played to
//   pad-table              the pad; rows hand-row-<n> with points-<n>-<side> (the hand's
//                          points) and running-<n>-<side> (totals after it); edit-hand-<n>,
//                          remove-hand-<n>; a click on a row shows breakdown-<n> (points by
//                          category); the foot holds total-<side>
//   no-hands               shown while the pad is empty
//   new-pad, undo-new-pad  clear the hands (same rules and names) / bring them back
// The pad is kept in localStorage under "escoba.scorepad" (the one before "new pad" under
// "escoba.scorepad.previous").

import { csrfHeaders } from "./account-state.js";
import { mountHeader } from "./header.js";
import { applyTexts, capitalised, t, tn } from "./i18n.js";
import { language } from "./prefs.js";
import { PRESETS, categoryName, optionName, presetName } from "./rooms.js";

const STORE = "escoba.scorepad";
const PREVIOUS = "escoba.scorepad.previous";
const COUNTS = ["cards", "coins", "sevens", "coin_runs", "sweeps"];
// Counts asked only when the rules need them (the server's `fields`); blank means 0 for these.
const OPTIONAL_COUNTS = ["sevens", "coin_runs"];
const ZERO_BY_DEFAULT = ["coin_runs", "sweeps"];
// What the sides take together: the last side's count is filled in from the others'.
const DECK_TOTALS = { cards: 40, coins: 10, sevens: 4 };

// -- the pad, kept in the browser

function blankPad() {
  return { version: 1, preset: "escoba", options: {}, sides: 2, names: ["", "", "", ""], hands: [] };
}

function readStored(key) {
  try {
    const text = window.localStorage.getItem(key);
    return text ? JSON.parse(text) : null;
  } catch {
    return null; // storage disabled or spoiled: start afresh
  }
}

function writeStored(key, value) {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* not kept, but the page still works */
  }
}

function loadPad() {
  const stored = readStored(STORE);
  const pad = blankPad();
  if (!stored || typeof stored !== "object") return pad;
  if (PRESETS.includes(stored.preset)) pad.preset = stored.preset;
  if (stored.options && typeof stored.options === "object") pad.options = stored.options;
  if ([2, 3, 4].includes(stored.sides)) pad.sides = stored.sides;
  if (Array.isArray(stored.names)) pad.names = [0, 1, 2, 3].map((i) => String(stored.names[i] ?? ""));
  if (Array.isArray(stored.hands)) pad.hands = stored.hands.filter((hand) => hand && typeof hand === "object");
  return pad;
}

let pad = loadPad();
let catalogue = null; // GET /api/scorepad/rules: presets with their options, the scoring options
let result = null; // the last answer of POST /api/scorepad for the stored pad (null: refused)
let view = null; // the last answer that speaks of the rules: the pad's, or an empty pad's
let editing = null; // index of the hand in the form, null for a new hand
let openBreakdown = null; // hand number whose breakdown row is shown
let asked = 0; // requests are numbered so that a late answer never overwrites a newer one
const touched = {}; // touched[field][side]: typed into by a person (not filled in)

function savePad() {
  writeStored(STORE, pad);
}

function sideName(side) {
  const name = (pad.names[side] ?? "").trim();
  return name || t("scorepad.side_n", { n: side + 1 });
}

// The chosen preset as the server describes it (options, fields, summary), once loaded.
function currentPreset() {
  return catalogue?.presets.find((preset) => preset.name === pad.preset);
}

function rulesNow() {
  const base = currentPreset()?.options ?? {};
  return { ...base, ...pad.options };
}

function fields() {
  // The fields the server says these rules need.
  if (view) return view.fields;
  return currentPreset()?.fields ?? ["cards", "coins", "seven_of_coins", "sweeps"];
}

function sevensLabel() {
  return view?.sevens_label ?? catalogue?.sevens_labels?.[rulesNow().sevens] ?? "";
}

// -- talking to the server

function requestBody(hands) {
  return {
    rules: pad.preset,
    options: pad.options,
    sides: pad.sides,
    names: Array.from({ length: pad.sides }, (_, side) => sideName(side)),
    language: language(),
    hands,
  };
}

async function addUp(hands) {
  // {ok: true, pad} or {ok: false, message}; network trouble is a refusal too.
  try {
    const response = await fetch("/api/scorepad", {
      method: "POST",
      // Signed in, a POST carries the session's CSRF token (account-state.js).
      headers: { "Content-Type": "application/json", ...(await csrfHeaders()) },
      body: JSON.stringify(requestBody(hands)),
    });
    const body = await response.json();
    if (response.ok) return { ok: true, pad: body };
    return { ok: false, message: body.message ?? `${response.status}` };
  } catch (error) {
    return { ok: false, message: t("scorepad.offline", { detail: String(error.message ?? error) }) };
  }
}

async function refresh() {
  const number = ++asked;
  const answer = await addUp(pad.hands);
  if (number !== asked) return;
  result = answer.ok ? answer.pad : null;
  if (answer.ok) {
    view = answer.pad;
  } else {
    // The pad does not add up; an empty pad still tells what these rules need.
    const empty = await addUp([]);
    if (number !== asked) return;
    view = empty.ok ? empty.pad : null;
  }
  showPadError(answer.ok ? "" : answer.message);
  render();
}

async function loadCatalogue() {
  try {
    const response = await fetch(`/api/scorepad/rules?language=${encodeURIComponent(language())}`);
    if (response.ok) catalogue = await response.json();
  } catch {
    catalogue = null;
  }
}

// -- setup: preset, sides, names, options

const presetSelect = /** @type {HTMLSelectElement} */ (document.getElementById("preset"));
const sidesSelect = /** @type {HTMLSelectElement} */ (document.getElementById("sides"));
const namesBox = document.getElementById("names");
const optionFields = document.getElementById("option-fields");

function fillPresets() {
  presetSelect.replaceChildren(...PRESETS.map((name) => new Option(presetName(name), name)));
  presetSelect.value = pad.preset;
}

function fillNames() {
  const inputs = [];
  for (let side = 0; side < pad.sides; side += 1) {
    const input = document.createElement("input");
    input.id = `side-name-${side}`;
    input.dataset.testid = `side-name-${side}`;
    input.maxLength = 24;
    input.autocomplete = "off";
    input.value = pad.names[side] ?? "";
    input.placeholder = t("scorepad.side_n", { n: side + 1 });
    input.setAttribute("aria-label", t("scorepad.side_n", { n: side + 1 }));
    input.addEventListener("change", () => {
      pad.names[side] = input.value.trim();
      savePad();
      refresh();
    });
    inputs.push(input);
  }
  namesBox.replaceChildren(...inputs);
}

function optionControl(spec) {
  let input;
  if (spec.kind === "bool") {
    input = document.createElement("input");
    input.type = "checkbox";
  } else if (spec.kind === "choice") {
    input = document.createElement("select");
    for (const choice of spec.choices) input.append(new Option(catalogue.sevens_labels?.[choice] ?? choice, choice));
  } else {
    input = document.createElement("input");
    input.type = "number";
    input.min = String(spec.min ?? 0);
    input.step = "1";
    input.inputMode = "numeric";
  }
  input.id = `option-${spec.name}`;
  input.dataset.testid = `option-${spec.name}`;
  input.dataset.option = spec.name;
  input.dataset.kind = spec.kind;
  input.addEventListener("change", () => changeOption(spec.name, spec.kind, input));
  return input;
}

function fillOptions() {
  if (!catalogue) {
    optionFields.replaceChildren();
    return;
  }
  optionFields.replaceChildren(
    ...catalogue.options.map((spec) => {
      const row = document.createElement("div");
      row.className = spec.kind === "bool" ? "option check" : "option";
      const input = optionControl(spec);
      const label = document.createElement("label");
      label.htmlFor = input.id;
      label.textContent = optionName(spec.name);
      if (spec.kind === "bool") row.append(input, label);
      else row.append(label, input);
      return row;
    }),
  );
  showOptions();
}

function showOptions() {
  const rules = rulesNow();
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (optionFields.querySelectorAll("[data-option]"))) {
    const value = rules[input.dataset.option];
    if (input.dataset.kind === "bool") input.checked = Boolean(value);
    else input.value = value ?? "";
  }
  const needsAllSuits = /** @type {HTMLInputElement | null} */ (optionFields.querySelector("[data-option=primiera_needs_all_suits]"));
  if (needsAllSuits) needsAllSuits.disabled = rules.sevens !== "primiera";
}

function changeOption(name, kind, input) {
  const base = currentPreset()?.options ?? {};
  let value;
  if (kind === "bool") value = input.checked;
  else if (kind === "int") value = input.value.trim() === "" ? base[name] : Number(input.value);
  else value = input.value;
  pad.options = { ...pad.options, [name]: value };
  // "Primiera needs every suit" only goes with primiera (the rules refuse it otherwise).
  if (name === "sevens" && value !== "primiera") pad.options.primiera_needs_all_suits = false;
  for (const [key, chosen] of Object.entries(pad.options)) if (base[key] === chosen) delete pad.options[key];
  savePad();
  showOptions();
  refresh();
}

// -- the hand being entered

const form = document.getElementById("entry");
const grid = document.getElementById("entry-grid");
const entryError = document.getElementById("entry-error");

function numberInput(field, side, value) {
  // Text with a numeric keypad: whatever is typed goes to the server, which names a bad value.
  const input = document.createElement("input");
  input.type = "text";
  input.inputMode = "numeric";
  input.pattern = "[0-9]*";
  input.autocomplete = "off";
  input.size = 2;
  input.id = `entry-${field}-${side}`;
  input.dataset.testid = `entry-${field}-${side}`;
  input.dataset.field = field;
  input.dataset.side = String(side);
  input.setAttribute("aria-label", `${t(`scorepad.field.${field}`)}: ${sideName(side)}`);
  input.value = value ?? "";
  input.addEventListener("input", () => {
    touched[field] ??= {};
    touched[field][side] = true;
    input.classList.remove("auto");
    fillLast(field);
  });
  return input;
}

function radioInput(field, value, checked, label) {
  // A radio in a label filling its cell: the whole cell is the tap target.
  const input = document.createElement("input");
  input.type = "radio";
  input.name = field;
  input.value = String(value);
  input.id = `entry-${field}-${value}`;
  input.dataset.testid = `entry-${field}-${value}`;
  input.checked = checked;
  input.setAttribute("aria-label", label);
  const wrapper = document.createElement("label");
  wrapper.className = "pick";
  wrapper.append(input);
  return wrapper;
}

function cell(className, ...children) {
  const element = document.createElement("div");
  element.className = className;
  element.append(...children);
  return element;
}

function rowLabel(text, forId) {
  const label = forId ? document.createElement("label") : document.createElement("span");
  if (label instanceof HTMLLabelElement) label.htmlFor = forId;
  label.textContent = text;
  return cell("row-label", label);
}

function buildEntry(entry) {
  // entry: a stored hand to edit, or null for a blank one.
  const needed = fields();
  const sides = pad.sides;
  const label = sevensLabel();
  grid.style.setProperty("--sides", String(sides));
  const parts = [cell("corner")];
  for (let side = 0; side < sides; side += 1) parts.push(cell("side-head", sideName(side)));
  for (const field of COUNTS) {
    if (OPTIONAL_COUNTS.includes(field) && !needed.includes(field)) continue;
    parts.push(rowLabel(t(`scorepad.field.${field}`), `entry-${field}-0`));
    for (let side = 0; side < sides; side += 1) {
      const fallback = ZERO_BY_DEFAULT.includes(field) ? 0 : "";
      parts.push(cell("value", numberInput(field, side, entry?.[field]?.[side] ?? fallback)));
    }
  }
  parts.push(rowLabel(categoryName("seven_of_coins")));
  for (let side = 0; side < sides; side += 1) {
    const holder = radioInput("seven_of_coins", side, entry?.seven_of_coins === side,
      `${categoryName("seven_of_coins")}: ${sideName(side)}`);
    parts.push(cell("value", holder));
  }
  if (needed.includes("king_of_coins")) {
    parts.push(rowLabel(categoryName("re_bello")));
    for (let side = 0; side < sides; side += 1) {
      const holder = radioInput("king_of_coins", side, entry?.king_of_coins === side,
        `${categoryName("re_bello")}: ${sideName(side)}`);
      parts.push(cell("value", holder));
    }
  }
  if (needed.includes("sevens_winner")) {
    parts.push(rowLabel(capitalised(label)));
    const said = entry && "sevens_winner" in entry;
    for (let side = 0; side < sides; side += 1) {
      const winner = radioInput("sevens_winner", side, said && entry.sevens_winner === side,
        `${label}: ${sideName(side)}`);
      parts.push(cell("value", winner));
    }
    const nobody = radioInput("sevens_winner", "none", said && entry.sevens_winner === null, t("scorepad.nobody"));
    nobody.append(document.createTextNode(t("scorepad.nobody")));
    parts.push(cell("corner"), cell("nobody", nobody));
  }
  grid.replaceChildren(...parts);
  grid.dataset.fields = entryKey();
  // A number already there is the players': it no longer fills itself in.
  for (const field of COUNTS) {
    touched[field] = Object.fromEntries(
      Array.from({ length: sides }, (_, side) => [side, (entry?.[field]?.[side] ?? null) !== null]),
    );
  }
  const help = [t("scorepad.help")];
  if (needed.includes("sevens")) help.push(t("scorepad.help_sevens"));
  if (needed.includes("sevens_winner")) help.push(t("scorepad.help_winner", { label }));
  if (needed.includes("coin_runs")) help.push(t("scorepad.help_runs"));
  document.getElementById("entry-help").textContent = help.join(" ");
  showEntryTitle();
}

function showEntryTitle() {
  const number = editing === null ? pad.hands.length + 1 : editing + 1;
  document.getElementById("entry-title").textContent =
    editing === null ? t("common.hand_n", { n: number }) : t("scorepad.editing", { n: number });
  document.getElementById("save-hand").textContent = t(editing === null ? "scorepad.add" : "scorepad.save");
  document.getElementById("cancel-edit").hidden = editing === null;
}

function typedValue(field, side) {
  // A number as typed; blank is null (the server says it is missing), other text goes as is.
  const input = /** @type {HTMLInputElement | null} */ (document.getElementById(`entry-${field}-${side}`));
  if (!input) return null;
  const typed = input.value.trim();
  if (typed === "") return null;
  const number = Number(typed);
  return /^-?[0-9]+(\.[0-9]+)?$/.test(typed) && Number.isFinite(number) ? number : typed;
}

function fillLast(field) {
  // The last side's cards, coins or sevens: what the others leave of the deck's total.
  const total = DECK_TOTALS[field];
  const last = pad.sides - 1;
  if (total === undefined || touched[field]?.[last]) return;
  const input = /** @type {HTMLInputElement | null} */ (document.getElementById(`entry-${field}-${last}`));
  if (!input) return;
  let sum = 0;
  for (let side = 0; side < last; side += 1) {
    const value = typedValue(field, side);
    if (!Number.isInteger(value)) {
      input.value = "";
      input.classList.remove("auto");
      return;
    }
    sum += /** @type {number} */ (value); // an integer, as checked
  }
  const rest = total - sum;
  input.value = rest >= 0 ? String(rest) : "";
  input.classList.toggle("auto", rest >= 0);
  input.title = rest >= 0 ? t("scorepad.auto") : "";
}

function readEntry() {
  const needed = fields();
  const entry = {};
  for (const field of COUNTS) {
    if (OPTIONAL_COUNTS.includes(field) && !needed.includes(field)) continue;
    entry[field] = Array.from({ length: pad.sides }, (_, side) => typedValue(field, side));
  }
  const holder = /** @type {HTMLInputElement | null} */ (form.querySelector("input[name=seven_of_coins]:checked"));
  entry.seven_of_coins = holder ? Number(holder.value) : null;
  if (needed.includes("king_of_coins")) {
    const king = /** @type {HTMLInputElement | null} */ (form.querySelector("input[name=king_of_coins]:checked"));
    entry.king_of_coins = king ? Number(king.value) : null;
  }
  if (needed.includes("sevens_winner")) {
    const winner = /** @type {HTMLInputElement | null} */ (form.querySelector("input[name=sevens_winner]:checked"));
    // Left out when nobody was tapped: the server then asks who wins it.
    if (winner) entry.sevens_winner = winner.value === "none" ? null : Number(winner.value);
  }
  return entry;
}

function showEntryError(message) {
  entryError.textContent = message;
  entryError.hidden = !message;
}

function showPadError(message) {
  const box = document.getElementById("pad-error");
  box.textContent = message;
  box.hidden = !message;
}

async function saveHand(event) {
  event.preventDefault();
  const entry = readEntry();
  const hands = [...pad.hands];
  if (editing === null) hands.push(entry);
  else hands[editing] = entry;
  const button = /** @type {HTMLButtonElement} */ (document.getElementById("save-hand"));
  button.disabled = true;
  const number = ++asked;
  const answer = await addUp(hands);
  button.disabled = false;
  if (number !== asked) return;
  if (!answer.ok) {
    showEntryError(answer.message);
    return;
  }
  pad.hands = hands;
  savePad();
  hideUndo();
  result = answer.pad;
  view = answer.pad;
  editing = null;
  showEntryError("");
  showPadError("");
  buildEntry(null);
  render();
  if (!result.over) document.getElementById("entry-cards-0")?.focus();
}

function editHand(index) {
  editing = index;
  showEntryError("");
  buildEntry(pad.hands[index]);
  form.scrollIntoView({ behavior: "smooth", block: "start" });
  document.getElementById("entry-cards-0")?.focus({ preventScroll: true });
  render();
}

function cancelEdit() {
  editing = null;
  showEntryError("");
  buildEntry(null);
  render();
}

function removeHand(index) {
  pad.hands.splice(index, 1);
  if (editing !== null) {
    if (editing === index) editing = null;
    else if (editing > index) editing -= 1;
  }
  openBreakdown = null;
  savePad();
  if (editing === null) buildEntry(null);
  refresh();
}

// -- the table and the verdict

function text(tag, content, className) {
  const element = document.createElement(tag);
  element.textContent = content;
  if (className) element.className = className;
  return element;
}

// A header cell whose text only a screen reader needs: the column is plain to the eye.
function hiddenHeader(key, className) {
  const cell = text("th", "", className);
  cell.append(text("span", t(key), "visually-hidden"));
  return cell;
}

function iconButton(symbol, label, testid, action) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "icon";
  button.textContent = symbol;
  button.title = label;
  button.setAttribute("aria-label", label);
  button.dataset.testid = testid;
  button.addEventListener("click", (event) => {
    event.stopPropagation();
    action();
  });
  return button;
}

function breakdownRow(hand, tally) {
  const row = document.createElement("tr");
  row.className = "breakdown";
  row.dataset.testid = `breakdown-${hand}`;
  const td = document.createElement("td");
  td.colSpan = pad.sides + 2;
  const list = document.createElement("table");
  list.className = "categories";
  const head = document.createElement("tr");
  head.append(hiddenHeader("scorepad.col.category"));
  for (let side = 0; side < pad.sides; side += 1) head.append(text("th", sideName(side), "side"));
  list.append(head);
  for (const category of result.categories) {
    const points = tally.breakdown[category];
    if (!points.some((value) => value !== 0)) continue;
    const line = document.createElement("tr");
    line.append(text("th", result.labels[category]));
    for (const value of points) line.append(text("td", value ? String(value) : "·"));
    list.append(line);
  }
  if (list.children.length === 1) td.append(text("span", "—"));
  else td.append(list);
  row.append(td);
  return row;
}

function renderTable() {
  const head = document.getElementById("pad-head");
  const body = document.getElementById("pad-body");
  const foot = document.getElementById("pad-foot");
  const winner = result?.winner ?? null;
  head.replaceChildren(text("th", "#", "hand"));
  /** @type {HTMLElement} */ (head.firstChild).title = t("common.hand");
  for (let side = 0; side < pad.sides; side += 1) {
    head.append(text("th", sideName(side), side === winner ? "side won" : "side"));
  }
  head.append(hiddenHeader("scorepad.col.tools", "tools"));
  const rows = [];
  pad.hands.forEach((_entry, index) => {
    const number = index + 1;
    const tally = result?.hands[index];
    const row = document.createElement("tr");
    row.dataset.testid = `hand-row-${number}`;
    row.className = editing === index ? "hand editing" : "hand";
    row.append(text("th", String(number), "hand"));
    for (let side = 0; side < pad.sides; side += 1) {
      const td = document.createElement("td");
      const points = text("span", tally ? String(tally.points[side]) : "—", "points");
      points.dataset.testid = `points-${number}-${side}`;
      const running = text("span", tally ? String(tally.totals[side]) : "", "running");
      running.dataset.testid = `running-${number}-${side}`;
      td.append(points, running);
      row.append(td);
    }
    const tools = document.createElement("td");
    tools.className = "tools";
    tools.append(
      iconButton("✎", t("scorepad.edit", { n: number }), `edit-hand-${number}`, () => editHand(index)),
      iconButton("✕", t("scorepad.remove", { n: number }), `remove-hand-${number}`, () => removeHand(index)),
    );
    row.append(tools);
    if (tally) {
      row.tabIndex = 0;
      const toggle = () => {
        openBreakdown = openBreakdown === number ? null : number;
        renderTable();
      };
      row.addEventListener("click", toggle);
      row.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          toggle();
        }
      });
    }
    rows.push(row);
    if (tally && openBreakdown === number) rows.push(breakdownRow(number, tally));
  });
  body.replaceChildren(...rows);
  foot.replaceChildren(text("th", "Σ", "hand"));
  /** @type {HTMLElement} */ (foot.firstChild).title = t("common.total");
  for (let side = 0; side < pad.sides; side += 1) {
    const total = text("td", result ? String(result.totals[side]) : "—", side === winner ? "won" : "");
    total.dataset.testid = `total-${side}`;
    foot.append(total);
  }
  foot.append(text("td", "", "tools"));
  document.getElementById("no-hands").hidden = pad.hands.length > 0;
  document.getElementById("breakdown-hint").hidden = !(result && pad.hands.length);
}

function renderVerdict() {
  const banner = document.getElementById("winner");
  const status = document.getElementById("status");
  const rules = view?.rules ?? rulesNow();
  const target = rules.target_score;
  if (result?.over) {
    const score = result.totals.join("–");
    banner.textContent = t("common.winner_score", { name: sideName(result.winner), score });
    banner.hidden = false;
    status.textContent = t("scorepad.over");
  } else {
    banner.hidden = true;
    const totals = result?.totals ?? [];
    if (!result || !pad.hands.length) {
      status.textContent = rules.win_by > 1
        ? tn("scorepad.by", rules.win_by, { target })
        : t("scorepad.start", { target });
    } else {
      const best = Math.max(...totals);
      const leaders = totals.flatMap((total, side) => (total === best ? [side] : []));
      if (leaders.length > 1) {
        status.textContent = t("scorepad.level", { n: best, target });
      } else {
        const second = Math.max(...totals.filter((_, side) => side !== leaders[0]));
        status.textContent = tn("scorepad.leads", best - second, { name: sideName(leaders[0]), target });
      }
    }
  }
  // Once the match is won only editing an earlier hand makes sense.
  form.hidden = Boolean(result?.over) && editing === null;
}

function renderSetup() {
  presetSelect.value = pad.preset;
  sidesSelect.value = String(pad.sides);
  sidesSelect.disabled = pad.hands.length > 0;
  document.getElementById("sides-locked").hidden = pad.hands.length === 0;
  const summary = view?.summary ?? currentPreset()?.summary;
  document.getElementById("rules-summary").textContent = summary ?? "";
}

function render() {
  document.title = `${t("common.scorepad")} · Escoba`;
  renderSetup();
  renderTable();
  renderVerdict();
  showEntryTitle();
  // The entry grid follows the rules, names and language: rebuilt, it keeps what is typed.
  if (grid.dataset.fields !== entryKey()) buildEntry(grid.children.length ? readEntry() : null);
}

function entryKey() {
  const names = Array.from({ length: pad.sides }, (_, side) => sideName(side));
  return JSON.stringify([fields(), sevensLabel(), names]);
}

// -- new pad, undo

function hideUndo() {
  document.getElementById("undo-new-pad").hidden = true;
  writeStored(PREVIOUS, null);
}

function newPad() {
  if (pad.hands.length) {
    writeStored(PREVIOUS, pad);
    document.getElementById("undo-new-pad").hidden = false;
  }
  pad = { ...pad, hands: [] };
  editing = null;
  openBreakdown = null;
  savePad();
  showEntryError("");
  buildEntry(null);
  refresh();
}

function undoNewPad() {
  const previous = readStored(PREVIOUS);
  if (previous && Array.isArray(previous.hands)) {
    writeStored(STORE, previous);
    pad = loadPad();
  }
  hideUndo();
  editing = null;
  buildEntry(null);
  refresh();
}

// -- wiring

async function start() {
  mountHeader(document.getElementById("site-header"));
  applyTexts(document);
  fillPresets();
  fillNames();
  await loadCatalogue();
  fillOptions();
  buildEntry(null);
  await refresh();

  presetSelect.addEventListener("change", () => {
    pad.preset = presetSelect.value;
    pad.options = {};
    savePad();
    showOptions();
    refresh();
  });
  sidesSelect.addEventListener("change", () => {
    if (pad.hands.length) return;
    pad.sides = Number(sidesSelect.value);
    savePad();
    fillNames();
    buildEntry(null);
    refresh();
  });
  document.getElementById("options-reset").addEventListener("click", () => {
    pad.options = {};
    savePad();
    showOptions();
    refresh();
  });
  form.addEventListener("submit", saveHand);
  document.getElementById("cancel-edit").addEventListener("click", cancelEdit);
  document.getElementById("new-pad").addEventListener("click", newPad);
  document.getElementById("undo-new-pad").addEventListener("click", undoNewPad);
  document.getElementById("undo-new-pad").hidden = !readStored(PREVIOUS);

  window.addEventListener("escoba:prefs", async () => {
    applyTexts(document);
    fillPresets();
    fillNames();
    await loadCatalogue();
    fillOptions();
    grid.dataset.fields = ""; // rebuilt in the new language by render(), keeping what is typed
    await refresh();
  });
}

start();
