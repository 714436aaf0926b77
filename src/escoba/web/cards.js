// @ts-check
// The 40 cards of a fishing-game deck, drawn as SVG by our own code, in three deck styles:
// "french" (♦ ♥ ♠ ♣), "spanish" (baraja española) and "italian" (Piacentine/Napoletane-like).
//
// Every card is a self-contained <svg> text with inline colours and no ids, so any number of
// cards can share a page. A card is 200 × 300 units. Suit symbols are drawn centred on the
// origin in a box about 100 units high and put in place with translate/rotate/scale; the long
// ones (swords, clubs, batons) also take a length and, for curved sabres, a bend.

export const SUITS = ["d", "h", "s", "c"];
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"];
const STYLES = ["french", "spanish", "italian"];

// ---------------------------------------------------------------------------------------------
// Names and corner indices

const FRENCH_SUIT_SYMBOLS = { d: "♦", h: "♥", s: "♠", c: "♣" };
const FACE_LETTERS = { en: ["J", "Q", "K"], de: ["B", "D", "K"], fr: ["V", "D", "R"] };
const SUIT_NAMES = {
  spanish: { d: "oros", h: "copas", s: "espadas", c: "bastos" },
  italian: { d: "denari", h: "coppe", s: "spade", c: "bastoni" },
};
const RANK_NAMES = {
  spanish: ["as", "2", "3", "4", "5", "6", "7", "sota", "caballo", "rey"],
  italian: ["asso", "2", "3", "4", "5", "6", "7", "fante", "cavallo", "re"],
};
// The Spanish deck prints 10, 11, 12 on its face cards, the Italian one 8, 9, 10.
const CORNER_NUMBERS = {
  spanish: ["1", "2", "3", "4", "5", "6", "7", "10", "11", "12"],
  italian: ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"],
};

export function isCard(text) {
  return typeof text === "string" && text.length === 2 && RANKS.includes(text[0]) && SUITS.includes(text[1]);
}

function checkCard(card) {
  if (!isCard(card)) throw new Error(`bad card ${card}`);
}

function checkStyle(style) {
  if (!STYLES.includes(style)) throw new Error(`unknown deck style ${style}: choose one of ${STYLES.join(", ")}`);
}

function faceLetters(language) {
  return Object.hasOwn(FACE_LETTERS, language) ? FACE_LETTERS[language] : FACE_LETTERS.en;
}

// The rank as printed in the corners: "A", "7", "J" (German "B"), or "12" in a Spanish deck.
function cornerLabel(rankIndex, style, language) {
  if (style !== "french") return CORNER_NUMBERS[style][rankIndex];
  return rankIndex >= 7 ? faceLetters(language)[rankIndex - 7] : RANKS[rankIndex];
}

// A suit's own word in the Spanish or Italian deck ("oros", "denari"); null for French cards,
// whose suits are named in the reader's language.
export function suitWord(suit, style) {
  checkStyle(style);
  if (!SUITS.includes(suit)) throw new Error(`bad suit ${suit}`);
  return style === "french" ? null : SUIT_NAMES[style][suit];
}

export function cardName(card, style = "french", language = "en") {
  checkCard(card);
  checkStyle(style);
  const rankIndex = RANKS.indexOf(card[0]);
  const suit = card[1];
  if (style === "french") return cornerLabel(rankIndex, style, language) + FRENCH_SUIT_SYMBOLS[suit];
  const joiner = style === "spanish" ? "de" : "di";
  return `${RANK_NAMES[style][rankIndex]} ${joiner} ${SUIT_NAMES[style][suit]}`;
}

// ---------------------------------------------------------------------------------------------
// Colours and small helpers

const INK = "#2b2118";
const PAPER = "#fffdf7";
const SKIN = "#f6d3b0";
const GOLD = "#f2c230";
const GOLD_DARK = "#8a5a00";
const SANS = "'Helvetica Neue', Arial, sans-serif";
const SERIF = "Georgia, 'Times New Roman', serif";

const INDEX_COLOURS = {
  french: { d: "#d0112b", h: "#d0112b", s: "#1a1a1a", c: "#1a1a1a" },
  spanish: { d: "#a86a00", h: "#c8102e", s: "#1f4f9a", c: "#2f7a2a" },
  italian: { d: "#a86a00", h: "#b3261e", s: "#2b4f7e", c: "#7a4516" },
};

// A number as short SVG text: 12.5, not 12.500000001.
const num = (value, digits = 1) => String(+value.toFixed(digits));

