"""Gymnasium environments. Importing ``trickgym`` registers their ids:

- ``trickgym/SoloWhist-v0``: :class:`trickgym.envs.solowhist.SoloWhistEnv`
- ``trickgym/Troggu-v0``: :class:`trickgym.envs.troggu.TrogguEnv` (``players=3..8``)
- ``trickgym/Phat-v0``: :class:`trickgym.envs.phat.PhatEnv` (``episode="deal"|"game"``)
- ``trickgym/Pinochle-v0``: :class:`trickgym.envs.pinochle.PinochleEnv` (``mode="kitty"``
  or ``"exchange"``)

All are :class:`trickgym.envs.base.TrickEnv`: one implementation serves every
game. Each id also has a native vector env (:mod:`trickgym.envs.vector`):
``gymnasium.make_vec(id, num_envs=N, vectorization_mode="vector_entry_point")``.
The ids come from the games' descriptions (``GameDescription.envs``); a game
registered later (:func:`trickgym.games.register`) gets its ids then.
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

from trickgym.games import on_register

#: Every env id with its single env's entry point ``"module:Class"``.
ENV_IDS: dict[str, str] = {}
#: Every env id with its native vector env's entry point.
VECTOR_ENTRY_POINTS: dict[str, str] = {}


def _entry(ref: str) -> str:
    """Gymnasium's ``"module:Class"`` of a description's ``"module.Class"``."""
    module, _, name = ref.rpartition(".")
    return f"{module}:{name}"


def _register_envs(description, added: bool) -> None:
    """Register the Gymnasium ids of one game's description (once each), or drop them from
    :data:`ENV_IDS` when the game is unregistered (Gymnasium keeps its registration)."""
    for env_id, single, vector in description.envs:
        if not added:
            ENV_IDS.pop(env_id, None)
            VECTOR_ENTRY_POINTS.pop(env_id, None)
            continue
        ENV_IDS[env_id] = _entry(single)
        VECTOR_ENTRY_POINTS[env_id] = _entry(vector)
        if env_id not in registry:
            register(
                id=env_id,
                entry_point=ENV_IDS[env_id],
                vector_entry_point=VECTOR_ENTRY_POINTS[env_id],
                disable_env_checker=True,
            )


on_register(_register_envs)

__all__ = ["ENV_IDS", "VECTOR_ENTRY_POINTS"]
