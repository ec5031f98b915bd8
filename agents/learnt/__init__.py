"""Learnt agents: value networks distilled from search, played without search or PyTorch.

:mod:`.net` holds the network (numpy weights in an ``.npz``), :mod:`.agent`
the fair agent that plays it (registered as ``"learnt"``), and
:mod:`trickgym.training.distill` how to train one: PIMC labels every decision
of self-played deals with each action's value, and the network learns them.
"""

from .agent import WEIGHTS_DIR, LearntAgent, shipped_weights, weights_name
from .net import ValueNet, feature_digest

__all__ = [
    "WEIGHTS_DIR",
    "LearntAgent",
    "ValueNet",
    "feature_digest",
    "shipped_weights",
    "weights_name",
]
