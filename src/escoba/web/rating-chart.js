// @ts-check
// A game's rating history as a chart, drawn in SVG by the page (profile.js): the rating after
// each rated match as a line through one point per match, the band of ± its deviation around
// it, a few ratings up the side and a few dates along the bottom. The chart is one image for a
// screen reader (role="img", its label says the history in a sentence), followed by a table of
// every point, hidden from sight but read out.
//
// The SVG is drawn at the width it is shown at (one unit a CSS pixel), so that its words keep
// their size on a phone; the page draws it again when that width changes.
//
// data-testid for browser tests: rating-chart (the <svg>, data-game="<game>",
// data-points="<n>"), chart-point (each match's point, data-rating), chart-table (the table).

import { t, tn } from "./i18n.js";
import { language } from "./prefs.js";
import { gameName, number } from "./ratings.js";

const SVG = "http://www.w3.org/2000/svg";
const STEPS = [5, 10, 20, 25, 50, 100, 200, 250, 500, 1000];

/**
 * @param {string} tag an SVG element's
 * @param {{ [name: string]: unknown }} [attributes]
 * @param {string | null} [text]
 */
function node(tag, attributes = {}, text = null) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (text !== null) element.textContent = text;
  return element;
}

/**
 * @param {string} tag
 * @param {{ [name: string]: unknown }} [attributes]
 * @param {string | null} [text]
 */
function html(tag, attributes = {}, text = null) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (text !== null) element.textContent = text;
  return element;
}

// The server's time is UTC; one without a zone is read as UTC.
/**
 * @param {unknown} iso
 * @returns {Date | null}
 */
