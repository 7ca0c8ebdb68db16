"""The coach's principles: how a good player chooses between cards the evaluation cannot tell
apart, and the plain facts of a trick that every reason names (``docs/coach.md``).

The evaluation (:mod:`briscola.ai.evaluate`) is accurate to about a point before every
card's place is known; cards within that of the best are *tied*, and among them the coach
picks what a teacher would, by the principles below, tried in order until one tells the
cards apart. Each principle is a number per card (lower is better, :func:`standing`) and a
reason code (``coach_tie_<name>``) that says it to the player. What applies depends on the trick:

* **leading** -- keep the loads (il carico non si gioca di mano); keep the trumps; lead what
  is cheapest to lose; keep the stronger card; keep the card that is harder to beat; keep a
  suit you can still answer;
* **following a trick the others hold** -- take with a plain card when it takes the trick
  for sure; take a load on the table; keep the trumps; spend the lowest trump that takes;
  take the most points; give no points to a trick you lose; keep the loads; keep the
  stronger card; keep the card that is harder to beat; keep a suit you can still answer;
* **following a trick the partner holds** -- keep the trumps; load the partner's trick when
  nobody can take it any more (carica), give it little while an opponent still plays; keep
  the stronger card; keep the card that is harder to beat; keep a suit you can still answer.

A principle is said, and tells cards apart, only where it holds in the position
(:func:`holds`: a load "can be taken" only if a card an opponent may hold beats it, "give no
points" only if no card in hand gives fewer and loses as well, a take is "sure" only if no
card an opponent still to play may hold beats it, ...; ``docs/coach.md``). Two cards no
principle that holds tells apart are said to be worth the same (:func:`equal_reason`): two
small cards alike, two cards that do the same to the trick, or two that differ now and even
out later.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import N_RANKS

if TYPE_CHECKING:  # for the annotations only
    from ..view import View

LOAD = 10  # an Ace (11) or a Three (10): a carico


class Facts:
    """The plain facts of one card play that a reason may name, from the view."""

    def __init__(self, view: View) -> None:
        from .common import trick_order
        t = view.rules.tables
        self.pts = t.points
        self.strength = t.strength
        self.trump = view.trump_suit
        self.beats = t.beats(self.trump)
        seat = self.seat_ = view.seat
        self.pos = len(view.trick)
        best, best_seat, tp = -1, -1, 0
        for s, card in view.trick:
            c = int(card)
            tp += self.pts[c]
            if best < 0 or self.beats[(best << 6) | c]:
                best, best_seat = c, s
        self.best, self.table_pts = best, tp
        sides = view.side_of_seat

        def friend(s: int) -> bool:
            a, b = sides[s], sides[seat]
            return s == seat or (a is not None and b is not None and a >= 0 and a == b)

        self.ours = best_seat >= 0 and best_seat != seat and friend(best_seat)
        order = trick_order(view)
        self.opp_after = any(not friend(s) for s in order[self.pos + 1:])
        self.partner_after = any(friend(s) and s != seat for s in order[self.pos + 1:])
        hand = 0
        for c in view.hand:
            hand |= 1 << c
        self.hand = [int(c) for c in view.hand]
        live = t.deck_mask & ~view.played_mask() & ~hand
        self.live = live
        self.trumps_out = 0 if self.trump is None else sum(
            1 for c in t.deck_ints if c // N_RANKS == self.trump and live >> c & 1)
        self.legal = [int(a) for a in view.legal if int(a) < 52]
        # The cards an opponent still to play in this trick may hold, from this seat's view:
        # the cards known in its hand, and every card whose place the seat does not know
        # (never the face-up trump card under the talon: nobody holds it yet).
        unseen = 0
        for c in view.unseen():
            unseen |= 1 << int(c)
        opp = 0
        for s in order[self.pos + 1:]:
            if friend(s):
                continue
            for c in view.known[s]:
                opp |= 1 << int(c)
            if not view.hands_visible[s]:
                opp |= unseen
        # What the chance that a take holds is counted from (:meth:`hold_chance`): the cards
        # whose place the seat does not know, the hidden places of every other hand and of the
        # talon, the seats still to play that are not on its side, and the suits a seat is
        # known to lack (only where the suit led must be followed: a carichi).
        per_seat, talon_hidden = view.hidden_counts()
        self.unseen = [int(c) for c in view.unseen()]
        self.places = [(s, n) for s, n in enumerate(per_seat)
                       if n > 0 and s != seat and not view.hands_visible[s]]
        if talon_hidden:
            self.places.append((-1, talon_hidden))
        self.opps_after = tuple(sorted({s for s in order[self.pos + 1:] if not friend(s)}))
        self.known_after = [int(c) for s in self.opps_after for c in view.known[s]]
        self.voids = _voids(view)
        if any(self.voids.values()):  # a suit a seat lacks: none of its cards can be there
            opp = 0
            for s in self.opps_after:
                for c in view.known[s]:
                    opp |= 1 << int(c)
                if not view.hands_visible[s]:
                    lacks = self.voids.get(s, 0)
                    for c in self.unseen:
                        if not lacks >> (c // N_RANKS) & 1:
                            opp |= 1 << c
        # Chiamata before the called card falls: its holder is the caller's partner, hidden
        # among the seats whose side this seat does not know. The caller's partner never
        # threatens the caller's take (whoever holds the called card is on its side); for an
        # opponent of the caller, that holder is the one hidden enemy (:meth:`hold_chance`
        # counts who may be the partner).
        self.mate_card: int | None = None
        self.caller = -1
        ch = view.chiamata
        if ch and not ch.get("carichi") and ch.get("called_card") and ch.get("caller") is not None \
                and ch.get("partner") is None and not ch.get("partner_revealed"):
            from ..cards import Card
            called = int(Card.parse(ch["called_card"]))
            if called in self.unseen:
                self.mate_card, self.caller = called, int(ch["caller"])
                if seat == self.caller:
                    opp &= ~(1 << called)
        self.opp_cards = opp
        self.after = tuple(s for s in order[self.pos + 1:] if s != seat)
        # The next trick is the last one: nothing is kept "for later" beyond it.
        self.last = view.talon_size == 0 and len(view.hand) <= 2 and not view.rules.double

    def wins(self, c: int) -> bool:
        """Would ``c`` be the best card of the trick now?"""
        return self.best < 0 or bool(self.beats[(self.best << 6) | c])

    def is_trump(self, c: int) -> bool:
        return self.trump is not None and c // N_RANKS == self.trump

    def is_load(self, c: int) -> bool:
        return self.pts[c] >= LOAD

    def beaters(self, c: int) -> int:
        """Cards still out (not in the seat's hand, not played) that would beat ``c`` led."""
        return sum(1 for x in range(64) if self.live >> x & 1 and self.beats[(c << 6) | x])

    def taken(self, c: int) -> int:
        """The trick's points if ``c`` takes it: the table's and its own."""
        return self.table_pts + self.pts[c]

    def given(self, c: int) -> int:
        """The points ``c`` puts on a trick it does not take now (0 if it takes it)."""
        return 0 if self.wins(c) and self.pos > 0 else self.pts[c]

    def threats(self, c: int) -> int:
        """How many cards an opponent still to play may hold that would beat ``c`` (were
        ``c`` the best card of the trick)."""
        m, beats = self.opp_cards, self.beats
        return sum(1 for x in range(64) if m >> x & 1 and beats[(c << 6) | x])

    def threat(self, c: int) -> bool:
        """May an opponent still to play beat ``c``?"""
        return self.threats(c) > 0

    def sure(self, c: int) -> bool:
        """Does ``c`` take the trick for sure: the best card now, and no card an opponent
        still to play may hold beats it?"""
        return self.wins(c) and not self.threat(c)

    def hold_chance(self, c: int, anyway: bool = False) -> float:
        """The chance that ``c``, the best card of the trick once played, is not beaten: that
        no opponent still to play holds a card that beats it. Every deal of the unseen cards
        into the hidden places (the other hands, the talon) that agrees with what the seat has
        seen counts the same; a card known in such an opponent's hand that beats ``c`` makes
        it 0, none that any may hold makes it 1."""
        if not anyway and not self.wins(c):
            return 0.0
        beats = self.beats
        if any(beats[(c << 6) | x] for x in self.known_after):
            return 0.0
        beaters = [x for x in self.unseen if beats[(c << 6) | x]]
        if not beaters or not self.opps_after:
            return 1.0
        if self.mate_card is not None:
            return self._hold_hidden(beaters)
        after = set(self.opps_after)
        if not any(self.voids.values()):
            # hypergeometric: the beaters all fall outside the places still to play
            n = len(self.unseen)
            k = sum(m for s, m in self.places if s in after)
            p = 1.0
            for i in range(len(beaters)):
                p *= max(n - k - i, 0) / (n - i)
            return p
        caps = [m for _s, m in self.places]
        seats = [s for s, _m in self.places]

        def allowed(x: int, avoid_after: bool) -> tuple[int, ...]:
            return tuple(i for i, s in enumerate(seats)
                         if not self.voids.get(s, 0) >> (x // N_RANKS) & 1
                         and not (avoid_after and s in after))

        bset = set(beaters)
        every = deals(caps, [allowed(x, False) for x in self.unseen])
        if every == 0:
            return 0.0
        held = deals(caps, [allowed(x, x in bset) for x in self.unseen])
        return held / every

    def _hold_hidden(self, beaters: list[int]) -> float:
        """:meth:`hold_chance` in Chiamata while the partner is hidden: over each place the
        called card may lie in (as likely as the place has unknown cards), the sides that
        follow from it -- the caller's enemies are every other seat but that holder; an
        opponent's are the caller and that holder -- and the share of the deals of the other
        unseen cards in which no enemy still to play holds a beater (hypergeometric: no suit is
        known lacked outside a carichi)."""
        mate, me = self.mate_card, self.seat_
        n = len(self.unseen)
        total = 0.0
        for holder, cap in self.places:
            if holder < 0 or cap <= 0:
                continue
            if me == self.caller:
                enemies = {s for s in self.after if s != holder}
            else:
                enemies = {s for s in self.after if s == holder or s == self.caller}
            if mate in beaters and holder in enemies:
                continue
            rest = [x for x in beaters if x != mate]
            k = sum(m - (1 if s == holder else 0) for s, m in self.places if s in enemies)
            p = 1.0
            for i in range(len(rest)):
                p *= max(n - 1 - k - i, 0) / (n - 1 - i)
            total += cap / n * p
        return total

    def risk(self, c: int) -> int:
        """The chance that ``c``, once it is the best card of the trick, is beaten here (an
        opponent still to play holds a card that beats it), in per cent rounded to 5: what a
        count of the cards that beat it is said with. 0 means under 2.5 %, 100 over 97.5 %."""
        return 5 * round(20 * (1.0 - self.hold_chance(c, anyway=True)))

    def winner(self, c: int) -> int:
        """The best card of the trick once ``c`` is played."""
        return c if self.wins(c) else self.best

    def plain_sure(self, c: int) -> bool:
        """Does ``c`` take the trick for sure without a trump?"""
        return self.pos > 0 and self.sure(c) and not self.is_trump(c)

    def led_load_at_risk(self, c: int) -> bool:
        """Is ``c`` a load (not a trump) led where an opponent may take it?"""
        return self.pos == 0 and self.is_load(c) and not self.is_trump(c) and self.threat(c)

    def lost(self, c: int) -> bool:
        """Does ``c`` follow a trick that the others hold, without taking it?"""
        return self.pos > 0 and not self.ours and not self.wins(c)

    def same_job(self, b: int, a: int) -> bool:
        """Do ``b`` and ``a`` do the same to this trick: both take it (as surely) or both
        leave it, for the same points?"""
        if self.pts[b] != self.pts[a]:
            return False
        if self.pos == 0:
            return self.threat(b) == self.threat(a)
        return self.wins(b) == self.wins(a) and self.sure(b) == self.sure(a)

    def blank(self, c: int) -> bool:
        """A card of no points that is not a trump (un liscio)."""
        return self.pts[c] == 0 and not self.is_trump(c)

    def covers(self, c: int) -> bool:
        """Is ``c`` a blank, the last card of its suit in hand, that can still take a lower card
        of its suit led (one still out)? Played, it would leave the hand without that suit."""
        if not self.blank(c):
            return False
        suit = c // N_RANKS
        if sum(1 for x in self.hand if x // N_RANKS == suit) != 1:
            return False
        return self.below(c) > 0

    def below(self, c: int) -> int:
        """Cards still out of ``c``'s suit that ``c`` beats (lower cards of its suit)."""
        live, beats, suit = self.live, self.beats, c // N_RANKS
        return sum(1 for x in range(64) if live >> x & 1 and x // N_RANKS == suit
                   and beats[(x << 6) | c])

    def beats_later(self, keep: int, play: int) -> bool:
        """Does ``keep`` beat some card still out with points that ``play`` would not?"""
        live, beats, pts = self.live, self.beats, self.pts
        return any(live >> x & 1 and pts[x] > 0 and beats[(x << 6) | keep]
                   and not beats[(x << 6) | play] for x in range(64))


def _voids(view: View) -> dict[int, int]:
    """Per seat, a bit per suit it is known to lack: where the suit led must be followed (a
    carichi), a seat that played another suit to a trick has none of the suit led."""
    ch = view.chiamata
    if not ch or not ch.get("carichi"):
        return {}
    out: dict[int, int] = {}
    tricks = [(tuple(o), tuple(int(c) for c in cs)) for o, cs, _w, _p in view.tricks]
    if view.trick:
        tricks.append((tuple(s for s, _c in view.trick), tuple(int(c) for _s, c in view.trick)))
    for order, cards in tricks:
        led = cards[0] // N_RANKS
        for s, c in zip(order, cards):
            if c // N_RANKS != led:
                out[s] = out.get(s, 0) | 1 << led
    return out


def deals(caps: list[int], allowed: list[tuple[int, ...]]) -> int:
    """How many ways the cards can be dealt into places of sizes ``caps`` (every place
    filled), card ``i`` only into the places ``allowed[i]`` (indices into ``caps``): the
    coefficient of x0^caps[0]... in the product of the cards' (sum of their places' x)."""
    if sum(caps) != len(allowed):
        return 0
    ways: dict[tuple[int, ...], int] = {tuple(0 for _ in caps): 1}
    for places in allowed:
        nxt: dict[tuple[int, ...], int] = {}
        for filled, w in ways.items():
            for i in places:
                if filled[i] < caps[i]:
                    key = filled[:i] + (filled[i] + 1,) + filled[i + 1:]
                    nxt[key] = nxt.get(key, 0) + w
        ways = nxt
        if not ways:
            return 0
    return ways.get(tuple(caps), 0)


def chance_words(p: float) -> int | None:
    """The chance ``p`` as a hint says it: a percentage rounded to 5; ``None`` where that
    would say 0 % or 100 % (a take that is not sure is never said to hold always, nor one
    that may hold never: the hint then says only that it may be beaten)."""
    got = 5 * round(p * 20)
    return got if 0 < got < 100 else None


def principles(f: Facts) -> tuple[str, ...]:
    """The names of the principles that apply to this trick, in order (:func:`standing`)."""
    if f.pos == 0:
        return ("lead_keep_load", "keep_trump", "lead_cheap", "keep_stronger", "keep_safer",
                "keep_suit", "keep_beater")
    if f.ours:
        share = "partner_unsafe" if f.threat(f.best) else "load_partner"
        secure = ("secure",) if f.threat(f.best) and f.table_pts >= LOAD else ()
        return secure + ("keep_trump", share, "keep_stronger", "keep_safer", "keep_suit",
                         "keep_beater")
    take = ("take_plain", "take_load") if f.table_pts >= LOAD else ("take_plain",)
    return take + ("keep_trump", "low_trump", "take_points", "discard", "keep_load",
                   "keep_stronger", "keep_safer", "keep_suit", "keep_beater")


def standing(f: Facts, name: str, c: int) -> int:
    """Card ``c`` by principle ``name``: lower is what a teacher prefers."""
    pts = f.pts[c]
    if name == "lead_keep_load":  # a load the others can take
        return 1 if f.led_load_at_risk(c) else 0
    if name == "keep_load":
        return 1 if pts >= LOAD else 0
    if name == "keep_trump":  # nothing to keep it for when the next trick is the last
        return 1 if f.is_trump(c) and not f.last else 0
    if name in ("lead_cheap", "partner_unsafe"):
        return pts
    if name == "load_partner":
        return -pts
    if name in ("keep_stronger", "keep_safer"):
        # only a card that can still win something is worth keeping strong or safe
        live, beats, pts_ = f.live, f.beats, f.pts
        if not (pts or f.is_trump(c) or any(live >> x & 1 and pts_[x] > 0 and beats[(x << 6) | c]
                                            for x in range(64))):
            return 0
        return f.strength[c] if name == "keep_stronger" else -f.beaters(c)
    if name == "keep_suit":  # a blank that keeps a suit where it can still take a lead
        return 1 if f.covers(c) else 0
    if name == "take_plain":
        return 0 if f.plain_sure(c) else 1
    if name == "keep_beater":  # play the card that beats fewer cards with points still out
        live, beats, points = f.live, f.beats, f.pts
        return sum(1 for x in range(64)
                   if live >> x & 1 and points[x] > 0 and beats[(x << 6) | c])
    if name == "secure":  # the partner's load that may be lost, made sure of
        return 0 if f.sure(c) else 1
    if name == "take_load":
        return 0 if f.wins(c) else 1
    if name == "low_trump":
        # between trumps (plain cards were parted by keep_trump): the lowest that takes, and
        # a trump that does not take last (unless the next trick is the last: nothing to
        # keep it for)
        if not f.is_trump(c):
            return 0 if f.last else -1
        return f.strength[c] if f.wins(c) else 0 if f.last else 99
    if name == "take_points":
        return -f.taken(c) if f.wins(c) else 0
    return f.given(c)  # discard


def keys(view: View, plays: list[int], f: Facts | None = None) -> dict[int, tuple]:
    """Each card's standing by the principles (lower first), the card number last."""
    f = f or Facts(view)
    names = principles(f)
    return {c: tuple(standing(f, n, c) for n in names) + (c,) for c in plays}


def tie_reason(f: Facts, b: int, a: int) -> tuple[str, dict] | None:
    """The first principle that prefers ``b`` to ``a`` and holds in this position (:func:`holds`),
    as ``(code, numeric params)``, before any that prefers ``a``; else what the card kept does
    (a trump kept, a card nobody can beat kept), where that holds; ``None`` if nothing does."""
    for name in principles(f):
        kb, ka = standing(f, name, b), standing(f, name, a)
        if kb == ka:
            continue
        if kb > ka:
            break
        got = _tie_params(f, name, b, a)
        if got is not None and holds_facts(f, got[0], b, a, got[1]):
            return with_odds(f, got[0], b, a, got[1])
    # what the card kept does that the principles above do not say: a trump kept rather than
    # spent on this trick, a card kept that nobody can beat
    for code, p in save_trump_tie(f, b, a) + [("coach_tie_keep_master", {})]:
        if holds_facts(f, code, b, a, p):
            return code, p
    return None


def save_trump_tie(f: Facts, b: int, a: int) -> list[tuple[str, dict]]:
    """"Keep your trumps, let the trick go" between tied cards, as it holds: the trump's take
    sure or how likely it is beaten, and the points the card let go with gives."""
    p: dict = {"trumps": f.trumps_out}
    if f.pos == 0 or not f.wins(a):
        return [("coach_tie_save_trump", p)]
    if f.sure(a):
        if f.given(b):
            return [("coach_tie_save_trump_give", {**p, "given": f.given(b)})]
        return [("coach_tie_save_trump", p)]
    return [("coach_tie_save_trump_odds", {**p, "given": f.given(b),
                                          "risk_alt": f.risk(a)})]


def _tie_params(f: Facts, name: str, b: int, a: int) -> tuple[str, dict] | None:
    p: dict = {}
    if name == "low_trump":
        if f.is_trump(a) and not f.is_trump(b):  # a trump that would not take is kept
            name = "keep_trump"
        elif not f.wins(a):  # a trump under a trump takes nothing
            name = "take_points"
    if name == "keep_trump" and f.led_load_at_risk(b):
        # a load led to keep a trump: the risk is named
        return "coach_tie_lead_load_odds", {"points": f.pts[b], "beaters": f.beaters(b),
                                            "risk": f.risk(b)}
    if name == "take_plain":
        if f.taken(b):
            p["taken"] = f.taken(b)
        else:
            name = "take_plain_lead"
    elif name == "take_load":
        p["points"] = f.table_pts
        if not f.sure(b):
            name = "take_load_may"
    elif name == "take_points":
        p["taken"] = f.taken(b)
        p["taken_alt"] = f.taken(a) if f.wins(a) else 0
        if not f.sure(b):
            name = "take_points_may"
    elif name in ("discard", "lead_cheap"):
        p["given"], p["given_alt"] = f.given(b), f.given(a)
    elif name in ("load_partner", "partner_unsafe"):  # the points put on the trick
        p["given"], p["given_alt"] = f.pts[b], f.pts[a]
    elif name == "secure":
        p["points"], p["risk_alt"] = f.table_pts, f.risk(f.winner(a))
    elif name in ("keep_load", "lead_keep_load"):
        p["points"] = f.pts[a]
    elif name == "keep_safer":
        p["beaters"], p["beaters_alt"] = f.beaters(b), f.beaters(a)
    elif name == "keep_suit":
        p["below"] = f.below(a)
    elif name == "keep_beater":
        p["beats"] = beats_later_n(f, a, b)
    return "coach_tie_" + name, p


def equal_reason(f: Facts, b: int, a: int, exact: bool = False) -> tuple[str, dict]:
    """Two tied cards no principle tells apart, said plainly with what makes them the same
    here, or what they differ in: ``(code, params)``.

    * two small cards that both lose the trick (or are led) and keep nothing the other does
      not (neither beats a card with points still out that the other does not): none counts,
      what stays in hand is equal;
    * two cards that do the same to the trick for the same points: both take it for sure, or
      both leave it, with the points they put on it;
    * two cards that do different things now: "what one gains now the other makes up later"
      only where that is known (every card's place known and the values equal), else what
      each does now, and that over the deal they are worth about the same."""
    if f.blank(b) and f.blank(a) and f.same_job(b, a):
        if not f.beats_later(a, b) and not f.beats_later(b, a) and f.covers(a) == f.covers(b):
            if f.pos == 0:
                return "coach_tie_blanks_lead", {}
            if not f.wins(b):
                return "coach_tie_blanks_lose", {}
        return "coach_tie_blanks", {}
    if f.same_job(b, a) and f.is_trump(b) == f.is_trump(a):
        if f.pos > 0 and f.wins(b) and f.sure(b):
            return "coach_equal_take", {"taken": f.taken(b)}
        if f.pos > 0 and not f.wins(b):
            return "coach_equal_lose", {"given": f.pts[b]}
        if f.pos == 0:  # led: the same points, and both can be taken or neither
            return "coach_equal_lead", {"points": f.pts[b], "safe": int(not f.threat(b))}
        return "coach_equal", {}
    if exact and f.same_job(b, a):  # the same now; what stays in hand ends the same
        return "coach_tie_exact_kept", {}
    if exact:
        return "coach_tie_worth_same", {}
    if f.pos > 0 and f.wins(b) != f.wins(a):
        return "coach_tie_differ", {"take": int(f.wins(b)), "take_alt": int(f.wins(a))}
    if f.pts[b] == f.pts[a] and f.is_trump(b) == f.is_trump(a):  # one is safe, the other not
        return "coach_tie_differ_risk", {"safe": int(_safe(f, b)), "safe_alt": int(_safe(f, a))}
    return "coach_tie_differ_points", {"points": f.pts[b], "points_alt": f.pts[a],
                                       "take": int(f.pos > 0 and f.wins(b))}


def _safe(f: Facts, c: int) -> bool:
    """Can no card a player still to play may hold beat ``c`` (the best card once played)?"""
    return not f.threat(c) if f.pos == 0 else f.sure(c)


def beats_later_n(f: Facts, keep: int, play: int) -> int:
    """How many cards still out with points ``keep`` beats that ``play`` does not."""
    live, beats, pts = f.live, f.beats, f.pts
    return sum(1 for x in range(64) if live >> x & 1 and pts[x] > 0 and beats[(x << 6) | keep]
               and not beats[(x << 6) | play])


# Codes whose sentence takes a trick for sure / may take it, and the one for a led load.
_SURE_TAKE = {"coach_take", "coach_take_trump", "coach_strozzo", "coach_take_own",
              "coach_take_lead", "coach_take_lead_keep", "coach_tie_take_plain",
              "coach_tie_take_plain_lead", "coach_tie_take_load", "coach_tie_take_points"}
_MAY_TAKE = {"coach_take_may", "coach_take_lead_may", "coach_tie_take_load_may",
             "coach_tie_take_points_may"}
# A take that is not sure, said with the chance that it holds (:func:`with_odds`): the
# sentence that says "may take" -> the one that says how likely.
ODDS = {"coach_take_may": "coach_take_odds", "coach_take_lead_may": "coach_take_lead_odds",
        "coach_take_both_may": "coach_take_both_odds",
        "coach_tie_take_load_may": "coach_tie_take_load_odds",
        "coach_tie_take_points_may": "coach_tie_take_points_odds"}
_MAY_TAKE |= set(ODDS.values()) - {"coach_take_both_odds"}


def with_odds(f: Facts, code: str, b: int, a: int, params: dict) -> tuple[str, dict]:
    """A reason that says a take may be beaten, said with how likely it holds where that is
    neither sure nor hopeless (``chance``, and ``chance_alt`` for the other card when both
    may take: :func:`chance_words`); the reason as it is otherwise."""
    odds = ODDS.get(code)
    if odds is None:
        return code, params
    chance = chance_words(f.hold_chance(b))
    if chance is None:
        return code, params
    extra = {"chance": chance}
    if code == "coach_take_both_may":
        alt = chance_words(f.hold_chance(a))
        if alt is None:
            return code, params
        extra["chance_alt"] = alt
    return odds, {**params, **extra}


# what may be said of a load led where the others can take it (the risk named, or a plain
# comparison of what each card risks)
_LEAD_LOAD_OK = {"coach_lead_load", "coach_lead_load_trump", "coach_tie_lead_load",
                 "coach_lead_load_odds", "coach_lead_load_trump_odds", "coach_tie_lead_load_odds",
                 "coach_lead_trump", "coach_tie_lead_cheap", "coach_lead_low",
                 "coach_keep_later", "coach_tie_worth_same", "coach_equal", "coach_equal_lead",
                 "coach_tie_differ_risk", "coach_tie_differ_points",
                 "coach_forced"}


def holds(view: View, code: str, params: dict, f: Facts | None = None) -> bool:
    """Does the claim of reason ``code`` (with its ``params``: ``card``, ``alt``) hold in this
    position, from ``view``'s seat? Every principle is checked for the card named against every
    legal card where it says so ("give no points", "the most points", "the lowest trump"),
    and a take is "sure" only where no card an opponent still to play may hold can beat it.
    Codes that make no claim about the cards (an exchange, a signal, the auction) hold."""
    from ..cards import Card
    if "card" not in params or "alt" not in params:
        return True
    f = f or Facts(view)
    b, a = int(Card.parse(params["card"])), int(Card.parse(params["alt"]))
    return holds_facts(f, code, b, a, params)


def holds_facts(f: Facts, code: str, b: int, a: int, params: dict | None = None) -> bool:
    """:func:`holds` on the facts of the position already read."""
    pts, pos = f.pts, f.pos
    wb, wa = (f.wins(b), f.wins(a)) if pos > 0 else (False, False)
    tb, ta = f.is_trump(b), f.is_trump(a)
    if f.led_load_at_risk(b) and code not in _LEAD_LOAD_OK:
        return False
    if code in _SURE_TAKE and not (pos > 0 and wb and f.sure(b)):
        return False
    if code in _MAY_TAKE and not (pos > 0 and wb and not f.sure(b)):
        return False
    if code in ODDS.values():  # the chance said is the one the position gives
        p = params or {}
        if p.get("chance") is None or p["chance"] != chance_words(f.hold_chance(b)):
            return False
        if code == "coach_take_both_odds" and (
                p.get("chance_alt") is None or p["chance_alt"] != chance_words(f.hold_chance(a))):
            return False
        code = next(may for may, odds in ODDS.items() if odds == code)
    if code in RISK_CODES:  # a count of the cards that beat a card, and how likely here
        p = params or {}
        c = a if code == "coach_lead_load_risk_odds" else b
        if p.get("risk") != f.risk(c) or not f.threat(c):
            return False
        if code == "coach_lead_strong_odds" and p.get("risk_alt") != f.risk(a):
            return False
        code = code[:-len("_odds")]
    name = code[len("coach_tie_"):] if code.startswith("coach_tie_") else None
    if name is not None:
        if name == "lead_keep_load":
            return pos == 0 and f.led_load_at_risk(a) and pts[b] < LOAD
        if name == "lead_load":
            return f.led_load_at_risk(b) and ta and not tb
        if name == "keep_trump":
            if not ta or tb or f.last:
                return False
            return pos == 0 or wb == wa or f.sure(b)
        if name == "low_trump":
            if not (ta and tb and wb and wa and f.strength[b] < f.strength[a]):
                return False
            if f.sure(b) != f.sure(a):
                return False
            return not any(f.is_trump(c) and f.wins(c) and f.strength[c] < f.strength[b]
                           for c in f.legal)
        if name == "lead_cheap":  # "risks": only a card something can take
            return pos == 0 and pts[b] < pts[a] and f.threat(a) and (f.threat(b) or not pts[b])
        if name == "keep_stronger":
            return (b // N_RANKS == a // N_RANKS and f.strength[b] < f.strength[a]
                    and f.same_job(b, a) and f.beats_later(a, b))
        if name == "keep_safer":
            return (f.beaters(a) < f.beaters(b) and f.same_job(b, a) and tb == ta
                    and (pts[a] > 0 or ta or f.beats_later(a, b)))
        if name == "keep_suit":
            return (f.blank(b) and f.blank(a) and f.same_job(b, a) and f.covers(a)
                    and not f.covers(b))
        if name == "keep_beater":  # the card kept beats cards with points the other does not
            return (f.same_job(b, a) and tb == ta and beats_later_n(f, a, b) > 0
                    and not beats_later_n(f, b, a)
                    and (params or {}).get("beats") == beats_later_n(f, a, b))
        if name in ("blanks_lead", "blanks_lose"):
            return (f.blank(b) and f.blank(a) and f.same_job(b, a) and not f.beats_later(a, b)
                    and not f.beats_later(b, a) and (pos == 0) == (name == "blanks_lead")
                    and not wb and not wa)
        if name == "differ":
            return pos > 0 and wb != wa
        if name == "differ_points":
            return pts[b] != pts[a] or tb != ta
        if name == "exact_kept":
            return f.same_job(b, a)
        if name == "differ_risk":
            q = params or {}
            return (_safe(f, b) != _safe(f, a) and q.get("safe") == int(_safe(f, b))
                    and q.get("safe_alt") == int(_safe(f, a)) and (pos == 0 or (wb and wa)))
        if name == "partner_unsafe":  # never counts a card that takes as points put on
            return f.ours and f.threat(f.best) and pts[b] < pts[a] and not wb and not wa
        if name == "secure":
            return (f.ours and f.threat(f.best) and f.table_pts >= LOAD and wb and f.sure(b)
                    and not f.sure(f.winner(a)))
        if name == "load_partner":  # points put on the partner's trick: cards that do not take
            return f.ours and not f.threat(f.winner(b)) and pts[b] > pts[a] and not wb and not wa
        if name in ("take_plain", "take_plain_lead"):
            return not tb and (f.taken(b) > 0) == (name == "take_plain")
        if name in ("take_load", "take_load_may"):
            return f.table_pts >= LOAD and not wa
        if name in ("take_points", "take_points_may"):
            alt = f.taken(a) if wa else 0
            return f.taken(b) > alt and all(f.taken(c) <= f.taken(b)
                                             for c in f.legal if f.wins(c))
        if name == "discard":
            return (f.lost(b) and f.lost(a) and f.given(b) < f.given(a)
                    and not any(f.lost(c) and f.given(c) < f.given(b) for c in f.legal))
        if name == "keep_load":
            return f.is_load(a) and pts[b] < pts[a] and (
                pos == 0 or (wb == wa and f.sure(b) == f.sure(a)))
        if name in ("save_trump", "save_trump_give", "save_trump_odds"):
            if not (pos > 0 and ta and not tb and wa and not wb and f.trumps_out > 0
                    and not f.last and not f.ours):
                return False
            if name == "save_trump_odds":  # the trump may be beaten: how likely, said
                return not f.sure(a) and (params or {}).get("risk_alt") == f.risk(a)
            return f.sure(a) and (name == "save_trump_give") == (f.given(b) > 0)
        if name == "keep_master":
            return pos == 0 and not f.threat(a) and f.threat(b)
        if name == "blanks":
            return f.blank(b) and f.blank(a) and f.same_job(b, a)
        if name == "worth_same":
            return True
        return True
    if code == "coach_equal":
        return f.same_job(b, a) and tb == ta
    if code == "coach_equal_take":
        return f.same_job(b, a) and tb == ta and pos > 0 and wb and f.sure(b)
    if code == "coach_equal_lose":
        return f.same_job(b, a) and tb == ta and pos > 0 and not wb
    if code == "coach_equal_lead":
        q = params or {}
        return (f.same_job(b, a) and tb == ta and pos == 0 and q.get("points") == pts[b]
                and q.get("safe") == int(not f.threat(b)))
    if code in ("coach_take", "coach_take_trump", "coach_strozzo", "coach_take_own",
                "coach_take_lead", "coach_take_lead_keep", "coach_take_may",
                "coach_take_lead_may"):
        return pos > 0 and wb and not wa
    if code == "coach_partner_wins":
        return f.ours and wa and not wb and not f.threat(f.best)
    if code == "coach_partner_wins_unsafe":
        return f.ours and wa and not wb and f.threat(f.best)
    if code == "coach_load":
        return f.ours and pts[b] > pts[a] and not f.threat(f.winner(b))
    if code == "coach_load_risk":
        return f.ours and pts[b] > pts[a] and f.threat(f.winner(b))
    if code in ("coach_take_cheaper", "coach_take_keep_trump", "coach_take_more",
                "coach_take_keep"):
        return pos > 0 and wb and wa and f.sure(b) and f.sure(a)
    if code == "coach_take_both_may":
        return pos > 0 and wb and wa and not f.sure(b) and not f.sure(a)
    if code == "coach_take_safe":
        return pos > 0 and wb and wa and f.sure(b) and not f.sure(a)
    if code == "coach_secure":
        return f.ours and wb and not wa and f.threat(f.best) \
            and f.threats(b) < f.threats(f.best)
    if code in ("coach_discard", "coach_give_keep"):
        return f.lost(b) and f.lost(a)
    if code == "coach_partner_unsafe":
        return f.ours and f.threat(f.best) and pts[b] < pts[a] and not wb and not wa
    if code == "coach_load_ahead":
        return pos > 0 and f.partner_after and not wb and not wa and pts[b] > pts[a]
    if code == "coach_keep_trump":
        return ta and not tb and f.trumps_out > 0
    if code == "coach_lead_load_risk":
        return pos == 0 and f.led_load_at_risk(a)
    if code == "coach_lead_low":
        return pos == 0 and pts[b] < pts[a] and f.threat(a) and (f.threat(b) or not pts[b])
    if code == "coach_lead_trump":  # what each risks: only a card something can take
        return (pos == 0 and tb and not ta and (f.threat(b) or not pts[b])
                and (f.threat(a) or not pts[a]))
    if code == "coach_lead_trump_safe":
        return pos == 0 and tb and not ta and not f.threat(b) and f.trumps_out > 0
    if code == "coach_lead_load":
        return f.led_load_at_risk(b) and f.beaters(b) > 0
    if code == "coach_lead_load_trump":
        return f.led_load_at_risk(b) and ta and not tb and f.trumps_out > 0
    if code == "coach_keep_stronger":
        return (b // N_RANKS == a // N_RANKS and f.strength[b] < f.strength[a]
                and f.same_job(b, a))
    if code == "coach_keep_master":
        return f.beaters(a) == 0 < f.beaters(b)
    if code in ("coach_keep_safer", "coach_lead_strong"):
        return f.beaters(a) < f.beaters(b) if code == "coach_keep_safer" \
            else f.beaters(b) < f.beaters(a)
    if code in ("coach_save_trump", "coach_save_trump_free", "coach_save_trump_empty",
                "coach_let_go", "coach_let_go_free", "coach_let_go_empty"):
        return pos > 0 and wa and not wb and f.sure(a)  # "would take": only a sure take
    if code in ("coach_save_trump_odds", "coach_let_go_odds"):
        return (pos > 0 and wa and not wb and not f.sure(a)
                and (params or {}).get("risk_alt") == f.risk(a))
    return True


TIE_CODES = tuple("coach_tie_" + n for n in (
    "lead_keep_load", "keep_trump", "lead_cheap", "keep_stronger", "keep_safer",
    "partner_unsafe", "load_partner", "take_plain", "take_plain_lead", "take_load",
    "take_points", "discard", "keep_load", "low_trump", "lead_load", "take_load_may",
    "take_points_may", "blanks", "worth_same", "save_trump", "keep_master",
    "take_load_odds", "take_points_odds", "keep_suit", "secure", "save_trump_give",
    "save_trump_odds", "lead_load_odds", "keep_beater", "blanks_lead", "blanks_lose", "differ",
    "differ_points", "differ_risk", "exact_kept"))
# A count of the cards still out that beat a led card, said with the chance that one of them
# is played here (``risk``, and ``risk_alt`` for the other card: :meth:`Facts.risk`).
RISK_CODES = ("coach_lead_load_odds", "coach_lead_load_trump_odds", "coach_lead_strong_odds",
              "coach_lead_load_risk_odds", "coach_tie_lead_load_odds")


# What a sentence claims of the trick, by code, for :func:`claims`: the card whose take it
# says is sure ("takes the trick", "would take this trick"), and the cards it says risk
# points on a lead.
_SAYS_SURE_ALT = {"coach_save_trump", "coach_save_trump_free", "coach_save_trump_empty",
                  "coach_let_go", "coach_let_go_free", "coach_let_go_empty",
                  "coach_tie_save_trump", "coach_tie_save_trump_give"}
# code -> the cards it says risk their points on a lead: "b", "a"
_SAYS_RISK = {"coach_lead_trump": "ba", "coach_tie_lead_cheap": "ba", "coach_lead_low": "ba",
              "coach_lead_load_trump": "b", "coach_lead_load_trump_odds": "b",
              "coach_tie_lead_load": "b", "coach_tie_lead_load_odds": "b",
              "coach_lead_load_risk": "a", "coach_lead_load_risk_odds": "a"}
_SAYS_COUNT = {"coach_lead_load", "coach_lead_load_odds", "coach_lead_strong",
               "coach_lead_strong_odds", "coach_lead_load_risk", "coach_lead_load_risk_odds",
               "coach_lead_load_trump", "coach_lead_load_trump_odds", "coach_tie_lead_load",
               "coach_tie_lead_load_odds"}


def claims(f: Facts, code: str, b: int, a: int, params: dict) -> dict[str, bool]:
    """Each claim a reason makes about this trick, checked from the facts themselves rather
    than by the code's own condition (:func:`holds`): a strong player's reading.

    * ``given``: points said to be put on (given to) a trick are a card that does not take it;
    * ``sure``: a take said to be sure ("takes the trick", "would take this trick") can be
      beaten by no card a player still to play may hold;
    * ``odds``: a chance said (``chance``, ``risk``) is the one the seat's view gives;
    * ``risks``: "risks N points" on a lead only where a card the others may hold beats it;
    * ``count``: "only N cards beat it" always with the chance one of them is played here.
    Only the claims the reason makes are returned."""
    p = params
    out: dict[str, bool] = {}

    def add(kind: str, ok: bool) -> None:
        out[kind] = out.get(kind, True) and bool(ok)

    if f.pos > 0:
        for k, c in (("given", b), ("given_alt", a)):
            if p.get(k):
                add("given", not f.wins(c))
    if code in _SURE_TAKE or code in _SAYS_SURE_ALT:
        c = a if code in _SAYS_SURE_ALT else b
        add("sure", f.pos > 0 and f.wins(c) and f.hold_chance(c) == 1.0 and f.sure(c))
    if "chance" in p:
        add("odds", p["chance"] == chance_words(f.hold_chance(b)))
    if "chance_alt" in p:
        add("odds", p["chance_alt"] == chance_words(f.hold_chance(a)))
    if "risk" in p:
        add("odds", p["risk"] == f.risk(a if code == "coach_lead_load_risk_odds" else b))
    if "risk_alt" in p:
        add("odds", p["risk_alt"] == f.risk(f.winner(a) if f.pos else a))
    said = _SAYS_RISK.get(code)
    if said and f.pos == 0:  # a card of no points risks nothing, truly
        for c in (b if x == "b" else a for x in said):
            add("risks", f.threat(c) or not f.pts[c])
    if code in _SAYS_COUNT:
        add("count", "risk" in p)
    return out
