"""Briscola Chiamata at the table, in Chromium: whole deals played through the auction by
clicking, as a person would.

1. the person wins the auction by rank and calls a card of another player;
2. the person calls a card of their own (one against four);
3. the person goes "a carichi";
4. an auction by points, the called card picked from the grid of all forty;
5. the computers win the auction and the partner is revealed during play (then a second
   deal: the running game points of the match);
6. the person holds the called card (the secret partner) and learns it alone;
7. two people on one device bid from their own hands through the hand-off screen;
8. the forced call is offered when it is legal;
9. the rules page explains the auction, the call, the target and the scoring table.

The deals come from seeds chosen here, in CPython: the page's computer players are seeded
from the match seed, so the same policy for the person gives the same auction in both.
After each deal the page's stored save is loaded into the CPython engine and its game points
compared with the ones the page shows. Screenshots of the auction, the call, play with the
called-card badge, the reveal and the end of the deal, at phone and desktop sizes, go to
tests/artifacts/ (chiamata-*.png), each with a check for overlapping elements.
"""
from __future__ import annotations

import json
import re

import pytest
from briscola import bridge
from pagekit import (pick_lang, read, shot, PLAYING, QUIET, Layout, act_and_wait, assert_in_window, hand_over, new_game, stored_save,
                     table_state, ui, wait_ui)

pytestmark = pytest.mark.browser

ORDER = "A3KHJ76542"
NAMES = ["You", "Carla", "Totò", "Pina", "Beppe"]  # the page's names in English (one person)
SIZES = {"desktop": (1280, 800), "phone": (360, 640), "landscape": (640, 360)}
CARD = re.compile(r"^[A2-9TJHK][DCSB]$")


# ---- the engine in this process --------------------------------------------------------------

def call(kind: str, args: dict) -> dict:
    reply = json.loads(bridge.call(kind, json.dumps(args)))
    assert "result" in reply, reply
    return reply["result"]


def seat_list(level: str, humans=(0,)) -> list[dict]:
    return [{"kind": "human"} if s in humans else {"kind": "bot", "level": level} for s in range(5)]


# ---- the person's decisions (the same in CPython and in the page) -----------------------------

def first_card(view):
    return next(c for c in view["hand"] if c in view["legal"])


def bid_low(cap):
    """Outbid by the least: the next rank down, then '2 and N' or N points up to `cap`."""
    def bid(view):
        legal = view["legal"]
        for r in ORDER:
            if f"bid-{r}" in legal:
                return f"bid-{r}"
        nums = sorted(int(a[4:]) for a in legal if re.fullmatch(r"bid-\d\d+", a))
        if nums and nums[0] <= cap:
            return f"bid-{nums[0]}"
        return "pass"
    return bid


def always_pass(view):
    return "pass" if "pass" in view["legal"] else view["legal"][0]


def carichi_at_once(view):
    return "carichi" if "carichi" in view["legal"] else "pass"


def suits_by_length(hand):
    return sorted("DCSB", key=lambda s: -sum(1 for c in hand if c[1] == s))


def called_rank(view):
    bid = view["chiamata"]["high"]["bid"]
    return bid[4] if re.fullmatch(r"bid-\w", bid) else ORDER[-1]


def call_other(view):
    """Rank auction: the longest suit whose called card someone else holds."""
    rank = called_rank(view)
    for s in suits_by_length(view["hand"]):
        if rank + s not in view["hand"]:
            return f"call-{s}"
    return None


def call_self(view):
    """Rank auction: a suit whose called card is in the person's own hand."""
    rank = called_rank(view)
    for s in suits_by_length(view["hand"]):
        if rank + s in view["hand"]:
            return f"call-{s}"
    return None


def call_any_card(view):
    """Points auction: the strongest card the person lacks in their longest suit."""
    for s in suits_by_length(view["hand"]):
        for r in ORDER:
            if r + s not in view["hand"]:
                return f"call-{r}{s}"
    return None


def policy(auction, call_fn=None):
    def decide(view):
        if view["phase"] == "auction":
            return auction(view)
        if view["phase"] == "call":
            return call_fn(view)
        return first_card(view)
    return decide


