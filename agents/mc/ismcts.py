"""Single-observer information-set MCTS (SO-ISMCTS, Cowling, Powley and Whitehouse 2012).

One tree over the observing seat's information set: every iteration draws
a new determinisation, walks down the tree choosing only among children
legal in that deal (UCB1 with availability counts, each seat maximising
its own payoff), adds one node, plays the deal out with rule agents and
backs the payoffs up. The decision is the root's most visited action.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym import protocol
from trickgym.borrow import borrowed
from trickgym.engine.loops import rule_act
from trickgym.rng import below

from .pimc_common import MAX_ACTIONS, legal_list

__all__ = ["ismcts_search"]


@njit(cache=True)
def ismcts_search(
    obs,
    memory,
    template,
    params,
    rng,
    settings,
    visits_out,
    table,
    dd_cards,
):
    """Run ``iterations`` of SO-ISMCTS; root visit counts go to ``visits_out[action]``.

    ``settings`` is ``(iterations, exploration, others_by_rule)``.

    With ``others_by_rule`` the tree branches on the observing seat's own
    actions only and the other seats act by the rule agent inside it too
    (an opponent model), instead of each choosing by UCB over its own
    payoffs with sight of the sampled deal.

    Payoffs are scaled by their root mean square so far, so one
    ``exploration`` constant suits every game's payoff scale. Returns the number of
    exactly uniform determinisations. Leaves are valued by ``protocol.leaf`` (rule
    playouts; Solo Whist: the double-dummy solver, with its ``table``, from
    ``dd_cards`` cards in hand down).
    """
    iterations, exploration, others_by_rule = settings
    # Borrowed arguments: no atomic reference counting on their views in the loops.
    obs, memory, template, params = (
        borrowed(obs),
        borrowed(memory),
        borrowed(template),
        borrowed(params),
    )
    rng, visits_out = borrowed(rng), borrowed(visits_out)
    max_nodes = iterations + 2
    action_of = np.zeros(max_nodes, dtype=np.int64)
    mover = np.zeros(max_nodes, dtype=np.int64)  # seat that chose the edge into the node
    first_child = np.full(max_nodes, -1, dtype=np.int64)
    sibling = np.full(max_nodes, -1, dtype=np.int64)
    visits = np.zeros(max_nodes, dtype=np.float64)
    avail = np.zeros(max_nodes, dtype=np.float64)
    total = np.zeros(max_nodes, dtype=np.float64)
    n_nodes = 1
    state = np.empty(1, dtype=template.dtype)
    obs_scratch = np.empty(1, dtype=obs.dtype)
    actions = np.empty(MAX_ACTIONS, dtype=np.int64)
    is_legal = np.zeros(MAX_ACTIONS, dtype=np.bool_)
    path = np.empty(max_nodes, dtype=np.int64)
    scale = 1.0
    sum_sq, n_sq = 0.0, 0.0
    n_uniform = 0
    for _ in range(iterations):
        n_uniform += protocol.determinize(obs, memory, template, state, rng)
        st = state[0]
        node = 0
        depth = 0
        path[0] = 0
        seat = obs[0].seat
        while not protocol.deal_over(st):
            if others_by_rule and st.to_move != seat:
                protocol.apply_action(st, rule_act(st, st.to_move, rng, obs_scratch, params))
                continue
            n = legal_list(st, actions)
            for k in range(n):
                is_legal[actions[k]] = True
            # Untried legal actions: expand one of them at random.
            n_untried = n
            child = first_child[node]
            while child >= 0:
                if is_legal[action_of[child]]:
                    n_untried -= 1
                child = sibling[child]
            p = st.to_move
            if n_untried > 0:
                pick = below(rng, n_untried)
                chosen = -1
                for k in range(n):
                    a = actions[k]
                    tried = False
                    c = first_child[node]
                    while c >= 0:
                        if action_of[c] == a:
                            tried = True
                            break
                        c = sibling[c]
                    if not tried:
                        if pick == 0:
                            chosen = a
                            break
                        pick -= 1
                c = first_child[node]
                while c >= 0:  # every legal sibling was available this time
                    if is_legal[action_of[c]]:
                        avail[c] += 1.0
                    c = sibling[c]
                new = n_nodes
                n_nodes += 1
                action_of[new] = chosen
                mover[new] = p
                avail[new] = 1.0
                sibling[new] = first_child[node]
                first_child[node] = new
                for k in range(n):
                    is_legal[actions[k]] = False
                protocol.apply_action(st, chosen)
                depth += 1
                path[depth] = new
                break
            best, best_score = -1, -1e300
            c = first_child[node]
            while c >= 0:
                if is_legal[action_of[c]]:
                    avail[c] += 1.0
                    score = total[c] / (visits[c] * scale) + exploration * np.sqrt(
                        np.log(avail[c]) / visits[c]
                    )
                    if score > best_score:
                        best, best_score = c, score
                c = sibling[c]
            for k in range(n):
                is_legal[actions[k]] = False
            protocol.apply_action(st, action_of[best])
            node = best
            depth += 1
            path[depth] = node
        protocol.leaf(st, rng, obs_scratch, params, table, dd_cards)
        if n_sq > 0:
            scale = max(1.0, np.sqrt(sum_sq / n_sq))
        for d in range(1, depth + 1):
            v = path[d]
            payoff = float(st.payoffs[mover[v]])
            sum_sq += payoff * payoff
            n_sq += 1.0
            visits[v] += 1.0
            total[v] += payoff
    c = first_child[0]
    while c >= 0:
        visits_out[action_of[c]] += visits[c]
        c = sibling[c]
    return n_uniform
