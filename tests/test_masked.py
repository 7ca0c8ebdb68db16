"""The engine's half of the fair deal (py/briscola/masked.py): each device's engine, knowing
only its own seats' cards and those opened to all, referees the deal exactly as the whole game
does, gives each of its seats the very view the whole game gives, keeps no card it was not
shown, and catches at the end what it could not check during the deal."""
import json
import random

import pytest

from briscola.actions import CARICHI, PASS, SIGNAL, SIGNAL_LOADED, SWAP, Action
from briscola.cards import CARDS, CODES, N_CARDS, N_RANKS, RANK_INDEX
from briscola.errors import IllegalActionError, RulesError, SaveError
from briscola.game import Game
from briscola.masked import CheatError, MaskedDeal, MaskedError
from briscola.match import Match
from briscola.rules import VARIANTS, find_variant


def _text(a):
    return str(Action(a))


def _card_of(a):
    return a if a < N_CARDS else a - SWAP if SWAP <= a < SWAP + N_CARDS else None


class Table:
    """A true game and one masked engine a device; the fair protocol stands in as what it
    guarantees: a device is shown a position's card when its engine needs it for one of its
    seats, and every device is shown a card the moment it is played or turned up."""

    def __init__(self, rules, seed, devices):
        self.g = Game.new(rules, seed=seed)
        self.devices = devices
        self.owner = {s: k for k, seats in enumerate(devices) for s in seats}
        self.deals = [MaskedDeal(rules, self.g.dealer, sees=seats) for seats in devices]
        self.opened = set()  # positions opened to everyone
        self.hidden = {}  # device -> [(action index, signal)] it was not told
        self.sync()

    def show(self, k, p):
        self.deals[k].reveal(p, self.g.deck[p])

    def sync(self):
        moved = True
        while moved:
            moved = False
            for k, d in enumerate(self.deals):
                for p in d.setup_needs():  # the set-up's cards are opened to everyone
                    self.opened.add(p)
                    for j in range(len(self.deals)):
                        self.show(j, p)
                    moved = True
                for p in d.needs():
                    self.show(k, p)
                    moved = True

    def step(self, rng, pick=None):
        g = self.g
        cur = g.current_player
        k = self.owner[cur]
        v = self.deals[k].view(cur)
        a = int(pick(v) if pick else rng.choice(v.legal))
        c = _card_of(a)
        if c is not None and g.phase == 3:
            p = g.deck.index(c)
            self.opened.add(p)
            for j in range(len(self.deals)):
                if j != k:
                    self.show(j, p)
        g.apply(a, cur)
        for j, d in enumerate(self.deals):
            d.act(self.told(j, a, cur), cur)
        self.sync()
        return a

    def told(self, k, a, seat):
        """What device ``k`` is told of ``seat``'s action ``a``: which signal it is only where
        the device has a seat of the signaller's side (js/fair/signal.js), else that one was
        made (told which at the end, :meth:`end`)."""
        side = self.g.rules.tables.side_of
        if SIGNAL <= a <= SIGNAL_LOADED and not any(side[s] == side[seat] for s in self.devices[k]):
            self.hidden.setdefault(k, []).append((len(self.deals[k].actions), a))
            return "signal"
        return a

    def end(self):
        """The deal over: each device told the signals it was not told (the commitments opened)."""
        for k, told in self.hidden.items():
            d = self.deals[k]
            assert d.untold() == [i for i, _ in told]
            with pytest.raises(MaskedError, match="signals not told"):
                d.check()
            for i, a in told:
                d.tell(i, _text(a))
            assert d.untold() == []

    def check_views(self):
        g = self.g
        for k, d in enumerate(self.deals):
            for s in self.devices[k]:
                assert d.view(s).to_dict() == g.view(s).to_dict(), (k, s)

    def check_secrets(self):
        """No device knows a card of another's unplayed hand its own seats may not see."""
        g = self.g
        for k, d in enumerate(self.deals):
            may = set()
            for s in self.devices[k]:
                v = g.view(s)
                may.update(int(c) for hand in v.known for c in hand)
                if v.talon_next is not None:  # scoperta: the next card is open
                    may.add(int(v.talon_next))
            for s in range(g.n):
                if s in self.devices[k]:
                    continue
                for c in g.hands[s]:
                    p = g.deck.index(c)
                    if p in d.known:
                        assert c in may, (k, s, CARDS[c])
            saved = d.to_dict()["known"]
            for p in map(int, saved):
                c = g.deck[p]
                mine = any(c in g.initial_hands[s] for s in self.devices[k])
                drawn = any(e.get("card") == CODES[c] and e["seat"] in self.devices[k]
                            for e in g.events() if e["type"] == "draw")
                assert p in self.opened or mine or drawn or c in may, (k, p)


