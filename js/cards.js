//# allFunctionsCalledOnLoad
// Card art for the Briscola table: every card face and back is an SVG string
// drawn from simple shapes (paths, circles, rects, text in generic fonts).
//
//   cardSVG(code, style, lang = "it", idSuffix = "") -> "<svg ...>...</svg>"
//   backSVG(style, lang = "it", idSuffix = "")      -> "<svg ...>...</svg>"
//   cardName(code, lang = "it", style = "napoletane") -> "Asso di Denari"
//   suitName(suit, lang, style), rankName(rank, lang, style), rankWord(rank, lang, style)
//   printedIndex(rank, style)                          -> "10" on the Re of an Italian deck
//   STYLES
//   registerStyle(name, art)                           -> the art of a deck drawn elsewhere
// The regional decks beyond the first three (Spanish, Sicilian, Trevisan, Triestine,
// Bergamasque) are drawn in js/decks.js, which registers them; the embed's poster does not load
// it. A figure's name carries what it prints where the word does not: "Re (10)", "Re (K)", "King".
// The names are js/card-names.js's (given here with the art), the drawing tools and palettes
// js/card-kit.js's; neither imports this module.
//
// Card codes are rank + suit: ranks A 2 3 4 5 6 7 J H K (+ 8 9 T for the
// French deck), suits D C S B (denari/quadri, coppe/cuori, spade/picche,
// bastoni/fiori). Every SVG uses viewBox 0 0 200 320 and no fixed size.
// Ids inside one SVG are prefixed with style and card code, so many cards
// can be inlined in the same page.

import { rd, esc, tf, use, pt, star, petals, dots, limb, PAL } from "./card-kit.js";
import { REGISTERED as EXTRA, registerDeck, checkStyle, parseCode, backName, STYLES, cardName, suitName, rankName,
  rankWord, printedIndex, deckRanks, deckStyle, drawn } from "./card-names.js";

// The names of the cards (js/card-names.js), given with the art to every importer.
export { STYLES, cardName, suitName, rankName, rankWord, printedIndex, deckRanks, deckStyle, drawn };

/** Register the art of one of STYLES drawn in another module (js/decks.js). */
export function registerStyle(name, art) {
  registerDeck(name, art);
  PAL[name] = art.pal;
}

// ---------------------------------------------------------------- suit symbols
// Coins and cups fit a 60x64 box around the origin; swords and clubs are
// vertical, 200 long (tip/head at y=-100).

function coinNap(p) {
  return `<circle r="30" fill="${p.gold}" stroke="${p.ink}" stroke-width="2"/>` +
    `<circle r="25" fill="none" stroke="${p.goldDark}" stroke-width="1.6"/>` +
    `<circle r="27.6" fill="none" stroke="${p.goldLight}" stroke-width="1.8" stroke-dasharray="1.7 2.6"/>` +
    `<path d="${petals(8, 23, 17)}" fill="${p.red}" stroke="${p.ink}" stroke-width="0.9"/>` +
    `<path d="${petals(8, 15, 14, 22.5)}" fill="${p.blue}" stroke="${p.ink}" stroke-width="0.8"/>` +
    `<circle r="5.5" fill="${p.goldLight}" stroke="${p.ink}" stroke-width="1"/>`;
}

function coinPia(p) {
  return `<circle r="30" fill="${p.gold}" stroke="${p.ink}" stroke-width="2"/>` +
    `<path d="${star(16, 27, 17)}" fill="${p.red}" stroke="${p.ink}" stroke-width="0.8"/>` +
    `<circle r="15" fill="${p.blue}" stroke="${p.ink}" stroke-width="1.2"/>` +
    `<path d="${star(8, 12, 5.5, 22.5)}" fill="${p.gold}"/>` +
    `<circle r="3" fill="${p.red}"/>`;
}

function cupNap(p) {
  return `<g stroke="${p.ink}" stroke-width="1.5" stroke-linejoin="round">` +
    `<path d="M-3 14Q-4 23-17 27Q-18 32-12 32H12Q18 32 17 27Q4 23 3 14Z" fill="${p.gold}"/>` +
    `<path d="M-13 29.5H13" stroke="${p.red}" stroke-width="2.4"/>` +
    `<path d="M-4 0H4V16H-4Z" fill="${p.gold}"/>` +
    `<ellipse cy="8" rx="7.5" ry="3.6" fill="${p.blue}"/>` +
    `<path d="M-23-26H23Q23-5 5 1H-5Q-23-5-23-26Z" fill="${p.gold}"/>` +
    `<path d="M-22.6-18H22.6" stroke="${p.red}" stroke-width="4.5"/>` +
    `<path d="M-15-11Q-12-4-5-2" fill="none" stroke="${p.goldLight}" stroke-width="2"/>` +
    `<ellipse cy="-26" rx="23" ry="4.5" fill="${p.goldDark}"/></g>`;
}

function cupPia(p) {
  return `<g stroke="${p.ink}" stroke-width="1.5" stroke-linejoin="round">` +
    `<path d="M-19 32Q-18 23-4 19H4Q18 23 19 32Z" fill="${p.blue}"/>` +
    `<path d="M-3.5 0H3.5V20H-3.5Z" fill="${p.gold}"/>` +
    `<circle cy="6" r="4.5" fill="${p.blue}"/><circle cy="14" r="3.5" fill="${p.red}"/>` +
    `<path d="M-24-24Q-24 0-6 2H6Q24 0 24-24Z" fill="${p.red}"/>` +
    `<path d="M-27-31H27L24-24H-24Z" fill="${p.gold}"/>` +
    `<g fill="${p.gold}" stroke="none"><circle cx="-12" cy="-13" r="2.8"/><circle cy="-10" r="2.8"/><circle cx="12" cy="-13" r="2.8"/></g>` +
    `<path d="M-18-17Q-14-5-6-3" fill="none" stroke="#F7A0A0" stroke-width="1.6"/></g>`;
}