def simulate(variant, seed, level, decide, humans=(0,)):
    """The auction and the call in CPython with the page's seating: the reply once play starts."""
    bridge.reset()
    r = call("new_match", {"rules": variant, "seed": seed, "seats": seat_list(level, humans)})
    while r["view"]["phase"] in ("auction", "call"):
        turn = r["view"]["turn"]
        if turn in humans:
            view = call("state", {"seat": turn})["view"]
            action = decide(view)
            if action is None:
                return None
            r = call("act", {"seat": turn, "action": action})
        else:
            r = call("bot_step", {"seat": 0})
    return r


def find_seed(variant, level, decide, wanted, humans=(0,), tries=120):
    for seed in range(1, tries):
        r = simulate(variant, seed, level, decide, humans)
        if r is not None and wanted(r):
            return seed
    pytest.fail(f"no seed of {variant} gives the deal this test needs")


def true_partner() -> int:
    """The holder of the called card in the last simulated deal (the test may know)."""
    game = bridge._BRIDGE.table.match.game
    return game.auction.partner(game)


# ---- the page ----------------------------------------------------------------------------------

def view_of(page) -> dict:
    return read(page, "() => window.__briscola.state.view")


def boot(page, base_url, level):
    prefs = {"speed": "instant", "lang": "en", "reasons": False, "tips": {"all": True}, **QUIET,
             "newgame": {"variant": "chiamata", "seats": [{"kind": "human", "name": ""}]
                         + [{"kind": "bot", "level": level}] * 4, "seed": "1"}}
    page.goto(base_url + "build-manifest.json")
    page.evaluate("p => { localStorage.clear(); localStorage.setItem('briscola.prefs', JSON.stringify(p)); }", prefs)
    page.goto(base_url)
    wait_ui(page, ("newgame", "waiting", "summary", "handoff"))


def start(page, variant, seed, humans=(0,), level="beginner"):
    return new_game(page, variant, seed, lambda n: "human" if n in humans else f"bot:{level}")


def click_action(page, view, action):
    """Do `action` with the page's own controls."""
    if CARD.match(action):
        page.click(f".hand-card.playable[data-code='{action}']")
    elif action in ("pass", "carichi") or re.fullmatch(r"bid-\w", action):
        page.click(f".board button[data-action='{action}']")
    elif re.fullmatch(r"bid-\d\d+", action):
        want = int(action[4:])
        lowest = int(page.get_attribute(".pts-input", "min"))
        assert page.input_value(".pts-input") == str(lowest)  # the stepper starts at the least bid
        for _ in range(want - lowest):
            page.click(".pts-stepper button[aria-label='More']")
        assert page.get_attribute(".pts-go", "data-action") == action
        page.click(".pts-go")
    elif re.fullmatch(r"call-[DCSB]", action) or view["chiamata"]["auction"] == "rank":
        page.click(f".board .call-card[data-action='{action}']")
    else:
        code = action[5:]
        page.click(f".card-grid .grid-card[data-code='{code}']")
        assert page.get_attribute(".call-go", "aria-label") == f"Call {card_name(code)}"
        assert card_name(code) in page.text_content(".call-pick")
        page.click(".call-go")


RANK_EN = {"A": "Ace", "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven",
           "J": "Jack (8)", "H": "Horse (9)", "K": "King (10)"}
SUIT_EN = {"D": "Coins", "C": "Cups", "S": "Swords", "B": "Clubs"}


def card_name(code):
    return f"{RANK_EN[code[0]]} of {SUIT_EN[code[1]]}"


def play(page, decide, stop=None, watch=None, max_steps=300):
    """Play on, clicking the person's decisions, until the summary (or `stop`)."""
    for _ in range(max_steps):
        state = table_state(page)
        if watch:
            watch(page, state)
        if stop and stop(page, state):
            return state
        if state == "summary":
            return state
        if state == "handoff":
            hand_over(page)
            continue
        view = view_of(page)
        action = decide(view)
        act_and_wait(page, lambda v=view, a=action: click_action(page, v, a))
    pytest.fail("too many steps")


def phase_is(*phases):
    return lambda pg, s: s == "waiting" and pg.evaluate("window.__briscola.state.view.phase") in phases


