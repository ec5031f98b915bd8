"""The games, one subpackage each, and the registry of their descriptions.

Each game package exports one :class:`trickgym.protocol.GameDescription`
(``DESCRIPTION``); the simulator, the envs, ``warm``, the analysis and the
CLI read the registry built from them here. :func:`register` adds a game
from outside the package (a test's, a user's).
"""

from __future__ import annotations

from ..api import Game, validate_options
from ..protocol import GameDescription
from . import phat, pinochle, solowhist, troggu
from .phat import Phat, PhatOptions
from .pinochle import Pinochle, PinochleOptions
from .solowhist import SoloWhist, SoloWhistOptions
from .troggu import Troggu, TrogguOptions

__all__ = [
    "DESCRIPTIONS",
    "GAMES",
    "Phat",
    "PhatOptions",
    "Pinochle",
    "PinochleOptions",
    "SoloWhist",
    "SoloWhistOptions",
    "Troggu",
    "TrogguOptions",
    "description",
    "game",
    "game_class",
    "on_register",
    "register",
    "unregister",
]

#: Every registered game's description by name, in registration order.
DESCRIPTIONS: dict[str, GameDescription] = {}
#: ``{name: (Game class, options class)}``: the same registry, for the Python API.
GAMES: dict[str, tuple[type[Game], type]] = {}
# Called with each description registered: the layers above (the envs' Gymnasium ids)
# subscribe here rather than being imported by this one.
_LISTENERS: list = []


def on_register(listener) -> None:
    """Call ``listener(description, True)`` for every game registered, now and later, and
    ``listener(description, False)`` for every game unregistered.

    How a layer above the games (the envs' Gymnasium ids) keeps in step with
    the registry without the games importing it.
    """
    _LISTENERS.append(listener)
    for known in list(DESCRIPTIONS.values()):
        listener(known, True)


def register(description: GameDescription, *, replace: bool = False) -> GameDescription:
    """Add a game to the registry: ``trickgym.game(name)``, ``simulate``, the envs read it.

    ``description`` is the game's :class:`~trickgym.protocol.GameDescription`;
    registering a name twice is a ``ValueError`` unless ``replace`` (or it is
    the very same description). Its kernels are registered for the protocol
    when the first game of it is made.
    """
    if not isinstance(description, GameDescription):
        raise ValueError(f"expected a trickgym.protocol.GameDescription, got {description!r:.80}")
    name = description.name
    known = DESCRIPTIONS.get(name)
    if known is not None and known is not description and not replace:
        raise ValueError(f"game {name!r} is already registered; pass replace=True to replace it")
    DESCRIPTIONS[name] = description
    GAMES[name] = (description.game, description.options)
    for listener in _LISTENERS:
        listener(description, True)
    return description


def unregister(name: str) -> GameDescription:
    """Take a registered game out of the registry again (a test's game, once its tests ran).

    Returns its description; raises ``ValueError`` for a name not registered.
    Its kernels stay registered for the protocol (they are keyed by its
    dtypes), so registering it again is cheap.
    """
    if name not in DESCRIPTIONS:
        raise ValueError(f"game {name!r} is not registered; registered: {', '.join(DESCRIPTIONS)}")
    description = DESCRIPTIONS.pop(name)
    del GAMES[name]
    for listener in _LISTENERS:
        listener(description, False)
    return description


for _package in (solowhist, troggu, phat, pinochle):
    register(_package.DESCRIPTION)
del _package


def description(game) -> GameDescription:
    """The registered description of a game given by name, instance or class.

    Raises ``ValueError`` for an unknown game.
    """
    name = game if isinstance(game, str) else getattr(game, "name", None)
    if not isinstance(name, str) or name not in DESCRIPTIONS:
        raise ValueError(f"unknown game {game!r}; available: {', '.join(sorted(DESCRIPTIONS))}")
    return DESCRIPTIONS[name]


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