function swordNap(p) {
  return `<g stroke="${p.ink}" stroke-width="1.6" stroke-linejoin="round">` +
    `<path d="M-6 52C-5 0 0-62 15-100C11-58 7 0 6 52Z" fill="${p.steel}"/>` +
    `<path d="M0 48C1 0 4-50 11-90" fill="none" stroke="${p.steelLight}" stroke-width="1.8"/>` +
    `<path d="M21 58Q26 80 6 95" fill="none" stroke-width="6"/>` +
    `<path d="M21 58Q26 80 6 95" fill="none" stroke="${p.gold}" stroke-width="3"/>` +
    `<rect x="-5" y="58" width="10" height="32" rx="2" fill="${p.red}"/>` +
    `<path d="M-5 65h10M-5 72h10M-5 79h10M-5 86h10" stroke="${p.redDark}" stroke-width="1"/>` +
    `<path d="M-24 51Q0 59 24 51L24 58Q0 66-24 58Z" fill="${p.gold}"/>` +
    `<circle cy="95" r="6" fill="${p.gold}"/></g>`;
}

function swordPia(p) {
  return `<g stroke="${p.ink}" stroke-width="1.6" stroke-linejoin="round">` +
    `<path d="M-6 52V-86L0-100L6-86V52Z" fill="${p.steel}"/>` +
    `<path d="M0 48V-90" stroke="${p.steelLight}" stroke-width="1.8"/>` +
    `<rect x="-5" y="58" width="10" height="30" rx="2" fill="${p.blue}"/>` +
    `<path d="M-5 66l10 6M-5 74l10 6" stroke="${p.white}" stroke-width="1.2"/>` +
    `<rect x="-25" y="51" width="50" height="8" rx="3" fill="${p.gold}"/>` +
    `<circle cx="-26" cy="55" r="4.5" fill="${p.red}"/><circle cx="26" cy="55" r="4.5" fill="${p.red}"/>` +
    `<circle cy="94" r="7" fill="${p.red}"/><circle cy="94" r="2.5" fill="${p.gold}"/></g>`;
}

function stub(x, y, dir, p) {
  const d = `M${x} ${y + 4}L${x + dir * 9} ${y - 5}L${x + dir * 12} ${y - 1}L${x} ${y + 10}Z`;
  return `<path d="${d}" fill="${p.brown}"/><ellipse cx="${x + dir * 10.5}" cy="${y - 3}" rx="3.5" ry="2.2" transform="rotate(${dir * 45} ${x + dir * 10.5} ${y - 3})" fill="#E2BE85"/>`;
}

function clubNap(p) {
  return `<g stroke="${p.ink}" stroke-width="1.5" stroke-linejoin="round">` +
    stub(-10, -60, -1, p) + stub(9, -28, 1, p) + stub(-8, 6, -1, p) + stub(7, 40, 1, p) +
    `<path d="M-6 98Q-8 20-12-90Q0-99 12-90Q8 20 6 98Q0 102-6 98Z" fill="${p.green}"/>` +
    `<path d="M-4-74q4 10 0 22M3-40q-4 10 0 22M-2-2q4 10 0 22M2 40q-3 10 0 22" fill="none" stroke="${p.greenDark}" stroke-width="1.3"/>` +
    `<path d="M-5 80q5 4 10 0" fill="none" stroke="${p.greenDark}" stroke-width="1.3"/>` +
    `<ellipse cy="-90" rx="12" ry="4.5" fill="#E2BE85"/>` +
    `<ellipse cy="-90" rx="5" ry="1.8" fill="none" stroke="${p.brown}" stroke-width="1"/></g>`;
}

function clubPia(p) {
  return `<g stroke="${p.ink}" stroke-width="1.5" stroke-linejoin="round">` +
    `<path d="M-7 98L-12-92Q0-100 12-92L7 98Q0 102-7 98Z" fill="${p.brown}"/>` +
    `<path d="M-11.2-72H11.2L11-64H-11ZM-9.6-12H9.6L9.4-4H-9.4ZM-8 48H8L7.8 56H-7.8Z" fill="${p.gold}"/>` +
    `<path d="M-4-50q5 8 0 18M4 12q-5 8 0 18M-3 70q4 8 0 16" fill="none" stroke="#5E2C14" stroke-width="1.3"/>` +
    `<path d="M-9-86Q0-80 9-86" fill="none" stroke="${p.green}" stroke-width="3"/>` +
    `<ellipse cy="-92" rx="12" ry="4.5" fill="#E9C27A"/></g>`;
}

// French suits, fit about 60x60 around the origin
const FR_PATH = {
  D: "M0-30Q10-14 23 0Q10 14 0 30Q-10 14-23 0Q-10-14 0-30Z",
  C: "M0 28C-9 18-28 6-28-10C-28-22-19-28-12-28C-5-28-1-23 0-18C1-23 5-28 12-28C19-28 28-22 28-10C28 6 9 18 0 28Z",
  S: "M0-30C9-18 28-8 28 8C28 18 20 22 13 22C8 22 4 19 2 15C2 22 5 27 11 30H-11C-5 27-2 22-2 15C-4 19-8 22-13 22C-20 22-28 18-28 8C-28-8-9-18 0-30Z",
  B: "M0-29A12.5 12.5 0 0 1 9.5-8.5A12.5 12.5 0 1 1 2.5 13C3 22 6 27 11 30H-11C-6 27-3 22-2.5 13A12.5 12.5 0 1 1-9.5-8.5A12.5 12.5 0 0 1 0-29Z",
};
function frenchSuit(p, suit) {
  const red = suit === "D" || suit === "C";
  return `<path d="${FR_PATH[suit]}" fill="${red ? p.red : p.ink}"/>`;
}

