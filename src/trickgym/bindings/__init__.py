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


def register_game(game, *, encode_wide: int, **impls) -> None:
    """Register the kernels of ``game``, a package laid out as ``trickgym.games.<game>``.

    Its ``rules`` module, ``constants.CALL_BASE``, ``encode.encode_kernel``
    (with ``encode_wide`` wide arrays) and ``state`` dtypes, and the hooks
    given as keywords (see :func:`trickgym.protocol.register`).
    """
    from trickgym.protocol import register

    register(
        game.state.STATE_DTYPE,
        game.state.OBS_DTYPE,
        rules=game.rules,
        call_base=game.constants.CALL_BASE,
        encode_kernel=game.encode.encode_kernel,
        encode_wide=encode_wide,
        **impls,
    )
