"""Episode statistics of a batch of sub-envs, as SB3's ``VecMonitor`` reports them.

SB3 logs ``rollout/ep_rew_mean`` and ``ep_len_mean`` only from infos that
carry ``info["episode"] = {"r": return, "l": length, "t": seconds}`` when an
episode ends. :class:`EpisodeStats` keeps the running return and length of
every sub-env and makes those dicts, so :class:`trickgym.envs.sb3.SB3VecEnv`
reports them without a ``VecMonitor`` around it. No SB3 import: the
counting is tested without the ``train`` extra.
"""

from __future__ import annotations

import time

import numpy as np

__all__ = ["EpisodeStats"]


class EpisodeStats:
    """Running return and length per sub-env; ``update`` gives the ended episodes' dicts."""

    def __init__(self, num_envs: int):
        self.returns = np.zeros(num_envs, dtype=np.float64)
        self.lengths = np.zeros(num_envs, dtype=np.int64)
        self.t_start = time.time()

    def reset(self) -> None:
        """Every sub-env starts a new episode (after the batch's ``reset``)."""
        self.returns[:] = 0.0
        self.lengths[:] = 0

    def update(self, rewards, dones) -> dict[int, dict]:
        """Count one step; ``{i: {"r", "l", "t"}}`` for every sub-env whose episode ended.

        ``r`` is the episode's summed reward, ``l`` its number of steps and
        ``t`` the seconds since this object was made (VecMonitor's keys and
        rounding); an ended sub-env's counts restart at zero.
        """
        self.returns += np.asarray(rewards, dtype=np.float64)
        self.lengths += 1
        ended = {}
        now = round(time.time() - self.t_start, 6)
        for i in np.flatnonzero(dones):
            ended[int(i)] = {
                "r": round(float(self.returns[i]), 6),
                "l": int(self.lengths[i]),
                "t": now,
            }
            self.returns[i] = 0.0
            self.lengths[i] = 0
        return ended