function suitDef(style, suit) {
  const p = PAL[style];
  if (style === "french") return frenchSuit(p, suit);
  if (EXTRA[style]) return EXTRA[style].suit(p, suit);
  const nap = style === "napoletane";
  switch (suit) {
    case "D": return nap ? coinNap(p) : coinPia(p);
    case "C": return nap ? cupNap(p) : cupPia(p);
    case "S": return nap ? swordNap(p) : swordPia(p);
    default: return nap ? clubNap(p) : clubPia(p);
  }
}

// ---------------------------------------------------------------- layouts

// coins and cups: [x, y] centres
const PIPS_IT = {
  2: [[100, 96], [100, 224]],
  3: [[100, 70], [100, 160], [100, 250]],
  4: [[73, 102], [127, 102], [73, 218], [127, 218]],
  5: [[73, 98], [127, 98], [100, 160], [73, 222], [127, 222]],
  6: [[74, 86], [126, 86], [74, 160], [126, 160], [74, 234], [126, 234]],
  7: [[74, 78], [126, 78], [100, 130], [74, 188], [126, 188], [74, 248], [126, 248]],
};
const PIP_SCALE_IT = { 2: 1.05, 3: 0.92, 4: 0.84, 5: 0.84, 6: 0.8, 7: 0.74 };

// swords and clubs: crossed pairs, with a long one down the middle when odd
function stickLayout(n) {
  const xs = [];
  const pair = (y, len, ang) => {
    xs.push([100, y, -ang, len, false]);
    xs.push([100, y, ang, len, true]);
  };
  if (n <= 3) pair(160, 230, 24);
  else if (n <= 5) { pair(102, 134, 32); pair(218, 134, 32); }
  else { pair(80, 104, 36); pair(160, 104, 36); pair(240, 104, 36); }
  if (n % 2) xs.push([100, 160, 0, n === 3 ? 236 : 252, false]);
  return xs;
}

function stickUse(id, [x, y, rot, len, mirror]) {
  const sy = len / 200;
  const sx = Math.min(1.05, 0.5 + len / 400);
  return use(id, x, y, rot, mirror ? -sx : sx, sy);
}

// French pips: [x, y, flipped]
const FC = [66, 100, 134];
const FR4 = [66, 128, 192, 254];
function frenchPips(n) {
  const L = FC[0], C = FC[1], R = FC[2];
  const [r1, r2, r3, r4] = FR4;
  const mid = 160;
  const cols = (ys) => ys.flatMap((y) => [[L, y], [R, y]]);
  switch (n) {
    case 2: return [[C, r1], [C, r4]];
    case 3: return [[C, r1], [C, mid], [C, r4]];
    case 4: return cols([r1, r4]);
    case 5: return [...cols([r1, r4]), [C, mid]];
    case 6: return cols([r1, mid, r4]);
    case 7: return [...cols([r1, mid, r4]), [C, (r1 + mid) / 2]];
    case 8: return [...cols([r1, mid, r4]), [C, (r1 + mid) / 2], [C, (r4 + mid) / 2]];
    case 9: return [...cols([r1, r2, r3, r4]), [C, mid]];
    default: return [...cols([r1, r2, r3, r4]), [C, (r1 + r2) / 2], [C, (r3 + r4) / 2]];
  }
}

// ---------------------------------------------------------------- index

// small bold sword and club for the corner index (about 40 units tall)
function indexStick(style, suit, p) {
  if (EXTRA[style] && EXTRA[style].indexStick) return EXTRA[style].indexStick(suit, p);
  const g = (body) => `<g transform="translate(28 76) rotate(35)" stroke="${p.ink}" stroke-width="1.3" stroke-linejoin="round">${body}</g>`;
  if (suit === "S") {
    const blade = style === "napoletane"
      ? `<path d="M-3.5 7C-3.5-4 0-13 6-21C3-11 3.5-3 3.5 7Z" fill="${p.steel}"/>`
      : `<path d="M-3.5 7V-15L0-21L3.5-15V7Z" fill="${p.steel}"/>`;
    return g(blade + `<rect x="-2.5" y="9" width="5" height="8" fill="${style === "napoletane" ? p.red : p.blue}"/>` +
      `<path d="M-10 6H10V10H-10Z" fill="${p.gold}"/><circle cy="18.5" r="2.8" fill="${p.gold}"/>`);
  }
  const fill = style === "napoletane" ? p.green : p.brown;
  return g(`<path d="M-3.5 19L-7-17Q0-22 7-17L3.5 19Q0 21-3.5 19Z" fill="${fill}"/>` +
    (style === "napoletane"
      ? `<path d="M-6-4L-12-9L-10-12L-6.5-9Z" fill="${p.brown}"/><path d="M5 6L11 2L12.5 5L5 10Z" fill="${p.brown}"/>`
      : `<path d="M-6.4-8H6.4V-4H-6.4ZM-5.2 6H5.2V10H-5.2Z" fill="${p.gold}"/>`) +
    `<ellipse cy="-17" rx="7" ry="2.6" fill="#E2BE85"/>`);
}

