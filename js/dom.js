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
