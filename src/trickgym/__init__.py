"""trickgym: simulate, analyse and train agents for trick-taking card games."""

from . import envs as _envs  # noqa: F401  (registers the Gymnasium env ids)
from .games import GAMES, game

__version__ = "0.1.0"
__all__ = ["GAMES", "__version__", "game"]
