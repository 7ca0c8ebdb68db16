// The regional decks beyond Napoletane, Piacentine and French, drawn with js/cards.js's tools and
// registered with it (registerStyle): the page imports this module, the embed's poster does not.
//
//   spagnole    Spanish: oros, copas, espadas, bastos; straight swords and knobbly clubs apart,
//               the suit told by the gaps in the frame's short sides ("la pinta": none for oros,
//               one for copas, two for espadas, three for bastos); sota, caballo, rey print
//               10, 11, 12 (the 48-card deck's 8s and 9s too); full-length figures, the caballos
//               of espadas and bastos riding right
//   siciliane   Sicilian: Spanish-like suits, small and bright (yellow, blue, red, green), the
//               cups a vase; full-length figures, the fante a lady (la donna)
//   trevisane   Trevisan (Venetian): Italian suits, curved swords meeting in ovals and smooth
//               batons crossed; double-headed figures, the fante of swords an old woman (la
//               vecia); a motto on each ace
//   triestine   Triestine: the Trevisan's heir, double-headed figures labelled across the middle
//               ("RE DE DANARI"), the figures printed 11, 12, 13 as in Dalmatia and Istria
//   bergamasche Bergamasque: red coins, the cups drawn as stacked shapes, double-headed figures
//               cut on a slant, the ace of batons held by a hand over "VINCERAI", a crown among
//               the three swords, a face in the four, the fante of swords with two swords
// Only the corner index and those printed words are text; everything else is shapes.

import { KIT, registerStyle } from "./cards.js";

const { rd, esc, use, star, petals, dots, limb, face, held, costume, stickLayout, stickUse, PIPS_IT, PIP_SCALE_IT } = KIT;
// A deck's own words (the Sicilian fante is a lady) are the locale files': card.rank.<style>.<rank>,
// which js/cards.js looks up before its family's.

const BASE = {
  ink: "#2A1A10", text: "#22140A", goldDark: "#A8651A", goldLight: "#FFEBA6", redDark: "#7A1714",
  greenDark: "#1F4A22", steelLight: "#F1F5FB", white: "#FFFFFF", skin: "#F5D2AE", hair: "#5A3218",
};
const PALS = {
  spagnole: { ...BASE, bg: "#FFFDF5", edge: "#8A1C1C", gold: "#F3B423", red: "#C9262A", blue: "#2E5FA8",
    green: "#3B8A3A", brown: "#B0702E", steel: "#9FB4D6", horse: "#F1E6D2", font: "serif" },
  siciliane: { ...BASE, bg: "#FFF8E4", edge: "#1D4C9C", gold: "#FFC81E", red: "#E2231A", blue: "#1E4FB0",
    green: "#1F9A3E", brown: "#8C4A1C", steel: "#8FB0E8", horse: "#F7F0E0", font: "serif" },
  trevisane: { ...BASE, bg: "#FBF6EA", edge: "#5C3A1E", gold: "#E9B83A", red: "#B8282A", blue: "#2D4E8E",
    green: "#3D7A3A", brown: "#9A4E24", steel: "#B6C4D8", horse: "#EDE3CF", font: "serif" },
  triestine: { ...BASE, bg: "#FFFCF2", edge: "#23467E", gold: "#F0C02E", red: "#D22E2E", blue: "#23467E",
    green: "#2F7F4A", brown: "#8E4B22", steel: "#AFC2DE", horse: "#F3EBDD", font: "sans-serif" },
  bergamasche: { ...BASE, bg: "#FDF8EC", edge: "#7C2420", gold: "#EDBE3A", red: "#D3322B", blue: "#2B5D9E",
    green: "#3C8B45", brown: "#A2572A", steel: "#B8C8DC", horse: "#EFE6D4", font: "serif" },
};

// ---------------------------------------------------------------- suit symbols
// As in js/cards.js: coins and cups in a 60x64 box around the origin, swords and batons
// vertical and 200 long, the tip or head at y = -100.

const G = (p, body, w = 1.5) => `<g stroke="${p.ink}" stroke-width="${w}" stroke-linejoin="round">${body}</g>`;

