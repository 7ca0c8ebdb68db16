import json
import random

import pytest

from briscola.errors import SaveError
from briscola.game import Game


def played(name="classic", seed=3, moves=15):
    g = Game.new(name, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        g.apply(rng.choice(g.legal_actions()))
    return g


def test_round_trip_mid_deal():
    g = played()
    back = Game.from_json(g.to_json())
    assert back == g and back.to_json() == g.to_json()
    assert back.view(0).to_dict() == g.view(0).to_dict()


def tamper(text, fn):
    data = json.loads(text)
    fn(data)
    return json.dumps(data)


@pytest.mark.parametrize("change", [
    lambda d: d.update(format="chess"),
    lambda d: d.update(version=2),
    lambda d: d.update(rules={"name": "nonsense"}),
    lambda d: d.update(rules={"players": 9}),
    lambda d: d.update(deck=d["deck"].replace("AD", "AX")),
    lambda d: d.update(deck=" ".join(d["deck"].split()[:-1])),
    lambda d: d.update(deck=" ".join(sorted(d["deck"].split()))) or d["actions"].insert(0, "KB"),
    lambda d: d.update(dealer=5),
    lambda d: d.update(dealer="0"),
    lambda d: d.update(actions="AD"),
    lambda d: d["actions"].append("pass"),
    lambda d: d["actions"].insert(3, d["actions"][0]),
    lambda d: d.pop("deck"),
    lambda d: d.update(seed=[1]),
])
def test_tampered_saves_are_refused(change):
    text = played().to_json()
    with pytest.raises(SaveError):
        Game.from_json(tamper(text, change))


@pytest.mark.parametrize("text", ["", "not json", "null", "[]", "42", '{"format": 1}'])
def test_corrupt_saves_are_refused(text):
    with pytest.raises(SaveError):
        Game.from_json(text)
