"""``trickgym.simulate`` in every game configuration: reproducible rows, whole packs dealt.

A row depends only on the seed and its deal's (or match's) index: not on
threads, chunks or where the run starts; another seed deals other cards; a
Python agent in a seat gets the very deals the compiled loop deals. Each
row's dealt holdings partition the pack, and its totals are the rules'
(:func:`conformance_helpers.row_totals_hold`). The games' own columns are
checked against the rules in the per-game ``test_sim_<game>.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from conformance_helpers import (
    CONFIGS,
    IDS,
    deal_columns,
    dealt,
    deck_mask,
    game_of,
    row_totals_hold,
    sim_count,
)
from pandas.testing import assert_frame_equal

from trickgym.agents import RandomAgent
from trickgym.sim import simulate

pytestmark = pytest.mark.parametrize("config", CONFIGS, ids=IDS)


def run(config, count, agents="random", **kwargs):
    """``simulate`` of ``count`` deals (Phat: matches) of the configuration."""
    return simulate(
        config.name, agents=agents, **sim_count(config, count), **config.options, **kwargs
    )


def rows_of(config, df, first, count):
    """The rows of deals (Phat: matches) ``first .. first+count-1`` of a run from 0."""
    key = "match" if config.unit == "matches" else "deal"
    return df[df[key].between(first, first + count - 1)].reset_index(drop=True)


def first_deals(config, df):
    """Phat: each match's first deal (later deals depend on the play); other games: every row."""
    if config.unit == "matches":
        return df[(df["game"] == 0) & (df["deal"] == 0)].reset_index(drop=True)
    return df


def test_rows_depend_only_on_the_seed_and_the_index(config):
    """Threads, chunk sizes and ``first`` do not change a row; another seed deals other cards."""
    count = 120 if config.unit == "matches" else 800
    base = run(config, count, seed=5, threads=1)
    assert len(base) >= count
    assert_frame_equal(run(config, count, seed=5, threads=2, chunk=7), base)
    assert_frame_equal(run(config, count, seed=5, threads=2), base)
    few = count // 8  # one deal a chunk: many chunks, so fewer deals
    for threads in (1, 2):
        assert_frame_equal(
            run(config, few, seed=5, threads=threads, chunk=1), rows_of(config, base, 0, few)
        )
    part = run(config, 30, seed=5, first=count // 2)
    assert_frame_equal(part, rows_of(config, base, count // 2, 30))
    other = first_deals(config, run(config, count, seed=6))
    mine = first_deals(config, base)
    k = min(len(other), len(mine))
    assert (other["hand_0"].iloc[:k].to_numpy() != mine["hand_0"].iloc[:k].to_numpy()).mean() > 0.99


def test_dealt_cards_partition_the_pack(config):
    """Each row's hands (and Tapp or kitty) are disjoint, of the dealt sizes, cover the pack."""
    game = game_of(config)
    df = run(config, 150 if config.unit == "matches" else 1500, seed=3)
    cards = dealt(config, df)
    sizes = [bin(int(h)).count("1") for h in game.deal(0).record["initial_hands"][: game.n_seats]]
    np.testing.assert_array_equal(np.bitwise_count(cards[:, : game.n_seats]), [sizes] * len(df))
    union = np.bitwise_or.reduce(cards, axis=1)
    np.testing.assert_array_equal(union, np.uint64(deck_mask(game)))
    assert (np.bitwise_count(cards).sum(axis=1) == game.deck.n_cards).all()  # disjoint
    row_totals_hold(config, df)


def test_python_agents_get_the_same_deals(config):
    """A Python agent's table is dealt what the compiled loop deals; it plays otherwise, legally."""
    n = game_of(config).n_seats
    count = 40 if config.unit == "matches" else 100
    base = run(config, count, seed=5)
    mixed = run(config, count, [RandomAgent(1), *["random"] * (n - 1)], seed=5)
    a, b = first_deals(config, base), first_deals(config, mixed)
    assert len(a) == len(b) == count
    cols = deal_columns(config, a)
    assert_frame_equal(a[cols], b[cols])
    assert not base.equals(mixed)
    row_totals_hold(config, mixed)


def test_wrong_agents_are_named(config):
    """A list of agents needs one per seat; an unknown agent name is named."""
    n = game_of(config).n_seats
    with pytest.raises(ValueError, match=f"list of {n}"):
        run(config, 10, ["random"] * (n - 1))
    with pytest.raises(ValueError, match="nobody"):
        run(config, 10, ["random", "nobody", *["random"] * (n - 2)])