def expected(page) -> dict:
    save = stored_save(page)
    bridge.reset()
    return call("load", {"save": save})


def check_deal_end(page) -> dict:
    """The end-of-deal panel shows the engine's game points, target, sides and cappotto."""
    page.wait_for_selector("#summary-dialog[open] table.gp-table")
    result = expected(page)
    out = result["summary"]["outcome"]
    gp = page.eval_on_selector_all("#summary-dialog td.gp", "els => els.map(e => Number(e.dataset.gp))")
    assert gp == out["game_points"]
    totals = page.eval_on_selector_all("#summary-dialog td.gp-total", "els => els.map(e => Number(e.dataset.total))")
    assert totals == result["match"]["score"]
    page_state = read(page, "() => window.__briscola.state")
    assert page_state["match"]["score"] == result["match"]["score"]
    facts = page.text_content("#summary-dialog .ch-facts")
    assert f"Target{out['target']}" in facts.replace(" ", "")
    made = page.get_attribute("#summary-dialog [data-made]", "data-made")
    assert made == ("true" if out["winners"] == [0] else "false")
    assert ("Cappottoyes" if out["cappotto"] else "Cappottono") in facts.replace(" ", "")
    shown = page.eval_on_selector_all("#summary-dialog .sum-side .pts",
                                      "els => els.map(e => [Number(e.dataset.side), e.textContent])")
    for side, text in shown:
        assert int(re.search(r"\d+", text).group()) == out["side_points"][side]
    # the figures follow the scoring table (docs/rules.md §12.8): the multiplier of a point
    # raise (by rank; by points only when switched on), then the caller's side's cappotto bonus
    rules = page_state["view"]["rules"]
    by_points = rules.get("auction") == "points"
    raised = out["target"] > 70 and (rules.get("points_multipliers", False) if by_points
                                     else rules.get("multipliers", True))
    mult = (3 if out["target"] > 80 else 2) if raised else 1
    assert out["multiplier"] == mult and f"Multiplier×{mult}" in facts.replace(" ", "")
    caller = page_state["view"]["chiamata"]["caller"]
    unit = 4 if len(out["sides"][0]) == 1 else 2
    assert out["cappotto"] == (out["side_points"][0] == 120)
    assert abs(out["game_points"][caller]) == unit * mult + (unit if out["cappotto"] else 0)
    return result


LAYOUT = Layout(
    [["topbar", ".topbar"], ["scorebar", ".scorebar"], ["seat", ".seat"], ["called", ".called-badge"],
     ["board", ".board"], ["trick", ".trick-card"], ["hand", ".hand-card"], ["mybar", ".mybar"],
     ["actions", ".actions:not([hidden]) .btn"], ["hintline", ".hint-line", True]],
    # the parts of a seat box, of the board and of the badge stay inside them
    boxes=".seat, .mybar, .board, .called-badge",
    parts=".name, .badge, .seat-hand, .pile, .bid-tag, .btn, .call-card, .grid-card, .cb-line, .called-card, input",
    no_scroll=[".center.boarded .board"], prefix="chiamata-")
check_layout = LAYOUT.check


def shots(page, artifacts, name, sizes=("phone", "landscape", "desktop")):
    """Screenshots and layout checks at several sizes; back to the desktop size after."""
    for size in sizes:
        page.set_viewport_size(dict(zip(("width", "height"), SIZES[size])))
        check_layout(page, artifacts, f"{size}-{name}")
    page.set_viewport_size(dict(zip(("width", "height"), SIZES["desktop"])))


def summary_shots(page, artifacts, name):
    for size in ("phone", "desktop"):
        page.set_viewport_size(dict(zip(("width", "height"), SIZES[size])))
        page.wait_for_timeout(60)
        shot(page, str(artifacts / f"chiamata-{size}-{name}.png"), full_page=False)
        assert_in_window(page, "#summary-dialog")
        # the game points at the bottom of the panel
        page.evaluate("() => { const d = document.getElementById('summary-dialog'); d.scrollTop = d.scrollHeight; }")
        shot(page, str(artifacts / f"chiamata-{size}-{name}-bottom.png"))
        page.evaluate("() => { document.getElementById('summary-dialog').scrollTop = 0; }")
    page.set_viewport_size(dict(zip(("width", "height"), SIZES["desktop"])))