const coin = {
  spagnole: (p) => G(p, `<circle r="30" fill="${p.gold}"/><circle r="24" fill="#F7C948" stroke="${p.goldDark}"/>` +
    `<path d="${star(16, 22, 12)}" fill="#E98A1A" stroke-width="0.8"/><circle r="10" fill="${p.gold}"/>` +
    `<circle r="4" fill="${p.red}" stroke="none"/>`),
  siciliane: (p) => G(p, `<circle r="30" fill="${p.gold}" stroke-width="2"/>` +
    `<path d="${petals(4, 26, 30, 45)}" fill="${p.red}" stroke-width="1"/>` +
    `<path d="${petals(4, 20, 26)}" fill="${p.blue}" stroke-width="1"/><circle r="6" fill="${p.green}"/>`),
  trevisane: (p) => G(p, `<circle r="30" fill="${p.gold}"/><circle r="22" fill="none" stroke="${p.goldDark}" stroke-width="2"/>` +
    `<path d="${petals(6, 20, 20)}" fill="${p.red}" stroke-width="0.9"/><circle r="5" fill="${p.goldLight}"/>`),
  triestine: (p) => G(p, `<circle r="30" fill="${p.gold}"/><circle r="24" fill="${p.green}" stroke-width="1.2"/>` +
    `<circle r="18" fill="${p.gold}" stroke-width="1"/><path d="${star(8, 16, 7)}" fill="${p.red}" stroke-width="0.8"/>`),
  // Bergamo's coins are red
  bergamasche: (p) => G(p, `<circle r="30" fill="${p.red}" stroke-width="2"/><circle r="23" fill="none" stroke="${p.gold}" stroke-width="3"/>` +
    `<path d="${petals(8, 17, 18)}" fill="${p.gold}" stroke-width="0.8"/><circle r="4.5" fill="${p.red}"/>`),
};

const cup = {
  spagnole: (p) => G(p, `<path d="M-20 32Q-18 22-5 20V8H5V20Q18 22 20 32Z" fill="${p.gold}"/>` +
    `<ellipse cy="6" rx="8" ry="4" fill="${p.red}"/>` +
    `<path d="M-26-28H26Q26 2 0 4Q-26 2-26-28Z" fill="${p.gold}"/>` +
    `<path d="M-25-17H25" stroke="${p.red}" stroke-width="5"/><ellipse cy="-28" rx="26" ry="5" fill="${p.goldDark}"/>`),
  // the Sicilian cup is a vase: a round belly, a neck, a flared mouth
  siciliane: (p) => G(p, `<path d="M-14 32H14L8 22H-8Z" fill="${p.blue}"/>` +
    `<path d="M-8 22Q-26 12-22-4Q-18-14-7-16V-22Q-16-26-18-32H18Q16-26 7-22V-16Q18-14 22-4Q26 12 8 22Z" fill="${p.gold}"/>` +
    `<path d="M-21 0Q0 8 21 0" fill="none" stroke="${p.red}" stroke-width="4"/>`),
  trevisane: (p) => G(p, `<path d="M-18 32Q-14 22-4 20V-2H4V20Q14 22 18 32Z" fill="${p.gold}"/>` +
    `<circle cy="8" r="5" fill="${p.red}"/>` +
    `<path d="M-22-24Q-22-2 0 0Q22-2 22-24Z" fill="${p.gold}"/><path d="M-22-24H22L16-32H-16Z" fill="${p.red}"/>` +
    `<circle cy="-36" r="4" fill="${p.gold}"/>`),
  triestine: (p) => G(p, `<path d="M-18 32L-4 18V0H4V18L18 32Z" fill="${p.blue}"/>` +
    `<path d="M-24-26Q-20 0 0 2Q20 0 24-26Z" fill="${p.gold}"/><path d="M-24-26H24" stroke="${p.red}" stroke-width="4"/>` +
    `<circle cy="9" r="4" fill="${p.red}"/>`),
  // Bergamo's cups, abstracted: a lid, a bowl, a knot and a foot stacked
  bergamasche: (p) => G(p, `<path d="M-16 32H16L0 20Z" fill="${p.blue}"/><path d="M0 20L-8 8L0-4L8 8Z" fill="${p.red}"/>` +
    `<path d="M-24-4H24L14-20H-14Z" fill="${p.gold}"/><path d="M-14-20L0-34L14-20Z" fill="${p.blue}"/>`),
};

