"""trickgym: simulate, analyse and train agents for trick-taking card games."""

from ._kernel_cache import refresh_kernel_cache as _refresh_kernel_cache

_refresh_kernel_cache()  # before any kernel is loaded from numba's cache

from . import envs as _envs  # noqa: E402, F401  (registers the Gymnasium env ids)
from ._version import __version__  # noqa: E402
from .games import GAMES, game  # noqa: E402

__all__ = ["GAMES", "RunSpec", "__version__", "evaluate", "game", "simulate", "tournament"]


def __getattr__(name):
    # simulate and tournament pull in pandas: load them on first use only.
    if name in ("simulate", "RunSpec"):
        # lazy: trickgym.sim loads pandas
        from . import sim

        return getattr(sim, name)
    if name == "tournament":
        # lazy: trickgym.duplicate loads pandas
        from .duplicate import tournament

        return tournament
    if name == "evaluate":
        # lazy: trickgym.evaluation loads pandas
        from .evaluation import evaluate

        return evaluate
    raise AttributeError(f"module 'trickgym' has no attribute {name!r}")
