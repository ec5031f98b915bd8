"""Each game's kernels registered for the game protocol (:mod:`trickgym.protocol`), once.

One module per game. A game class names its module in its ``bindings``
attribute and :func:`trickgym.protocol.require` imports it before a generic
kernel is compiled for that game; nothing here is imported by the generic
kernels themselves, so the layers below never import the ones above.
"""

#: The oracle of the point-trick games (Phat, Pinochle, Troggu): :mod:`trickgym.agents.oracle`.
POINTS_ORACLE = {
    "oracle_action": "trickgym.agents.oracle:points_oracle",
    "oracle_no_table": "trickgym.agents.oracle:points_no_table",
    "oracle_table": "trickgym.agents.oracle:points_table",
}