// Straight swords (Spain, Sicily); curved ones (the north).
function straightSword(p, grip) {
  return G(p, `<path d="M-5 52V-84L0-100L5-84V52Z" fill="${p.steel}"/><path d="M0 48V-88" stroke="${p.steelLight}" stroke-width="1.6"/>` +
    `<path d="M-26 50H26Q30 56 24 60H-24Q-30 56-26 50Z" fill="${p.gold}"/>` +
    `<rect x="-5" y="60" width="10" height="28" rx="2" fill="${grip}"/><circle cy="94" r="7" fill="${p.gold}"/>`, 1.6);
}
function curvedSword(p) {
  return G(p, `<path d="M-4 56C-6 0 6-60 30-100C18-50 8 0 5 56Z" fill="${p.steel}"/>` +
    `<path d="M0 50C0 0 8-50 24-90" fill="none" stroke="${p.steelLight}" stroke-width="1.5"/>` +
    `<path d="M-20 54Q0 62 20 54V60Q0 68-20 60Z" fill="${p.gold}"/>` +
    `<rect x="-4" y="62" width="8" height="26" rx="2" fill="${p.red}"/><path d="M-8 92h16l-8 8z" fill="${p.gold}"/>`, 1.6);
}
const sword = {
  spagnole: (p) => straightSword(p, p.red),
  siciliane: (p) => straightSword(p, p.blue),
  trevisane: curvedSword, triestine: curvedSword, bergamasche: curvedSword,
};

// A knobbly club (Spain, Sicily): thick at the head, with knots on its sides.
function cudgel(p, wood, band) {
  let knots = "";
  for (const [y, side] of [[-70, -1], [-44, 1], [-14, -1], [14, 1], [42, -1]]) {
    const x = side * (10 - (y + 100) / 40);
    knots += `<ellipse cx="${rd(x)}" cy="${y}" rx="5" ry="3.2" transform="rotate(${side * 30} ${rd(x)} ${y})"/>`;
  }
  return G(p, `<g fill="${wood}">${knots}</g>` +
    `<path d="M-5 98Q-7 20-13-82Q-14-100 0-100Q14-100 13-82Q7 20 5 98Q0 102-5 98Z" fill="${wood}"/>` +
    `<path d="M-3-60q4 10 0 20M2-10q-4 10 0 20M-2 40q3 8 0 16" fill="none" stroke="${p.greenDark}" stroke-width="1.2"/>` +
    (band ? `<path d="M-11-66H11M-9.5-30H9.5M-8 6H8" stroke="${band}" stroke-width="3.5"/>` : "") +
    `<ellipse cy="-92" rx="8" ry="4" fill="#E6C58C"/>`, 1.4);
}
// A smooth baton (the north), with a cap at each end.
function baton(p, wood) {
  return G(p, `<path d="M-6 96V-92H6V96Z" fill="${wood}"/>` +
    `<path d="M-9-92H9V-84H-9ZM-9 88H9V96H-9Z" fill="${p.gold}"/>` +
    `<path d="M-2-80V84" stroke="${p.goldLight}" stroke-width="1.5" opacity=".7"/>`, 1.4);
}
const club = {
  spagnole: (p) => cudgel(p, "#D89A4A", null),
  siciliane: (p) => cudgel(p, p.green, p.red),
  trevisane: (p) => baton(p, p.brown),
  triestine: (p) => baton(p, p.red),
  bergamasche: (p) => baton(p, p.green),
};

const NORTH = ["trevisane", "triestine", "bergamasche"];
function suitOf(style) {
  return (p, suit) => ({ D: coin, C: cup, S: sword, B: club }[suit][style](p));
}

// The corner's small sword and club (about 40 units tall), bold enough for a phone.
function indexStickOf(style) {
  const north = NORTH.includes(style);
  return (suit, p) => {
    let body;
    if (suit === "S") {
      body = (north ? `<path d="M-3.5 7C-3.5-4 0-13 6-21C3-11 3.5-3 3.5 7Z" fill="${p.steel}"/>`
        : `<path d="M-3.5 7V-15L0-21L3.5-15V7Z" fill="${p.steel}"/>`) +
        `<rect x="-2.5" y="9" width="5" height="8" fill="${p.red}"/><path d="M-10 6H10V10H-10Z" fill="${p.gold}"/><circle cy="18.5" r="2.8" fill="${p.gold}"/>`;
    } else if (north) {
      const wood = { trevisane: p.brown, triestine: p.red, bergamasche: p.green }[style];
      body = `<path d="M-3.5 18V-18H3.5V18Z" fill="${wood}"/><path d="M-5.5-20H5.5V-15H-5.5ZM-5.5 15H5.5V20H-5.5Z" fill="${p.gold}"/>`;
    } else {
      const wood = style === "siciliane" ? p.green : "#D89A4A";
      body = `<path d="M-3.5 19L-7-17Q0-22 7-17L3.5 19Q0 21-3.5 19Z" fill="${wood}"/>` +
        `<g fill="${wood}"><ellipse cx="-6.5" cy="-6" rx="3" ry="2"/><ellipse cx="6" cy="4" rx="3" ry="2"/></g>`;
    }
    return `<g transform="translate(28 76) rotate(35)" stroke="${p.ink}" stroke-width="1.3" stroke-linejoin="round">${body}</g>`;
  };
}