def seat_classes(page) -> dict:
    return page.evaluate("""() => {
      const out = {};
      document.querySelectorAll('.seat').forEach(e => { out[e.dataset.seat] = e.className; });
      out.me = document.querySelector('.mybar').className;
      return out;
    }""")


def badges_of(page, seat) -> str:
    return page.text_content(f".seat[data-seat='{seat}'] .badges")


# ---- fixtures ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def shared(new_page, base_url, bot_level):
    context, page = new_page(*SIZES["desktop"])
    boot(page, base_url, bot_level)
    yield page
    context.close()


@pytest.fixture
def table(shared):
    shared.console_watch.errors.clear()
    shared.set_viewport_size(dict(zip(("width", "height"), SIZES["desktop"])))
    yield shared
    assert not shared.console_watch.errors, "console errors:\n" + "\n".join(shared.console_watch.errors)


# ---- tests -------------------------------------------------------------------------------------

def test_person_wins_the_auction_and_calls(table, bot_level, artifacts):
    decide = policy(bid_low(70), call_other)
    # a deal where the person wins, and bids again after others have bid
    seed = find_seed("chiamata", bot_level, decide,
                     lambda r: r["view"]["chiamata"]["caller"] == 0
                     and any(i >= 3 and b["seat"] == 0 for i, b in enumerate(r["view"]["chiamata"]["bids"])))
    start(table, "chiamata", seed, level=bot_level)

    # the auction: the highest bid and who made it, who passed, the history, the ranks in words
    play(table, decide, stop=lambda pg, s: phase_is("auction")(pg, s)
         and len(pg.evaluate("window.__briscola.state.view.chiamata.bids")) >= 3)
    view = view_of(table)
    ch = view["chiamata"]
    assert table.locator(".auction-panel").count() == 1
    assert table.locator(".auc-history li:not(.empty)").count() == len(ch["bids"])
    ranks = table.eval_on_selector_all(".rank-bids button", "els => els.map(e => e.textContent)")
    assert ranks == ["Ace", "Three", "King", "Horse", "Jack", "Seven", "Six", "Five", "Four", "Two"]
    # the number the card prints under the word of the ace and the figures, in the button's name
    labels = table.eval_on_selector_all(".rank-bids button", "els => els.map(e => e.getAttribute('aria-label'))")
    assert labels[:5] == ["Ace", "Three", "King (10)", "Horse (9)", "Jack (8)"]
    enabled = table.eval_on_selector_all(".rank-bids button:not(:disabled)", "els => els.map(e => e.dataset.action)")
    assert set(enabled) == {a for a in view["legal"] if re.fullmatch(r"bid-\w", a)}
    assert "A carichi" in table.text_content(".auc-help")
    if ch["high"]:
        assert NAMES[ch["high"]["seat"]] in table.text_content(".auc-high")
    for s, passed in enumerate(ch["passed"]):
        if s:
            assert ("passed" in seat_classes(table)[str(s)]) == passed
    shots(table, artifacts, "auction")
    # the Italian words for the same panel
    pick_lang(table, "it")
    assert table.eval_on_selector_all(".rank-bids button", "els => els.map(e => e.textContent)")[:3] == ["Asso", "Tre", "Re"]
    check_layout(table, artifacts, "desktop-auction-it")
    pick_lang(table, "en")

    # the call: the four candidate cards of the bid rank
    play(table, decide, stop=phase_is("call"))
    view = view_of(table)
    rank = called_rank(view)
    codes = table.eval_on_selector_all(".call-cards:not(.forced) .call-card", "els => els.map(e => e.dataset.code)")
    assert codes == [rank + s for s in "DCSB"]
    assert table.text_content(".call-head").startswith("You won the auction")
    shots(table, artifacts, "call")
    act_and_wait(table, lambda: click_action(table, view, call_other(view)))

    # play: the called card shown to everyone, the caller marked, the partner unknown
    play(table, decide, stop=lambda pg, s: s == "waiting" and pg.evaluate("window.__briscola.state.view.tricks_done") >= 1
         or s == "summary")
    view = view_of(table)
    code = view["chiamata"]["called_card"]
    badge = table.text_content(".called-badge")
    assert f"{card_name(code)}" in badge and f"Trump: {SUIT_EN[code[1]]}" in badge
    assert f"Target: {view['chiamata']['target']}" in badge
    assert table.get_attribute(".called-badge", "title") == \
        f"Called: {card_name(code)} — trump {SUIT_EN[code[1]]} — target {view['chiamata']['target']}"
    assert "caller" in table.text_content(".mybar .badges")
    if not view["chiamata"]["partner_revealed"]:
        assert "Partner: ?" in badge
        for s in range(1, 5):
            assert "?" in badges_of(table, s)
    shots(table, artifacts, "play")

    seen = {}

    def watch(pg, state):
        rev = pg.evaluate("window.__briscola.app.lastReveal || null")
        if rev and "reveal" not in seen:
            seen["reveal"] = rev
            check_layout(pg, artifacts, "desktop-reveal")

    play(table, decide, watch=watch)
    result = check_deal_end(table)
    partner = [s for s in result["summary"]["outcome"]["sides"][0] if s != 0]
    assert len(partner) == 1
    assert seen["reveal"]["text"] == f"{NAMES[partner[0]]} is the partner!"
    assert seen["reveal"]["seat"] == partner[0]
    summary_shots(table, artifacts, "deal-end")
    review_bids(table, artifacts)


