"""Training: the code that makes the shipped weights and fitted settings, never needed to play.

:mod:`.distill` distils PIMC into a learnt agent's value network,
:mod:`.dmc` trains one by Deep Monte Carlo, :mod:`.oracle_labels` and
:mod:`.card_scorer` make the ``dmc`` agent's per-card scorer, and
:mod:`.fit_bidder` fits the rule agent's bidding thresholds by duplicate
play. The agents that play what these make live in :mod:`trickgym.agents`.
"""
