//# allFunctionsCalledOnLoad
// Small DOM helpers. Text is always set with textContent: nothing typed by a person or sent
// by the engine is ever parsed as HTML. The only markup inserted is the card art that
// cards.js draws from our own card codes.

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * h("button", {class: "x", text: "Play", attrs: {"aria-label": "…"}, on: {click: fn}}, ...kids)
 */
export function h(tag, props = {}, ...kids) {
  const el = document.createElement(tag);
  setProps(el, props);
  append(el, kids);
  return el;
}

export function s(tag, attrs = {}, ...kids) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null && v !== false) el.setAttribute(k, String(v));
  }
  append(el, kids);
  return el;
}

function setProps(el, props) {
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null) continue;
    if (k === "class") el.className = Array.isArray(v) ? v.filter(Boolean).join(" ") : v;
    else if (k === "text") el.textContent = v;
    else if (k === "attrs") {
      for (const [a, av] of Object.entries(v)) {
        if (av === undefined || av === null || av === false) continue;
        el.setAttribute(a, av === true ? "" : String(av));
      }
    } else if (k === "data") {
      for (const [a, av] of Object.entries(v)) if (av !== undefined && av !== null) el.dataset[a] = String(av);
    } else if (k === "on") {
      for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
    } else el[k] = v;
  }
}

function append(el, kids) {
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
}

export function clear(el) {
  // all at once: removing a focused child one by one fires its blur, whose handlers may move
  // or remove the next child (a friend's end screen drawn again as a view arrives)
  el.replaceChildren();
  return el;
}

/** An element holding trusted SVG markup produced by cards.js. */
export function svgBox(tag, markup, props = {}) {
  const el = h(tag, props);
  el.innerHTML = markup; // our own card art only (cards.js escapes its text)
  return el;
}

export const sleep = (ms) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

/** What finds an element again once redrawn: its id, else its card or key and its tag. */
function signature(el) {
  const esc = (v) => ((window.CSS && CSS.escape) ? CSS.escape(v) : String(v).replace(/["\\]/g, "\\$&"));
  if (el.id) return `#${esc(el.id)}`;
  const tag = el.tagName.toLowerCase();
  if (el.dataset && el.dataset.card) return `${tag}[data-card="${esc(el.dataset.card)}"]`;
  if (el.dataset && el.dataset.key) return `${tag}[data-key="${esc(el.dataset.key)}"]`;
  return null;
}

/**
 * Redraw what is inside `box` (`redraw()`, whose value is returned) without the focus falling
 * to <body>: if it was inside `box` and its element is gone, it goes to the element drawn in
 * its place (same id, card or key), else to the first of `fallbacks` (CSS selectors, in
 * order) that can take it.
 */
export function keepFocus(box, redraw, fallbacks = []) {
  const had = document.activeElement;
  const inside = !!had && had !== document.body && box.contains(had);
  const sig = inside ? signature(/** @type {HTMLElement} */ (had)) : null;
  const out = redraw();
  const now = document.activeElement;
  if (inside && (!now || now === document.body || !now.isConnected)) {
    for (const sel of [sig, ...fallbacks]) {
      const el = sel ? /** @type {HTMLElement | null} */ (box.querySelector(sel)) : null;
      if (el && !(/** @type {HTMLButtonElement} */ (el).disabled)) {
        el.focus({ preventScroll: true });
        if (document.activeElement === el) break;
      }
    }
  }
  return out;
}

/**
 * The live region inside `dialog` (made at its first use): inside an open modal dialog the
 * page's own live region is inert, so what the dialog says goes in its own.
 */
export function dialogLive(dialog) {
  let box = dialog.querySelector(":scope > .dialog-live");
  if (!box) {
    box = h("div", { class: "sr-only dialog-live", attrs: { "aria-live": "polite", "aria-atomic": "true" } });
    dialog.append(box);
  }
  return box;
}