def review_bids(page, artifacts):
    """The review of the deal covers the person's bids and call (in game points), not only the
    card play; at desktop and phone sizes."""
    plan = page.evaluate("window.__briscola.engine.call('review_plan', {seat: 0})")
    bids = [d for d in plan["decisions"] if d["phase"] in ("auction", "call")]
    assert bids and any(d["phase"] == "call" for d in bids)
    page.click("#sum-review")
    page.wait_for_selector("#review-dialog[open] #rv-accuracy", timeout=120000)
    where = page.eval_on_selector_all("#review-dialog .rv-trick", "els => els.map(e => e.textContent)")
    assert where[:len(bids)] == ["Bid" if d["phase"] == "auction" else "Call" for d in bids]
    assert all(w.startswith("T") for w in where[len(bids):])
    first = page.evaluate("window.__briscola.engine.call('review_decision', {seat: 0, index: 0})")
    assert first["unit"] == "game_points"
    loss = page.text_content("#review-dialog .rv-item >> nth=0 >> .rv-loss")
    assert loss == "0" if first["loss"] <= 0 else loss.endswith(" gp")
    for size in ("desktop", "phone"):
        page.set_viewport_size(dict(zip(("width", "height"), SIZES[size])))
        page.locator("#review-dialog .rv-list").scroll_into_view_if_needed()
        shot(page, str(artifacts / f"chiamata-{size}-review-bids.png"))
    page.set_viewport_size(dict(zip(("width", "height"), SIZES["desktop"])))
    page.click("#rv-close")


def test_calling_yourself(table, bot_level, artifacts):
    decide = policy(bid_low(70), call_self)
    seed = find_seed("chiamata", bot_level, decide, lambda r: r["view"]["chiamata"]["caller"] == 0)
    start(table, "chiamata", seed, level=bot_level)
    play(table, decide, stop=phase_is("call"))
    view = view_of(table)
    action = call_self(view)
    held = table.eval_on_selector_all(".call-card.held", "els => els.map(e => e.dataset.code)")
    assert called_rank(view) + action[-1] in held
    assert table.locator(".call-card.held .held-tag").first.text_content() == "yours"
    assert "(in your hand)" in table.locator(".call-card.held").first.get_attribute("aria-label")
    assert table.text_content(".call-warn") == "Calling yourself: you play one against four."
    table.set_viewport_size(dict(zip(("width", "height"), SIZES["phone"])))
    check_layout(table, artifacts, "phone-call-self")
    table.set_viewport_size(dict(zip(("width", "height"), SIZES["desktop"])))
    act_and_wait(table, lambda: click_action(table, view, action))
    play(table, decide, stop=lambda pg, s: s == "waiting" and pg.evaluate("window.__briscola.state.view.phase") == "play"
         or s == "summary")
    if view_of(table)["phase"] == "play" and not view_of(table)["chiamata"]["partner_revealed"]:
        assert "you play alone" in table.text_content(".mybar .badges")
    play(table, decide)
    result = check_deal_end(table)
    out = result["summary"]["outcome"]
    assert out["sides"][0] == [0]
    assert "called their own card" in table.text_content("#summary-dialog .ch-facts")
    assert abs(out["game_points"][0]) >= 4


