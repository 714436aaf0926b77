// @ts-check
// The evaluation graph of an analysed match, drawn in SVG by the replay page (replay-analysis.js):
// after each move, the first side's expected lead in match points (above the zero line: the
// first side leads, below: the second), the area between the line and zero shaded in the
// colour of the side ahead, the hands' boundaries marked lightly, and on the line each costly
// move marked by its class: a circle for an inaccuracy, a square for a mistake, a triangle for
// a blunder (shapes as well as colours, each with its words as a title). A line across the
// graph shows where the replay is.
//
// The SVG is drawn at the width it is shown at (one unit a CSS pixel), as the rating chart
// is (rating-chart.js), so that its words keep their size on a phone.
//
// data-testid for browser tests: analysis-graph (the <svg>, data-points="<n>"),
// analysis-point (each move's point, data-step), analysis-mark (each costly move's mark,
// data-step, data-judgement), analysis-now (the line at the replay's move, data-step).

const SVG = "http://www.w3.org/2000/svg";
const SCALES = [0.5, 1, 2, 3, 5, 10, 15, 20, 30, 50];
/** @type {WeakMap<Element, Map<number, number>>} each graph's moves' x, by their step */
const positions = new WeakMap();

/** @typedef {Protocol.AnalysedMove} AnalysedMove a move of the analysis, as the server sends it */

/**
 * @typedef {object} ChartOptions
 * @property {number} width the graph's width in CSS pixels
 * @property {string[]} sides the two sides' names, the first one's above the line
 * @property {string} label the graph in a sentence, for a screen reader
 * @property {(move: AnalysedMove) => string} title a costly move's words, for its mark
 * @property {(step: number) => void} go moves the replay to a step
 * @property {(number: number) => string} handName "Hand 2", for the hands' lines
 */

/**
 * @param {string} tag an SVG element's
 * @param {{ [name: string]: unknown }} [attributes]
 * @param {string | null} [text]
 */
function node(tag, attributes = {}, text = null) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined) element.setAttribute(name, String(value));
  }
  if (text !== null) element.textContent = text;
  return element;
}

/** @param {number} value */
const at = (value) => value.toFixed(1);

/** @param {string} judgement */
export function isCostly(judgement) {
  return judgement === "inaccuracy" || judgement === "mistake" || judgement === "blunder";
}

// The costly move's mark, centred on (x, y): its shape tells its class without its colour.
/**
 * @param {string} judgement
 * @param {number} x
 * @param {number} y
 */
function markShape(judgement, x, y) {
  if (judgement === "blunder") {
    const r = 7;
    return node("path", { d: `M${at(x)},${at(y - r)} L${at(x + r)},${at(y + r * 0.75)} L${at(x - r)},${at(y + r * 0.75)} Z` });
  }
  if (judgement === "mistake") return node("rect", { x: at(x - 5), y: at(y - 5), width: 10, height: 10 });
  return node("circle", { cx: at(x), cy: at(y), r: 5 });
}

// The move at the replay's step: the last one played at or before it (a take back or a deal
// shows the move before it), or null before the first.
/**
 * @param {AnalysedMove[]} moves
 * @param {number} step
 */
export function moveAt(moves, step) {
  let found = null;
  for (const move of moves) {
    if (move.step <= step) found = move;
    else break;
  }
  return found;
}

/**
 * The graph of `moves` (the whole match's, in order): an <svg>.
 * @param {AnalysedMove[]} moves
 * @param {ChartOptions} options
 */
