"""A model of how the other players choose their cards, and sampled worlds weighed by every
play of the deal so far (two- and four-player Briscola).

The model is a conditional logit: each card a seat could play gets a score from what the
table shows when it plays (:func:`card_features`: whether it leads, takes the trick, or
lets it go to its own side or the other; whether the card is a trump; its points, its
strength, the points already on the table, how much talon is left, and the card-counting
heuristic's own score of it), and the chance of the card played is its share of the
softmax, mixed with a uniform choice (``uniform``) so that a player who plays differently
only blurs the weights. The weights (:mod:`.policy_weights`) are fitted by
``tools/train/policy.py`` on the expert's own decisions in self-play.

:class:`PolicyEvidence` reads every past play of the other seats. A card's score depends
only on what was public when it was played, so each play's scores are computed once (and
kept for the deal); a sampled world only says which cards the seat held then: the cards it
holds in that world plus those it has played since, less the ones it drew since. Which of
those it drew is not known, so each of them counts as held then with the chance the hand
sizes give (the expected sum of the softmax; exact for plays with no draw since).
"""
from __future__ import annotations

import math

N_CTX = 8  # lead, takes, lets it go to the other side, to its own side; each trump or not
_POINT_CLASS = {0: 0, 2: 1, 3: 2, 4: 3, 10: 4, 11: 5}
KIND0 = 0  # context x point class
STRENGTH0 = KIND0 + N_CTX * 6
TABLE0 = STRENGTH0 + N_CTX
PHASE0 = TABLE0 + N_CTX
HEURISTIC = PHASE0 + N_CTX
N_POLICY = HEURISTIC + 1
UNIFORM = 0.1
_CLIP = 30.0


def card_features(fp, seat: int, x: int, sizes, live: int, fh: int, order, pos: int,
                  b: int, bs: int, tp: int, tn: int, deck: float) -> list[tuple[int, float]]:
    """The (index, value) pairs the model scores for ``seat`` playing card ``x``, from what
    the table shows then (``fp``: a :class:`~briscola.ai.rollout.FastPolicy` for the rules
    and trump; ``sizes`` the hand sizes, ``live`` the cards not yet played, ``fh`` the
    face-up card's bit while it lies under the talon, ``b``/``bs``/``tp`` the best card so
    far, its seat and the points on the table, ``tn`` the talon size)."""
    if b < 0:
        ctx = 0
    elif fp.beats[(b << 6) | x]:
        ctx = 1
    elif fp.side_of[bs] == fp.side_of[seat]:
        ctx = 3
    else:
        ctx = 2
    ctx = 2 * ctx + (1 if fp.is_trump[x] else 0)
    out = [(KIND0 + 6 * ctx + _POINT_CLASS.get(fp.pts[x], 0), 1.0),
           (STRENGTH0 + ctx, fp.strength[x] / 10.0), (PHASE0 + ctx, tn / deck)]
    if tp:
        out.append((TABLE0 + ctx, tp / 10.0))
    h = fp.scores(seat, 1 << x, sizes, live, fh, order, pos, b, bs, tp, tn)[0][1]
    out.append((HEURISTIC, h / 10.0))
    return out


class _Record:
    __slots__ = ("seat", "card", "bit", "later", "excl", "n", "ez", "ctx")