def bid_two_then_pass(view):
    return "bid-2" if "bid-2" in view["legal"] else "pass"


def call_forced(view):
    forced = [a for a in view["legal"] if re.fullmatch(r"call-\w\w", a)]
    return forced[0] if forced else None


def test_forced_call_is_offered(table, bot_level, artifacts):
    decide = policy(bid_two_then_pass, call_forced)
    seed = find_seed("chiamata", bot_level, decide, lambda r: r["view"]["chiamata"]["caller"] == 0)
    start(table, "chiamata", seed, level=bot_level)
    play(table, decide, stop=phase_is("call"))
    view = view_of(table)
    forced = [a for a in view["legal"] if re.fullmatch(r"call-\w\w", a)]
    shown = table.eval_on_selector_all(".call-forced .call-card", "els => els.map(e => e.dataset.action)")
    assert shown == forced and forced
    assert "Forced call" in table.text_content(".call-forced")
    shots(table, artifacts, "call-forced", sizes=("phone", "desktop"))
    act_and_wait(table, lambda: table.click(f".call-forced .call-card[data-action='{forced[0]}']"))
    play(table, decide, stop=lambda pg, s: s == "summary" or s == "waiting"
         and pg.evaluate("window.__briscola.state.view.phase") == "play")
    ch = table.evaluate("window.__briscola.state.view.chiamata")
    assert ch["called_card"] == forced[0][5:] and ch["target"] == 60


def test_a_carichi(table, bot_level, artifacts):
    decide = policy(carichi_at_once)
    seed = find_seed("chiamata", bot_level, decide,
                     lambda r: r["view"]["chiamata"]["carichi"] and r["view"]["chiamata"]["caller"] == 0)
    start(table, "chiamata", seed, level=bot_level)
    play(table, decide, stop=phase_is("auction"))
    assert table.locator(".board button[data-action='carichi']").is_visible()
    act_and_wait(table, lambda: table.click(".board button[data-action='carichi']"))
    play(table, decide, stop=lambda pg, s: s == "waiting" and pg.evaluate("window.__briscola.state.view.phase") == "play"
         or s == "summary")
    if ui(table) == "waiting":
        badge = table.text_content(".called-badge")
        assert "A carichi" in badge and "No trump" in badge and "Follow suit" in badge
        assert table.text_content(".sb-trump") == "No trump"
        classes = seat_classes(table)
        assert "side-a" in classes["me"]
        assert all("side-b" in classes[str(s)] for s in range(1, 5))
        shots(table, artifacts, "carichi", sizes=("phone", "desktop"))
    play(table, decide)
    result = check_deal_end(table)
    out = result["summary"]["outcome"]
    assert out["sides"][0] == [0] and out["target"] == 61
    assert "a carichi" in table.text_content("#summary-dialog .ch-facts")


def test_auction_by_points(table, bot_level, artifacts):
    decide = policy(bid_low(75), call_any_card)
    seed = find_seed("chiamata-points", bot_level, decide,
                     lambda r: r["view"]["chiamata"]["caller"] == 0
                     and any(b["bid"] != "pass" and b["seat"] != 0 for b in r["view"]["chiamata"]["bids"]))
    start(table, "chiamata-points", seed, level=bot_level)
    play(table, decide, stop=phase_is("auction"))
    assert table.locator(".rank-bids").count() == 0
    assert table.text_content(".pts-label") == "Points"
    low = int(table.get_attribute(".pts-input", "min"))
    assert table.text_content(".pts-go") == f"Bid {low} points"
    table.click(".pts-stepper button[aria-label='More']")
    assert table.text_content(".pts-go") == f"Bid {low + 1} points"
    table.click(".pts-stepper button[aria-label='Fewer']")
    shots(table, artifacts, "auction-points")
    play(table, decide, stop=phase_is("call"))
    assert table.locator(".card-grid .grid-card").count() == 40
    assert table.locator(".card-grid .grid-card.held").count() == 8
    view = view_of(table)
    action = call_any_card(view)
    table.click(f".card-grid .grid-card[data-code='{action[5:]}']")
    assert card_name(action[5:]) in table.text_content(".call-pick")
    shots(table, artifacts, "call-points")
    act_and_wait(table, lambda: table.click(".call-go"))
    assert view_of(table)["chiamata"]["called_card"] == action[5:]
    play(table, decide)
    result = check_deal_end(table)
    assert result["summary"]["outcome"]["target"] == int(view["chiamata"]["high"]["bid"][4:])


