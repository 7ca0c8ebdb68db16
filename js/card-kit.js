// The drawing tools of the card art (js/cards.js, js/decks.js): SVG strings from numbers, and the
// palettes of the decks js/cards.js draws (a deck of js/decks.js brings its own, which
// js/cards.js's registerStyle adds to PAL). Shapes only: no card, no name, no word.

export const rd = (n) => Math.round(n * 10) / 10;
const rs = (n) => Math.round(n * 1000) / 1000;
export const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function tf(x, y, rot = 0, sx = 1, sy = sx) {
  let t = `translate(${rd(x)} ${rd(y)})`;
  if (rot) t += ` rotate(${rd(rot)})`;
  if (sx !== 1 || sy !== 1) t += sx === sy ? ` scale(${rs(sx)})` : ` scale(${rs(sx)} ${rs(sy)})`;
  return t;
}
export const use = (id, x, y, rot = 0, sx = 1, sy = sx) => `<use href="#${id}" transform="${tf(x, y, rot, sx, sy)}"/>`;

export function pt(r, deg) {
  const a = (deg - 90) * Math.PI / 180;
  return `${rd(r * Math.cos(a))} ${rd(r * Math.sin(a))}`;
}
// n-pointed star around the origin
export function star(n, ro, ri, rot = 0) {
  let d = "";
  for (let i = 0; i < 2 * n; i++) d += (i ? "L" : "M") + pt(i % 2 ? ri : ro, rot + i * 180 / n);
  return d + "Z";
}
// n petals from the origin to radius r, each `w` degrees wide
export function petals(n, r, w, rot = 0) {
  let d = "";
  for (let i = 0; i < n; i++) {
    const a = rot + i * 360 / n;
    d += `M0 0Q${pt(r * 0.7, a - w)} ${pt(r, a)}Q${pt(r * 0.7, a + w)} 0 0Z`;
  }
  return d;
}
// ring of small dots
export function dots(n, r, size, fill, rot = 0) {
  let s = "";
  for (let i = 0; i < n; i++) {
    const [x, y] = pt(r, rot + i * 360 / n).split(" ");
    s += `<circle cx="${x}" cy="${y}" r="${size}"/>`;
  }
  return `<g fill="${fill}" stroke="none">${s}</g>`;
}
// a thick outlined stroke (arms, legs): outline first, colour on top
export const limb = (d, color, w, ink) =>
  `<path d="${d}" fill="none" stroke="${ink}" stroke-width="${w + 3}" stroke-linecap="round" stroke-linejoin="round"/>` +
  `<path d="${d}" fill="none" stroke="${color}" stroke-width="${w}" stroke-linecap="round" stroke-linejoin="round"/>`;

// ---------------------------------------------------------------- palettes

export const PAL = {
  napoletane: {
    bg: "#FBF2DC", edge: "#7A5A36", ink: "#3A2412", text: "#2A1408",
    gold: "#E6A932", goldDark: "#A8651A", goldLight: "#FFE9A8",
    red: "#C8302B", redDark: "#7A1A16", blue: "#2F62A8", green: "#3E8A3C",
    greenDark: "#2B5A1E", brown: "#7A4A1F", steel: "#9AB2DA", steelLight: "#EEF3FB",
    skin: "#F3CFA8", hair: "#6B3A1A", white: "#FFFDF6", horse: "#F4EEE2",
    font: "serif",
  },
  piacentine: {
    bg: "#FFFBF0", edge: "#4A5A7A", ink: "#1C1E3A", text: "#16204A",
    gold: "#F2C230", goldDark: "#B8860B", goldLight: "#FFF1B0",
    red: "#D2232A", redDark: "#7E1015", blue: "#1F4E9C", green: "#2E7D4F",
    greenDark: "#1B4D30", brown: "#A0522D", steel: "#A9BEE0", steelLight: "#F2F6FC",
    skin: "#F6D7B4", hair: "#3B2314", white: "#FFFFFF", horse: "#9A5B34",
    font: "sans-serif",
  },
  french: {
    bg: "#FFFFFF", edge: "#6A6A6A", ink: "#1B1B1B", text: "#1B1B1B",
    gold: "#F2C230", goldDark: "#B8860B", goldLight: "#FFF1B0",
    red: "#D0212B", redDark: "#7E1015", blue: "#2553A8", green: "#2E7D4F",
    greenDark: "#1B4D30", brown: "#8A5A2B", steel: "#B7C6E0", steelLight: "#F2F6FC",
    skin: "#F8DCC0", hair: "#2A1A10", white: "#FFFFFF", horse: "#FFFFFF",
    font: "sans-serif",
  },
};