// ---------------------------------------------------------------- pips

// Spanish swords and clubs stand apart, never crossing: [x, y, tilt, length].
const APART = {
  2: [[74, 160, 3, 230], [126, 160, -3, 230]],
  3: [[62, 160, 3, 214], [100, 160, 0, 236], [138, 160, -3, 214]],
  4: [[76, 100, 6, 118], [124, 100, -6, 118], [76, 220, 6, 118], [124, 220, -6, 118]],
  5: [[74, 100, 6, 112], [126, 100, -6, 112], [100, 160, 0, 96], [74, 220, 6, 112], [126, 220, -6, 112]],
  6: [[68, 100, 4, 112], [100, 100, 0, 112], [132, 100, -4, 112], [68, 220, 4, 112], [100, 220, 0, 112], [132, 220, -4, 112]],
  7: [[68, 86, 4, 86], [100, 86, 0, 86], [132, 86, -4, 86], [100, 160, 0, 50], [68, 234, 4, 86], [100, 234, 0, 86], [132, 234, -4, 86]],
  8: [[62, 100, 3, 112], [88, 100, 0, 112], [112, 100, 0, 112], [138, 100, -3, 112],
    [62, 220, 3, 112], [88, 220, 0, 112], [112, 220, 0, 112], [138, 220, -3, 112]],
  9: [[62, 86, 3, 86], [88, 86, 0, 86], [112, 86, 0, 86], [138, 86, -3, 86], [100, 160, 0, 50],
    [62, 234, 3, 86], [88, 234, 0, 86], [112, 234, 0, 86], [138, 234, -3, 86]],
};
// The Spanish deck's 8 and 9 of oros and copas, in three columns.
const PIPS_48 = {
  8: [[76, 72], [124, 72], [76, 130], [124, 130], [76, 190], [124, 190], [76, 248], [124, 248]],
  9: [[70, 80], [100, 80], [130, 80], [70, 160], [100, 160], [130, 160], [70, 240], [100, 240], [130, 240]],
};
// The north's swords: pairs of curved blades meeting in ovals, one more down the middle when
// their number is odd; [half-width of each oval].
const OVALS = { 2: [52], 3: [56], 4: [60, 30], 5: [62, 34], 6: [64, 42, 20], 7: [66, 46, 24] };

function northSwords(n, p, P) {
  const s = `${P}s`;
  let out = "";
  for (const w of OVALS[n]) {
    for (const side of [-1, 1]) {
      // a blade from the hilt (bottom) bowing out by w and meeting its pair at the top
      out += `<path d="M${100 + side * 4} 268Q${100 + side * w * 2} 160 ${100 + side * 3} 44" fill="none" stroke="${p.ink}" stroke-width="7.5" stroke-linecap="round"/>` +
        `<path d="M${100 + side * 4} 268Q${100 + side * w * 2} 160 ${100 + side * 3} 44" fill="none" stroke="${p.steel}" stroke-width="4.5" stroke-linecap="round"/>`;
    }
  }
  out += `<g stroke="${p.ink}" stroke-width="1.4"><path d="M76 268H124V276H76Z" fill="${p.gold}"/><rect x="94" y="276" width="12" height="18" rx="2" fill="${p.red}"/>` +
    `<circle cx="100" cy="298" r="5" fill="${p.gold}"/></g>`;
  if (n % 2) out += use(s, 100, 150, 0, 0.55, 0.92);
  return out;
}

