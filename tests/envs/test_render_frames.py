"""``render_mode="rgb_array"``: every game's envs give frames, and RecordVideo records them.

The frames are ``uint8[H, W, 3]``, one size per game, and change when a card
is played; Gymnasium's own ``RecordVideo`` wrapper writes a video of one
episode of each game's single-seat env.
"""

from __future__ import annotations

import itertools

import gymnasium as gym
import numpy as np
import pytest
from conformance_helpers import CONFIGS, IDS


def _check_frame(frame, shape=None) -> tuple:
    assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
    assert frame.ndim == 3 and frame.shape[2] == 3 and frame.shape[0] > 100
    assert shape is None or frame.shape == shape
    assert frame.std() > 10  # a drawn table, not a blank canvas
    return frame.shape


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_pettingzoo_frames_change_when_a_card_is_played(config):
    tz = pytest.importorskip("trickgym.envs.pettingzoo")
    env = tz.raw_env(config.name, render_mode="rgb_array", **config.options)
    assert "rgb_array" in env.metadata["render_modes"]
    env.reset(seed=3)
    state = env.state_view
    while int(state.record["phase"]) != state.game.play_phase:  # bid high, to the first card
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[-1]))
    before = env.render()
    shape = _check_frame(before)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    after = env.render()
    _check_frame(after, shape)
    assert (before != after).any(axis=2).sum() > 200  # a card moved from a hand to the table


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_record_video_records_an_episode_of_the_single_seat_env(config, tmp_path):
    pytest.importorskip("moviepy")
    env = gym.make(config.env_id, render_mode="rgb_array", **config.options)
    folder = tmp_path / "videos"  # RecordVideo makes it (an existing one: a warning)
    env = gym.wrappers.RecordVideo(
        env, str(folder), episode_trigger=lambda episode: True, disable_logger=True
    )
    env.reset(seed=5)
    done = False
    while not done:
        mask = env.unwrapped.action_masks()
        _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(mask)[0]))
        done = terminated or truncated
    frames = env.recorded_frames  # the reset's frame and one per step, until close() encodes
    assert len(frames) >= 2
    shape = _check_frame(frames[0])
    for before, after in itertools.pairwise(frames):
        _check_frame(after, shape)
        assert (before != after).any()  # each step played at least the learner's action
    env.close()
    videos = list(folder.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000


def test_the_envs_name_the_render_modes_they_allow():
    with pytest.raises(ValueError, match="rgb_array"):
        gym.make("trickgym/Phat-v0", render_mode="rgb")
