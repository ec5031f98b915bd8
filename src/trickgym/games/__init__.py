"""The games, one subpackage each, and the registry ``trickgym.game`` reads."""

from __future__ import annotations

from ..api import Game, validate_options
from .phat import Phat, PhatOptions
from .pinochle import Pinochle, PinochleOptions
from .solowhist import SoloWhist, SoloWhistOptions
from .troggu import Troggu, TrogguOptions

GAMES: dict[str, tuple[type[Game], type]] = {
    "solowhist": (SoloWhist, SoloWhistOptions),
    "troggu": (Troggu, TrogguOptions),
    "phat": (Phat, PhatOptions),
    "pinochle": (Pinochle, PinochleOptions),
}


def game_class(game) -> type[Game]:
    """The class of a game given by name, instance or class: its description without options.

    Raises ``ValueError`` for an unknown name.
    """
    if isinstance(game, str):
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}; available: {', '.join(sorted(GAMES))}")
        return GAMES[game][0]
    if isinstance(game, Game):
        return type(game)
    if isinstance(game, type) and issubclass(game, Game):
        return game
    raise ValueError(f"expected a game name or a trickgym Game, got {game!r}")


def game(name: str, **options) -> Game:
    """A game with validated options, e.g. ``game("solowhist", unit=5)``."""
    if not isinstance(name, str) or name not in GAMES:
        raise ValueError(f"unknown game {name!r}; available: {', '.join(sorted(GAMES))}")
    cls, options_cls = GAMES[name]
    return cls(validate_options(options_cls, options, name))


__all__ = ["GAMES", "game", "game_class"]