function pipsOf(style) {
  return (rank, suit, P) => {
    const n = +rank;
    const s = `${P}s`;
    const p = PALS[style];
    if (suit === "D" || suit === "C") {
      if (n > 7) return PIPS_48[n].map(([x, y]) => use(s, x, y, 0, n === 8 ? 0.6 : 0.5)).join("");
      let out = PIPS_IT[n].map(([x, y]) => use(s, x, y, 0, PIP_SCALE_IT[n])).join("");
      // the Sicilian numerals' small drawings between the pips
      if (style === "siciliane" && (n === 2 || n === 4)) {
        out += `<g transform="translate(100 160)"><path d="${petals(4, 12, 30, 45)}" fill="${p.green}" stroke="${p.ink}" stroke-width="0.8"/><circle r="3" fill="${p.red}"/></g>`;
      }
      return out;
    }
    if (NORTH.includes(style)) {
      if (suit === "S") {
        let out = northSwords(n, p, P);
        if (style === "bergamasche" && n === 3) { // Bergamo's crown among the three swords
          out += `<path d="M86 214V198L92 206L100 194L108 206L114 198V214Z" fill="${p.gold}" stroke="${p.ink}" stroke-width="1.4"/>`;
        }
        if (style === "bergamasche" && n === 4) { // and Margì's face inside the four
          out += `<g stroke="${p.ink}" stroke-width="1.2"><path d="M88 166Q86 142 100 140Q114 142 112 166Q106 154 100 154Q94 154 88 166Z" fill="${p.hair}"/>` +
            face(p, 100, 158, 10) + `</g>`;
        }
        return out;
      }
      return stickLayout(n).map((st) => stickUse(s, st)).join("");
    }
    const wide = n >= 8 ? 0.48 : 0.7; // four abreast: narrower guards
    return APART[n].map(([x, y, rot, len]) => use(s, x, y, rot, Math.min(wide, 0.4 + len / 500), len / 200)).join("");
  };
}

// ---------------------------------------------------------------- aces

// A scroll between the corners' indices, with its words.
function scroll(p, y, words, size = 11) {
  return `<path d="M44 ${y - 12}H156L150 ${y}L156 ${y + 12}H44L50 ${y}Z" fill="${p.white}" stroke="${p.ink}" stroke-width="1.2"/>` +
    `<text class="label" x="100" y="${y + size * 0.36}" font-family="${p.font}" font-size="${size}" font-style="italic" text-anchor="middle" fill="${p.text}"` +
    ` textLength="${Math.min(96, words.length * size * 0.55)}" lengthAdjust="spacingAndGlyphs">${esc(words)}</text>`;
}

// The Trevisan aces' mottoes, a warning against gambling on each.
const MOTTOES = {
  D: "Non val saper a chi ha fortuna contra", C: "Per un punto Martin perse la capa",
  S: "Non ti fidar di me se il cuor ti manca", B: "Se ti perdi tuo danno",
};

function aceOf(style) {
  return (suit, P) => {
    const p = PALS[style];
    const s = `${P}s`;
    const long = suit === "S" || suit === "B";
    const low = style === "trevisane" || style === "bergamasche"; // a scroll below
    const big = long ? use(s, 100, low ? 140 : 156, 0, 1.05, low ? 0.95 : 1.22) : use(s, 100, low ? 142 : 150, 0, low ? 1.95 : 2.2);
    let deco;
    if (style === "spagnole") {
      deco = suit === "D"
        ? `<circle cx="100" cy="150" r="78" fill="none" stroke="${p.red}" stroke-width="3"/><g transform="translate(100 150)">${dots(28, 72, 2.4, p.red)}</g>`
        : `<g transform="translate(100 150)">${dots(10, 84, 3.4, p.blue, 18)}</g>`;
    } else if (style === "siciliane") {
      deco = `<path d="${star(12, 88, 70)}" transform="translate(100 150)" fill="${p.gold}" stroke="${p.ink}" stroke-width="1.2" opacity=".55"/>`;
    } else if (style === "triestine") { // a blue medallion with a string of pearls
      deco = `<ellipse cx="100" cy="156" rx="76" ry="116" fill="#EAF1FA" stroke="${p.blue}" stroke-width="3"/>` +
        `<ellipse cx="100" cy="156" rx="68" ry="108" fill="none" stroke="${p.gold}" stroke-width="4" stroke-dasharray="0.1 9" stroke-linecap="round"/>`;
    } else { // Treviso's garland, Bergamo's in red
      deco = `<ellipse cx="100" cy="150" rx="74" ry="112" fill="none" stroke="${style === "bergamasche" ? p.red : p.green}" stroke-width="5" stroke-dasharray="12 6"/>`;
    }
    let extra = "";
    if (style === "trevisane") extra = scroll(p, 256, MOTTOES[suit], 9);
    if (style === "bergamasche" && suit === "B") { // the baton held up by a hand, over "Vincerai"
      extra = `<g stroke="${p.ink}" stroke-width="1.4"><path d="M84 200Q80 222 92 232H112Q122 222 116 200Z" fill="${p.skin}"/>` +
        `<path d="M88 208H112M88 216H112" stroke-width="1"/><path d="M86 232H114V246H86Z" fill="${p.red}"/></g>` + scroll(p, 262, "VINCERAI", 13);
    }
    return deco + big + extra;
  };
}

