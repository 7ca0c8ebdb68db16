"""A table that deals fairly (docs/friends.md, "The page at a fair table") with four and five
people, one phone-sized browser context each, and a forged shuffle at three.

Four people (the "four" variant, two teams) and five (Chiamata) each click a whole deal through.
At several points mid-deal, for every page (the host's and each friend's), none of these holds
a card of another device's unplayed hand (the cards opened to all aside, and a partner's hand
once the rules show it):
  - what the page's storage holds (every IndexedDB database of its profile, its local and session storage), and every
    saved deal found in it, loaded into the Python engine here (`MaskedDeal.from_dict`);
  - the save its worker keeps of the fair deal (`fair_save`), loaded into the Python engine here
    (it must know that page's own hand: the save is the real one);
  - everything the page received on its data channels (Trystero's frames, and each message it
    opened of those sealed for its pair: test_friends.py's spy) and everything its worker was
    sent and sent back (a spy on the page's Worker);
  - what the page draws (its table's state, its DOM).
In Chiamata no page but the partner's says who the partner is before the called card is played,
and every page says it afterwards. At the end every page says, in words, that the deal was
checked fair on its device, with the same points.

A forged shuffle: three people; the last device to shuffle (the second friend's page, its own
copy of js/fair/vendor.js patched before the deal) duplicates the card turned up into a position
of the host's hand, its messages well-formed. The deal stops, and the host's page and the other
friend's name that friend, in words, as the device that cheated (the check after the deal).
"""
from __future__ import annotations

import json
import re

import pytest

from briscola.cards import CODES
from pagekit import shot
from briscola.masked import MaskedDeal, MaskedError
from test_friends import Person, closing_all, dealt, host_table, join, play_one, relay, short_auction  # noqa: F401 (relay: the fixture)

pytestmark = pytest.mark.browser

CARD = re.compile(r'"([A2-9TJHK][DCSB])"')
PHONE = (390, 844)

# What the page's worker is sent (a request's arguments are JSON text: read as such) and sends
# back, as text: window.__worker = [{dir, text}].
WORKER_SPY = """(() => {
  const log = window.__worker = [];
  const asked = new Map(); // request id -> its type
  const text = (d) => { try { return typeof d === "string" ? d : JSON.stringify(d); } catch { return ""; } };
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (msg, ...rest) {
    if (msg && msg.id !== undefined) asked.set(msg.id, msg.type);
    log.push({ dir: "to worker", type: msg && msg.type, text: msg && typeof msg.args === "string" ? msg.args : text(msg) });
    return post.call(this, msg, ...rest);
  };
  const add = Worker.prototype.addEventListener;
  Worker.prototype.addEventListener = function (type, fn, opts) {
    if (type === "message") {
      add.call(this, type, (e) => log.push({ dir: "from worker", type: e.data && (asked.get(e.data.id) ?? e.data.type), text: text(e.data) }), opts);
    }
    return add.call(this, type, fn, opts);
  };
})();"""

# Everything a page holds or received, at one moment: where each card code was first seen in it
# (its storage, its data channels, its worker's traffic, its table and DOM), its worker's save of
# the fair deal, its device's unplayed hand, the cards opened to all, and its view's chiamata.
HELD_JS = """async () => {
  // every card named in a value (JSON text read as JSON), but in the lists of every card of the
  // deck that the engine's replies carry (`deck`: the deck before any shuffle; `card_points`)
  const seen = {}, counts = {};
  const skip = new Set(["deck", "card_points"]);
  const walk = (where, v, path) => {
    if (typeof v === "string") {
      if (/^[A2-9TJHK][DCSB]$/.test(v)) {
        const kind = where.split(" ").slice(0, 3).join(" ");
        counts[kind] = (counts[kind] || 0) + 1;
        if (!(v in seen)) seen[v] = `${where} ${path}`;
      }
      else if (v[0] === "{" || v[0] === "[") { try { walk(where, JSON.parse(v), path); } catch { /* not JSON */ } }
    } else if (Array.isArray(v)) v.forEach((x, i) => walk(where, x, `${path}[${i}]`));
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) if (!skip.has(k)) walk(where, x, `${path}.${k}`);
  };
  const scan = (where, text) => walk(where, text, "");
  const stores = {};
  for (const { name } of await indexedDB.databases()) {
    const db = await new Promise((ok, no) => { const r = indexedDB.open(name); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
    for (const s of db.objectStoreNames) {
      stores[`${name}/${s}`] = await new Promise((ok, no) => { const r = db.transaction(s).objectStore(s).getAll(); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
    }
    db.close();
  }
  stores.localStorage = { ...localStorage };
  stores.sessionStorage = { ...sessionStorage };
  const storage = JSON.stringify(stores);
  scan("storage", storage);
  for (const m of window.__spy || []) scan(m.type, m.text);
  // (but the catalog: the rules' options, every card some option may name)
  for (const m of window.__worker || []) if (m.type !== "catalog") scan(`${m.dir} ${m.type}`, m.text);
  const fair = window.__briscola.app.friends.fair;
  const st = window.__briscola.state;
  walk("table", st, "");
  for (const el of document.querySelectorAll("*")) {
    for (const a of el.attributes) walk("dom", a.value, `${el.tagName}@${a.name}`);
    for (const n of el.childNodes) if (n.nodeType === 3) walk("dom", n.data.trim(), el.tagName);
  }
  const f = fair.fs.fair;
  const open = [];
  f.public.forEach((on, p) => { if (on && f.card[p] !== undefined) open.push(f.deck[f.card[p]]); });
  const { deal } = await fair.local.call("fair_save", {});
  return { seen, counts, storage, save: deal, hand: f.hand().map(([, c]) => c), open, seat: fair.seat,
           talon: st.view.talon_size, chiamata: st.view.chiamata ?? null,
           played: st.view.events.some((e) => e.type === "play" && e.seat !== fair.seat) };
}"""


