"""The samplers draw uniformly among the deals consistent with the seat's information.

Small cases are enumerated by a plain-Python reference (every split of the
unseen cards that respects hand sizes, shown voids and known cards) and
the sampler's frequencies are compared with the uniform distribution by a
chi-square test (p < 0.001 fails), its support with the reference's.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from mc_helpers import make_game, record_of

from trickgym.agents.mc.deal import deal_once, pool_cards
from trickgym.agents.mc.sample_solowhist import deal_hidden as solowhist_hidden
from trickgym.engine.loops import act
from trickgym.engine.params import params_matrix


def _chi2_critical(df, z=3.09):
    """Upper 0.001 point of chi-square (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def _check_uniform(counts: dict, support: set, draws: int):
    assert set(counts) <= support, "a sample outside the consistent deals"
    k = len(support)
    expected = draws / k
    stat = sum((counts.get(d, 0) - expected) ** 2 / expected for d in support)
    assert stat < _chi2_critical(k - 1), (stat, k)
    assert len(counts) == k, "some consistent deal never drawn"


def _splits(cards, sizes):
    """Every assignment of ``cards`` to holders with ``sizes``, as tuples of frozensets."""
    if not sizes:
        yield ()
        return
    for first in itertools.combinations(cards, sizes[0]):
        rest = [c for c in cards if c not in first]
        for tail in _splits(rest, sizes[1:]):
            yield (frozenset(first), *tail)


def test_deal_once_is_uniform_over_allowed_deals():
    cards = [0, 1, 2, 13, 14, 26, 27]  # spades 0-2, hearts 13-14, diamonds 26-27
    caps = np.array([3, 2, 2])
    spades, hearts = sum(1 << c for c in (0, 1, 2)), sum(1 << c for c in (13, 14))
    full = (1 << 52) - 1
    allowed = np.array([full & ~hearts, full & ~spades, full], dtype=np.uint64)
    support = {
        d
        for d in _splits(cards, [3, 2, 2])
        if all((1 << c) & int(allowed[h]) for h in range(3) for c in d[h])
    }
    arr = np.empty(64, dtype=np.int64)
    n = pool_cards(np.uint64(sum(1 << c for c in cards)), arr)
    out = np.zeros(3, dtype=np.uint64)
    rng = np.array([12345], dtype=np.uint64)
    counts, draws = {}, 0
    while draws < 4000:
        if deal_once(arr, n, 3, caps, allowed, out, rng):
            key = tuple(frozenset(c for c in range(52) if (int(out[h]) >> c) & 1) for h in range(3))
            counts[key] = counts.get(key, 0) + 1
            draws += 1
    _check_uniform(counts, support, draws)


def _solowhist_ending():
    """A Solo Whist state two tricks from the end with a shown void among the others."""
    game = make_game("solowhist", {})
    params = params_matrix("solowhist", 4)
    scratch = np.empty(1, game.obs_dtype)
    for seed in range(500):
        state = game.deal(seed=seed)
        rng = np.array([seed], np.uint64)
        while not state.is_over:
            r = state.record
            if r["phase"] == 4 and r["trick_no"] == 11 and r["trick_n"] == 0:
                break
            p = state.current_player
            state.apply(int(act(1, state.array[0], p, rng, scratch, params, None)))
        if state.is_over:
            continue
        seat = state.current_player
        rec = record_of(game, state.array, seat)
        if any(int(rec[0]["voids"][s]) for s in range(4) if s != seat):
            return game, state, rec
    raise AssertionError("no ending with a void found")


def _solowhist_reference(rec):
    """Every consistent split of the unseen cards among the other seats (plain Python)."""
    r = rec[0]
    seat = int(r["seat"])
    known = int(r["hand"])
    for s in range(4):
        known |= int(r["played"][s])
    others = [s for s in range(4) if s != seat]
    unseen = [c for c in range(52) if not (known >> c) & 1]
    sizes = [13 - bin(int(r["played"][s])).count("1") for s in others]
    deals = set()
    for split in _splits(unseen, sizes):
        ok = True
        for h, s in enumerate(others):
            for c in split[h]:
                if (int(r["voids"][s]) >> (c // 13)) & 1:
                    ok = False
            tu = int(r["turn_up"])
            if s == int(r["dealer"]) and not (known >> tu) & 1 and tu not in split[h]:
                ok = False
        if ok:
            deals.add(split)
    return others, deals


def test_solowhist_sampler_is_uniform_on_an_ending():
    _, _, rec = _solowhist_ending()
    others, support = _solowhist_reference(rec)
    assert 1 < len(support) < 200
    rng = np.array([99], dtype=np.uint64)
    hands = np.zeros(4, dtype=np.uint64)
    counts = {}
    draws = 60 * len(support)
    for _ in range(draws):
        assert solowhist_hidden(rec[0], rng, hands)
        key = tuple(frozenset(c for c in range(52) if (int(hands[s]) >> c) & 1) for s in others)
        counts[key] = counts.get(key, 0) + 1
    _check_uniform(counts, support, draws)
