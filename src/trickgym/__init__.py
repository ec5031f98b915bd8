"""trickgym: simulate, analyse and train agents for trick-taking card games."""

from . import envs as _envs  # noqa: F401  (registers the Gymnasium env ids)
from .games import GAMES, game

__version__ = "0.1.0"
__all__ = ["GAMES", "__version__", "game", "simulate", "tournament"]


def __getattr__(name):
    # simulate and tournament pull in pandas: load them on first use only.
    if name == "simulate":
        from .sim import simulate

        return simulate
    if name == "tournament":
        from .duplicate import tournament

        return tournament
    raise AttributeError(f"module 'trickgym' has no attribute {name!r}")