def saves_in(value):
    """Every saved deal or game (a dict whose `format` is the engine's) in what storage holds,
    JSON text read as JSON wherever it is."""
    if isinstance(value, str):
        text = value.strip()
        if text[:1] in "{[":
            try:
                value = json.loads(text)
            except ValueError:
                return
            yield from saves_in(value)
        return
    if isinstance(value, dict):
        if isinstance(value.get("format"), str) and value["format"].startswith("briscola/"):
            yield value
            return
        for v in value.values():
            yield from saves_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from saves_in(v)


def engine_knows(save) -> set[str]:
    """The cards a saved fair deal gives the Python engine that loads it: its known positions and
    every card the views of its seats show."""
    deal = MaskedDeal.from_dict(save)
    cards = {CODES[c] for c in deal.known.values()}
    for seat in deal.sees:
        try:
            cards |= set(CARD.findall(json.dumps(deal.view(seat).to_dict())))
        except MaskedError:  # (a view waits for a card not in yet: its known positions say it all)
            pass
    return cards


def check_nothing_hidden(people, partners=None, step=0):
    """At this moment no page holds, nor received, nor shows a card of another device's unplayed
    hand (those opened to all aside, the called card's name in Chiamata, and a partner's hand
    where `partners(seat, other_seat, talon_size)` says the rules show it to that seat). Returns
    what each page held."""
    held = [p.page.evaluate(HELD_JS) for p in people]
    public = set().union(*(h["open"] for h in held))
    for h in held:
        if h["chiamata"] and h["chiamata"].get("called_card"):
            public.add(h["chiamata"]["called_card"])
    for me, mine in enumerate(held):
        # the page's worker keeps a real save: it knows this page's own unplayed hand
        known = engine_knows(mine["save"])
        assert set(mine["hand"]) <= known, (step, me, set(mine["hand"]) - known)
        # and the spies see cards: the page opened messages that name some (once another device
        # has played), its worker was sent some (opened to it) and sent some back, its table and DOM
        # show some
        for kind in ("m",) * mine["played"] + ("to worker fair_open", "from worker fair_state", "table", "dom"):
            assert mine["counts"].get(kind), (step, me, kind, mine["counts"])
        stored = [engine_knows(s) if s["format"] == "briscola/masked" else None for s in saves_in(mine["storage"])]
        assert None not in stored, f"page {me} keeps a whole deal in its storage at a fair table: {mine['storage'][:300]}"
        for other, theirs in enumerate(held):
            if other == me or (partners and partners(mine["seat"], theirs["seat"], mine["talon"])):
                continue
            hidden = set(theirs["hand"]) - public
            assert not hidden & known, f"step {step}: page {me}'s worker's save holds {hidden & known} of page {other}'s hand"
            for cards in stored:
                assert not hidden & cards, f"step {step}: page {me}'s storage, loaded in the engine, holds {hidden & cards} of page {other}'s hand"
            leaked = {c: mine["seen"][c] for c in hidden if c in mine["seen"]}
            assert not leaked, f"step {step}: page {me} has cards of page {other}'s unplayed hand: {leaked}"
    return held


def people_at(rtc_browser, n, size=PHONE):
    return [Person(rtc_browser, *size, spy=True) for _ in range(n)]