function indexGroup(style, rank, suit, P) {
  const p = PAL[style];
  const label = printedIndex(rank, style);
  const red = style === "french" && (suit === "D" || suit === "C");
  const color = red ? p.red : p.text;
  const wide = label.length > 1;
  const fs = style === "french" ? 46 : 48;
  const text = `<text x="28" y="48" font-family="${p.font}" font-weight="700" font-size="${fs}" text-anchor="middle" fill="${color}"` +
    (wide ? ` textLength="34" lengthAdjust="spacingAndGlyphs"` : "") + `>${label}</text>`;
  let icon;
  const s = `${P}s`;
  if (style === "french") icon = use(s, 28, 73, 0, 0.48);
  else if (suit === "D") icon = use(s, 28, 76, 0, 0.52);
  else if (suit === "C") icon = use(s, 28, 76, 0, 0.54);
  else icon = indexStick(style, suit, p);
  return `<g id="${P}x">${text}${icon}</g>`;
}

// ---------------------------------------------------------------- figures
// Face cards of the Italian decks: a standing page (Fante), a rider on a
// horse (Cavallo) and a crowned king (Re), each with the suit symbol.

// Which of the two Italian looks a deck's shared figures take (a registered deck says).
const look = (style) => (EXTRA[style] && EXTRA[style].look) || style;

// costume colours per suit: [main, trim, second]
function costume(p, suit) {
  return {
    D: [p.blue, p.gold, p.red],
    C: [p.red, p.gold, p.blue],
    S: [p.green, p.gold, p.red],
    B: [p.goldDark, p.red, p.green],
  }[suit];
}

// where the hand-held suit symbol goes, relative to a hand at (hx, hy)
function held(P, suit, hx, hy, k = 1) {
  const s = `${P}s`;
  switch (suit) {
    case "D": return use(s, hx + 2, hy - 20 * k, 0, 0.68 * k);
    case "C": return use(s, hx + 1, hy - 22 * k, 0, 0.7 * k);
    case "S": return use(s, hx, hy - 45 * k, 8, 0.62 * k, 0.6 * k);
    default: return use(s, hx, hy + 4 * k, -12, 0.7 * k, 0.64 * k);
  }
}

function face(p, cx, cy, r, opts = {}) {
  const eye = r * 0.32;
  return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${p.skin}"/>` +
    `<g fill="${p.ink}" stroke="none"><circle cx="${cx - eye}" cy="${cy - 1}" r="1.7"/><circle cx="${cx + eye}" cy="${cy - 1}" r="1.7"/></g>` +
    `<path d="M${cx} ${cy + 1}l-1.5 4h3" fill="none" stroke-width="1"/>` +
    (opts.beard ? "" : `<path d="M${cx - 4} ${cy + r * 0.5}q4 2.5 8 0" fill="none" stroke="${p.redDark}" stroke-width="1.3"/>`) +
    `<g fill="#F2A0A0" stroke="none" opacity=".6"><circle cx="${cx - r * 0.55}" cy="${cy + r * 0.3}" r="2.6"/><circle cx="${cx + r * 0.55}" cy="${cy + r * 0.3}" r="2.6"/></g>`;
}

function fanteFig(style, suit, P) {
  const p = PAL[style];
  const [c1, c2, c3] = costume(p, suit);
  const nap = look(style) === "napoletane";
  const hx = 148, hy = 170;
  const hat = nap
    ? `<path d="M80 97Q84 80 102 80Q122 80 122 94Q104 86 80 97Z" fill="${c3}"/>` +
      `<path d="M112 84Q130 62 122 52Q118 70 106 82Z" fill="${p.white}"/>`
    : `<path d="M84 96L90 74H112L118 96Z" fill="${c3}"/><path d="M80 96H122V101H80Z" fill="${c2}"/>` +
      `<path d="M112 76Q126 58 134 62Q124 66 116 80Z" fill="${p.red}"/>`;
  return `<g stroke="${p.ink}" stroke-width="1.5" stroke-linejoin="round">` +
    `<ellipse cx="100" cy="284" rx="46" ry="6" fill="${p.green}" opacity=".35" stroke="none"/>` +
    `<path d="M86 224h11v56h-11z" fill="${c3}"/><path d="M103 224h11v56h-11z" fill="${c2}"/>` +
    `<ellipse cx="89" cy="281" rx="10" ry="4.5" fill="${p.hair}"/><ellipse cx="112" cy="281" rx="10" ry="4.5" fill="${p.hair}"/>` +
    limb("M78 142Q62 164 68 196", c1, 12, p.ink) +
    `<path d="M79 138H121L117 180L136 230Q100 242 64 230L83 180Z" fill="${c1}"/>` +
    `<path d="M66 226Q100 238 134 226" fill="none" stroke="${c2}" stroke-width="4"/>` +
    `<path d="M100 142V230" fill="none" stroke="${c2}" stroke-width="3"/>` +
    `<path d="M82 178H118V187H82Z" fill="${c2}"/>` +
    `<circle cx="68" cy="198" r="6" fill="${p.skin}"/>` +
    limb(`M121 142Q138 150 ${hx - 2} ${hy - 4}`, c1, 12, p.ink) +
    `<path d="M94 118h12v20h-12z" fill="${p.skin}"/>` +
    `<path d="M80 138Q100 150 120 138Q110 132 100 134Q90 132 80 138Z" fill="${p.white}"/>` +
    `<path d="M84 116Q80 90 100 89Q120 90 116 116H112Q112 101 100 100Q88 101 88 116Z" fill="${p.hair}"/>` +
    face(p, 100, 108, 15) + hat +
    held(P, suit, hx, hy) +
    `<circle cx="${hx}" cy="${hy}" r="6" fill="${p.skin}"/></g>`;
}

