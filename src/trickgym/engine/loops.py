"""The built-in agents' play loops, written once over the game protocol.

Built-in agents are integer kinds (:mod:`.kinds`): ``RANDOM`` reads only
the legal sets, ``RULE`` only its seat's observation record, ``ORACLE`` the
whole state (an upper bound for measurement, never a fair player).

Every loop takes an ``oracle`` argument that is ``None`` unless a seat is an
oracle (:func:`oracle_flag` decides, in Python). numba prunes the oracle's
branch from a loop compiled for ``None``, so random and rule simulations,
envs and searches never link (nor compile) a solver; a run with an oracle
seat compiles its own variant, with the solver called directly (no object
mode, so simulations keep their threads).
"""

from __future__ import annotations

from numba import njit

from trickgym import protocol
from trickgym.cards.bits import popcount, select_kth
from trickgym.engine.kinds import ORACLE, RANDOM, RULE
from trickgym.rng import below

__all__ = [
    "act",
    "oracle_flag",
    "play_random",
    "play_until",
    "random_action",
    "rule_act",
    "rule_choice",
]


@njit(cache=True)
def random_action(cards, calls, call_base, rng):
    """A uniformly random action among the legal ``cards`` and ``calls`` bit sets.

    ``cards`` has bit ``c`` for card action ``c``; ``calls`` has bit ``i`` for
    action ``call_base + i``; ``rng`` is the agent's ``uint64[1]`` generator.
    """
    n_cards = popcount(cards)
    k = below(rng, n_cards + popcount(calls))
    if k < n_cards:
        return select_kth(cards, k)
    return call_base + select_kth(calls, k - n_cards)


def oracle_flag(kinds) -> bool | None:
    """``True`` when a seat of ``kinds`` is the oracle, else ``None`` (the loops' ``oracle``)."""
    return True if any(int(k) == ORACLE for k in kinds) else None


@njit(cache=True)
def rule_act(state, seat, rng, obs, params):
    """The rule agent acting for ``seat``: it reads ``seat``'s observation only.

    ``obs`` is a one-record observation scratch array, ``params`` the rule
    parameters per seat (``PARAMS_DTYPE`` records from ``params_matrix``).
    """
    protocol.observe_core(state, seat, obs[0])
    return protocol.rule_policy(obs[0], params[seat].values, rng)


@njit(cache=True)
def _rule_for(obs, params, seat, rng):
    return protocol.rule_policy(obs, params[seat].values, rng)


def rule_choice(rec, params, rng) -> int:
    """The rule agent's action for the seat of observation record ``rec``, from Python.

    ``params`` is the per-seat matrix of :func:`params_matrix`. Called through a
    kernel so that the rule kernel gets the loops' argument types (a record's
    nested ``values`` array): passing ``params[seat]["values"]`` from Python
    compiled the rule kernel a second time, for a plain array (8-13 s a game).
    """
    return int(_rule_for(rec, params, int(rec["seat"]), rng))


@njit(cache=True)
def play_random(state, agent_rngs):
    """Every seat random: the leanest loop, for random-agent simulations."""
    base = protocol.call_base(state)
    while not protocol.deal_over(state):
        p = state.to_move
        low, high = protocol.legal_sets(state)
        protocol.apply_action(state, random_action(low, high, base, agent_rngs[p]))


@njit(cache=True)
def _play_fair_until(state, kinds, agent_rngs, obs, params):
    """Random and rule agents play until another seat (oracle, Python) must act; -1 at the end.

    Kept apart from the oracle so that this hot loop stays small.
    """
    base = protocol.call_base(state)
    while not protocol.deal_over(state):
        p = state.to_move
        kind = kinds[p]
        if kind == RANDOM:
            low, high = protocol.legal_sets(state)
            action = random_action(low, high, base, agent_rngs[p])
        elif kind == RULE:
            # rule_act written out: as a call (or a numba-inlined one) the arrays
            # passed cost atomic reference-count updates, a quarter of the time
            # of a rule-agent deal.
            protocol.observe_core(state, p, obs[0])
            action = protocol.rule_policy(obs[0], params[p].values, agent_rngs[p])
        else:
            return p
        protocol.apply_action(state, action)
    return -1


@njit(cache=True)
def play_until(states, i, kinds, agent_rngs, params, oracle):
    """Let built-in agents play ``states[i]`` until a seat with ``kinds[seat] < 0`` must act.

    ``kinds`` holds a built-in kind per seat, or -1 for a seat played from
    Python (a learner, a Python agent); ``agent_rngs`` is ``uint64[n, 1]``,
    ``params`` the rule parameters per seat and ``oracle`` the value of
    :func:`oracle_flag` for ``kinds``. Returns that seat, or -1 once the
    deal is over.
    """
    state = states[i]
    all_random = True
    for kind in kinds:
        all_random &= kind == RANDOM
    if all_random:
        play_random(state, agent_rngs)
        return -1
    obs = protocol.new_obs(state)
    if oracle is None:
        return _play_fair_until(state, kinds, agent_rngs, obs, params)
    table = protocol.oracle_no_table(state)  # one real table per deal, made at its first use
    while True:
        p = _play_fair_until(state, kinds, agent_rngs, obs, params)
        if p < 0 or kinds[p] != ORACLE:
            return p
        table = protocol.oracle_table(state, table)
        protocol.apply_action(
            state, protocol.oracle_action(state, p, agent_rngs[p], obs, params, table)
        )


@njit(cache=True)
def act(kind, state, seat, rng, obs, params, oracle):
    """Action of built-in agent ``kind`` for ``seat`` (to move) in ``state``.

    ``rng`` is the agent's ``uint64[1]`` generator, ``obs`` a one-record
    observation scratch array, ``params`` the per-seat rule parameters and
    ``oracle`` :func:`oracle_flag` of the kinds that may act (``None``: no
    oracle, and no solver linked).
    """
    # Random first and without touching params: the hot path of random simulations.
    if kind == RANDOM:
        low, high = protocol.legal_sets(state)
        return random_action(low, high, protocol.call_base(state), rng)
    if kind == RULE:
        protocol.observe_core(state, seat, obs[0])
        return protocol.rule_policy(obs[0], params[seat].values, rng)
    if oracle is None:
        raise ValueError("an oracle seat needs a loop compiled with oracle=True")
    table = protocol.oracle_table(state, protocol.oracle_no_table(state))
    return protocol.oracle_action(state, seat, rng, obs, params, table)