function escapeAttr(text) {
  return String(text).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

// Put a symbol drawn around the origin at (x, y), turned by angle degrees and scaled by size.
function place(markup, x, y, size = 1, angle = 0) {
  const turn = angle ? ` rotate(${num(angle)})` : "";
  const scale = size !== 1 ? ` scale(${num(size, 3)})` : "";
  return `<g transform="translate(${num(x)} ${num(y)})${turn}${scale}">${markup}</g>`;
}

// The same markup turned half way round the card's centre (for corners and double heads).
const upsideDown = (markup) => `<g transform="rotate(180 100 150)">${markup}</g>`;

// The same markup mirrored left to right across the card's middle.
const mirrored = (markup) => `<g transform="matrix(-1 0 0 1 200 0)">${markup}</g>`;

// count shapes evenly spaced on a circle; draw(x, y, degrees) gives each one.
function around(count, radius, draw, start = -90) {
  let out = "";
  for (let i = 0; i < count; i++) {
    const degrees = start + (360 * i) / count;
    const a = (degrees * Math.PI) / 180;
    out += draw(num(radius * Math.cos(a)), num(radius * Math.sin(a)), degrees);
  }
  return out;
}

function starPath(points, outer, inner) {
  const corners = [];
  for (let i = 0; i < points * 2; i++) {
    const r = i % 2 ? inner : outer;
    const a = (Math.PI * i) / points - Math.PI / 2;
    corners.push(`${num(r * Math.cos(a))} ${num(r * Math.sin(a))}`);
  }
  return `M${corners.join(" L")}Z`;
}

// ---------------------------------------------------------------------------------------------
// Suit symbols: one function per suit per style. Each draws around the origin, about 100 units
// high; long symbols take their length (tip at -len/2) and the sabre a sideways bend.

function frenchDiamond() {
  return `<path d="M0 -50 Q14 -24 37 0 Q14 24 0 50 Q-14 24 -37 0 Q-14 -24 0 -50Z" fill="#d0112b"/>`;
}

function frenchHeart() {
  return (
    `<path d="M0 46 C-20 26 -46 8 -46 -16 C-46 -34 -34 -46 -21 -46 C-10 -46 -3 -38 0 -28 ` +
    `C3 -38 10 -46 21 -46 C34 -46 46 -34 46 -16 C46 8 20 26 0 46Z" fill="#d0112b"/>`
  );
}

function frenchSpade() {
  return (
    `<path d="M0 -48 C-10 -30 -46 -12 -46 10 C-46 26 -34 34 -22 34 C-12 34 -6 29 -3 23 ` +
    `C-4 35 -10 43 -19 49 L19 49 C10 43 4 35 3 23 C6 29 12 34 22 34 C34 34 46 26 46 10 ` +
    `C46 -12 10 -30 0 -48Z" fill="#1a1a1a"/>`
  );
}

function frenchClub() {
  return (
    `<g fill="#1a1a1a"><circle cy="-25" r="21"/><circle cx="-23" cy="9" r="21"/>` +
    `<circle cx="23" cy="9" r="21"/><circle cy="2" r="10"/>` +
    `<path d="M-4 4 C-4 26 -10 41 -19 49 L19 49 C10 41 4 26 4 4Z"/></g>`
  );
}

function spanishOros() {
  const dots = around(10, 28, (x, y) => `<circle cx="${x}" cy="${y}" r="3.4"/>`);
  return (
    `<g stroke="${GOLD_DARK}" stroke-width="3"><circle r="46" fill="#f4bd1c"/>` +
    `<circle r="36" fill="#fbd74a" stroke-width="2"/></g>` +
    `<g fill="#c8561b">${dots}</g>` +
    `<path d="${starPath(8, 17, 8)}" fill="#d9480f" stroke="${GOLD_DARK}" stroke-width="2"/>` +
    `<circle r="5" fill="#fbd74a"/>`
  );
}

function spanishCopas() {
  return (
    `<g stroke="#6b3a00" stroke-width="2.5" stroke-linejoin="round">` +
    `<path d="M-6 10 L6 10 L5 33 L-5 33Z" fill="${GOLD}"/>` +
    `<path d="M-29 48 C-25 37 -11 31 0 31 C11 31 25 37 29 48Z" fill="${GOLD}"/>` +
    `<ellipse cy="21" rx="10" ry="5" fill="${GOLD}"/>` +
    `<path d="M-34 -37 C-34 -6 -18 11 0 12 C18 11 34 -6 34 -37Z" fill="#c8102e"/>` +
    `<rect x="-39" y="-47" width="78" height="11" rx="4" fill="${GOLD}"/>` +
    `<path d="M-34 -26 L34 -26" stroke="${GOLD}" stroke-width="4"/></g>` +
    `<path d="M-23 -18 C-21 -6 -14 2 -6 5" fill="none" stroke="#f59aa6" stroke-width="3" stroke-linecap="round"/>`
  );
}

function spanishEspadas(len = 100) {
  const tip = -len / 2;
  const guard = len / 2 - 28;
  const end = len / 2;
  return (
    `<g stroke="#173a70" stroke-width="2.5" stroke-linejoin="round">` +
    `<path d="M0 ${num(tip)} L8 ${num(tip + 14)} L8 ${num(guard)} L-8 ${num(guard)} L-8 ${num(tip + 14)}Z" fill="#2f62b0"/>` +
    `<path d="M0 ${num(tip + 12)} L0 ${num(guard - 4)}" stroke="#a9c8ee" stroke-width="3"/>` +
    `<rect x="-4.5" y="${num(guard + 6)}" width="9" height="16" fill="#8b2a1a"/>` +
    `<rect x="-22" y="${num(guard)}" width="44" height="7" rx="3" fill="#e0a82e"/>` +
    `<circle cx="-23" cy="${num(guard + 3.5)}" r="5" fill="#c8102e"/>` +
    `<circle cx="23" cy="${num(guard + 3.5)}" r="5" fill="#c8102e"/>` +
    `<circle cy="${num(end - 5)}" r="5.5" fill="#e0a82e"/></g>`
  );
}

function spanishBastos(len = 100) {
  const top = -len / 2;
  const end = len / 2;
  // Half width grows from 7 at the handle to 14 at the knobbly head.
  const half = (y) => 7 + (7 * (end - y)) / (end - top);
  const stub = (fraction, side) => {
    const y = top + len * fraction;
    const x = side * (half(y) + 2);
    return `<ellipse cx="${num(x)}" cy="${num(y)}" rx="7" ry="3.6" transform="rotate(${side * -30} ${num(x)} ${num(y)})"/>`;
  };
  return (
    `<g fill="#8a5a2b" stroke="#4a2c10" stroke-width="2">${stub(0.26, -1)}${stub(0.45, 1)}${stub(0.66, -1)}</g>` +
    `<path d="M-7 ${num(end)} L-14 ${num(top + 12)} C-16 ${num(top + 2)} -8 ${num(top - 2)} 0 ${num(top - 1)} ` +
    `C8 ${num(top - 2)} 16 ${num(top + 2)} 14 ${num(top + 12)} L7 ${num(end)} Q0 ${num(end + 4)} -7 ${num(end)}Z" ` +
    `fill="#5d9b34" stroke="#2f5a17" stroke-width="2.5" stroke-linejoin="round"/>` +
    `<path d="M-4 ${num(top + 10)} L-2 ${num(end - 8)} M5 ${num(top + 18)} L3 ${num(top + len * 0.55)}" ` +
    `stroke="#8cc45f" stroke-width="2.5" stroke-linecap="round"/>` +
    `<ellipse cy="${num(top + 3)}" rx="9" ry="3.5" fill="#c9a36a" stroke="#4a2c10" stroke-width="1.5"/>`
  );
}

function italianDenari() {
  const scallops = around(16, 42, (x, y) => `<circle cx="${x}" cy="${y}" r="7"/>`);
  const petals = around(8, 11, (x, y, deg) =>
    `<ellipse cx="${x}" cy="${y}" rx="8" ry="4" transform="rotate(${num(deg)} ${x} ${y})"/>`);
  return (
    `<g fill="#e0a41e" stroke="#7a4d00" stroke-width="2">${scallops}</g>` +
    `<circle r="42" fill="#eab732"/>` +
    `<circle r="32" fill="#b3261e" stroke="#7a4d00" stroke-width="2"/>` +
    `<circle r="24" fill="#f5d35a" stroke="#7a4d00" stroke-width="1.5"/>` +
    `<g fill="#2f5d8a">${petals}</g><circle r="5" fill="#b3261e"/>`
  );
}

function italianCoppe() {
  return (
    `<g stroke="#5a3a10" stroke-width="2.5" stroke-linejoin="round">` +
    `<path d="M-30 47 Q-26 31 0 29 Q26 31 30 47Z" fill="${GOLD}"/>` +
    `<rect x="-4.5" y="4" width="9" height="27" fill="${GOLD}"/>` +
    `<ellipse cy="14" rx="10" ry="6" fill="#b3261e"/>` +
    `<path d="M-35 -33 Q0 -26 35 -33 C33 -10 18 5 0 7 C-18 5 -33 -10 -35 -33Z" fill="#2f5d8a"/>` +
    `<path d="M-32 -20 Q0 -13 32 -20 L27 -9 Q0 -3 -27 -9Z" fill="#b3261e"/>` +
    `<path d="M-42 -46 Q0 -38 42 -46 L35 -33 Q0 -26 -35 -33Z" fill="${GOLD}"/></g>`
  );
}

function italianSpade(len = 100, bend = 0) {
  const tip = -len / 2;
  const guard = len / 2 - 26;
  const middle = (tip + guard) / 2;
  const c = 2 * bend; // a quadratic through this control point bulges sideways by `bend`
  // The hilt carries on along the blade's direction at the guard.
  const hiltAngle = (Math.atan2(c, guard - middle) * 180) / Math.PI;
  const crossGuard = `M-20 -6 Q-10 5 0 0 Q10 -5 20 6`;
  const hilt =
    `<rect x="-4" y="2" width="8" height="18" fill="#b3261e" stroke="#5a1a10" stroke-width="2"/>` +
    `<path d="${crossGuard}" fill="none" stroke="#7a4d00" stroke-width="8" stroke-linecap="round"/>` +
    `<path d="${crossGuard}" fill="none" stroke="#e9b430" stroke-width="4.5" stroke-linecap="round"/>` +
    `<circle cy="21" r="5.5" fill="#e9b430" stroke="#7a4d00" stroke-width="2"/>`;
  return (
    `<path d="M0 ${num(tip)} Q${num(c + 8)} ${num(middle)} 6 ${num(guard)} L-6 ${num(guard)} ` +
    `Q${num(c - 8)} ${num(middle)} 0 ${num(tip)}Z" fill="#d6e4f0" stroke="#2b4f7e" stroke-width="2.5" stroke-linejoin="round"/>` +
    `<path d="M0 ${num(tip + 10)} Q${num(c)} ${num(middle)} 0 ${num(guard - 4)}" fill="none" stroke="#7fa3c8" stroke-width="2"/>` +
    `<g transform="translate(0 ${num(guard)}) rotate(${num(hiltAngle)})${bend > 0 ? " scale(-1 1)" : ""}">${hilt}</g>`
  );
}

function italianBastoni(len = 100) {
  const top = -len / 2;
  const end = len / 2;
  // Knobs where side shoots were cut off, alternating left and right along the baton.
  const knobs = [];
  for (let y = top + 16, side = -1; y < end - 12; y += 17, side = -side) {
    knobs.push(`<circle cx="${side * 7}" cy="${num(y)}" r="4.5"/>`);
  }
  return (
    `<g fill="#c47a31" stroke="#5a3210" stroke-width="2">${knobs.join("")}` +
    `<rect x="-7" y="${num(top)}" width="14" height="${num(len)}" rx="7"/></g>` +
    `<path d="M-2 ${num(top + 8)} L-2 ${num(end - 8)}" stroke="#e8a85e" stroke-width="3" stroke-linecap="round"/>` +
    `<g fill="#3f7a33" stroke="#1f4a18" stroke-width="1.5">` +
    `<rect x="-8" y="${num(top + 5)}" width="16" height="6" rx="2"/>` +
    `<rect x="-8" y="${num(end - 11)}" width="16" height="6" rx="2"/></g>`
  );
}

const SYMBOLS = {
  french: { d: frenchDiamond, h: frenchHeart, s: frenchSpade, c: frenchClub },
  spanish: { d: spanishOros, h: spanishCopas, s: spanishEspadas, c: spanishBastos },
  italian: { d: italianDenari, h: italianCoppe, s: italianSpade, c: italianBastoni },
};

// ---------------------------------------------------------------------------------------------
// Pip layouts: for each family of decks and each count, the pips as
// [x, y, size, angle, length, bend] (size 1 = a 100-unit symbol; length and bend only matter
// for long symbols).

const FRENCH_ROWS = [72, 150, 228];

// Two sabres, mirror images, ends `offset` either side of the middle, bowing apart by `bend`
// into a pointed oval; hilts at the bottom, or at the top when `hiltsUp`.
function sabrePair(offset, bend, len, hiltsUp = false) {
  const angle = hiltsUp ? 180 : 0;
  return [[100 + offset, 150, 1, angle, len, -bend], [100 - offset, 150, 1, angle, len, bend]];
}

const PIPS = {
  french: {
    1: [[100, 150, 1.15]],
    2: [[100, 72, 0.38], [100, 228, 0.38, 180]],
    3: [[100, 72, 0.38], [100, 150, 0.38], [100, 228, 0.38, 180]],
    4: [[64, 72, 0.38], [136, 72, 0.38], [64, 228, 0.38, 180], [136, 228, 0.38, 180]],
    5: [[64, 72, 0.38], [136, 72, 0.38], [100, 150, 0.38], [64, 228, 0.38, 180], [136, 228, 0.38, 180]],
    6: FRENCH_ROWS.flatMap((y) => [[64, y, 0.38, y > 150 ? 180 : 0], [136, y, 0.38, y > 150 ? 180 : 0]]),
    7: [
      ...FRENCH_ROWS.flatMap((y) => [[64, y, 0.36, y > 150 ? 180 : 0], [136, y, 0.36, y > 150 ? 180 : 0]]),
      [100, 111, 0.36],
    ],
  },
  // oros and copas: upright, in the baraja's plain rows.
  spanishRound: {
    1: [[100, 150, 1.25]],
    2: [[100, 82, 0.56], [100, 218, 0.56]],
    3: [[100, 72, 0.5], [100, 150, 0.5], [100, 228, 0.5]],
    4: [[66, 82, 0.5], [134, 82, 0.5], [66, 218, 0.5], [134, 218, 0.5]],
    5: [[66, 78, 0.48], [134, 78, 0.48], [100, 150, 0.48], [66, 222, 0.48], [134, 222, 0.48]],
    6: [[66, 72, 0.46], [134, 72, 0.46], [66, 150, 0.46], [134, 150, 0.46], [66, 228, 0.46], [134, 228, 0.46]],
    7: [
      [68, 74, 0.44], [132, 74, 0.44],
      [52, 150, 0.44], [100, 150, 0.44], [148, 150, 0.44],
      [68, 226, 0.44], [132, 226, 0.44],
    ],
  },
  // espadas and bastos: crossed for 2 and 3, then standing apart in rows, slightly splayed.
  spanishLong: {
    1: [[100, 150, 1.2, 0, 190]],
    2: [[100, 150, 1, -26, 205], [100, 150, 1, 26, 205]],
    3: [[100, 150, 1, -26, 205], [100, 150, 1, 26, 205], [100, 150, 1, 180, 205]],
    4: [[66, 97, 0.9, -6], [134, 97, 0.9, 6], [66, 203, 0.9, 6], [134, 203, 0.9, -6]],
    5: [[62, 95, 0.88, -6], [138, 95, 0.88, 6], [100, 150, 0.88], [62, 205, 0.88, 6], [138, 205, 0.88, -6]],
    6: [
      [56, 97, 0.85, -6], [100, 97, 0.85], [144, 97, 0.85, 6],
      [56, 203, 0.85, 6], [100, 203, 0.85], [144, 203, 0.85, -6],
    ],
    7: [
      [60, 82, 0.64, -6], [100, 82, 0.64], [140, 82, 0.64, 6],
      [100, 150, 0.64],
      [60, 218, 0.64, 6], [100, 218, 0.64], [140, 218, 0.64, -6],
    ],
  },
  // denari and coppe: the 3 runs diagonally (clear of the indices), the 7 has its odd pip high in the middle.
  italianRound: {
    1: [[100, 150, 1.25]],
    2: [[100, 80, 0.6], [100, 220, 0.6]],
    3: [[136, 78, 0.5], [100, 150, 0.5], [64, 222, 0.5]],
    4: [[64, 84, 0.5], [136, 84, 0.5], [64, 216, 0.5], [136, 216, 0.5]],
    5: [[62, 80, 0.48], [138, 80, 0.48], [100, 150, 0.48], [62, 220, 0.48], [138, 220, 0.48]],
    6: [[64, 72, 0.46], [136, 72, 0.46], [64, 150, 0.46], [136, 150, 0.46], [64, 228, 0.46], [136, 228, 0.46]],
    7: [
      [60, 72, 0.42], [140, 72, 0.42], [100, 111, 0.42], [60, 150, 0.42],
      [140, 150, 0.42], [60, 228, 0.42], [140, 228, 0.42],
    ],
  },
  // spade: pairs of curved sabres crossing in pointed ovals, hilts alternating top and bottom;
  // odd counts add a straight sword down the middle.
  italianSwords: {
    1: [[100, 150, 1.25, 0, 185]],
    2: sabrePair(14, 56, 210),
    3: [...sabrePair(14, 56, 210), [100, 150, 0.85, 180, 170]],
    4: [...sabrePair(14, 66, 212), ...sabrePair(8, 30, 200, true)],
    5: [...sabrePair(14, 66, 212), ...sabrePair(8, 30, 200, true), [100, 150, 0.85, 0, 160]],
    6: [...sabrePair(16, 72, 214), ...sabrePair(10, 48, 206, true), ...sabrePair(6, 24, 198)],
    7: [
      ...sabrePair(16, 74, 214), ...sabrePair(12, 52, 206, true), ...sabrePair(8, 30, 198),
      [100, 150, 0.85, 180, 160],
    ],
  },
  // bastoni: straight batons crossing in a lattice.
  italianBatons: {
    1: [[100, 150, 1.3, 0, 175]],
    2: [[100, 150, 1, -22, 215], [100, 150, 1, 22, 215]],
    3: [[100, 150, 1, -22, 215], [100, 150, 1, 22, 215], [100, 150, 1, 0, 215]],
    4: [[78, 150, 1, 22, 205], [122, 150, 1, 22, 205], [78, 150, 1, -22, 205], [122, 150, 1, -22, 205]],
    5: [
      [78, 150, 1, 22, 205], [122, 150, 1, 22, 205], [78, 150, 1, -22, 205], [122, 150, 1, -22, 205],
      [100, 150, 1, 0, 215],
    ],
    6: [
      [64, 150, 0.8, 16, 190], [100, 150, 0.8, 16, 255], [136, 150, 0.8, 16, 190],
      [64, 150, 0.8, -16, 190], [100, 150, 0.8, -16, 255], [136, 150, 0.8, -16, 190],
    ],
    7: [
      [64, 150, 0.8, 16, 190], [100, 150, 0.8, 16, 255], [136, 150, 0.8, 16, 190],
      [64, 150, 0.8, -16, 190], [100, 150, 0.8, -16, 255], [136, 150, 0.8, -16, 190],
      [100, 150, 0.8, 0, 260],
    ],
  },
};

function pipFamily(style, suit) {
  if (style === "french") return "french";
  const round = suit === "d" || suit === "h";
  if (style === "spanish") return round ? "spanishRound" : "spanishLong";
  if (round) return "italianRound";
  return suit === "s" ? "italianSwords" : "italianBatons";
}

function pips(style, suit, count) {
  const draw = SYMBOLS[style][suit];
  return PIPS[pipFamily(style, suit)][count]
    .map(([x, y, size, angle = 0, len = 100, bend = 0]) => place(draw(len, bend), x, y, size, angle))
    .join("");
}

// ---------------------------------------------------------------------------------------------
// Card furniture: outline, corner indices, the Spanish frame with its "pintas"

function outline(fill = PAPER) {
  return `<rect x="1.5" y="1.5" width="197" height="297" rx="13" fill="${fill}" stroke="#8c8577" stroke-width="2"/>`;
}

function corners(label, style, suit) {
  const colour = INDEX_COLOURS[style][suit];
  const family = style === "spanish" ? SANS : SERIF;
  const x = style === "spanish" ? 28 : 22;
  const baseline = style === "spanish" ? 49 : 46;
  const fit = label.length > 1 ? ` textLength="34" lengthAdjust="spacingAndGlyphs"` : "";
  const long = style !== "french" && (suit === "s" || suit === "c");
  const mini = long
    ? place(SYMBOLS[style][suit](70), x, baseline + 24, 0.32)
    : place(SYMBOLS[style][suit](), x, baseline + 21, style === "french" ? 0.2 : 0.19);
  const one =
    `<text x="${x}" y="${baseline}" text-anchor="middle" font-family="${family}" ` +
    `font-size="39" font-weight="700" fill="${colour}"${fit}>${label}</text>${mini}`;
  return one + upsideDown(one);
}

// The baraja's frame: its top and bottom lines break once for copas, twice for espadas and
// three times for bastos (oros: unbroken), so the suit shows even when only an edge is seen.
function pintas(suit) {
  const breaks = { d: 0, h: 1, s: 2, c: 3 }[suit];
  const [left, top, right, bottom, r] = [9, 9, 191, 291, 8];
  const gapCentres = Array.from({ length: breaks }, (_, i) => 100 + (i - (breaks - 1) / 2) * 24);
  const edge = (y) => {
    let d = "";
    let x = left + r;
    for (const centre of gapCentres) {
      d += `M${num(x)} ${y} L${num(centre - 6)} ${y} `;
      x = centre + 6;
    }
    return `${d}M${num(x)} ${y} L${right - r} ${y} `;
  };
  const sides =
    `M${right - r} ${top} A${r} ${r} 0 0 1 ${right} ${top + r} L${right} ${bottom - r} ` +
    `A${r} ${r} 0 0 1 ${right - r} ${bottom} M${left + r} ${bottom} A${r} ${r} 0 0 1 ${left} ${bottom - r} ` +
    `L${left} ${top + r} A${r} ${r} 0 0 1 ${left + r} ${top}`;
  return `<path d="${edge(top)}${edge(bottom)}${sides}" fill="none" stroke="${INK}" stroke-width="2.4"/>`;
}

// ---------------------------------------------------------------------------------------------
// Face cards

const FRENCH_FACE_COLOURS = {
  d: { main: "#c8102e", alt: "#2c5fa8", hair: "#d9a441" },
  h: { main: "#c8102e", alt: "#3a8a3a", hair: "#7a4a22" },
  s: { main: "#23407e", alt: "#c8102e", hair: "#3d2b1f" },
  c: { main: "#2b2b33", alt: "#3a8a3a", hair: "#a0522d" },
};

const FIGURE_COLOURS = {
  spanish: {
    d: { main: "#c8102e", alt: "#2c5fa8", trim: GOLD, hose: "#2c5fa8", hair: "#7a4a22" },
    h: { main: "#2c5fa8", alt: "#c8102e", trim: GOLD, hose: "#c8102e", hair: "#d9a441" },
    s: { main: "#3a8a3a", alt: GOLD, trim: "#c8102e", hose: "#c8102e", hair: "#3d2b1f" },
    c: { main: "#c8102e", alt: "#3a8a3a", trim: GOLD, hose: "#3a8a3a", hair: "#a0522d" },
  },
  italian: {
    d: { main: "#b5452b", alt: "#e3b341", trim: "#2f5d8a", hose: "#2f5d8a", hair: "#5a3a1a" },
    h: { main: "#2f5d8a", alt: "#b5452b", trim: "#e3b341", hose: "#e3b341", hair: "#c98b2b" },
    s: { main: "#4f7d3a", alt: "#b5452b", trim: "#e3b341", hose: "#b5452b", hair: "#2e2218" },
    c: { main: "#7a3b69", alt: "#e3b341", trim: "#4f7d3a", hose: "#4f7d3a", hair: "#8a4b22" },
  },
};

function eyes(cx, cy) {
  return (
    `<g fill="${INK}" stroke="none"><circle cx="${cx - 5}" cy="${cy}" r="1.7"/><circle cx="${cx + 5}" cy="${cy}" r="1.7"/></g>` +
    `<path d="M${cx - 3} ${cy + 8} Q${cx} ${cy + 10} ${cx + 3} ${cy + 8}" fill="none" stroke="#a0463a" stroke-width="1.5"/>`
  );
}

// A zig-zag crown standing on the line y = base, centred on cx.
function crown(cx, base, width, height, jewel = "#c8102e") {
  const w = width / 2;
  const points = [
    [-w, 0], [-w, -height * 0.75], [-w / 2, -height * 0.35], [0, -height], [w / 2, -height * 0.35],
    [w, -height * 0.75], [w, 0],
  ];
  const d = `M${points.map(([x, y]) => `${num(cx + x)} ${num(base + y)}`).join(" L")}Z`;
  const tips = [points[1], points[3], points[5]]
    .map(([x, y]) => `<circle cx="${num(cx + x)}" cy="${num(base + y)}" r="2.4"/>`)
    .join("");
  return (
    `<path d="${d}" fill="${GOLD}"/><g fill="${GOLD}">${tips}</g>` +
    `<rect x="${num(cx - w)}" y="${num(base - 4)}" width="${width}" height="4" fill="#d49a12"/>` +
    `<circle cx="${cx}" cy="${num(base - height * 0.45)}" r="2.6" fill="${jewel}"/>`
  );
}

// French faces: a bust, drawn for the top half and repeated upside down (double-headed).
function frenchBust(who, suit) {
  const colours = FRENCH_FACE_COLOURS[suit];
  let s = "";
  // What the figure holds, behind the shoulders.
  if (who === "K") {
    s += `<path d="M134 150 L134 50" stroke="${INK}" stroke-width="6"/><path d="M134 150 L134 50" stroke="${GOLD}" stroke-width="3.5"/>`;
    s += `<circle cx="134" cy="46" r="6" fill="${GOLD}"/><path d="M134 40 L134 30 M129 35 L139 35" stroke="${INK}" stroke-width="2.5"/>`;
  } else if (who === "Q") {
    s += `<path d="M66 130 Q60 100 68 72" fill="none" stroke="#2f6b2a" stroke-width="3"/>`;
    s += `<path d="M64 100 Q54 94 52 86 Q62 88 65 97Z" fill="#3a8a3a"/>`;
    s += `<g fill="${colours.main}">${around(5, 7, (x, y) => `<circle cx="${num(68 + +x)}" cy="${num(66 + +y)}" r="5.5"/>`)}</g>`;
    s += `<circle cx="68" cy="66" r="4" fill="${GOLD}"/>`;
  } else {
    s += `<path d="M66 150 L66 44" stroke="#5a3210" stroke-width="4.5"/>`;
    s += `<path d="M66 36 L71 50 L66 48 L61 50Z" fill="#c9d6e3"/><path d="M66 52 Q80 48 80 60 Q72 56 66 58Z" fill="#c9d6e3"/>`;
  }
  // Robe, with side panels in the second colour and a gold band down the front.
  s += `<path d="M40 150 L40 132 Q44 108 74 102 L126 102 Q156 108 160 132 L160 150Z" fill="${colours.main}"/>`;
  s += `<path d="M40 150 L40 132 Q44 110 64 104 L70 150Z" fill="${colours.alt}"/>`;
  s += `<path d="M160 150 L160 132 Q156 110 136 104 L130 150Z" fill="${colours.alt}"/>`;
  s += `<rect x="94" y="108" width="12" height="42" fill="${GOLD}"/>`;
  s += `<g fill="${colours.main}" stroke="none"><circle cx="100" cy="120" r="2.5"/><circle cx="100" cy="134" r="2.5"/></g>`;
  if (who === "K") {
    s += `<path d="M72 103 Q100 120 128 103 L130 114 Q100 132 70 114Z" fill="#fff"/>`;
    s += `<g fill="${INK}" stroke="none"><path d="M82 112 l2 5 l2 -5Z"/><path d="M99 120 l2 5 l2 -5Z"/><path d="M116 112 l2 5 l2 -5Z"/></g>`;
  } else {
    s += `<path d="M84 102 L100 120 L116 102Z" fill="#fff"/>`;
  }
  // The hand holding the sceptre, flower or halberd.
  s += who === "K" ? `<circle cx="134" cy="126" r="6" fill="${SKIN}"/>` : `<circle cx="66" cy="126" r="6" fill="${SKIN}"/>`;
  // Neck, hair behind the head, head.
  s += `<rect x="94" y="88" width="12" height="16" fill="${SKIN}"/>`;
  if (who === "Q") s += `<path d="M84 62 Q72 90 74 112 L90 104 Q86 84 88 66Z M116 62 Q128 90 126 112 L110 104 Q114 84 112 66Z" fill="${colours.hair}"/>`;
  if (who === "K") s += `<path d="M84 68 Q82 94 90 100 L110 100 Q118 94 116 68Z" fill="${colours.hair}"/>`;
  s += `<ellipse cx="100" cy="76" rx="15" ry="18" fill="${SKIN}"/>`;
  s += eyes(100, 74);
  if (who === "K") {
    s += `<path d="M85 78 Q87 100 100 104 Q113 100 115 78 Q110 89 100 88 Q90 89 85 78Z" fill="${colours.hair}"/>`;
    s += `<path d="M92 84 Q100 80 108 84" fill="none" stroke="${colours.hair}" stroke-width="3"/>`;
    s += crown(100, 62, 32, 24);
  } else if (who === "Q") {
    s += `<path d="M85 70 Q86 56 100 56 Q114 56 115 70 Q108 62 100 63 Q92 62 85 70Z" fill="${colours.hair}"/>`;
    s += crown(100, 60, 26, 15, colours.alt);
  } else {
    s += `<path d="M85 74 Q84 58 100 58 Q116 58 115 74 Q110 66 100 66 Q90 66 85 74Z" fill="${colours.hair}"/>`;
    s += `<path d="M82 64 Q84 48 102 48 Q120 48 122 62 Q100 58 82 64Z" fill="${colours.alt}"/>`;
    s += `<path d="M118 54 Q130 36 142 38 Q134 46 122 60Z" fill="#fff"/>`;
  }
  // The suit beside the head.
  const spot = who === "K" ? [62, 56] : [136, 82];
  s += place(SYMBOLS.french[suit](), spot[0], spot[1], 0.17);
  return `<g stroke="${INK}" stroke-width="1.5" stroke-linejoin="round">${s}</g>`;
}

function frenchFace(who, suit) {
  const half = frenchBust(who, suit);
  const frame = { x: 41, y: 26, w: 118, h: 248 };
  return (
    `<rect x="${frame.x}" y="${frame.y}" width="${frame.w}" height="${frame.h}" fill="#fbf3df"/>` +
    `<svg x="${frame.x}" y="${frame.y}" width="${frame.w}" height="${frame.h}" ` +
    `viewBox="${frame.x} ${frame.y} ${frame.w} ${frame.h}">${half}${upsideDown(half)}</svg>` +
    `<path d="M${frame.x} 150 L${frame.x + frame.w} 150" stroke="${INK}" stroke-width="1.5"/>` +
    `<rect x="${frame.x}" y="${frame.y}" width="${frame.w}" height="${frame.h}" fill="none" stroke="${INK}" stroke-width="2"/>`
  );
}

// The suit symbol held in a hand at (x, y): coins and cups sit on the hand, long ones are gripped.
function held(style, suit, x, y, size, len = 150) {
  const draw = SYMBOLS[style][suit];
  if (suit === "d" || suit === "h") return place(draw(), x, y - 44 * size, size);
  return place(draw(len), x, y - (len / 2 - 14) * size, size);
}

// Hats and crowns for the Spanish and Italian figures, on a head centred at (cx, cy).
function headwear(kind, style, colours, cx, cy) {
  if (kind === "king") {
    return style === "spanish" ? crown(cx, cy - 11, 28, 18) : crown(cx, cy - 10, 26, 26, "#2f5d8a");
  }
  if (style === "spanish") {
    return (
      `<path d="M${cx - 11} ${cy - 10} Q${cx} ${cy - 30} ${cx + 11} ${cy - 10}Z" fill="${colours.main}"/>` +
      `<ellipse cx="${cx}" cy="${cy - 10}" rx="22" ry="4.5" fill="${colours.main}"/>` +
      `<path d="M${cx + 6} ${cy - 20} Q${cx + 18} ${cy - 36} ${cx + 30} ${cy - 32} Q${cx + 20} ${cy - 26} ${cx + 10} ${cy - 14}Z" fill="#fff"/>`
    );
  }
  return (
    `<path d="M${cx - 16} ${cy - 6} Q${cx - 18} ${cy - 22} ${cx + 2} ${cy - 24} Q${cx + 20} ${cy - 22} ${cx + 18} ${cy - 8} ` +
    `Q${cx} ${cy - 14} ${cx - 16} ${cy - 6}Z" fill="${colours.alt}"/>` +
    `<circle cx="${cx + 2}" cy="${cy - 25}" r="3.5" fill="${colours.trim}"/>`
  );
}

function headAt(kind, style, colours, cx, cy, r) {
  let s = `<circle cx="${cx}" cy="${cy - 2}" r="${r + 1}" fill="${colours.hair}"/>`;
  s += `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${SKIN}"/>`;
  s += `<path d="M${cx - r} ${cy - 2} Q${cx} ${cy - r - 6} ${cx + r} ${cy - 2} Q${cx} ${cy - r + 4} ${cx - r} ${cy - 2}Z" fill="${colours.hair}"/>`;
  s += eyes(cx, cy);
  if (kind === "king") {
    const beard = style === "spanish" ? colours.hair : "#e8e4da";
    const drop = style === "spanish" ? 8 : 16;
    s +=
      `<path d="M${cx - r + 1} ${cy + 1} Q${cx - r + 3} ${cy + r + drop} ${cx} ${cy + r + drop + 2} ` +
      `Q${cx + r - 3} ${cy + r + drop} ${cx + r - 1} ${cy + 1} Q${cx + 6} ${cy + 12} ${cx} ${cy + 11} ` +
      `Q${cx - 6} ${cy + 12} ${cx - r + 1} ${cy + 1}Z" fill="${beard}"/>`;
  }
  return s + headwear(kind, style, colours, cx, cy);
}

// A standing figure: the page (sota, fante) or the king (rey, re), holding the suit.
function standingFigure(kind, style, suit) {
  const colours = FIGURE_COLOURS[style][suit];
  const king = kind === "king";
  let s = `<ellipse cx="100" cy="266" rx="46" ry="6" fill="#00000022" stroke="none"/>`;
  if (king) {
    s += `<path d="M78 132 L122 132 L146 264 L54 264Z" fill="${colours.alt}"/>`;
    s += `<ellipse cx="88" cy="262" rx="9" ry="4.5" fill="${INK}"/><ellipse cx="112" cy="262" rx="9" ry="4.5" fill="${INK}"/>`;
    s += `<path d="M82 130 L118 130 L131 258 L69 258Z" fill="${colours.main}"/>`;
    s += `<path d="M95 132 L105 132 L108 258 L92 258Z" fill="${colours.trim}"/>`;
    s += `<path d="M70 250 L130 250 L131 258 L69 258Z" fill="${colours.trim}"/>`;
    s += `<path d="M80 128 Q100 142 120 128 L122 139 Q100 153 78 139Z" fill="#fff"/>`;
    s += `<g fill="${INK}" stroke="none"><path d="M88 136 l2 5 l2 -5Z"/><path d="M99 141 l2 5 l2 -5Z"/><path d="M110 136 l2 5 l2 -5Z"/></g>`;
  } else {
    s += `<path d="M89 212 L88 262 L97 262 L98 212Z" fill="${colours.hose}"/>`;
    s += `<path d="M102 212 L103 262 L112 262 L111 212Z" fill="${colours.hose}"/>`;
    s += `<ellipse cx="91" cy="264" rx="9" ry="4" fill="${INK}"/><ellipse cx="109" cy="264" rx="9" ry="4" fill="${INK}"/>`;
    s += `<path d="M82 130 L118 130 L130 214 Q100 224 70 214Z" fill="${colours.main}"/>`;
    s += `<path d="M70 214 Q100 224 130 214" fill="none" stroke="${colours.trim}" stroke-width="4"/>`;
    s += `<rect x="77" y="166" width="46" height="7" fill="${colours.trim}"/>`;
    s += `<path d="M90 130 L100 146 L110 130Z" fill="#fff"/>`;
  }
  // Arms: the left one down by the side, the right one out to hold the suit.
  s += `<path d="M79 134 L89 138 L76 184 L66 181Z" fill="${colours.alt}"/>`;
  s += `<path d="M112 132 L121 131 L143 148 L136 157Z" fill="${colours.alt}"/>`;
  s += `<circle cx="71" cy="186" r="5" fill="${SKIN}"/>`;
  s += `<rect x="95" y="110" width="10" height="22" fill="${SKIN}"/>`;
  s += headAt(kind, style, colours, 100, 104, 14);
  s += held(style, suit, 141, 153, suit === "d" || suit === "h" ? 0.42 : 0.7);
  s += `<circle cx="141" cy="153" r="5.5" fill="${SKIN}"/>`;
  return `<g stroke="${INK}" stroke-width="1.6" stroke-linejoin="round">${s}</g>`;
}

// The rider (caballo, cavallo): a horse with a rider holding the suit aloft. The Spanish horse
// walks to the right, the Italian one (mirrored) to the left.
function riderFigure(style, suit) {
  const colours = FIGURE_COLOURS[style][suit];
  const horse = style === "spanish" ? "#f1ece0" : "#a8652e";
  const mane = style === "spanish" ? "#8c8577" : "#3a2414";
  let s = `<ellipse cx="100" cy="268" rx="62" ry="6" fill="#00000022" stroke="none"/>`;
  s += `<path d="M60 184 C44 188 38 210 44 232 C50 212 54 200 64 196Z" fill="${mane}"/>`;
  // Far legs, then body, near legs, neck and head.
  s += `<path d="M70 208 L76 262 L84 262 L82 208Z M120 208 L132 260 L140 258 L130 206Z" fill="${horse}"/>`;
  s += `<path d="M58 190 C58 172 80 166 104 168 C122 169 134 172 140 182 C146 196 140 214 122 216 L74 216 C62 214 58 204 58 190Z" fill="${horse}"/>`;
  s += `<path d="M62 204 L60 262 L68 262 L74 210Z M112 212 L114 262 L122 262 L124 210Z" fill="${horse}"/>`;
  s += `<g fill="${INK}"><rect x="59" y="261" width="10" height="6" rx="2"/><rect x="75" y="261" width="10" height="6" rx="2"/>`;
  s += `<rect x="113" y="261" width="10" height="6" rx="2"/><rect x="132" y="257" width="10" height="6" rx="2" transform="rotate(-14 137 260)"/></g>`;
  s += `<path d="M122 182 C128 164 136 146 146 132 C150 126 156 124 162 128 L178 144 C182 150 178 157 171 155 L160 151 C155 160 148 172 140 188Z" fill="${horse}"/>`;
  s += `<path d="M150 128 L152 115 L158 127Z" fill="${horse}"/>`;
  s += `<path d="M122 182 C126 164 134 146 144 132 L150 128 C143 142 136 160 130 180Z" fill="${mane}"/>`;
  s += `<circle cx="159" cy="136" r="2" fill="${INK}"/>`;
  // Saddle cloth, the rider's leg, body, arms and head.
  s += `<path d="M84 168 L118 169 L120 206 L82 206Z" fill="${colours.alt}"/>`;
  s += `<path d="M82 200 L120 200 L120 206 L82 206Z" fill="${colours.trim}"/>`;
  s += `<path d="M94 182 L106 182 L111 224 L102 226Z" fill="${colours.hose}"/>`;
  s += `<path d="M100 220 L112 219 L118 231 L100 231Z" fill="${INK}"/>`;
  s += `<path d="M86 186 L114 186 L112 146 Q110 138 100 138 Q90 138 88 146Z" fill="${colours.main}"/>`;
  s += `<rect x="86" y="176" width="28" height="6" fill="${colours.trim}"/>`;
  s += `<path d="M104 160 L110 168 L160 151" fill="none" stroke="${INK}" stroke-width="1.2"/>`;
  s += `<path d="M88 146 L96 144 L110 166 L104 170Z" fill="${colours.alt}"/>`;
  s += `<circle cx="108" cy="168" r="4.5" fill="${SKIN}"/>`;
  s += `<path d="M106 144 L113 140 L141 117 L135 111Z" fill="${colours.alt}"/>`;
  s += `<rect x="96" y="126" width="8" height="14" fill="${SKIN}"/>`;
  s += headAt("rider", style, colours, 100, 122, 12);
  s += held(style, suit, 138, 114, suit === "d" || suit === "h" ? 0.36 : 0.6, 140);
  s += `<circle cx="138" cy="114" r="5" fill="${SKIN}"/>`;
  const figure = `<g stroke="${INK}" stroke-width="1.6" stroke-linejoin="round">${s}</g>`;
  return style === "spanish" ? figure : mirrored(figure);
}

function figure(rankIndex, style, suit) {
  if (rankIndex === 8) return riderFigure(style, suit);
  return standingFigure(rankIndex === 7 ? "page" : "king", style, suit);
}

// ---------------------------------------------------------------------------------------------
// The whole card

function svgOpen(className, label, extra = "") {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 300" class="${className}" role="img" ` +
    `aria-label="${escapeAttr(label)}"${extra}>`
  );
}