def spying(person):
    person.add_init_script(WORKER_SPY)
    return person


def seat_everyone(people, base_url, relay, variant, seed):
    host, *friends = people
    href = host_table(host, base_url, relay, variant, seed, extra="&fair=1")
    for seat, (friend, name) in enumerate(zip(friends, ["Bruno", "Carla", "Dario", "Elena"]), start=1):
        join(friend, href, seat, name=name)  # (the last one's take starts the deal)
    dealt(*people)


def ends_fair(people):
    """Every page says the deal was checked fair on its device, with the same points."""
    for p in people:
        p.page.wait_for_function("() => document.getElementById('notice')?.textContent.includes('the deal was fair')", timeout=60000)
        p.page.wait_for_selector("#summary-dialog[open]")
    summaries = [p.page.evaluate("window.__briscola.state.summary") for p in people]
    assert all(s["points"] == summaries[0]["points"] for s in summaries) and sum(summaries[0]["points"]) == 120
    assert all(p.page.evaluate("window.__briscola.app.friends.fair.result.fair") is True for p in people)
    return summaries


def test_four_people_deal_fairly_and_no_device_sees_another_s_cards(rtc_browser, base_url, relay):
    people = [spying(p) for p in people_at(rtc_browser, 4)]
    with closing_all(*people):
        seat_everyone(people, base_url, relay, "four", 5)
        # partners sit opposite; each sees the other's hand once the talon is used up
        partners = lambda a, b, talon: (a - b) % 2 == 0 and not talon
        steps, checked = 0, []
        while play_one(people, timeout=120):
            steps += 1
            if steps in (2, 15, 31):  # (two with the talon still there, one after: hands shown)
                held = check_nothing_hidden(people, partners, steps)
                checked.append([h["talon"] for h in held])
        assert steps == 40 and len(checked) == 3
        assert checked[0][0] and checked[1][0] and not checked[2][0], checked  # the talon, as said
        ends_fair(people)


def test_five_people_deal_chiamata_fairly_and_the_partner_stays_secret(rtc_browser, base_url, relay):
    # (a window as test_friends.py's five people have: a phone's two rows of eight cards overlap,
    # and a click at a card's middle lands on its neighbour)
    people = [spying(p) for p in people_at(rtc_browser, 5, (1280, 800))]
    with closing_all(*people):
        seat_everyone(people, base_url, relay, "chiamata", 3)
        steps, checks, before, call = 0, 0, 0, None
        while play_one(people, timeout=120, decide=short_auction):
            steps += 1
            if call is None and people[0].page.evaluate("window.__briscola.state.view.chiamata.called_card"):
                call = steps  # (the call made: a check now, the called card surely in its hand)
            if steps in (2, call, 30):
                held = check_nothing_hidden(people, step=steps)
                checks += 1
                called = held[0]["chiamata"]["called_card"]
                holder = next((h["seat"] for h in held if called and called in h["hand"]), None)
                if holder is not None:  # the called card not played yet: only its holder knows
                    before += 1
                    for h in held:
                        assert h["chiamata"]["partner_revealed"] is False
                        assert h["chiamata"]["partner"] == (holder if h["seat"] == holder else None), (steps, h["seat"], h["chiamata"])
        assert checks == 3 and before >= 1 and steps >= 40
        ends_fair(people)
        finals = [p.page.evaluate("window.__briscola.state.view.chiamata") for p in people]
        partner = finals[0]["partner"]
        assert finals[0]["partner_revealed"] and all(c["partner"] == partner for c in finals)
        assert len({json.dumps(p.page.evaluate("window.__briscola.state.summary.side_points")) for p in people}) == 1


# The page's own copy of the fair protocol (the module the page imported, the same instance)
# patched before the deal: this device's shuffle, when it makes it, puts a second masking of the
# card turned up at the first position of seat 0's hand (both in the message it sends and in what
# it goes on from), as a cheat that wants that card twice would; its messages stay well-formed.
FORGE = """(() => {
  const url = new URL("js/fair/vendor.js", document.baseURI).href;
  window.__forged = null;
  const b64 = (bytes) => btoa(String.fromCharCode(...bytes)).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  const unb64 = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  // the card turned up is the set-up's position; the hands are dealt one card at a time from
  // the seat after the dealer (py/briscola/masked.py, "Positions"): seat 0's first card
  const where = () => {
    const fs = window.__briscola.app.friends.fair.fs, n = fs.owner.length;
    return { to: (n - ((fs.dealer + 1) % n)) % n, from: fs.reply.places.setup[0] };
  };
  addEventListener("DOMContentLoaded", () => import(url).then(({ FairTable }) => {
    const send = FairTable.prototype._send, shuffled = FairTable.prototype._shuffled;
    FairTable.prototype._send = function (k, body, to) {
      if (k === "shuffle") {
        const { to: at, from } = where();
        const bytes = unb64(body.deck);
        bytes.copyWithin(at * 64, from * 64, from * 64 + 64);
        body = { ...body, deck: b64(bytes) };
        window.__forged = { at, from };
      }
      return send.call(this, k, body, to);
    };
    FairTable.prototype._shuffled = function (j, deck, commit) {
      if (j === this.me && window.__forged) {
        deck = deck.slice();
        deck[window.__forged.at] = deck[window.__forged.from];
      }
      return shuffled.call(this, j, deck, commit);
    };
    window.__forgeReady = true;
  }));
})();"""

