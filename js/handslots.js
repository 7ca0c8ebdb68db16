// The places of a long hand: six cards or more when dealt, laid out on a phone upright in two
// rows (css/app.css, `.hand.two-rows`). Each card keeps the place it was dealt in, so a play
// moves no other card (a card aimed at is where the player saw it); a card drawn takes the
// first free place. A place p is row 1 (the back) for p < cols, else row 2, column p % cols.

/**
 * The places of `cards` (codes; null for a card not shown) after `prev` (this function's last
 * answer for the same seat, or null): {slots: Map code -> place, cols} for a long hand, null
 * for a short one. A hand not shown (people sharing the device) is laid out in order, and
 * leaves `prev` as it was for when it shows again.
 * @param {{slots: Map<string, number>, cols: number, hidden?: boolean} | null} prev
 * @param {(string | null)[]} cards
 */
export function handSlots(prev, cards) {
  const codes = cards.filter(Boolean);
  if (codes.length < cards.length) {
    return cards.length >= 6 ? { slots: new Map(cards.map((_, i) => [`x${i}`, i])), cols: Math.ceil(cards.length / 2), hidden: true } : null;
  }
  const old = prev && !prev.hidden && codes.some((c) => prev.slots.has(c)) ? prev : null;
  if (!old) return codes.length >= 6 ? { slots: new Map(codes.map((c, i) => [c, i])), cols: Math.ceil(codes.length / 2) } : null;
  const slots = new Map(codes.filter((c) => old.slots.has(c)).map((c) => [c, old.slots.get(c)]));
  for (const c of codes) {
    if (slots.has(c)) continue;
    const used = new Set(slots.values());
    let p = 0;
    while (used.has(p)) p++;
    slots.set(c, p);
  }
  return { slots, cols: Math.max(old.cols, Math.ceil((Math.max(...slots.values()) + 1) / 2)) };
}

/**
 * Lay out a hand's `buttons` (one for each of `cards`, in order) in `box` by their places
 * (`.two-rows`, each card's row --r and column --c); `places`: the table's last places by
 * seat, kept up to date here (people sharing the device each keep theirs).
 * @param {HTMLElement} box @param {HTMLElement[]} buttons @param {(string | null)[]} cards
 * @param {Record<number, any>} places @param {number} seat
 */
export function placeHand(box, buttons, cards, places, seat) {
  const placed = handSlots(places[seat] || null, cards);
  if (!placed || !placed.hidden) places[seat] = placed;
  box.classList.toggle("two-rows", !!placed);
  if (!placed) return;
  box.style.setProperty("--cols", String(placed.cols));
  buttons.forEach((btn, i) => {
    const at = /** @type {number} */ (placed.slots.get(cards[i] || `x${i}`));
    btn.dataset.row = at < placed.cols ? "1" : "2";
    btn.style.setProperty("--r", btn.dataset.row);
    btn.style.setProperty("--c", String((at % placed.cols) + 1));
  });
}
