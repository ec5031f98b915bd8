"""Native vector envs: a batch of one game's states stepped in one compiled call.

``gymnasium.make_vec("trickgym/SoloWhist-v0", num_envs=1024,
vectorization_mode="vector_entry_point", opponents="rule")`` returns a
:class:`SoloWhistVectorEnv`; likewise for Troggu, Phat and Pinochle. See
:class:`trickgym.envs.vector.base.TrickVectorEnv`.
"""

from __future__ import annotations

from .base import BatchOptions, TrickVectorEnv
from .phat import PhatVectorEnv
from .pinochle import PinochleVectorEnv
from .solowhist import SoloWhistVectorEnv
from .troggu import TrogguVectorEnv

__all__ = [
    "BatchOptions",
    "PhatVectorEnv",
    "PinochleVectorEnv",
    "SoloWhistVectorEnv",
    "TrickVectorEnv",
    "TrogguVectorEnv",
]
