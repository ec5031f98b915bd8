"""Pieces the games' descriptions share (:class:`trickgym.protocol.GameDescription`)."""

from __future__ import annotations

__all__ = ["POINTS_ORACLE", "POINT_SOLVER_HOOKS", "point_solver"]

#: The oracle of the point-trick games (Phat, Pinochle, Troggu): :mod:`trickgym.agents.oracle`.
POINTS_ORACLE = {
    "oracle_action": "trickgym.agents.oracle:points_oracle",
    "oracle_no_table": "trickgym.agents.oracle:points_no_table",
    "oracle_table": "trickgym.agents.oracle:points_table",
}

#: The point-trick solver's hooks (:mod:`trickgym.solvers.points_search`).
POINT_SOLVER_HOOKS = (
    "in_side",
    "side_points",
    "bounds",
    "key",
    "points",
    "suit",
    "fixed",
    "wins_now",
    "winner",
    "prepare",
    "unit",
    "span",
    "beaters",
    "unequal_ok",
)


def point_solver(table: str) -> dict[str, str]:
    """The point-trick solver's hooks of a game, each an item of its hook table.

    ``table`` is ``"module:NAME"`` of a mapping from hook name to kernel (a
    solver module's ``POINT_HOOKS``); it is imported only when a kernel
    calling one of them compiles.
    """
    if ":" not in table:
        raise ValueError(f"expected 'module:NAME' of a hook table, got {table!r}")
    return {name: f"{table}[{name}]" for name in POINT_SOLVER_HOOKS}