// ---------------------------------------------------------------- figures

// The Sicilian fante: a lady in a long gown, holding the suit.
function donna(style, suit, P) {
  const p = PALS[style];
  const [c1, c2, c3] = costume(p, suit);
  const hx = 146, hy = 172;
  return `<g stroke="${p.ink}" stroke-width="1.5" stroke-linejoin="round">` +
    `<ellipse cx="100" cy="286" rx="50" ry="6" fill="${p.green}" opacity=".35" stroke="none"/>` +
    `<path d="M84 136H116L146 284H54Z" fill="${c1}"/><path d="M94 140H106L118 284H82Z" fill="${c2}"/>` +
    `<path d="M56 274H144V284H56Z" fill="${c3}"/><path d="M80 178H120" stroke="${c3}" stroke-width="5"/>` +
    limb("M84 142Q68 166 72 196", c1, 11, p.ink) + `<circle cx="72" cy="198" r="5.5" fill="${p.skin}"/>` +
    limb(`M116 142Q134 150 ${hx - 2} ${hy - 4}`, c1, 11, p.ink) +
    `<path d="M80 130Q74 84 100 82Q126 84 120 130Q112 116 100 116Q88 116 80 130Z" fill="${p.hair}"/>` +
    `<path d="M94 116h12v20h-12z" fill="${p.skin}"/><path d="M84 136Q100 148 116 136" fill="none" stroke="${p.white}" stroke-width="4"/>` +
    face(p, 100, 104, 14) + `<path d="M86 96Q100 82 114 96Q108 88 100 88Q92 88 86 96Z" fill="${p.hair}"/>` +
    `<path d="M88 86L92 74L100 82L108 74L112 86Z" fill="${p.gold}"/>` +
    held(P, suit, hx, hy) + `<circle cx="${hx}" cy="${hy}" r="5.5" fill="${p.skin}"/></g>`;
}