function reFig(style, suit, P) {
  const p = PAL[style];
  const [c1, c2, c3] = costume(p, suit);
  const nap = look(style) === "napoletane";
  const hx = 146, hy = 176;
  const crown = nap
    ? `<path d="M84 92V72L92 82L100 66L108 82L116 72V92Z" fill="${p.gold}"/><path d="M84 86H116" stroke-width="1"/>` +
      `<g stroke="none"><circle cx="100" cy="80" r="2.6" fill="${p.red}"/><circle cx="90" cy="88" r="2" fill="${p.blue}"/><circle cx="110" cy="88" r="2" fill="${p.blue}"/></g>`
    : `<path d="M83 93L80 70L90 80L95 64L100 78L105 64L110 80L120 70L117 93Z" fill="${p.gold}"/>` +
      `<g stroke="none" fill="${p.red}"><circle cx="80" cy="70" r="2.4"/><circle cx="95" cy="64" r="2.4"/><circle cx="105" cy="64" r="2.4"/><circle cx="120" cy="70" r="2.4"/></g>`;
  const sceptre = nap ? "" :
    `<path d="M66 250V126" stroke-width="6"/><path d="M66 250V126" stroke="${p.gold}" stroke-width="3.4"/><circle cx="66" cy="122" r="6" fill="${p.gold}"/>`;
  return `<g stroke="${p.ink}" stroke-width="1.5" stroke-linejoin="round">` +
    `<ellipse cx="100" cy="285" rx="54" ry="6" fill="${p.green}" opacity=".35" stroke="none"/>` +
    `<path d="M72 132Q44 200 44 284H156Q156 200 128 132Z" fill="${c3}"/>` +
    `<path d="M78 134H122L142 284H58Z" fill="${c1}"/>` +
    `<path d="M95 146H105L111 284H89Z" fill="${c2}"/>` +
    `<path d="M58 276H142V284H58Z" fill="${c2}"/>` +
    sceptre +
    limb("M80 140Q66 170 68 204", c1, 13, p.ink) +
    `<circle cx="68" cy="206" r="6" fill="${p.skin}"/>` +
    limb(`M120 140Q138 150 ${hx - 2} ${hy - 4}`, c1, 13, p.ink) +
    `<path d="M70 134Q100 158 130 134Q128 124 100 126Q72 124 70 134Z" fill="${p.white}"/>` +
    `<g fill="${p.ink}" stroke="none"><path d="M84 138h3v5h-3zM99 142h3v5h-3zM114 138h3v5h-3z"/></g>` +
    `<path d="M84 110Q80 88 100 86Q120 88 116 110Z" fill="${p.hair}"/>` +
    face(p, 100, 104, 15, { beard: true }) +
    `<path d="M86 106Q86 132 100 136Q114 132 114 106Q108 116 100 116Q92 116 86 106Z" fill="${nap ? "#8A8078" : p.hair}"/>` +
    `<path d="M92 112Q100 108 108 112Q100 114 92 112Z" fill="${nap ? "#8A8078" : p.hair}"/>` +
    crown + held(P, suit, hx, hy) +
    `<circle cx="${hx}" cy="${hy}" r="6" fill="${p.skin}"/></g>`;
}

function cavalloFig(style, suit, P) {
  const p = PAL[style];
  const [c1, c2, c3] = costume(p, suit);
  const nap = look(style) === "napoletane";
  const hc = p.horse;
  const mane = nap ? "#B9A58A" : "#3B2314";
  const hx = 142, hy = 128;
  const hat = nap
    ? `<path d="M98 108Q100 92 112 92Q124 92 126 108Z" fill="${c3}"/><path d="M94 108H130" stroke-width="4"/><path d="M94 108H130" stroke="${c3}" stroke-width="2"/>`
    : `<path d="M99 108Q100 90 112 88Q124 90 125 108Z" fill="${p.steel}"/><path d="M112 88Q118 74 130 76Q120 80 116 90Z" fill="${p.red}"/>`;
  return `<g stroke="${p.ink}" stroke-width="1.5" stroke-linejoin="round">` +
    `<ellipse cx="104" cy="284" rx="56" ry="6" fill="${p.green}" opacity=".35" stroke="none"/>` +
    limb("M140 210L146 244L140 276", hc, 9, p.ink) +
    limb("M88 214L92 246L86 276", hc, 9, p.ink) +
    `<path d="M148 192Q170 206 160 236Q156 218 146 204Z" fill="${mane}"/>` +
    `<ellipse cx="108" cy="196" rx="44" ry="24" fill="${hc}"/>` +
    limb("M128 212L134 246L128 278", hc, 9, p.ink) +
    limb("M78 206L64 228L74 244", hc, 9, p.ink) +
    `<g fill="${p.ink}" stroke="none"><path d="M122 274h12v6h-12zM80 272h12v6h-12zM134 272h12v6h-12zM68 240l9 3-2 6-9-3z"/></g>` +
    `<path d="M66 206Q54 172 58 144L78 136Q82 168 98 182Z" fill="${hc}"/>` +
    `<path d="M58 144L38 166Q36 176 46 178L56 174L78 144Z" fill="${hc}"/>` +
    `<path d="M62 140L60 126L70 136Z" fill="${hc}"/>` +
    `<path d="M60 142Q70 134 80 140Q82 160 94 176Q80 166 74 150Z" fill="${mane}"/>` +
    `<circle cx="55" cy="154" r="2" fill="${p.ink}" stroke="none"/>` +
    `<path d="M96 176H136L140 214H92Z" fill="${c2}"/>` +
    `<path d="M92 208H140" stroke="${c3}" stroke-width="4"/>` +
    `<path d="M50 170L90 150" fill="none" stroke="${p.redDark}" stroke-width="1.6"/>` +
    limb("M116 176L110 216L120 222", c3, 10, p.ink) +
    `<path d="M102 130H124L128 180H98Z" fill="${c1}"/>` +
    `<path d="M98 170H128" stroke="${c2}" stroke-width="5"/>` +
    limb("M104 138Q94 154 90 150", c1, 9, p.ink) +
    `<circle cx="89" cy="150" r="5" fill="${p.skin}"/>` +
    limb(`M122 136Q134 138 ${hx - 2} ${hy + 2}`, c1, 10, p.ink) +
    `<path d="M106 110Q104 96 112 95Q122 96 122 112Z" fill="${p.hair}"/>` +
    face(p, 113, 117, 12) + hat +
    held(P, suit, hx, hy, 0.85) +
    `<circle cx="${hx}" cy="${hy}" r="5.5" fill="${p.skin}"/></g>`;
}

