"""Stable-Baselines3 on the native vector env: a ``VecEnv`` adapter with action masks.

``SB3VecEnv("trickgym/SoloWhist-v0", num_envs=64, opponents="rule")`` is an
SB3 ``VecEnv`` over the native vector env in ``obs_mode="features"``: the
observation is the float32 feature vector (``MlpPolicy``), the masks come
from ``action_masks()`` (sb3-contrib's ``MaskablePPO`` finds it), and an
ended episode is replaced in the same step with its last observation in
``infos[i]["terminal_observation"]``, as SB3 expects (the env runs
gymnasium's ``SAME_STEP`` autoreset). An ended episode's info also holds
``"episode": {"r": return, "l": length, "t": seconds}``, what SB3's
``VecMonitor`` adds, so SB3 logs ``ep_rew_mean`` and ``ep_len_mean`` with no
wrapper (:class:`trickgym.envs.episodes.EpisodeStats`). Keyword arguments
go to the vector env (``seat``, ``opponents``, ``bidding``, the game's
options...).

Needs the ``train`` extra; without it the import error gives the pip command
for the way trickgym was installed (:func:`trickgym.checks.install_hint`).
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode

from trickgym.checks import require_extra

from .episodes import EpisodeStats
from .inputs import check_actions, check_seed

require_extra("stable_baselines3", "train", "trickgym.envs.sb3")
from stable_baselines3.common.vec_env import VecEnv  # noqa: E402

__all__ = ["SB3VecEnv"]


class SB3VecEnv(VecEnv):
    """A trickgym native vector env as an SB3 ``VecEnv`` (see the module docstring).

    Parameters
    ----------
    env_id : str
        A trickgym env id (``"trickgym/Troggu-v0"``...).
    num_envs : int
        Batch size.
    seed : int or None
        Seed of the first reset (sub-env ``i`` gets ``seed + i``); SB3's
        ``seed()`` sets it too.
    **kwargs
        For the native vector env (``obs_mode`` and ``autoreset_mode`` are
        set by the adapter).
    """

    def __init__(self, env_id: str, num_envs: int = 16, seed: int | None = None, **kwargs):
        for fixed in ("obs_mode", "autoreset_mode"):
            if fixed in kwargs:
                raise ValueError(f"SB3VecEnv sets {fixed} itself; got {fixed}={kwargs[fixed]!r}")
        seed = check_seed(seed)
        self.vec = gym.make_vec(
            env_id, num_envs=num_envs, vectorization_mode="vector_entry_point",
            obs_mode="features", autoreset_mode=AutoresetMode.SAME_STEP, **kwargs,
        ).unwrapped  # fmt: skip
        features = self.vec.single_observation_space["features"]
        super().__init__(num_envs, features, self.vec.single_action_space)
        self._first_seed = seed
        self._actions = None
        self._episodes = EpisodeStats(num_envs)

    def seed(self, seed: int | None = None):
        """Seed the next reset: sub-env ``i`` gets ``seed + i``."""
        self._first_seed = check_seed(seed)
        return [None if seed is None else seed + i for i in range(self.num_envs)]

    def reset(self) -> np.ndarray:
        """Start every sub-env; the feature matrix ``float32[num_envs, size]``."""
        obs, _ = self.vec.reset(seed=self._first_seed)
        self._first_seed = None
        self._episodes.reset()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return obs["features"]

    def step_async(self, actions: np.ndarray) -> None:
        """Keep the actions for :meth:`step_wait` (checked now: ids of the action space)."""
        n = self.num_envs
        # A policy's (n, 1) column, taken as (n,). Not through np.asarray: it would turn
        # [True, 0] into actions 1, 0 and drop a masked array's mask (check_actions refuses).
        if isinstance(actions, np.ndarray) and actions.shape == (n, 1):
            actions = actions.reshape(n)
        elif isinstance(actions, list | tuple) and len(actions) == n:
            if all(isinstance(a, list | tuple | np.ndarray) and np.size(a) == 1 for a in actions):
                actions = [np.ravel(a)[0] if isinstance(a, np.ndarray) else a[0] for a in actions]
        self._actions = check_actions(actions, self.num_envs, self.vec.game.n_actions)

    def step_wait(self):
        """``(features, rewards, dones, infos)`` in SB3's convention."""
        obs, rewards, terminated, truncated, infos = self.vec.step(self._actions)
        dones = terminated | truncated
        out = [{} for _ in range(self.num_envs)]
        for i, episode in self._episodes.update(rewards, dones).items():
            out[i]["terminal_observation"] = infos["final_obs"][i]["features"]
            out[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            out[i]["episode"] = episode
        if "illegal_action" in infos:
            for i in np.flatnonzero(infos["illegal_action"]):
                out[i]["illegal_action"] = True
        return obs["features"], rewards.astype(np.float32), dones, out

    def action_masks(self) -> np.ndarray:
        """``bool[num_envs, n_actions]``: each sub-env's legal actions (for MaskablePPO)."""
        return self.vec.action_masks()

    def close(self) -> None:
        """Nothing to release."""

    def get_attr(self, attr_name: str, indices=None) -> list:
        """The vector env's attribute, once per selected sub-env."""
        value = getattr(self.vec, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value, indices=None) -> None:
        """Set an attribute of the vector env (shared by every sub-env)."""
        setattr(self.vec, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list:
        """``action_masks`` per sub-env (what sb3-contrib calls), else the vector env's method."""
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        result = getattr(self.vec, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        """No gymnasium wrappers: the sub-envs live in one compiled batch."""
        return [False for _ in self._get_indices(indices)]
