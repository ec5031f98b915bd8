"""Gymnasium environments. Importing ``trickgym`` registers their ids:

- ``trickgym/SoloWhist-v0``: :class:`trickgym.envs.solowhist.SoloWhistEnv`
- ``trickgym/Troggu-v0``: :class:`trickgym.envs.troggu.TrogguEnv` (``players=3..8``)
- ``trickgym/Phat-v0``: :class:`trickgym.envs.phat.PhatEnv` (``episode="deal"|"game"``)
- ``trickgym/Pinochle-v0``: :class:`trickgym.envs.pinochle.PinochleEnv` (``mode="kitty"``
  or ``"exchange"``)

All are :class:`trickgym.envs.base.TrickEnv`: one implementation serves every
game. Each id also has a native vector env (:mod:`trickgym.envs.vector`):
``gymnasium.make_vec(id, num_envs=N, vectorization_mode="vector_entry_point")``.
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

ENV_IDS = {
    "trickgym/SoloWhist-v0": "trickgym.envs.solowhist:SoloWhistEnv",
    "trickgym/Troggu-v0": "trickgym.envs.troggu:TrogguEnv",
    "trickgym/Phat-v0": "trickgym.envs.phat:PhatEnv",
    "trickgym/Pinochle-v0": "trickgym.envs.pinochle:PinochleEnv",
}

VECTOR_ENTRY_POINTS = {
    "trickgym/SoloWhist-v0": "trickgym.envs.vector.solowhist:SoloWhistVectorEnv",
    "trickgym/Troggu-v0": "trickgym.envs.vector.troggu:TrogguVectorEnv",
    "trickgym/Phat-v0": "trickgym.envs.vector.phat:PhatVectorEnv",
    "trickgym/Pinochle-v0": "trickgym.envs.vector.pinochle:PinochleVectorEnv",
}

for _env_id, _entry_point in ENV_IDS.items():
    if _env_id not in registry:
        register(
            id=_env_id,
            entry_point=_entry_point,
            vector_entry_point=VECTOR_ENTRY_POINTS[_env_id],
            disable_env_checker=True,
        )

__all__ = ["ENV_IDS"]