def _devices(n, rng):
    """Seat 0 and a computer or two on the host's device, every other seat its own device."""
    seats = list(range(1, n))
    rng.shuffle(seats)
    bots = seats[:n // 3]
    return [{0, *bots}] + [{s} for s in seats[n // 3:]]


PLAYABLE = list(VARIANTS)  # every variant, signals included


@pytest.mark.parametrize("name", PLAYABLE)
def test_each_device_referees_the_deal_as_the_whole_game_does(name):
    rules = find_variant(name)
    rng = random.Random(name)
    for seed in range(2 if rules.mode == "chiamata" else 1):
        t = Table(rules, f"masked/{name}/{seed}", _devices(rules.players, rng))
        t.check_views()
        steps = 0
        while not t.g.is_over:
            t.step(rng)
            steps += 1
            if steps % 3 == 0:
                t.check_views()
            if steps % 7 == 0:
                t.check_secrets()
                # a reload mid-deal: the device's save gives back the same engine
                k = rng.randrange(len(t.deals))
                again = MaskedDeal.from_dict(t.deals[k].to_dict())
                for s in t.devices[k]:
                    assert again.view(s).to_dict() == t.g.view(s).to_dict()
        t.check_views()
        if rules.signals:  # signals made: some taken on trust by a partner's device that could
            # not tell, the others not told which until the end
            said = [a for a in t.g.actions if SIGNAL <= a <= SIGNAL_LOADED]
            assert said and any(SIGNAL <= d.actions[i] <= SIGNAL_LOADED
                                for d in t.deals for i in d.unchecked), name
            assert t.hidden and all("signal" in d.to_dict()["actions"] for k, d in enumerate(t.deals)
                                    if k in t.hidden)
        t.end()
        for d in t.deals:
            full = d.check()
            assert full.deck == t.g.deck and full.outcome() == t.g.outcome()
            assert d.game.outcome() == t.g.outcome()


def test_the_set_up_positions_are_the_games_own():
    """``_setup_needs`` mirrors Game._setup on positions: the cards it names are the card
    turned up and those re-buried, for many decks of each rule that turns cards up."""
    for name in ("classic", "rebury", "bisca", "bisca-nine", "bosnian", "brisca"):
        rules = find_variant(name)
        for seed in range(60):
            g = Game.new(rules, seed=seed)
            d = MaskedDeal(rules, g.dealer)
            while d.setup_needs():
                for p in d.setup_needs():
                    d.reveal(p, g.deck[p])
            opened = sorted(g.deck[p] for p in d.known)
            assert opened == sorted([g.turned, *g.reburied]), (name, seed)
            assert d.game.faceup == g.faceup and d.game.talon[0] == g.talon[0]


def _to_carichi(v):
    """Bid a carichi where it may be bid, pass otherwise."""
    legal = [int(a) for a in v.legal]
    return CARICHI if CARICHI in legal else PASS if PASS in legal else random.Random(0).choice(legal)


def _carichi_table(seed):
    rules = find_variant("chiamata")
    for s in range(seed, seed + 200):
        t = Table(rules, f"carichi/{s}", [{0}, {1}, {2}, {3}, {4}])
        rng = random.Random(s)
        while t.g.phase != 3:
            t.step(rng, _to_carichi)
        if t.g.auction.carichi:
            return t, rng
    raise AssertionError("no carichi")


def test_a_card_not_followed_a_carichi_waits_for_the_end_and_is_named_there():
    t, rng = _carichi_table(1)
    g = t.g
    # find a moment where the seat to play holds the suit led and another card
    while True:
        cur = g.current_player
        if g.trick:
            suit = g.trick[0] // 13
            off = [c for c in g.hands[cur] if c // 13 != suit]
            if off and any(c // 13 == suit for c in g.hands[cur]):
                break
        t.step(rng)
    k = t.owner[cur]
    revoke = off[0]
    with pytest.raises(IllegalActionError):  # its own device refuses it
        t.deals[k].act(revoke, cur)
    # another device cannot tell: it takes the card, waiting for the end to check it
    p = g.deck.index(revoke)
    other = (k + 1) % 5
    t.show(other, p)
    before = t.deals[other].to_dict()
    t.deals[other].act(revoke, cur)
    # (an honest card may wait too: the device could not tell the seat was void in the suit)
    assert t.deals[other].unchecked[-1] == len(before["actions"])
    assert set(t.deals[other].unchecked) > set(before["unchecked"])
    again = MaskedDeal.from_dict(t.deals[other].to_dict())
    assert again.unchecked == t.deals[other].unchecked
    # play the deal out on that device alone, every card opened to it
    d = t.deals[other]
    full = Game(d.rules, list(g.deck), d.dealer)
    for a in d.actions[:-1]:
        full.apply(a)
    full.apply_fast(revoke)
    while not full.is_over:
        a = int(full.legal_actions_fast()[0])
        c = _card_of(a)
        if c is not None:
            t.show(other, g.deck.index(c))
        d.act(a, full.current_player)
        full.apply_fast(a)
    for p in range(len(g.deck)):
        if p not in d.known:
            t.show(other, p)
    with pytest.raises(CheatError) as e:
        d.check()
    assert e.value.seat == cur and "followed" in str(e.value)


def test_a_card_unopened_or_not_in_the_hand_is_refused_and_changes_nothing():
    rules = find_variant("four")
    t = Table(rules, "refused", [{0}, {1}, {2}, {3}])
    g = t.g
    cur = g.current_player
    k = (t.owner[cur] + 1) % 4
    d = t.deals[k]
    saved = d.to_dict()
    own = g.hands[cur][0]
    with pytest.raises(MaskedError) as e:  # not opened yet
        d.act(own, cur)
    assert g.deck.index(own) in e.value.needs  # one of the seat's positions not opened here
    assert e.value.needs == [p for p in d.places()["hands"][cur] if p not in d.known]
    # a card of another seat's hand, opened, is not the current player's to play
    theirs = g.hands[(cur + 1) % 4][0]
    t.show(k, g.deck.index(theirs))
    with pytest.raises(IllegalActionError):
        d.act(theirs, cur)
    with pytest.raises(IllegalActionError):  # out of turn
        d.act(own, (cur + 1) % 4)
    saved["known"][str(g.deck.index(theirs))] = CODES[theirs]
    assert d.to_dict() == saved


def test_a_card_opened_twice_is_a_false_opening():
    rules = find_variant("classic")
    g = Game.new(rules, seed=5)
    d = MaskedDeal(rules, g.dealer, sees={0})
    d.reveal(0, g.deck[0])
    with pytest.raises(MaskedError, match="twice"):
        d.reveal(1, g.deck[0])
    with pytest.raises(MaskedError, match="opened as"):
        d.reveal(0, g.deck[1])
    with pytest.raises(MaskedError):
        d.reveal(40, g.deck[1])
    assert d.known == {0: g.deck[0]}


def test_a_view_is_made_only_of_known_cards():
    rules = find_variant("classic")
    g = Game.new(rules, seed=9)
    d = MaskedDeal(rules, g.dealer, sees={0})
    with pytest.raises(MaskedError) as e:
        d.view(0)
    assert e.value.needs == [6]  # the card turned up, first
    d.reveal(6, g.deck[6])
    with pytest.raises(MaskedError) as e:
        d.view(0)
    hand = sorted(g.deck.index(c) for c in g.hands[0])
    assert e.value.needs == hand and e.value.to_dict()["needs"] == hand
    with pytest.raises(IllegalActionError):
        d.view(1)  # another device's seat


def _signal_table(seed):
    """A deal of four with signals, each seat its own device, played (random legal actions, no
    signal) until a seat to act could signal but holds no ace of trump."""
    rules = find_variant("four-signals")
    t = Table(rules, f"signal/{seed}", [{0}, {1}, {2}, {3}])
    rng = random.Random(seed)
    g = t.g
    while True:
        cur = g.current_player
        legal = [int(a) for a in g.legal_actions()]
        ace = g.trump * N_RANKS + RANK_INDEX["A"]
        if g.tricks_done > 0 and ace not in g.hands[cur] and any(a >= SIGNAL for a in legal):
            return t, rng, cur, ace
        t.step(rng, lambda v: rng.choice([a for a in v.legal if int(a) < SIGNAL]))


def test_a_false_signal_is_taken_on_trust_and_named_at_the_end():
    """A signal says what a hand holds: its own device refuses a false one; the partner's
    device, told which signal it is, takes it on trust (it cannot see that hand); an opponent's
    device, told only that a signal was made, takes it too and is told which at the end; the
    check after the deal names the seat that signalled what it did not hold."""
    t, rng, cur, ace = _signal_table(3)
    g = t.g
    k = t.owner[cur]
    false = SIGNAL  # signal-A: "I hold the ace of trump"
    with pytest.raises(IllegalActionError, match="false signal"):
        t.deals[k].act(false, cur)
    for j, d in enumerate(t.deals):
        if j == k:
            continue
        partner = (j - k) % 2 == 0
        n = len(d.actions)
        d.act(false if partner else "signal", cur)
        assert d.unchecked[-1] == n and d.untold() == ([] if partner else [n])
        again = MaskedDeal.from_dict(d.to_dict())
        assert again.unchecked == d.unchecked and again.untold() == d.untold()
        # the seat's view: the signal, which one to the partner only
        said = [e for e in d.view(j).to_dict()["events"] if e["type"] == "signal"]
        assert said[-1] == {"type": "signal", "seat": cur, "signal": "A" if partner else None}
    # play it out on one opponent's device, every card opened to it
    other = (k + 1) % 4
    d = t.deals[other]
    at = d.untold()[-1]
    full = Game(d.rules, list(g.deck), d.dealer)
    for a in d.actions[:-1]:
        full.apply(a)
    full.apply_fast(false)
    while not full.is_over:
        a = int(next(x for x in full.legal_actions_fast() if x < SIGNAL))
        for p in {*d.needs(), g.deck.index(a)} - set(d.known):
            t.show(other, p)
        d.act(a, full.current_player)
        full.apply_fast(a)
    for p in range(len(g.deck)):
        if p not in d.known:
            t.show(other, p)
    with pytest.raises(MaskedError, match="not told"):
        d.check()
    with pytest.raises(IllegalActionError):  # what it is told must be a signal, of that action
        d.tell(at, "AD")
    with pytest.raises(IllegalActionError):
        d.tell(at - 1, "signal-A")
    d.tell(at, "signal-A")
    with pytest.raises(CheatError) as e:
        d.check()
    assert e.value.seat == cur and e.value.action == at
    assert "false signal" in str(e.value) and CODES[ace] in str(e.value)


def test_a_true_signal_taken_on_trust_passes_the_check():
    t, rng, cur, ace = _signal_table(4)
    g = t.g
    true = next(int(a) for a in g.legal_actions() if int(a) >= SIGNAL)
    partner, opponent = t.deals[(t.owner[cur] + 2) % 4], t.deals[(t.owner[cur] + 1) % 4]
    n = len(partner.actions)
    t.step(rng, lambda v: true)
    assert n in partner.unchecked and partner.actions[n] == true  # told, taken on trust
    assert opponent.untold() == [n]  # told only that a signal was made
    while not g.is_over:
        t.step(rng)
    t.check_views()
    t.end()
    for d in t.deals:
        assert d.check().outcome() == g.outcome()


def test_a_signal_no_hand_could_make_is_refused_at_once():
    """What does not depend on a hidden hand is checked at once on every device: a signal in
    the first trick, a second one in a trick, a rank that is never signalled; and a device of
    the signaller's side is told which signal it is, never only that one was made."""
    t, rng, cur, ace = _signal_table(5)
    opponent = t.deals[(t.owner[cur] + 1) % 4]
    partner = t.deals[(t.owner[cur] + 2) % 4]
    saved = [opponent.to_dict(), partner.to_dict()]
    with pytest.raises(IllegalActionError):
        partner.act(SIGNAL + RANK_INDEX["2"], cur)  # the 2 of trump is no signal
    with pytest.raises(IllegalActionError, match="told"):
        partner.act("signal", cur)
    assert [opponent.to_dict(), partner.to_dict()] == saved
    t.step(rng, lambda v: next(a for a in v.legal if int(a) >= SIGNAL))
    saved = [opponent.to_dict(), partner.to_dict()]
    with pytest.raises(IllegalActionError):
        partner.act(SIGNAL_LOADED, cur)  # a second signal in the same trick
    with pytest.raises(IllegalActionError):
        opponent.act("signal", cur)
    assert [opponent.to_dict(), partner.to_dict()] == saved
    rules = find_variant("four-signals")
    first = Table(rules, "signal/first", [{0}, {1}, {2}, {3}])
    cur = first.g.current_player
    with pytest.raises(IllegalActionError):  # the first trick: no signal yet
        first.deals[(first.owner[cur] + 2) % 4].act(SIGNAL_LOADED, cur)
    with pytest.raises(IllegalActionError):
        first.deals[(first.owner[cur] + 1) % 4].act("signal", cur)


def test_what_cannot_be_refereed_over_masked_cards_is_refused_at_once():
    with pytest.raises(SaveError):
        MaskedDeal.from_dict({"format": "briscola/masked", "version": 1, "rules": {}})


def _ask(b, kind, args):
    import json
    from briscola import bridge as _b
    spare, _b._BRIDGE = _b._BRIDGE, b
    try:
        got = json.loads(_b.call(kind, json.dumps(args)))
        return got.get("result", got)
    finally:
        _b._BRIDGE = spare


def test_the_bridges_fair_requests_play_a_deal_and_say_no_card_a_device_was_not_shown():
    """Four devices' bridges (the host's runs a computer too) play a whole deal of four in
    teams through the fair requests alone; every reply a device's page gets holds only cards
    that device was shown, a computer's seat answers the page nothing of its hand, and the
    check after the deal finds it fair, with the true points."""
    import re
    from briscola.bridge import Bridge
    rules = find_variant("four-show-never")
    g = Game.new(rules, seed="bridges")
    devices = [[0, 2], [1], [3]]  # seat 2: the host's computer
    bots = [[2], [], []]
    bridges = [Bridge() for _ in devices]
    shown = [set() for _ in devices]  # card codes opened to each device
    codes = set(CODES[c] for c in g.deck)
    pages = [[] for _ in devices]  # every reply a page got

    def ask(k, kind, args):
        got = _ask(bridges[k], kind, args)
        assert "error" not in got or kind in ("fair_view",), got
        if kind != "fair_save":
            pages[k].append(got)
        return got

    def opened(k, positions):
        if positions:
            shown[k].update(CODES[g.deck[p]] for p in positions)
            ask(k, "fair_open", {"cards": [[p, CODES[g.deck[p]]] for p in positions]})

    setup = [ask(k, "fair_deal", {"rules": rules.to_dict(), "dealer": g.dealer, "sees": seats,
                                  "bots": bots[k]})["places"]["setup"]
             for k, seats in enumerate(devices)]
    assert setup == [[12]] * 3  # the card turned up (after 4 hands of 3), opened to all
    for j in range(len(devices)):
        opened(j, setup[j])
    while True:
        for k in range(len(devices)):
            opened(k, ask(k, "fair_open", {"cards": []})["needs"])
        cur = g.current_player
        if cur is None:
            break
        k = next(i for i, seats in enumerate(devices) if cur in seats)
        if cur in bots[k]:
            hidden = _ask(bridges[k], "fair_view", {"seat": cur})
            assert hidden["error"]["code"] == "hidden_seat" and "view" not in json.dumps(hidden)
            a = ask(k, "fair_bot", {"seat": cur, "level": "random"})["action"]
        else:
            a = ask(k, "fair_view", {"seat": cur})["view"]["legal"][0]
        card = Action.parse(a)
        for j in range(len(devices)):
            if j != k:
                opened(j, [g.deck.index(int(card))])
        g.apply(a, cur)
        for j in range(len(devices)):
            assert "error" not in ask(j, "fair_act", {"seat": cur, "action": a})
    for k in range(len(devices)):
        got = ask(k, "fair_check", {})
        assert got["fair"] is True and got["points"] == list(g.outcome().points)
        for reply in pages[k][:-1]:  # before the check, which shows the whole deck
            said = set(re.findall(r'"([A2-9JHKQ][DCSBHP])"', json.dumps(reply))) & codes
            assert said <= shown[k], (k, said - shown[k])


def test_the_fair_requests_are_imported_only_when_a_fair_table_asks():
    """The page's start imports the bridge: the fair deal's modules wait for the first fair
    request (the page's wheel carries them as source, tools/build/wheel.py AS_SOURCE)."""
    import subprocess
    import sys
    from briscola.bridge import FAIR_REQUESTS
    from briscola.fairplay import FairRequests
    assert set(FAIR_REQUESTS) == set(FairRequests().handlers())
    code = ("import sys, json; from briscola import bridge; "
            "assert 'briscola.masked' not in sys.modules and 'briscola.fairplay' not in sys.modules; "
            "r = json.loads(bridge.call('fair_deal', json.dumps({'rules': 'classic', 'dealer': 0, 'sees': [0]}))); "
            "assert 'result' in r and 'briscola.masked' in sys.modules, r")
    subprocess.run([sys.executable, "-c", code], check=True, cwd="py", timeout=60)


@pytest.mark.parametrize("name", ["classic", "four", "chiamata"])
def test_the_fair_state_is_drawn_as_the_tables_state(name):
    """``fair_state`` has the table's ``state`` shape (what the page draws): the same keys, the
    view the whole game gives, the match, and once the deal is over the summary the
    table's would give, checked fair."""
    from briscola.bridge import Bridge
    from briscola.record import deal_summary
    rules = find_variant(name)
    t = Table(rules, f"state/{name}", [{s} for s in range(rules.players)])
    table_state = json.loads(__import__("briscola.bridge", fromlist=["call"]).call(
        "new_match", json.dumps({"rules": name, "seed": 1, "seats": [{"kind": "human"}] +
                                [{"kind": "bot", "level": "random"}] * (rules.players - 1)})))["result"]
    b = Bridge()
    known = {str(p): CODES[c] for p, c in t.deals[0].known.items()}
    save = {**t.deals[0].to_dict(), "known": known}
    got = _ask(b, "fair_deal", {"deal": save, "seats": [{"kind": "human", "name": "Ada"}] +
                                [{"kind": "friend"}] * (rules.players - 1)})
    assert "error" not in got, got
    state = _ask(b, "fair_state", {"seat": 0})
    assert set(state) == set(table_state) - {"changed", "save", "views"} - {"game"}, set(state) ^ set(table_state)
    assert state["view"] == t.g.view(0).to_dict() and state["seats"][0] == {"kind": "human", "name": "Ada"}
    assert set(state["match"]) == set(table_state["match"]) and state["match"]["score"] == table_state["match"]["score"]
    assert state["card_points"] == table_state["card_points"] and state["order"] == table_state["order"]
    rng = random.Random(name)
    while not t.g.is_over:
        t.step(rng)
    b = Bridge()
    _ask(b, "fair_deal", {"deal": t.deals[0].to_dict()})
    over = _ask(b, "fair_state", {"seat": 0})
    assert over["summary"] == {**deal_summary(t.g), "undone": False, "back": []}
    assert over["checked"]["fair"] is True
    # the match with this deal counted (tests/test_fair_match.py: a match of several deals)
    assert over["match"] == Match.of_deals(rules, [t.g]).public()
    if name != "chiamata":  # a single deal: over, won by the deal's winners
        assert over["match"]["over"] is True and over["match"]["winners"] == list(t.g.outcome().winners)
    # the finished deal's public record, which the page's own review loads
    record = over["record"]
    assert len(record["actions"]) == len(t.g.actions) and "seed" not in json.dumps(record)
    assert "error" not in _ask(Bridge(), "review_load", {"record": record})


def test_the_rules_say_what_a_fair_table_checks_after_the_deal():
    """``Rules.hand_checks``, which the engine over masked cards takes on trust and checks at the
    end, is what the bridge's check_rules tells the host's lobby (its words under "Deal
    fairly"): following suit a carichi and the forced call in Chiamata (by rank), signals."""
    from briscola.bridge import Bridge
    want = {"chiamata": ["carichi", "forced_call"], "chiamata-points": ["carichi"],
            "chiamata-plain": [], "four-signals": ["signals"], "six-signals": ["signals"],
            "classic": [], "four": [], "rebury": [], "brisca-six": []}
    for name, checks in want.items():
        assert list(find_variant(name).hand_checks) == checks, name
        assert _ask(Bridge(), "check_rules", {"rules": name})["hand_checks"] == checks, name
    for name, rules in VARIANTS.items():  # every option of the list is one the rules name
        assert set(rules.hand_checks) <= {"carichi", "forced_call", "signals"}, name


def test_the_bridge_is_told_the_signals_at_the_check_and_refuses_what_is_no_signal():
    """``fair_check {told}``: a device told only that signals were made is told which at the
    end; the check waits for them (``fair_state`` gives no record until then), what is not a
    signal, or not one it waits for, is refused and changes nothing."""
    from briscola.bridge import Bridge
    rules = find_variant("four-signals")
    for seed in range(20):
        t = Table(rules, f"told/{seed}", [{0}, {1}, {2}, {3}])
        rng = random.Random(seed)
        while not t.g.is_over:
            t.step(rng)
        if t.hidden:
            break
    k, told = next(iter(t.hidden.items()))
    b = Bridge()
    _ask(b, "fair_deal", {"deal": t.deals[k].to_dict()})
    assert "record" not in _ask(b, "fair_state", {"seat": k})  # the check waits for the signals
    (i, a), *rest = told
    saved = _ask(b, "fair_save", {})
    for bad in ([[i, "AD"]], [[i + 100, str(Action(a))]], [[i, 7]], "x", [[i]]):
        assert "error" in _ask(b, "fair_check", {"told": bad}), bad
        assert _ask(b, "fair_save", {}) == saved
    assert "error" in _ask(b, "fair_check", {})  # not told: no check
    got = _ask(b, "fair_check", {"told": [[j, str(Action(x))] for j, x in told]})
    assert got["fair"] is True and got["points"] == list(t.g.outcome().points)
    assert _ask(b, "fair_state", {"seat": k})["record"]["actions"] == [str(Action(x)) for x in t.g.actions]