NAMES_JS = "(who) => (document.getElementById('notice')?.textContent || '').includes(`not fair (${who})`)"


def test_a_forged_shuffle_stops_the_deal_and_every_other_page_names_its_device(rtc_browser, base_url, relay, artifacts):
    people = [Person(rtc_browser, *PHONE) for _ in range(3)]
    with closing_all(*people):
        host, bruno, carla = people
        carla.add_init_script(FORGE)  # the last device to shuffle (device 2)
        href = host_table(host, base_url, relay, "three", 9, extra="&fair=1")
        join(bruno, href, 1, name="Bruno")
        join(carla, href, 2, name="Carla")
        carla.page.wait_for_function("() => window.__forged !== null")
        for p in (host, bruno):
            p.page.wait_for_function(NAMES_JS, arg="Carla", timeout=60000)
            result = p.page.evaluate("window.__briscola.app.friends.fair.result")
            assert result["fair"] is False and result["device"] == 2 and result["code"] == "shuffle", result
            assert p.page.evaluate("window.__briscola.app.friends.fair.fs.stopped") is not None  # the deal stopped
        # the table goes on: the host's page says the deal does not count and offers the next,
        # which every page joins
        host.page.wait_for_selector("#friends-bar :text('does not count: Carla broke the fair deal')", timeout=30000)
        shot(host.page, str(artifacts / "friends-fair-forged-host-phone.png"))
        host.page.click("#fair-again")
        for p in people:
            p.page.wait_for_function("() => window.__briscola.app.friends.fair?.round === 1", timeout=60000)


# The host's page changes what it carries: the first shares of the first friend's device (1) it
# passes on to the second friend's page, two of them swapped (each still a well-formed share).
CHANGE_CARRIED = """() => {
  const host = window.__briscola.app.friends, post = host.fairPost.bind(host);
  window.__changed = null;
  host.fairPost = (from, to, msg) => {
    if (from === 1 && msg.k === "tokens" && msg.items.length > 1 && window.__changed === null) {
      const items = msg.items.map((it) => [...it]);
      [items[0][2], items[1][2]] = [items[1][2], items[0][2]];
      msg = { ...msg, items };
      window.__changed = msg.seq;
    }
    return post(from, to, msg);
  };
}"""


def test_a_message_the_host_s_page_changes_on_the_way_names_the_host_not_the_sender(rtc_browser, base_url, relay):
    """Every fair-deal message is signed by its device (js/fair/sign.js); a host's page that
    changes a friend's shares on their way to another friend is named by that friend's page,
    and by every page, as the device that broke the deal; the friend who sent them is named
    nowhere. (Unsigned, the second friend's page would have named the first.)"""
    people = [Person(rtc_browser, *PHONE) for _ in range(3)]
    with closing_all(*people):
        host, bruno, carla = people
        href = host_table(host, base_url, relay, "three", 9, extra="&fair=1")
        host.page.evaluate(CHANGE_CARRIED)
        join(bruno, href, 1, name="Bruno")
        join(carla, href, 2, name="Carla")
        host.page.wait_for_function("() => window.__changed !== null", timeout=60000)
        for p in (carla, bruno, host):
            who = p.page.evaluate("window.__briscola.app.friends.fair.who({ device: 0 })")
            p.page.wait_for_function(NAMES_JS, arg=who, timeout=60000)
            result = p.page.evaluate("window.__briscola.app.friends.fair.result")
            assert result["fair"] is False and result["device"] == 0 and result["code"] == "changed", result
        said = carla.page.evaluate("window.__briscola.app.friends.fair.fs.stopped")
        assert said["device"] == 0 and "device 0 carried it" in said["reason"], said
        assert "Bruno" not in carla.page.evaluate("document.getElementById('notice').textContent")