def test_computers_win_and_the_partner_is_revealed(table, bot_level, artifacts):
    decide = policy(always_pass)

    def wanted(r):
        ch = r["view"]["chiamata"]
        return ch["caller"] != 0 and not ch["carichi"] and true_partner() not in (0, ch["caller"])

    seed = find_seed("chiamata", bot_level, decide, wanted)
    simulate("chiamata", seed, bot_level, decide)
    partner = true_partner()
    start(table, "chiamata", seed, level=bot_level)
    seen = {}

    def watch(pg, state):
        if state != "waiting":
            return
        v = view_of(pg)
        if v["phase"] != "play":
            return
        caller = v["chiamata"]["caller"]
        if not v["chiamata"]["partner_revealed"] and "before" not in seen:
            seen["before"] = True
            # before the reveal: the caller marked, the others unknown, the person an opponent
            assert "caller" in badges_of(pg, caller)
            for s in range(1, 5):
                if s != caller:
                    assert "?" in badges_of(pg, s)
            assert "Partner: ?" in pg.text_content(".called-badge")
            assert pg.locator(".mybar .badge.secret").count() == 0
        rev = pg.evaluate("window.__briscola.app.lastReveal || null")
        if rev and "after" not in seen:
            seen["after"] = rev
            for size in ("phone", "desktop"):
                pg.set_viewport_size(dict(zip(("width", "height"), SIZES[size])))
                # a narrow window redraws the table when its media query says so: let that
                # happen first (two frames), then the reveal once more at this size
                pg.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
                pg.evaluate("r => window.__briscola.app.table.reveal(r.seat, r.text, 5000)", rev)
                pg.wait_for_function("t => document.querySelector('.reveal-banner.show')?.textContent === t",
                                     arg=rev["text"], timeout=4000)
                assert "revealed" in seat_classes(pg)[str(rev["seat"])]
                check_layout(pg, artifacts, f"{size}-reveal")
            classes = seat_classes(pg)
            for s in range(1, 5):
                side = "side-a" if s in (caller, partner) else "side-b"
                assert side in classes[str(s)], (s, classes)
            assert "side-b" in classes["me"]
            assert "partner" in badges_of(pg, partner)
            assert f"Partner: {NAMES[partner]}" in pg.text_content(".called-badge")

    play(table, decide, watch=watch)
    assert seen.get("after"), "the reveal was not seen before the end of the deal"
    assert seen["after"]["text"] == f"{NAMES[partner]} is the partner!"
    assert seen["after"]["seat"] == partner
    result = check_deal_end(table)
    assert sorted(result["summary"]["outcome"]["sides"][0]) == sorted([view_of(table)["chiamata"]["caller"], partner])

    # a second deal: the match panel's running totals and chart
    table.click("#sum-next")
    table.wait_for_function("() => window.__briscola.state.match.deal === 1")
    play(table, decide)
    result = check_deal_end(table)
    rows = table.locator("#summary-dialog table.running tbody tr")
    assert rows.count() == 3  # two deals and the totals
    totals = table.eval_on_selector_all("#summary-dialog table.running tr.totals td",
                                        "els => els.map(e => Number(e.textContent.replace('−', '-').replace('+', '')))")
    assert totals == result["match"]["score"]
    assert table.locator("#summary-dialog svg.gp-chart polyline").count() == 5
    summary_shots(table, artifacts, "match")