// The north's double-headed figures: a half-length portrait drawn in the top half, turned round
// for the bottom; the king crowned and bearded, the horse's head beside its rider, the fante in a
// plumed cap; each holds the suit.
function bust(style, rank, suit, P) {
  const p = PALS[style];
  const [c1, c2, c3] = costume(p, suit);
  const body = `<path d="M44 168Q42 134 68 124L88 116H112L132 124Q158 134 156 168Z" fill="${c1}"/>` +
    `<path d="M88 116L100 168L112 116Z" fill="${c3}"/><path d="M56 136V168M144 136V168" stroke="${c2}" stroke-width="6"/>` +
    `<path d="M80 118Q100 130 120 118" fill="none" stroke="${p.white}" stroke-width="5"/>`;
  let head, extra = "";
  if (rank === "K") {
    head = `<path d="M82 78Q80 52 100 50Q120 52 118 78Z" fill="${p.hair}"/>` + face(p, 100, 72, 16, { beard: true }) +
      `<path d="M84 76Q84 104 100 106Q116 104 116 76Q110 86 100 86Q90 86 84 76Z" fill="${p.hair}"/>` +
      `<path d="M82 58V34L91 46L100 30L109 46L118 34V58Z" fill="${p.gold}"/><circle cx="100" cy="44" r="3" fill="${p.red}" stroke="none"/>`;
  } else if (rank === "H") {
    // the horse's head and neck on the left, the rider on the right
    extra = `<path d="M20 168Q14 118 30 90L22 66L40 80Q64 72 72 100Q70 132 80 168Z" fill="${p.horse}"/>` +
      `<path d="M14 112Q8 96 24 86L30 92Q22 102 26 116Z" fill="${p.horse}"/>` +
      `<path d="M26 92Q44 112 66 104" fill="none" stroke="${p.redDark}" stroke-width="2"/><circle cx="34" cy="94" r="2.4" fill="${p.ink}" stroke="none"/>` +
      `<path d="M40 80Q60 70 72 92Q62 88 54 94Q52 86 40 80Z" fill="${p.hair}"/>`;
    head = `<path d="M84 80Q82 56 100 54Q118 56 116 80Z" fill="${p.hair}"/>` + face(p, 100, 74, 15) +
      `<path d="M84 62Q100 42 118 60L116 66H84Z" fill="${c3}"/><path d="M82 66H118" stroke="${c2}" stroke-width="4"/>`;
  } else if (style === "trevisane" && suit === "S") {
    // Treviso's fante of swords is "la vecia", the old woman: grey hair under a kerchief
    head = `<path d="M82 92Q78 58 100 56Q122 58 118 92Q112 74 100 74Q88 74 82 92Z" fill="#B8B0A4"/>` + face(p, 100, 76, 15) +
      `<path d="M80 70Q82 48 100 46Q118 48 120 70Q110 60 100 60Q90 60 80 70Z" fill="${c3}"/>` +
      `<path d="M90 84q3 2 6 0M104 84q3 2 6 0" fill="none" stroke="${p.ink}" stroke-width="0.9"/>`;
  } else {
    head = `<path d="M84 84Q80 58 100 56Q120 58 116 84Q112 70 100 70Q88 70 84 84Z" fill="${p.hair}"/>` + face(p, 100, 76, 15) +
      `<path d="M80 62Q100 42 122 56L120 64H80Z" fill="${c3}"/><path d="M120 56Q132 36 146 34Q136 44 124 62Z" fill="${p.white}"/>`;
  }
  const hand = limb("M130 128Q152 120 152 100", c1, 10, p.ink) + `<circle cx="152" cy="98" r="5.5" fill="${p.skin}"/>`;
  // the head drawn larger than the body's scale: it is what a player looks for
  head = `<path d="M92 96h16v22h-16z" fill="${p.skin}"/><g transform="translate(100 80) scale(1.3) translate(-100 -80)">${head}</g>`;
  let suitHeld;
  if (suit === "S" || suit === "B") {
    suitHeld = use(`${P}s`, 150, 74, 10, 0.5, 0.42);
    if (style === "bergamasche" && rank === "J" && suit === "S") suitHeld += use(`${P}s`, 56, 80, -14, 0.45, 0.38); // two swords
  } else suitHeld = use(`${P}s`, 152, 70, 0, 0.62);
  return `<g stroke="${p.ink}" stroke-width="1.4" stroke-linejoin="round">${extra}${body}${head}${hand}${suitHeld}</g>`;
}

const RANK_LABEL = { J: "FANTE", H: "CAVAL", K: "RE" };
const SUIT_LABEL = { D: "DANARI", C: "COPE", S: "SPADE", B: "BASTONI" };

function courtOf(style) {
  return (rank, suit, P) => {
    const p = PALS[style];
    if (!NORTH.includes(style)) {
      const fig = rank === "J" ? (style === "siciliane" ? donna(style, suit, P) : KIT.fanteFig(style, suit, P))
        : rank === "H" ? KIT.cavalloFig(style, suit, P) : KIT.reFig(style, suit, P);
      // Spain's caballos of espadas and bastos ride to the right, those of oros and copas to the left
      if (style === "spagnole" && rank === "H" && (suit === "S" || suit === "B")) return `<g transform="matrix(-1 0 0 1 200 0)">${fig}</g>`;
      return fig;
    }
    const tint = { trevisane: "#F3EAD4", triestine: "#E8EFF8", bergamasche: "#F6E7D2" }[style];
    // each half drawn once and turned round; Bergamo's figures are cut on a slant
    const slant = style === "bergamasche";
    const defs = `<clipPath id="${P}k"><path d="${slant ? "M0 0H200V152L0 168Z" : "M0 0H200V160H0Z"}"/></clipPath>` +
      `<g id="${P}h" clip-path="url(#${P}k)">${bust(style, rank, suit, P)}</g>`;
    const cut = `<path d="${slant ? "M10 167L190 153" : "M12 160H188"}" stroke="${p.ink}" stroke-width="1.6"/>`;
    const half = `<use href="#${P}h"/>`;
    const label = style === "triestine"
      ? `<rect x="44" y="151" width="112" height="18" rx="3" fill="${p.white}" stroke="${p.blue}" stroke-width="1.4"/>` +
        `<text class="label" x="100" y="164.5" font-family="sans-serif" font-weight="700" font-size="11" text-anchor="middle" fill="${p.blue}"` +
        ` textLength="100" lengthAdjust="spacingAndGlyphs">${RANK_LABEL[rank]} DE ${SUIT_LABEL[suit]}</text>`
      : "";
    return `<defs>${defs}</defs><rect x="10" y="10" width="180" height="300" rx="8" fill="${tint}" stroke="${p.edge}" stroke-width="2"/>` +
      (style === "bergamasche" ? `<rect x="15" y="15" width="170" height="290" rx="5" fill="none" stroke="${p.red}" stroke-width="1.5" stroke-dasharray="5 3"/>` : "") +
      half + `<g transform="rotate(180 100 160)">${half}</g>` + cut + label;
  };
}