export function parseTime(iso) {
  if (typeof iso !== "string" || !iso) return null;
  const date = new Date(/(Z|[+-]\d\d:?\d\d)$/i.test(iso) ? iso : `${iso}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** @param {Intl.DateTimeFormatOptions} options */
function formatter(options) {
  try {
    return new Intl.DateTimeFormat(language(), options);
  } catch {
    return new Intl.DateTimeFormat("en", options);
  }
}

// Round ratings up the side, about `count` of them, covering low..high.
/**
 * @param {number} low
 * @param {number} high
 * @param {number} [count]
 */
function scale(low, high, count = 4) {
  const span = Math.max(high - low, 1);
  const step = STEPS.find((each) => span / each <= count) ?? STEPS[STEPS.length - 1];
  let bottom = Math.floor(low / step) * step;
  let top = Math.ceil(high / step) * step;
  if (top === bottom) {
    bottom -= step;
    top += step;
  }
  const ticks = [];
  for (let value = bottom; value <= top; value += step) ticks.push(value);
  return { bottom, top, ticks };
}

// Which points get a date under them: the first, the last and a few evenly between, as many
// as fit in `room` pixels.
/**
 * @param {number} count
 * @param {number} room
 */
function dateTicks(count, room) {
  const fit = Math.max(2, Math.min(5, Math.floor(room / 110) + 1));
  if (count <= 1) return [0];
  const wanted = Math.min(count, fit);
  const ticks = new Set();
  for (let index = 0; index < wanted; index += 1) ticks.add(Math.round((index * (count - 1)) / (wanted - 1)));
  return [...ticks].sort((a, b) => a - b);
}

// The history in a sentence: "Escoba: 12 rated matches, rating from 1500 to 1620; highest
// 1650, lowest 1480."
/**
 * @param {string} game
 * @param {Protocol.RatingPoint[]} points
 */
export function chartSummary(game, points) {
  const ratings = points.map((point) => point.rating);
  if (ratings.length === 1) return t("profile.chart_single", { game: gameName(game), rating: number(ratings[0]) });
  return tn("profile.chart_label", points.length, {
    game: gameName(game),
    first: number(ratings[0]),
    last: number(ratings[ratings.length - 1]),
    high: number(Math.max(...ratings)),
    low: number(Math.min(...ratings)),
  });
}

/**
 * @param {string} game
 * @param {Protocol.RatingPoint[]} points
 * @param {(Date | null)[]} dates
 */
function pointsTable(game, points, dates) {
  const table = html("table", { "data-testid": "chart-table" });
  table.append(html("caption", {}, t("profile.chart_table", { game: gameName(game) })));
  const head = html("tr");
  for (const key of ["profile.col.date", "profile.col.rating", "profile.col.deviation"]) {
    head.append(html("th", { scope: "col" }, t(key)));
  }
  const body = html("tbody");
  points.forEach((point, index) => {
    const row = html("tr");
    row.append(
      html("th", { scope: "row" }, dates[index] ? formatter({ dateStyle: "medium", timeStyle: "short" }).format(dates[index]) : "—"),
      html("td", {}, number(point.rating)),
      html("td", {}, `± ${number(point.deviation)}`),
    );
    body.append(row);
  });
  const thead = html("thead");
  thead.append(head);
  table.append(thead, body);
  return table;
}

// The chart of `points` ([{at, rating, deviation, match}], oldest first) for `game`, `width`
// pixels wide: a <figure> holding the SVG and the table of its points.
/**
 * @param {string} game
 * @param {Protocol.RatingPoint[]} points
 * @param {number} width
 */
export function ratingChart(game, points, width) {
  const narrow = width < 500;
  const height = narrow ? 190 : 230;
  const margin = { left: 46, right: 14, top: 12, bottom: 30 };
  const plotWidth = Math.max(width - margin.left - margin.right, 40);
  const plotHeight = height - margin.top - margin.bottom;
  const dates = points.map((point) => parseTime(point.at));

  const low = Math.min(...points.map((point) => point.rating - point.deviation));
  const high = Math.max(...points.map((point) => point.rating + point.deviation));
  const { bottom, top, ticks } = scale(low, high, narrow ? 3 : 4);
  /** @param {number} index */
  const x = (index) => margin.left + (points.length === 1 ? plotWidth / 2 : (index * plotWidth) / (points.length - 1));
  /** @param {number} rating */
  const y = (rating) => margin.top + plotHeight - ((rating - bottom) * plotHeight) / (top - bottom);
  /** @param {number} value */
  const at = (value) => value.toFixed(1);

  const svg = node("svg", {
    class: "rating-chart",
    role: "img",
    "aria-label": chartSummary(game, points),
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    "data-testid": "rating-chart",
    "data-game": game,
    "data-points": points.length,
  });

  // Ratings up the side, each with a line across.
  for (const value of ticks) {
    svg.append(node("line", { class: "grid", x1: margin.left, x2: margin.left + plotWidth, y1: at(y(value)), y2: at(y(value)) }));
    svg.append(node("text", { class: "tick", x: margin.left - 6, y: at(y(value)), "text-anchor": "end", "dominant-baseline": "middle" }, number(value)));
  }
  svg.append(node("line", { class: "axis", x1: margin.left, x2: margin.left, y1: margin.top, y2: margin.top + plotHeight }));
  svg.append(node("line", {
    class: "axis", x1: margin.left, x2: margin.left + plotWidth, y1: margin.top + plotHeight, y2: margin.top + plotHeight,
  }));

  // Dates along the bottom: times of day when every point is of one day.
  const first = dates.find(Boolean);
  const last = [...dates].reverse().find(Boolean);
  const oneDay = first && last && first.toDateString() === last.toDateString();
  const dateFormat = formatter(oneDay ? { hour: "numeric", minute: "2-digit" } : { day: "numeric", month: "short" });
  /** @type {string | null} */
  let previous = null;
  const tickIndices = dateTicks(points.length, plotWidth);
  tickIndices.forEach((index, order) => {
    const date = dates[index];
    if (!date) return;
    const label = dateFormat.format(date);
    if (label === previous) return;
    previous = label;
    const lone = tickIndices.length === 1;
    const anchor = lone ? "middle" : order === 0 ? "start" : order === tickIndices.length - 1 ? "end" : "middle";
    const base = margin.top + plotHeight;
    svg.append(node("line", { class: "axis", x1: at(x(index)), x2: at(x(index)), y1: base, y2: base + 4 }));
    svg.append(node("text", { class: "tick", x: at(x(index)), y: base + 17, "text-anchor": anchor }, label));
  });

  // The band of ± the deviation, then the line and its points.
  const upper = points.map((point, index) => `${at(x(index))},${at(y(point.rating + point.deviation))}`);
  const lower = points.map((point, index) => `${at(x(index))},${at(y(point.rating - point.deviation))}`).reverse();
  if (points.length > 1) svg.append(node("polygon", { class: "band", points: [...upper, ...lower].join(" ") }));
  else {
    const [point] = points;
    svg.append(node("rect", {
      class: "band", x: at(x(0) - 6), width: 12, y: at(y(point.rating + point.deviation)),
      height: at(y(point.rating - point.deviation) - y(point.rating + point.deviation)),
    }));
  }
  svg.append(node("polyline", {
    class: "line", points: points.map((point, index) => `${at(x(index))},${at(y(point.rating))}`).join(" "),
  }));
  points.forEach((point, index) => {
    svg.append(node("circle", {
      class: "point", cx: at(x(index)), cy: at(y(point.rating)), r: points.length > 60 ? 2 : 3.5,
      "data-testid": "chart-point", "data-rating": point.rating,
    }));
  });

  const figure = html("figure", { class: "chart", "data-game": game });
  figure.append(html("figcaption", {}, gameName(game)), svg);
  const hidden = html("div", { class: "visually-hidden" });
  hidden.append(pointsTable(game, points, dates));
  figure.append(hidden);
  return figure;
}
