"""The hand advisor: how each call a seat could make now would fare, over sampled deals.

:mod:`.advise` (the Python half: options, candidate calls, the frame;
``hand_odds``, ``advise_state``) runs :mod:`~trickgym.advisor.kernels`, written once over the
protocol's advisor hooks (``advise_settle``, ``advise_outcome`` and, for a
game with a solver, ``advise_solver`` and ``advise_solve``). Each game's
module (:mod:`~trickgym.advisor.solowhist`, :mod:`~trickgym.advisor.troggu`,
:mod:`~trickgym.advisor.phat`, :mod:`~trickgym.advisor.pinochle`) holds
what is its own: how a call is settled and a finished contract judged
(named for the hooks by ``trickgym.games.<game>.description``), and for the
Python half the set-up of a hand and its candidate calls. :mod:`.command`
is the ``trickgym advise`` command.

This package's ``__init__`` imports nothing: the game descriptions name the
game parts as strings, resolved when a kernel needs them, and :mod:`.advise`
imports pandas.
"""
