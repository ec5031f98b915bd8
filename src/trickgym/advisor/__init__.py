"""The hand advisor's compiled half: one block over the game protocol, and each game's part.

:mod:`trickgym.analysis.advise` (the Python half: options, candidate calls,
the frame) runs :mod:`~trickgym.advisor.kernels`, written once over the
protocol's advisor hooks (``advise_settle``, ``advise_outcome`` and, for a
game with a solver, ``advise_solver`` and ``advise_solve``). Each game's
module (:mod:`~trickgym.advisor.solowhist`, :mod:`~trickgym.advisor.troggu`,
:mod:`~trickgym.advisor.phat`, :mod:`~trickgym.advisor.pinochle`) holds
what is its own: how a call is settled and a finished contract judged
(registered for the hooks in ``trickgym.bindings.<game>``), and for the
Python half the set-up of a hand and its candidate calls.

Kept apart from :mod:`trickgym.analysis`, whose package imports pandas:
the bindings import the game parts whenever a game is built.
"""