def test_the_secret_partner_knows(table, bot_level, artifacts):
    decide = policy(always_pass)

    def wanted(r):
        ch = r["view"]["chiamata"]
        return ch["caller"] != 0 and not ch["carichi"] and true_partner() == 0

    seed = find_seed("chiamata", bot_level, decide, wanted)
    start(table, "chiamata", seed, level=bot_level)
    play(table, decide, stop=phase_is("play"))
    v = view_of(table)
    if not v["chiamata"]["partner_revealed"]:
        assert table.text_content(".mybar .badge.secret") == "you are the partner (secret)"
        assert "side-a" in seat_classes(table)["me"]
        table.set_viewport_size(dict(zip(("width", "height"), SIZES["phone"])))
        check_layout(table, artifacts, "phone-secret-partner")
        table.set_viewport_size(dict(zip(("width", "height"), SIZES["desktop"])))
    play(table, decide)
    assert table.evaluate("window.__briscola.app.lastReveal.text") == "You are the partner!"
    result = check_deal_end(table)
    assert 0 in result["summary"]["outcome"]["sides"][0]


def test_two_people_bid_from_their_own_hands(table, bot_level, artifacts):
    humans = (0, 2)
    decide = policy(bid_low(70), call_other)
    seed = find_seed("chiamata", bot_level, decide,
                     lambda r: sum(1 for b in r["view"]["chiamata"]["bids"] if b["seat"] in humans) >= 3, humans=humans)
    start(table, "chiamata", seed, humans=humans, level=bot_level)
    handoffs = 0
    bids = 0
    for _ in range(60):
        state = wait_ui(table, PLAYING)
        assert state != "error"
        if state == "handoff":
            assert table.locator(".hand .card.face").count() == 0
            assert table.locator(".board button").count() == 0
            handoffs += 1
            table.click("#handoff-go")
            continue
        v = view_of(table)
        if v["phase"] != "auction":
            break
        assert v["turn"] == v["seat"] and v["seat"] in humans
        # the hand shown is this person's own, as the engine deals it
        bridge.reset()
        call("load", {"save": stored_save(table)})
        own = call("state", {"seat": v["seat"]})["view"]["hand"]
        assert table.eval_on_selector_all(".hand .hand-card", "els => els.map(e => e.dataset.code)") == own
        action = decide(v)
        act_and_wait(table, lambda v=v, a=action: click_action(table, v, a))
        bids += 1
    assert handoffs >= 2 and bids >= 3


def test_rules_page_explains_chiamata(table, bot_level, artifacts):
    if ui(table) == "newgame":
        start(table, "chiamata", 1, level=bot_level)
    if ui(table) == "summary":  # the module's page, where another test ended its deal
        table.keyboard.press("Escape")
        table.wait_for_function("() => !document.querySelector('dialog[open]')")
    table.click("#btn-rules")
    table.wait_for_selector("#rules-dialog[open]")
    text = table.text_content("#rules-dialog")
    for words in ("The auction by rank", "The auction by points", "The call", "Calling yourself", "Forced call",
                  "A carichi", "The target", "60 is enough", "Multipliers", "Cappotto", "Scoring"):
        assert words in text, words
    score = table.locator("#rules-dialog table", has_text="Each opponent")
    rows = score.locator("tbody tr").evaluate_all("rs => rs.map(r => [...r.children].map(c => c.textContent))")
    assert rows == [["Target made", "+2", "+1", "−1"], ["Target missed", "−2", "−1", "+1"],
                    ["Alone (self-call or a carichi): wins", "+4", "—", "−1"], ["Alone: loses", "−4", "—", "+1"]]
    table.set_viewport_size(dict(zip(("width", "height"), SIZES["phone"])))
    table.locator("#rules-dialog h4", has_text="Scoring").scroll_into_view_if_needed()
    shot(table, str(artifacts / "chiamata-phone-rules.png"))
    table.keyboard.press("Escape")
    pick_lang(table, "it")
    table.click("#btn-rules")
    text = table.text_content("#rules-dialog")
    for words in ("L'asta per carta", "L'asta per punti", "Chiamarsi da soli", "Chiamata forzata", "A carichi",
                  "Moltiplicatori", "Cappotto", "Il punteggio"):
        assert words in text, words
    table.keyboard.press("Escape")
    pick_lang(table, "en")
