"""Gymnasium environments. Importing ``trickgym`` registers their ids:

- ``trickgym/SoloWhist-v0``: :class:`trickgym.envs.solowhist.SoloWhistEnv`
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

ENV_IDS = {"trickgym/SoloWhist-v0": "trickgym.envs.solowhist:SoloWhistEnv"}

for _env_id, _entry_point in ENV_IDS.items():
    if _env_id not in registry:
        register(id=_env_id, entry_point=_entry_point, disable_env_checker=True)

__all__ = ["ENV_IDS"]