// French court cards: a half-length portrait, drawn once and mirrored
function frenchBust(suit, rank, P) {
  const p = PAL.french;
  const [c1, c3] = { D: [p.red, p.green], C: [p.red, p.blue], S: [p.blue, p.red], B: [p.green, p.red] }[suit];
  const c2 = p.gold;
  const hair = { K: "#E8E4DC", H: p.gold, J: p.brown }[rank];
  let diamonds = "";
  for (let y = 126; y < 160; y += 12) diamonds += `M46 ${y}l4 5-4 5-4-5zM154 ${y}l4 5-4 5-4-5z`;
  const body = `<path d="M30 160Q30 126 60 113L86 101H114L140 113Q170 126 170 160Z" fill="${c1}"/>` +
    `<path d="M46 118V160M154 118V160" stroke-width="13"/><path d="M46 119V160M154 119V160" stroke="${c2}" stroke-width="10"/>` +
    `<path d="${diamonds}" fill="${c3}" stroke="none"/>` +
    `<path d="M82 101L100 160L118 101Z" fill="${c3}"/>` +
    `<path d="M82 101L100 160L118 101" fill="none" stroke="${c2}" stroke-width="4"/>` +
    `<path d="M92 84h16v18h-16z" fill="${p.skin}"/>` +
    (rank === "K"
      ? `<path d="M70 106Q100 122 130 106Q128 96 100 98Q72 96 70 106Z" fill="${p.white}"/><g fill="${p.ink}" stroke="none"><path d="M82 106h3v5h-3zM99 110h3v5h-3zM116 106h3v5h-3z"/></g>`
      : `<path d="M80 100Q100 112 120 100" fill="none" stroke="${p.white}" stroke-width="5"/>`);
  let head, held;
  if (rank === "K") {
    head = `<path d="M82 74Q80 48 100 46Q120 48 118 74Z" fill="${hair}"/>` +
      face(p, 100, 68, 17, { beard: true }) +
      `<path d="M84 72Q84 100 100 102Q116 100 116 72Q110 82 100 82Q90 82 84 72Z" fill="${hair}"/>` +
      `<path d="M90 79Q100 73 110 79Q100 82 90 79Z" fill="${hair}"/>` +
      `<path d="M82 56V32L91 44L100 28L109 44L118 32V56Z" fill="${c2}"/><path d="M82 50H118" stroke-width="1"/>` +
      `<circle cx="100" cy="42" r="3" fill="${c3}" stroke="none"/>`;
    held = `<path d="M64 152V30L67 22L70 30V152Z" fill="${p.steel}"/>` +
      `<path d="M53 126H75" stroke-width="7" stroke-linecap="round"/><path d="M53 126H75" stroke="${c2}" stroke-width="4.2" stroke-linecap="round"/>`;
  } else if (rank === "H") {
    head = `<path d="M79 104Q70 52 100 44Q130 52 121 104Q116 78 100 78Q84 78 79 104Z" fill="${hair}"/>` +
      face(p, 100, 68, 16) +
      `<path d="M84 62Q92 48 100 48Q108 48 116 62Q104 52 84 62Z" fill="${hair}"/>` +
      `<path d="M86 50L89 36L94 44L100 32L106 44L111 36L114 50Z" fill="${c2}"/>` +
      `<circle cx="100" cy="43" r="2.4" fill="${c3}" stroke="none"/>`;
    held = `<path d="M66 150Q60 100 68 62" fill="none" stroke="${p.green}" stroke-width="3"/>` +
      `<path d="M64 106q-12-8-16 2q10 6 16-2z" fill="${p.green}"/>` +
      `<path d="${petals(6, 13, 26)}" transform="translate(68 56)" fill="${c3}"/><circle cx="68" cy="56" r="4" fill="${c2}"/>`;
  } else {
    head = `<path d="M83 82Q78 52 100 50Q122 52 117 82Q114 64 100 64Q86 64 83 82Z" fill="${hair}"/>` +
      face(p, 100, 70, 16) +
      `<path d="M78 56Q98 34 124 46L122 56Z" fill="${c3}"/><path d="M77 56H123" stroke="${c2}" stroke-width="5"/>` +
      `<path d="M118 46Q128 24 142 22Q132 32 124 50Z" fill="${c2}"/>`;
    held = `<path d="M66 152V42" stroke-width="6.5"/><path d="M66 152V42" stroke="${p.brown}" stroke-width="4"/>` +
      `<path d="M66 20L75 42H57Z" fill="${p.steel}"/><path d="M66 46q-15 4-13 18q8-10 13-10z" fill="${p.steel}"/>`;
  }
  return `<g id="${P}h" stroke="${p.ink}" stroke-width="1.4" stroke-linejoin="round">` +
    body + `<g transform="translate(100 98) scale(1.14) translate(-100 -98)">${head}</g>` + held +
    limb("M74 114Q58 124 66 140", c1, 11, p.ink) + `<circle cx="66" cy="140" r="6.5" fill="${p.skin}"/>` +
    use(`${P}s`, 160, 38, 0, 0.5) + `</g>`;
}

// The drawing tools and shared figures, for the decks drawn in js/decks.js.
export const KIT = { rd, esc, tf, use, pt, star, petals, dots, limb, face, held, costume, stickLayout, stickUse,
  PIPS_IT, PIP_SCALE_IT, fanteFig, reFig, cavalloFig };