export function leadChart(moves, { width, sides, label, title, go, handName }) {
  const narrow = width < 500;
  const height = narrow ? 190 : 230;
  const margin = { left: 36, right: 10, top: 22, bottom: 22 };
  const plotWidth = Math.max(width - margin.left - margin.right, 40);
  const plotHeight = height - margin.top - margin.bottom;
  const count = moves.length;
  const leads = moves.map((move) => (typeof move.lead === "number" && Number.isFinite(move.lead) ? move.lead : 0));
  const largest = Math.max(0, ...leads.map(Math.abs));
  const top = SCALES.find((scale) => largest <= scale) ?? Math.ceil(largest);
  /** @param {number} index */
  const x = (index) => margin.left + (count <= 1 ? plotWidth / 2 : (index * plotWidth) / (count - 1));
  /** @param {number} lead */
  const y = (lead) => margin.top + plotHeight / 2 - (lead * plotHeight) / (2 * top);
  const zero = y(0);

  const svg = node("svg", {
    class: "lead-chart",
    role: "group",
    "aria-label": label,
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    "data-testid": "analysis-graph",
    "data-points": count,
  });

  // Leads up the side, each with a line across; the zero line darker.
  for (const value of [top, top / 2, 0, -top / 2, -top]) {
    svg.append(node("line", { class: value === 0 ? "zero" : "grid", x1: margin.left, x2: margin.left + plotWidth, y1: at(y(value)), y2: at(y(value)) }));
    const shown = value === 0 ? "0" : `${value > 0 ? "+" : "−"}${Math.abs(value)}`;
    svg.append(node("text", { class: "tick", x: margin.left - 5, y: at(y(value)), "text-anchor": "end", "dominant-baseline": "middle", "aria-hidden": "true" }, shown));
  }

  // Each hand's first move: a light line before it, and the hand's name (or number, where
  // hands are short) inside the top of the graph, clear of the sides' names.
  const starts = moves.flatMap((move, index) => (index > 0 && move.hand_number !== moves[index - 1].hand_number ? [index] : []));
  const room = Math.min(...[0, ...starts].map((index, order) => (starts[order] ?? count) - index).map((moved) => (moved * plotWidth) / Math.max(count - 1, 1)));
  let lastLabel = -Infinity;
  for (const index of count > 1 && starts.length ? [0, ...starts] : []) {
    const where = index === 0 ? x(0) : (x(index) + x(index - 1)) / 2;
    if (index > 0) svg.append(node("line", { class: "hand-line", x1: at(where), x2: at(where), y1: margin.top, y2: margin.top + plotHeight }));
    if (where - lastLabel < 22) continue;
    lastLabel = where;
    const number = moves[index].hand_number + 1;
    svg.append(node("text", { class: "hand-number", x: at(where + 3), y: margin.top + 11, "aria-hidden": "true" }, room >= 70 ? handName(number) : String(number)));
  }

  // The area between the line and zero, in the colour of the side ahead: the same shape twice,
  // each cut to its half of the graph.
  const uid = Math.random().toString(36).slice(2, 8);
  const line = leads.map((lead, index) => `${at(x(index))},${at(y(lead))}`);
  const area = [`${at(x(0))},${at(zero)}`, ...line, `${at(x(count - 1))},${at(zero)}`].join(" ");
  const clips = node("defs");
  clips.append(
    node("clipPath", { id: `above-${uid}` }),
    node("clipPath", { id: `below-${uid}` }),
  );
  /** @type {Element} */ (clips.firstChild).append(node("rect", { x: 0, y: 0, width, height: at(zero) }));
  /** @type {Element} */ (clips.lastChild).append(node("rect", { x: 0, y: at(zero), width, height: at(height - zero) }));
  svg.append(clips);
  if (count > 1) {
    svg.append(node("polygon", { class: "ahead side-0", points: area, "clip-path": `url(#above-${uid})` }));
    svg.append(node("polygon", { class: "ahead side-1", points: area, "clip-path": `url(#below-${uid})` }));
    svg.append(node("polyline", { class: "lead-line", points: line.join(" ") }));
  }

  // Who is where: the first side's name over the top, the second's under the bottom.
  svg.append(node("text", { class: "side-name side-0", x: margin.left + 4, y: margin.top - 7 }, `▲ ${sides[0] ?? ""}`));
  svg.append(node("text", { class: "side-name side-1", x: margin.left + 4, y: height - 6 }, `▼ ${sides[1] ?? ""}`));

  // The line where the replay is (moved by showStep, not redrawn).
  svg.append(node("line", { class: "now", "data-testid": "analysis-now", x1: 0, x2: 0, y1: margin.top, y2: margin.top + plotHeight, visibility: "hidden" }));

  const points = node("g", { class: "points", "aria-hidden": "true" });
  moves.forEach((move, index) => {
    points.append(node("circle", {
      class: "point", cx: at(x(index)), cy: at(y(leads[index])), r: count > 80 ? 1.6 : 2.5,
      "data-testid": "analysis-point", "data-step": move.step,
    }));
  });
  svg.append(points);

  // The costly moves' marks: each a button that moves the replay there.
  moves.forEach((move, index) => {
    if (!isCostly(move.judgement)) return;
    const words = title(move);
    const mark = markShape(move.judgement, x(index), y(leads[index]));
    mark.setAttribute("class", `mark ${move.judgement}`);
    const group = node("g", {
      class: "mark-button", role: "button", tabindex: 0, "aria-label": words,
      "data-testid": "analysis-mark", "data-step": move.step, "data-judgement": move.judgement,
    });
    group.append(node("title", {}, words), mark);
    group.addEventListener("click", (event) => {
      event.stopPropagation();
      go(move.step);
    });
    group.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      go(move.step);
    });
    svg.append(group);
  });

  // A click anywhere else goes to the nearest move.
  svg.addEventListener("click", (event) => {
    if (!count) return;
    const box = svg.getBoundingClientRect();
    const scaled = ((event.clientX - box.left) * width) / Math.max(box.width, 1);
    const index = count <= 1 ? 0 : Math.round(((scaled - margin.left) * (count - 1)) / plotWidth);
    go(moves[Math.max(0, Math.min(count - 1, index))].step);
  });

  positions.set(svg, new Map(moves.map((move, index) => [move.step, x(index)])));
  return svg;
}

// Put the graph's "now" line at the move shown at `step` (hidden before the first move).
/**
 * @param {Element} svg a graph leadChart drew
 * @param {AnalysedMove | null} move the move at the replay's step
 */
export function showStep(svg, move) {
  const now = svg.querySelector(".now");
  if (!now) return;
  const x = move ? positions.get(svg)?.get(move.step) : undefined;
  if (x === undefined || !move) {
    now.setAttribute("visibility", "hidden");
    now.removeAttribute("data-step");
    return;
  }
  now.setAttribute("x1", at(x));
  now.setAttribute("x2", at(x));
  now.setAttribute("visibility", "visible");
  now.setAttribute("data-step", String(move.step));
}