export function cardSvg(card, style = "french", options = {}) {
  checkCard(card);
  checkStyle(style);
  const language = options.language ?? "en";
  const rankIndex = RANKS.indexOf(card[0]);
  const suit = card[1];
  let body = outline();
  if (style === "spanish") body += pintas(suit);
  if (rankIndex < 7) body += pips(style, suit, rankIndex + 1);
  else if (style === "french") body += frenchFace(["J", "Q", "K"][rankIndex - 7], suit);
  else body += figure(rankIndex, style, suit);
  body += corners(cornerLabel(rankIndex, style, language), style, suit);
  const name = cardName(card, style, language);
  return `${svgOpen(`card card-${style}`, name, ` data-card="${card}"`)}${body}</svg>`;
}

const BACK_COLOURS = {
  french: { ground: "#b3202f", line: "#ffffff", emblem: "#ffffff" },
  spanish: { ground: "#1d3f7a", line: "#e8b92f", emblem: "#e8b92f" },
  italian: { ground: "#2d6a4f", line: "#f0d58a", emblem: "#f0d58a" },
};

// A diagonal lattice filling the inner panel; a nested <svg> clips it without needing an id.
function lattice(colour, step = 14) {
  const [w, h] = [172, 272];
  let d = "";
  for (let x = -h; x < w + step; x += step) d += `M${x} 0 L${x + h} ${h} M${x + h} 0 L${x} ${h} `;
  return (
    `<svg x="14" y="14" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `<path d="${d}" stroke="${colour}" stroke-width="1.6" opacity="0.55"/></svg>`
  );
}

export function cardBackSvg(style = "french") {
  checkStyle(style);
  const colours = BACK_COLOURS[style];
  let emblem;
  if (style === "french") {
    emblem = ["h", "s", "d", "c"]
      .map((suit, i) => place(SYMBOLS.french[suit](), 100 + [0, 22, 0, -22][i], 150 + [-22, 0, 22, 0][i], 0.3))
      .join("");
  } else {
    emblem = place(SYMBOLS[style].d(), 100, 150, 0.6);
  }
  const body =
    outline("#fdfaf2") +
    `<rect x="12" y="12" width="176" height="276" rx="8" fill="${colours.ground}"/>` +
    lattice(colours.line) +
    `<rect x="12" y="12" width="176" height="276" rx="8" fill="none" stroke="${colours.line}" stroke-width="2"/>` +
    `<ellipse cx="100" cy="150" rx="46" ry="58" fill="#fdfaf2" stroke="${colours.emblem}" stroke-width="5"/>` +
    `<ellipse cx="100" cy="150" rx="39" ry="51" fill="none" stroke="${colours.ground}" stroke-width="2"/>` +
    emblem;
  return `${svgOpen("card card-back", "card back", ` data-style="${style}"`)}${body}</svg>`;
}