// ---------------------------------------------------------------- card faces

function aceArt(style, suit, P) {
  if (EXTRA[style] && EXTRA[style].ace) return EXTRA[style].ace(suit, P);
  const p = PAL[style];
  const s = `${P}s`;
  const nap = style === "napoletane";
  if (style === "french") {
    if (suit !== "S") return use(s, 100, 160, 0, 1.9);
    return `<circle cx="100" cy="160" r="66" fill="none" stroke="${p.ink}" stroke-width="1.5"/>` +
      `<g transform="translate(100 160)">${dots(36, 60, 2, p.ink)}</g>` + use(s, 100, 158, 0, 1.6);
  }
  switch (suit) {
    case "D":
      return `<path d="${star(24, 82, 70)}" transform="translate(100 160)" fill="${nap ? p.goldLight : p.red}" stroke="${p.ink}" stroke-width="1.2"/>` +
        `<circle cx="100" cy="160" r="70" fill="${nap ? p.red : p.blue}" stroke="${p.ink}" stroke-width="1.5"/>` +
        `<g transform="translate(100 160)">${dots(24, 66, 2.2, p.goldLight)}</g>` +
        use(s, 100, 160, 0, 2.1);
    case "C": {
      // two laurel branches rising behind the cup
      const [x0, y0, x1, y1, x2, y2] = [98, 274, 36, 240, 56, 84];
      let leaves = "";
      for (let i = 1; i <= 7; i++) {
        const t = i / 7.4, u = 1 - t;
        const x = u * u * x0 + 2 * u * t * x1 + t * t * x2, y = u * u * y0 + 2 * u * t * y1 + t * t * y2;
        const dx = 2 * u * (x1 - x0) + 2 * t * (x2 - x1), dy = 2 * u * (y1 - y0) + 2 * t * (y2 - y1);
        const ang = Math.atan2(dy, dx) * 180 / Math.PI;
        for (const side of [-1, 1]) {
          const a = ang + side * 38, r = a * Math.PI / 180;
          const cx = rd(x + 9 * Math.cos(r)), cy = rd(y + 9 * Math.sin(r));
          leaves += `<ellipse cx="${cx}" cy="${cy}" rx="9" ry="3.8" transform="rotate(${rd(a)} ${cx} ${cy})"/>`;
        }
      }
      const branch = `<path d="M${x0} ${y0}Q${x1} ${y1} ${x2} ${y2}" fill="none" stroke-width="2.5"/><g fill="${p.green}" stroke-width="1">${leaves}</g>`;
      return `<g stroke="${p.greenDark}" stroke-width="1.3">${branch}<g transform="matrix(-1 0 0 1 200 0)">${branch}</g></g>` +
        use(s, 100, 160, 0, 2.3);
    }
    case "S":
      return use(s, 100, 160, 0, 1.2, 1.3) +
        `<g stroke="${p.ink}" stroke-width="1.5" stroke-linejoin="round">` +
        `<path d="M66 126L62 ${nap ? "96L78 110L88 88L100 104L112 88L122 110L138 96" : "92L76 112L84 86L94 108L100 82L106 108L116 86L124 112L138 92"}L134 126Z" fill="${p.gold}"/>` +
        `<path d="M64 120Q100 134 136 120L134 132Q100 146 66 132Z" fill="${p.red}"/>` +
        `<g stroke="none" fill="${nap ? p.blue : p.goldLight}"><circle cx="82" cy="130" r="3"/><circle cx="100" cy="134" r="3.4"/><circle cx="118" cy="130" r="3"/></g></g>`;
    default:
      return `<g stroke="${p.ink}" stroke-width="1.3" fill="${p.green}">` +
        `<path d="M86 70q-22-8-30 6q18 8 30-6zM112 108q22-10 32 4q-18 10-32-4zM86 176q-22-6-28 8q18 6 28-8z"/></g>` +
        use(s, 100, 164, 0, 1.3, 1.32);
  }
}

function pipArt(style, rank, suit, P) {
  if (EXTRA[style] && EXTRA[style].pips) return EXTRA[style].pips(rank, suit, P);
  const n = +rank;
  const s = `${P}s`;
  if (style === "french") {
    return frenchPips(n).map(([x, y]) => use(s, x, y, y > 160 ? 180 : 0, 0.62)).join("");
  }
  if (suit === "D" || suit === "C") {
    return PIPS_IT[n].map(([x, y]) => use(s, x, y, 0, PIP_SCALE_IT[n])).join("");
  }
  return stickLayout(n).map((st) => stickUse(s, st)).join("");
}

function faceArt(style, rank, suit, P) {
  if (EXTRA[style] && EXTRA[style].court) return EXTRA[style].court(rank, suit, P);
  const p = PAL[style];
  const tab = (edge) => `<path d="M7 98V15Q7 7 15 7H50V90Q50 98 42 98Z" fill="${p.bg}" stroke="${edge}" stroke-width="2.5"/>`;
  const tabs = (edge) => tab(edge) + `<g transform="rotate(180 100 160)">${tab(edge)}</g>`;
  if (style === "french") {
    const red = suit === "D" || suit === "C";
    const edge = red ? p.red : p.blue;
    return `<rect x="10" y="10" width="180" height="300" rx="8" fill="${red ? "#FFF3EE" : "#F0F4FB"}" stroke="${p.ink}" stroke-width="2"/>` +
      `<rect x="15" y="15" width="170" height="290" rx="5" fill="none" stroke="${edge}" stroke-width="1.5"/>` +
      `<use href="#${P}h"/><use href="#${P}h" transform="rotate(180 100 160)"/>` +
      `<path d="M10 160H190" stroke="${p.ink}" stroke-width="1.5"/>` + tabs(p.ink);
  }
  const fig = rank === "J" ? fanteFig(style, suit, P) : rank === "H" ? cavalloFig(style, suit, P) : reFig(style, suit, P);
  if (style === "napoletane") return fig;
  // piacentine: the figure stands in a framed panel; the indices sit on tabs
  return `<rect x="10" y="10" width="180" height="300" rx="8" fill="#E4EEF9" stroke="${p.blue}" stroke-width="3"/>` +
    `<rect x="16" y="16" width="168" height="288" rx="5" fill="none" stroke="${p.gold}" stroke-width="2.5"/>` +
    `<path d="M17 258H183V298Q183 303 178 303H22Q17 303 17 298Z" fill="#CFE0C2" stroke="none"/>` +
    fig + tabs(p.blue);
}

