// The host page's API: an embedded game (index.html?embed=1 or embed.html in an <iframe>)
// talks to the page around it with postMessage. Every message is an object whose `type`
// starts with "briscola:".
//
// From the game to the host page (sent to window.parent, any origin: nothing in them is
// private):
//   {type: "briscola:height", height}        the height in CSS pixels the content needs at
//                                            the frame's width; at start and on every change
//   {type: "briscola:deal-start", variant}   a deal is on the table
//   {type: "briscola:deal-end", variant, result, points, opponents}
//                                            a deal is over: result "won", "lost" or "draw"
//                                            for the person, the points of the person's side
//                                            and the best of the other sides'
// From the host page to the game (only from window.parent):
//   {type: "briscola:new-deal", seed?}       deal a new game with the embed's options (a new
//                                            seed unless one is given); one deal at a time:
//                                            requests that come while one is dealt are
//                                            coalesced, the last of them dealt next
//
// Nothing happens outside a frame. The poster (embed.html) speaks the same language: it
// sends its height, and a new-deal request starts the game.

export const HOST = typeof window !== "undefined" && window.parent && window.parent !== window ? window.parent : null;

/** Post one message to the host page (no-op outside a frame). */
export function tell(type, fields = {}) {
  if (!HOST) return;
  try {
    HOST.postMessage({ ...fields, type: `briscola:${type}` }, "*");
  } catch {
    // a message that cannot be cloned is a bug here, never the host's
  }
}

/**
 * Send the content's height now and whenever it changes. `measure` returns it in px.
 * Returns a function that sends it again if it changed (for changes no resize shows).
 */
export function watchHeight(measure) {
  if (!HOST || typeof ResizeObserver === "undefined") return () => {};
  let last = -1;
  const send = () => {
    const height = Math.ceil(measure());
    if (height > 0 && height !== last) {
      last = height;
      tell("height", { height });
    }
  };
  const watch = new ResizeObserver(send);
  watch.observe(document.documentElement);
  if (document.body) watch.observe(document.body);
  send();
  return send;
}

/** Call `handler(message)` for each "briscola:<type>" request from the host page. */
export function onRequest(type, handler) {
  if (!HOST) return;
  window.addEventListener("message", (event) => {
    const msg = event.data;
    if (event.source !== HOST || !msg || typeof msg !== "object" || msg.type !== `briscola:${type}`) return;
    handler(msg);
  });
}

// The table fills whatever frame it is given, so its height is a choice: the height at which
// it is laid out as designed at the frame's width (cards sized by the width, not squeezed by
// the height), or more where something does not fit. That figure never shrinks within a
// deal at one width, so a host that follows it cannot make it swing.
let tallest = { key: null, height: 0 };

function gameHeight(deal) {
  const width = window.innerWidth;
  const wanted = Math.min(860, Math.max(520, Math.round(width * 1.3)));
  const root = document.documentElement;
  let clipped = Math.max(0, root.scrollHeight - window.innerHeight);
  const table = document.getElementById("table");
  if (table && table.clientHeight) clipped = Math.max(clipped, table.scrollHeight - table.clientHeight);
  const key = `${width}/${deal}`;
  if (tallest.key !== key) tallest = { key, height: 0 };
  tallest.height = Math.max(tallest.height, wanted, clipped > 1 ? window.innerHeight + clipped : 0);
  return tallest.height;
}

/**
 * The game's side: `app` is the page's controller (js/app.js), `deal(seed)` deals a new game
 * with the embed's options. Reports each deal's start and end, and the content's height.
 */
export function connectGame(app, deal) {
  if (!HOST) return;
  const root = document.documentElement;
  let started = null;
  let ended = null;
  const resend = watchHeight(() => gameHeight(started));
  // The game on the table (the worker's id for it, or the page's), and its deal.
  const dealKey = (st) => `${(app.meta && app.meta.id) || app.game || "?"}/${st.match ? st.match.deal : 0}`;
  const variantOf = (st) => (app.meta && app.meta.variant) || st.view.rules.name;
  const check = () => {
    resend();
    const st = app.state;
    if (!st || !st.view) return;
    const key = dealKey(st);
    if (started !== key && st.view.phase !== "over") {
      started = key;
      tell("deal-start", { variant: variantOf(st) });
    }
    const out = st.summary && st.summary.outcome;
    if (out && ended !== key && (root.dataset.ui === "summary" || root.dataset.ui === "over")) {
      ended = key;
      const humans = st.seats.map((s, i) => (s.kind === "human" ? i : -1)).filter((i) => i >= 0);
      const me = humans.length ? humans[0] : 0;
      const side = out.sides.findIndex((sd) => sd.includes(me));
      const others = out.side_points.filter((_, i) => i !== side);
      tell("deal-end", {
        variant: variantOf(st),
        result: out.draw ? "draw" : out.winners.includes(side) ? "won" : "lost",
        points: out.side_points[side] ?? 0,
        opponents: others.length ? Math.max(...others) : 0,
      });
    }
  };
  new MutationObserver(check).observe(root, { attributes: true, attributeFilter: ["data-ui"] });
  check();
  // At most one deal in flight: a request that comes while one is being dealt replaces any
  // that waits, and the last one is dealt once the table shows the deal before it. A host page
  // that posts 10,000 in a loop gets two deals (the first and the last asked for), answered
  // by their two deal-start messages; the game stays playable and keeps one of them.
  let dealing = false;
  let waiting = null; // {seed} of the latest request that came while dealing
  const dealNow = async (seed) => {
    dealing = true;
    try {
      await deal(seed);
    } catch (err) {
      console.warn("the host's new deal failed:", err);
    }
    dealing = false;
    if (waiting) {
      const next = waiting;
      waiting = null;
      dealNow(next.seed);
    }
  };
  onRequest("new-deal", (msg) => {
    let seed = null;
    if (Number.isSafeInteger(msg.seed) && msg.seed >= 0) seed = msg.seed;
    else if (typeof msg.seed === "string" && msg.seed.trim() && msg.seed.length <= 64) {
      seed = /^\d{1,15}$/.test(msg.seed.trim()) ? Number(msg.seed.trim()) : msg.seed.trim();
    }
    for (const d of document.querySelectorAll("dialog[open]")) /** @type {HTMLDialogElement} */ (d).close();
    if (dealing) waiting = { seed };
    else dealNow(seed);
  });
}