class PolicyEvidence:
    """Every play so far by the seats other than ``sit.me``, ready to weigh sampled worlds
    (:meth:`weight`). ``cache`` (a dict kept for the deal) holds each play's scores;
    ``power`` tempers the product of the plays' chances (1: as the model says)."""

    def __init__(self, sit, fp, weights, uniform: float = UNIFORM, power: float = 1.0,
                 cache: dict | None = None) -> None:
        self.fp = fp
        self.weights = weights
        self.uniform = uniform
        self.power = power
        self.records: list[_Record] = []
        self.cache = cache if cache is not None else {}
        view = sit.view
        rules = view.rules
        t = rules.tables
        n = view.players
        deck = float(len(t.deck))
        per_round = t.per_round
        tn = len(t.deck) - n * rules.hand_size
        sizes = [rules.hand_size] * n
        live = t.deck_mask
        faceup = int(view.original_trump_card) if view.original_trump_card is not None \
            else -1
        tricks = [(tuple(o), [int(c) for c in cards]) for o, cards, _w, _p in view.tricks]
        tricks.append((tuple(sit.order), list(sit.trick)))
        beats = fp.beats
        for k, (o, cards) in enumerate(tricks):
            b, bs, tp = -1, -1, 0
            fh = (1 << faceup) if tn and faceup >= 0 else 0
            for pos, c in enumerate(cards):
                s = o[pos]
                if s != sit.me and sizes[s] >= 2:
                    r = _Record()
                    r.seat, r.card, r.bit, r.n = s, c, 1 << c, sizes[s]
                    r.excl = fh  # the face-up card came to a hand only after
                    r.ctx = (s, tuple(sizes), live, fh, o, pos, b, bs, tp, tn, deck)
                    ez = self.cache.get(r.ctx)
                    if ez is None:
                        ez = self.cache[r.ctx] = {}
                    r.ez = ez
                    self.records.append(r)
                live &= ~(1 << c)
                sizes[s] -= 1
                tp += fp.pts[c]
                if b < 0 or beats[(b << 6) | c]:
                    b, bs = c, s
            if k < len(tricks) - 1 and tn:
                seq = t.orders[bs] if tn >= per_round else t.rot[bs][:tn]
                for s in seq:
                    sizes[s] += 1
                tn -= len(seq)
        if tn != view.talon_size or sizes != list(view.hand_sizes):
            self.records = []  # exchanges or a rule this reading does not know
            return
        # The cards each seat played after each of its recorded plays (and that play).
        later = [0] * n
        for r in reversed(self.records):
            later[r.seat] |= r.bit
            r.later = later[r.seat]

    def _ez(self, r: _Record, x: int) -> float:
        s, sizes, live, fh, o, pos, b, bs, tp, tn, deck = r.ctx
        w = self.weights
        z = 0.0
        for i, v in card_features(self.fp, s, x, sizes, live, fh, o, pos, b, bs, tp, tn, deck):
            z += w[i] * v
        e = math.exp(max(-_CLIP, min(_CLIP, z)))
        r.ez[x] = e
        return e

    def weight(self, hands: list[int]) -> float:
        """How likely the recorded plays were in the world with these ``hands``."""
        eps = self.uniform
        w = 1.0
        for r in self.records:
            ez = r.ez
            num = ez.get(r.card)
            if num is None:
                num = self._ez(r, r.card)
            m = (hands[r.seat] | r.later) & ~r.excl & ~r.bit
            tot = 0.0
            cnt = 0
            while m:
                low = m & -m
                x = low.bit_length() - 1
                m ^= low
                e = ez.get(x)
                if e is None:
                    e = self._ez(r, x)
                tot += e
                cnt += 1
            held = r.n - 1
            if cnt > held:
                tot *= held / cnt
            w *= (1.0 - eps) * num / (num + tot) + eps / r.n
        if self.power != 1.0:
            return w ** self.power
        return w



class ReplyModel:
    """The others' replies in the searched trick under the model: for a seat to play after
    the cards ``tmask`` (played in the search since the decision), the softmax score of
    each card it might hold (``replies(...)`` gives a function of the card; the scores
    depend only on the table, so they are kept for the decision)."""

    def __init__(self, sit, fp, weights) -> None:
        self.fp = fp
        self.weights = weights
        self.order = tuple(sit.order)
        self.pos0 = sit.pos
        self.sizes = list(sit.view.hand_sizes)
        self.live0 = sit.live_mask
        tn = sit.talon_size
        self.tn = tn
        self.fh = (1 << sit.faceup) if tn and sit.faceup >= 0 else 0
        self.deck = float(len(sit.tables.deck))
        self.memo: dict = {}

    def __call__(self, seat: int, pos: int, b: int, bs: int, tp: int, tmask: int):
        key = (pos, b, bs, tp, tmask)
        got = self.memo.get(key)
        if got is not None:
            return got
        sizes = self.sizes[:]
        for i in range(self.pos0, pos):
            sizes[self.order[i]] -= 1
        sizes = tuple(sizes)
        live = self.live0 & ~tmask
        fp, w, order, fh, tn, deck = self.fp, self.weights, self.order, self.fh, self.tn, \
            self.deck
        ez: dict = {}

        def score(x: int) -> float:
            e = ez.get(x)
            if e is None:
                z = 0.0
                for i, v in card_features(fp, seat, x, sizes, live, fh, order, pos, b, bs,
                                          tp, tn, deck):
                    z += w[i] * v
                e = ez[x] = math.exp(max(-_CLIP, min(_CLIP, z)))
            return e

        self.memo[key] = score
        return score