export function cardSVG(code, style, lang = "it", idSuffix = "") {
  const { rank, suit } = parseCode(code, style);
  const p = PAL[style];
  const P = `${style}-${code}${idSuffix ? "-" + idSuffix : ""}-`;
  let defs = `<g id="${P}s">${suitDef(style, suit)}</g>` + indexGroup(style, rank, suit, P);
  let art;
  if (rank === "A") art = aceArt(style, suit, P);
  else if ("JHK".includes(rank)) {
    if (style === "french") defs += frenchBust(suit, rank, P);
    art = faceArt(style, rank, suit, P);
  } else art = pipArt(style, rank, suit, P);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 320" role="img" aria-label="${esc(cardName(code, lang, style))}">` +
    `<defs>${defs}</defs>` +
    `<rect x="1" y="1" width="198" height="318" rx="14" fill="${p.bg}" stroke="${p.edge}" stroke-width="2"/>` +
    art + (EXTRA[style] && EXTRA[style].over ? EXTRA[style].over(rank, suit, P) : "") +
    `<use href="#${P}x"/><use href="#${P}x" transform="rotate(180 100 160)"/>` +
    `</svg>`;
}

// ---------------------------------------------------------------- backs

export function backSVG(style, lang = "it", idSuffix = "") {
  checkStyle(style);
  const P = `back-${style}${idSuffix ? "-" + idSuffix : ""}-`;
  let tile, field, frame, medal;
  if (EXTRA[style]) ({ tile, field, frame, medal } = EXTRA[style].back(P));
  else if (style === "napoletane") {
    field = "#A3211D"; frame = "#F0C060";
    tile = `<rect width="24" height="24" fill="${field}"/>` +
      `<path d="M12 3L21 12L12 21L3 12Z" fill="none" stroke="${frame}" stroke-width="1.4"/>` +
      `<circle cx="12" cy="12" r="2.6" fill="${frame}"/>` +
      `<g fill="#F7E6C0"><circle r="2.2"/><circle cx="24" r="2.2"/><circle cy="24" r="2.2"/><circle cx="24" cy="24" r="2.2"/></g>`;
    medal = `<ellipse cx="100" cy="160" rx="44" ry="62" fill="${field}" stroke="${frame}" stroke-width="4"/>` +
      `<path d="${star(8, 40, 16)}" transform="translate(100 160)" fill="${frame}"/>` +
      `<circle cx="100" cy="160" r="10" fill="${field}" stroke="${frame}" stroke-width="2"/>`;
  } else if (style === "piacentine") {
    field = "#1F4E9C"; frame = "#F2C230";
    tile = `<rect width="20" height="20" fill="${field}"/>` +
      `<g fill="none" stroke="#BFD3F2" stroke-width="1.2"><circle r="10"/><circle cx="20" r="10"/><circle cy="20" r="10"/><circle cx="20" cy="20" r="10"/><circle cx="10" cy="10" r="10"/></g>`;
    medal = `<rect x="64" y="118" width="72" height="84" rx="10" fill="${field}" stroke="${frame}" stroke-width="4"/>` +
      `<path d="${star(4, 34, 10)}" transform="translate(100 160)" fill="${frame}"/>` +
      `<circle cx="100" cy="160" r="6" fill="#D2232A"/>`;
  } else {
    field = "#1E6B45"; frame = "#FFFFFF";
    tile = `<rect width="16" height="16" fill="${field}"/>` +
      `<path d="M0 0L16 16M16 0L0 16" stroke="#8CC9A6" stroke-width="1.2"/>` +
      `<path d="M8 4L12 8L8 12L4 8Z" fill="#CFEBDA"/>`;
    medal = `<circle cx="100" cy="160" r="40" fill="${field}" stroke="${frame}" stroke-width="4"/>` +
      `<path d="${petals(4, 32, 26)}" transform="translate(100 160) rotate(45)" fill="${frame}"/>` +
      `<circle cx="100" cy="160" r="7" fill="${field}" stroke="${frame}" stroke-width="2"/>`;
  }
  const pat = `<pattern id="${P}p" width="${tile.match(/width="(\d+)"/)[1]}" height="${tile.match(/height="(\d+)"/)[1]}" patternUnits="userSpaceOnUse" patternTransform="translate(100 160)">${tile}</pattern>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 320" role="img" aria-label="${esc(backName(lang))}">` +
    `<defs>${pat}</defs>` +
    `<rect x="1" y="1" width="198" height="318" rx="14" fill="${PAL[style].bg}" stroke="${PAL[style].edge}" stroke-width="2"/>` +
    `<rect x="11" y="11" width="178" height="298" rx="8" fill="url(#${P}p)" stroke="${frame}" stroke-width="3"/>` +
    `<rect x="17" y="17" width="166" height="286" rx="5" fill="none" stroke="${frame}" stroke-width="1.2"/>` +
    medal + `</svg>`;
}