// ---------------------------------------------------------------- the Spanish frame

// The frame's short sides broken once for copas, twice for espadas, three times for bastos.
const GAPS = { D: [], C: [100], S: [82, 118], B: [66, 100, 134] };
function pinta(suit) {
  const p = PALS.spagnole;
  const side = (y, from, to) => {
    let d = "", x = from;
    for (const g of GAPS[suit]) { d += `M${x} ${y}H${g - 8}`; x = g + 8; }
    return d + `M${x} ${y}H${to}`;
  };
  // round the card, broken only by the two corners' index (and the gaps)
  return `<path d="M16 98V304${side(16, 52, 184)}M184 16V222${side(304, 16, 148)}" fill="none" stroke="${p.red}" stroke-width="3"/>`;
}

// ---------------------------------------------------------------- backs

const BACKS = {
  spagnole: ["#1F3F8A", "#F3B423", "M12 2L22 12L12 22L2 12Z", "#9DB4E8"],
  siciliane: ["#C81E1E", "#FFC81E", "M12 4A8 8 0 1 1 11.9 4Z", "#F5B7A8"],
  trevisane: ["#2E5A36", "#E9B83A", "M0 12H24M12 0V24", "#A9CFA0"],
  triestine: ["#23467E", "#FFFFFF", "M4 4L20 20M20 4L4 20", "#9FB8E0"],
  bergamasche: ["#7C2420", "#EDBE3A", "M12 3L15 12L12 21L9 12Z", "#E5A79C"],
};
function backOf(style) {
  return () => {
    const [field, frame, motif, light] = BACKS[style];
    const tile = `<rect width="24" height="24" fill="${field}"/><path d="${motif}" fill="none" stroke="${light}" stroke-width="1.6"/>` +
      `<circle cx="12" cy="12" r="2" fill="${frame}"/>`;
    const medal = `<rect x="62" y="112" width="76" height="96" rx="38" fill="${field}" stroke="${frame}" stroke-width="4"/>` +
      `<path d="${star(style === "spagnole" ? 8 : 6, 30, 12)}" transform="translate(100 160)" fill="${frame}"/>` +
      `<circle cx="100" cy="160" r="7" fill="${field}" stroke="${frame}" stroke-width="2"/>`;
    return { tile, field, frame, medal };
  };
}

// ---------------------------------------------------------------- registration

const INDEX = {
  spagnole: { A: "1", J: "10", H: "11", K: "12" },
  triestine: { A: "1", J: "11", H: "12", K: "13" },
};

for (const style of Object.keys(PALS)) {
  registerStyle(style, {
    pal: PALS[style],
    ranks: style === "spagnole" ? ["A", "2", "3", "4", "5", "6", "7", "8", "9", "J", "H", "K"] : null,
    look: style === "siciliane" ? "napoletane" : "piacentine",
    index: INDEX[style] || { A: "1", J: "8", H: "9", K: "10" },
    suit: suitOf(style),
    indexStick: indexStickOf(style),
    ace: aceOf(style),
    pips: pipsOf(style),
    court: courtOf(style),
    over: style === "spagnole" ? (_rank, suit) => pinta(suit) : null,
    back: backOf(style),
  });
}
