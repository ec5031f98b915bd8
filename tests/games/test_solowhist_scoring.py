"""Solo Whist scoring: every worked example of docs/rules/solowhist.md §11 (1-7)."""

from __future__ import annotations

import numpy as np
import pytest

from trickgym.games.solowhist.constants import (
    ABUNDANCE,
    ABUNDANCE_DECLARED,
    ABUNDANCE_IN_TRUMPS,
    MISERE,
    MISERE_OUVERTE,
    PROP_COP,
    SOLO,
)
from trickgym.games.solowhist.rules import deal_payoffs

DECLARER = 1 << 0  # seat 0 declares alone
PAIR = (1 << 0) | (1 << 2)  # seats 0 and 2 in Prop & Cop


def payoffs(contract, declarers, tricks, unit=5):
    out = np.zeros(4, dtype=np.int32)
    made = deal_payoffs(contract, declarers, tricks, unit, out)
    assert out.sum() == 0
    return bool(made), out.tolist()


@pytest.mark.parametrize(
    "example, contract, tricks, unit, made, expected",
    [
        ("1 Abundance made, 10 tricks", ABUNDANCE, 10, 5, True, [51, -17, -17, -17]),
        ("2 Abundance lost, 6 tricks", ABUNDANCE, 6, 5, False, [-57, 19, 19, 19]),
        ("3 Solo exactly made", SOLO, 5, 5, True, [15, -5, -5, -5]),
        ("3 Solo 4 tricks: no under-trick", SOLO, 4, 5, False, [-15, 5, 5, 5]),
        ("3 Solo 3 tricks: 1 under", SOLO, 3, 5, False, [-18, 6, 6, 6]),
        ("5 Misère lost", MISERE, 1, 5, False, [-30, 10, 10, 10]),
        ("5 Misère Ouverte made", MISERE_OUVERTE, 0, 5, True, [60, -20, -20, -20]),
        ("6 Abundance Declared made", ABUNDANCE_DECLARED, 13, 5, True, [90, -30, -30, -30]),
        ("6 Abundance Declared 12 tricks", ABUNDANCE_DECLARED, 12, 5, False, [-90, 30, 30, 30]),
        ("7 unit 2, Solo 7 tricks", SOLO, 7, 2, True, [12, -4, -4, -4]),
        ("7 Abundance in Trumps, 13 tricks", ABUNDANCE_IN_TRUMPS, 13, 5, True, [69, -23, -23, -23]),
    ],
)
def test_lone_declarer_examples(example, contract, tricks, unit, made, expected):
    assert payoffs(contract, DECLARER, tricks, unit) == (made, expected)


@pytest.mark.parametrize(
    "tricks, made, expected",
    [
        (9, True, [6, -6, 6, -6]),  # 4: a = 5 + 1
        (7, False, [-5, 5, -5, 5]),  # lost, 0 under
        (5, False, [-7, 7, -7, 7]),  # 2 under
    ],
)
def test_prop_and_cop_pays_in_pairs(tricks, made, expected):
    assert payoffs(PROP_COP, PAIR, tricks) == (made, expected)


def test_misere_made_only_with_no_trick():
    assert payoffs(MISERE, DECLARER, 0)[0]
    for tricks in range(1, 14):
        assert payoffs(MISERE, DECLARER, tricks) == (False, [-30, 10, 10, 10])
