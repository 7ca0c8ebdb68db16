// The top bar's language menu: a button that shows the page's language ("HR") and opens the
// list of every language of js/locales/, each named in itself ("Hrvatski"), marked the one in
// use. Arrow keys move in the list, Escape or a click elsewhere closes it, the focus back on
// its button after a choice or Escape.

import { h } from "./dom.js";
import { LANGS, getLang, langName } from "./i18n.js";

/** Marks the language in use among the menu's items. */
export function markLang(menu) {
  for (const b of menu.querySelectorAll("button")) b.setAttribute("aria-current", String(b.dataset.lang === getLang()));
}

/** Fills `menu` (a list under `button`) and wires both; `pick(lang)` on a choice. */
export function langMenu(button, menu, pick) {
  const close = (focus) => {
    if (menu.hidden) return;
    menu.hidden = true;
    button.setAttribute("aria-expanded", "false");
    if (focus) button.focus();
  };
  menu.replaceChildren(...LANGS.map((lang) => h("li", {}, h("button", {
    type: "button", text: langName(lang), data: { lang }, attrs: { lang },
    on: { click: () => { close(true); pick(lang); } } }))));
  markLang(menu);
  button.addEventListener("click", () => {
    if (!menu.hidden) { close(false); return; }
    menu.hidden = false;
    button.setAttribute("aria-expanded", "true");
    (menu.querySelector('[aria-current="true"]') || menu.querySelector("button")).focus();
  });
  menu.addEventListener("keydown", (e) => {
    const items = [...menu.querySelectorAll("button")];
    const at = items.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      close(true);
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp" || e.key === "Home" || e.key === "End") {
      e.preventDefault();
      const next = e.key === "Home" ? 0 : e.key === "End" ? items.length - 1
        : (at + (e.key === "ArrowDown" ? 1 : items.length - 1)) % items.length;
      items[next].focus();
    }
  });
  const inside = (node) => !!node && button.parentElement.contains(/** @type {Node} */ (node));
  document.addEventListener("click", (e) => { if (!inside(e.target)) close(false); });
  // Tab out of the list closes it (a focus that goes nowhere, as a click on a Safari button, does not)
  menu.addEventListener("focusout", (e) => { if (e.relatedTarget && !inside(e.relatedTarget)) close(false); });
}
