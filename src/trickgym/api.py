"""The Python game API, the same for every game: ``Game`` and ``State``.

A ``State`` wraps a one-record array of the game's state dtype and steps it
with the game's kernels, adding what people and tests need: validation with
clear errors, action names, observations as arrays, printing and cloning.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from typing import Any, NamedTuple

import numpy as np

from .cards.notation import format_card, parse_card
from .checks import as_int, check_flag, check_int, check_seed
from .pictures import Picture
from .pictures.table import table_scene
from .protocol import kernel, require
from .render import card_label, seat_hand

__all__ = ["BidWords", "Game", "SearchDefaults", "State", "validate_options"]


def _fold(text: str) -> str:
    """Case- and accent-insensitive key for matching action names."""
    text = unicodedata.normalize("NFKD", text.strip()).encode("ascii", "ignore").decode()
    return " ".join(text.lower().replace("&", "and").split())


def validate_options(options_cls, kwargs: dict[str, Any], game: str | None = None):
    """Build a frozen options object, naming unknown options and the allowed ones.

    A required option left out is named with what it allows and an example
    when its field's metadata give them (``allowed``, ``example``).
    """
    allowed = [f.name for f in dataclasses.fields(options_cls)]
    unknown = sorted(set(kwargs) - set(allowed))
    if unknown:
        raise ValueError(f"unknown option(s) {', '.join(unknown)}; allowed: {', '.join(allowed)}")
    missing = [
        f.name
        for f in dataclasses.fields(options_cls)
        if f.default is dataclasses.MISSING and f.name not in kwargs
    ]
    if missing:
        field = next(f for f in dataclasses.fields(options_cls) if f.name == missing[0])
        allowed = field.metadata.get("allowed")
        example = field.metadata.get("example", "...")
        raise ValueError(
            f"option{'s' * (len(missing) > 1)} {', '.join(missing)} "
            f"{'are' if len(missing) > 1 else 'is'} required"
            f"{f' for {game}' if game else ''}{f' ({allowed})' if allowed else ''}, "
            f"e.g. {missing[0]}={example}"
        )
    return options_cls(**kwargs)


@dataclasses.dataclass(frozen=True)
class SearchDefaults:
    """How the Monte Carlo agents play a game unless told otherwise.

    ``samples``: PIMC determinisations per decision; ``iterations``: ISMCTS
    iterations per decision; ``others``: who acts for the other seats inside
    the ISMCTS tree (``"tree"`` or ``"rule"``); ``phases``: the phases whose
    decisions are searched (the rule agent takes the others);
    ``trick_memory``: the seat keeps which team took the cards of past tricks
    (the game's observation record does not say).
    """

    samples: int
    iterations: int
    others: str
    phases: frozenset[int]
    trick_memory: bool = False


class BidWords(NamedTuple):
    """What a game calls a bid and the seat that makes it, in plots and tables.

    The analysis reads every game's deals as bids (made or not). A game
    with an auction has contracts and a declarer; Phat has no auction (the
    pitcher's first card names trumps), so its bids are pitches and their
    maker the pitcher.
    """

    contract: str = "contract"
    contracts: str = "contracts"
    declarer: str = "declarer"


class _FromDescription:
    """A class attribute of the game read from its description (:class:`GameDescription`).

    The agents sit above the games layer, so a game module cannot import its
    rule agent; its description names it instead. ``read(description,
    game_class)`` gives the value, on the class as on an instance.
    """

    def __init__(self, read, doc: str):
        self.read = read
        self.__doc__ = doc

    def __get__(self, obj, cls):
        return self.read(require(cls), cls)


class _Description:
    """``Game.description``: the game's entry in the registry (:mod:`trickgym.games`)."""

    __doc__ = "The game's :class:`trickgym.protocol.GameDescription`, from the registry."

    def __get__(self, obj, cls):
        # lazy: trickgym.games imports this module
        from .games import description

        return description(cls.name)


def _rule_policy(description, cls):

    return kernel(cls, "rule_policy")


class Game:
    """A game with fixed options: makes states and names actions.

    Actions ``0 .. deck.n_cards-1`` are cards, the rest are calls named by
    ``call_names``. Legal actions come from the kernels as two bit sets
    ``(low, high)``: bit ``a`` of ``low`` for actions below ``call_base``,
    bit ``a - call_base`` of ``high`` for the others.

    Subclasses set ``name``, ``n_seats``, ``n_actions``, ``call_base``,
    ``deck``, ``kernels`` (the module of rules kernels), ``state_dtype``,
    ``obs_dtype``, ``obs_layout`` and ``encode_kernel`` (from the game's
    ``encode`` module), and implement ``deal``,
    ``new_match`` and the parts of ``render`` that are their own
    (``_title`` and ``_seat_line``, and where they have them ``_table_lines``,
    ``_result_lines``, ``_is_declarer`` and ``_face_up``).

    They describe the game's rules facts for the Python side, so that
    nothing branches on a game's name: ``title`` (its name for people),
    ``phase_names`` (per phase number),
    ``play_phase`` (the card play's phase), ``features`` and
    ``feature_labels`` (the encode module's feature table,
    :mod:`trickgym.games.obs_features`), ``search`` (the Monte Carlo
    agents' :class:`SearchDefaults`), ``solver`` (which solver values its
    card play: ``"dd"``, tricks double dummy, ``"points"``, the point-trick
    search, or None), ``run_unit`` (what a simulation counts:
    ``"deals"`` or ``"matches"``), ``partnership`` (two fixed teams, NS and
    EW), ``advisor`` (the module of the hand advisor's part for the game,
    :mod:`trickgym.advisor`, or None), ``bid_words`` (:class:`BidWords`:
    what the analysis calls a bid and its maker), for the envs
    :attr:`payoff_bound`, :meth:`contract_of` with :attr:`contract_fields` and
    :meth:`_obs_ranges` (``docs/spec.md``), and override :meth:`has_side` and
    :attr:`tag` where the game needs to. Everything else (its kernels for
    the protocol, the rule agent's ``rule_options`` and ``rule_kernel``,
    which sit above the games layer, its simulation and envs) is named by
    the game's one :attr:`description` (:class:`trickgym.protocol.GameDescription`).
    """

    name: str
    n_seats: int
    n_actions: int
    call_base: int
    call_names: tuple[str, ...]
    kernels: Any
    state_dtype: np.dtype
    obs_dtype: np.dtype
    obs_layout: Any
    encode_kernel: Any
    title: str
    phase_names: tuple[str, ...]
    play_phase: int
    features: tuple
    feature_labels: dict
    search: SearchDefaults
    solver: str | None = None
    run_unit: str = "deals"
    partnership: bool = False
    advisor: str | None = None
    bid_words: BidWords = BidWords()

    description = _Description()
    rule_options = _FromDescription(
        lambda description, cls: description.rule_options_class(),
        "The rule agent's options dataclass (its heuristics' thresholds), named by the "
        "game's description.",
    )
    rule_kernel = _FromDescription(
        _rule_policy,
        "``rule_policy(obs, values, rng)``: the rule agent's action from a seat's observation "
        "record (the kernel registered for the protocol's ``rule_policy`` hook).",
    )

    def __init__(self, options):
        require(self)  # the generic kernels reach this game's rules through its description
        self.options = options
        # Calls by name; cards go through the deck's notation (first copy).
        n_cards = self.deck.n_cards
        self._by_name = {_fold(self.action_name(a)): a for a in range(n_cards, self.n_actions)}

    def __repr__(self) -> str:
        return f"trickgym.game({self.name!r}, {self.options})"

    def non_default_options(self) -> dict:
        """The options that differ from what ``trickgym.game(name, **required)`` gives.

        ``trickgym.game(self.name, **game.non_default_options())`` is this table
        again; an option derived from another (Troggu's ``num_deals`` from
        ``players``) is left out while it has its derived value.
        """
        fields = dataclasses.fields(self.options)
        required = {f.name: getattr(self.options, f.name) for f in fields
                    if f.default is dataclasses.MISSING}  # fmt: skip
        defaults = type(self.options)(**required)
        return {
            f.name: getattr(self.options, f.name)
            for f in fields
            if f.name in required or getattr(self.options, f.name) != getattr(defaults, f.name)
        }

    @property
    def tag(self) -> str:
        """The game's name, with its table size where that is an option (``"troggu-5p"``)."""
        return self.name

    @property
    def obs_shapes(self) -> dict:
        """The observation table ``{key: (shape, dtype, low, high)}`` (the encode module's)."""
        return self.obs_layout.obs_shapes

    @property
    def payoff_bound(self) -> int:
        """The largest magnitude of a seat's payoff for one deal at these options.

        Derived from the game's scoring rules (``rules.payoff_bound``), not
        measured: no deal pays a seat more, or costs it more. The envs'
        default illegal-action penalty.
        """
        raise NotImplementedError

    @property
    def obs_ranges(self) -> dict[str, tuple[int, int]]:
        """Each observation key's ``(low, high)`` at these options, as the envs' episodes see it.

        The encode module's ``OBS_SHAPES`` bounds, narrowed by the game
        (:meth:`_obs_ranges`) where the true range depends on the options:
        scores, bids, meld. The envs' observation spaces and the feature
        columns' bounds (:mod:`trickgym.games.obs_features`) come from it.
        """
        ranges = {k: (int(lo), int(hi)) for k, (_s, _d, lo, hi) in self.obs_shapes.items()}
        ranges.update(self._obs_ranges())
        return ranges

    def _obs_ranges(self) -> dict[str, tuple[int, int]]:
        """The ranges of :attr:`obs_ranges` that the options decide (default: none)."""
        return {}

    #: The state fields :meth:`contract_of` reads (at most three, each -1 .. 2**20-2):
    #: the vector env names the contracts of a batch once per distinct value of them.
    contract_fields: tuple[str, ...] = ()

    def contract_of(self, record) -> tuple[str, int]:
        """``(contract, declarer)`` of a state record: its name (``""`` while there is
        none) and the declaring seat (-1 for none): what the envs' ``info`` carries.
        It reads only the fields of :attr:`contract_fields`."""
        raise NotImplementedError

    def contracts_of(self, states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`contract_of` of every record of ``states``: ``(object[n], int64[n])``,
        each distinct value of :attr:`contract_fields` named once."""
        key = np.zeros(states.shape[0], dtype=np.int64)
        for i, field in enumerate(self.contract_fields):
            key |= (states[field].astype(np.int64) + 1) << (20 * i)
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        named = [self.contract_of(states[i]) for i in first]
        names = np.empty(len(named), dtype=object)
        names[:] = [name for name, _ in named]
        declarers = np.array([seat for _, seat in named], dtype=np.int64)
        return names[inverse], declarers[inverse]

    def has_side(self, record) -> bool:
        """Whether the deal of ``record`` (a state or observation record) has a declaring side.

        The point-trick solver values a side's points against the others';
        a contract where everybody plays for themselves has none.
        """
        return True

    def action_name(self, action: int) -> str:
        """Human name of action id ``action`` (a card or a call)."""
        action = as_int("action", action)
        n_cards = self.deck.n_cards
        if 0 <= action < n_cards:
            return format_card(action, self.deck)
        if n_cards <= action < self.n_actions:
            return self.call_names[action - n_cards]
        raise ValueError(f"action {action} out of range 0..{self.n_actions - 1}")

    def parse_action(self, action) -> int:
        """Action id of an int or a name (``"QH"``, ``"10H"``, ``"Solo"``, ``"misere"``)."""
        if isinstance(action, str):
            key = _fold(action)
            if key in self._by_name:
                return self._by_name[key]
            try:
                return parse_card(action, self.deck)
            except ValueError:
                pass
            raise ValueError(
                f"unknown action {action!r} for {self.name}: give a card, a call or an id"
            )
        try:
            a = as_int("action", action)
        except ValueError:
            raise ValueError(
                f"unknown action {action!r} for {self.name}: give a card, a call or an integer id"
            ) from None
        if 0 <= a < self.n_actions:
            return a
        raise ValueError(f"action {a} out of range 0..{self.n_actions - 1}")

    def new_match(self, seed, num_deals: int | None = None, dealer: int = -1) -> np.ndarray:
        """A one-record state array holding a new match (first deal dealt) from ``seed``.

        ``num_deals`` defaults to the option; ``dealer`` -1 draws the first dealer.
        """
        raise NotImplementedError

    def _match_args(self, seed, num_deals, dealer) -> tuple:
        """``new_match``'s arguments checked before they reach a fixed-width field.

        ``seed`` 0 .. 2**64-1 (as ``np.uint64``), ``num_deals`` None or
        1 .. 10,000, ``dealer`` -1 or a seat; anything else is a ``ValueError``
        naming it (a kernel would wrap -1 into a huge seed or fail to type a str).
        """
        seed = np.uint64(check_seed(seed, optional=False))
        if num_deals is not None:
            num_deals = check_int("num_deals", num_deals, 1, 10_000)
        return seed, num_deals, check_int("dealer", dealer, -1, self.n_seats - 1)

    def encode_observation(self, observations, j: int = 0) -> dict[str, np.ndarray]:
        """Array form of ``observations[j]`` (see the game's ``encode`` module)."""
        return self.obs_layout.encode(self.encode_kernel, observations, j)

    def action_mask(self, legal_cards, legal_calls) -> np.ndarray:
        """0/1 ``int8`` mask over all actions from the two legal bit sets."""
        # lazy: trickgym.games.encoding imports this module (an import circle)
        from .games.encoding import mask_from_sets

        return mask_from_sets(legal_cards, legal_calls, self.call_base, self.n_actions)

    def render(
        self,
        state: State,
        symbols: bool = True,
        color: bool = False,
        viewer: int | None = None,
        mark_legal: bool = False,
    ) -> str:
        """Text picture: a title, one line per seat, the table, the trick and the result.

        ``color`` paints the suits (ANSI); ``viewer`` hides the other seats'
        hands (an exposed hand stays shown); ``mark_legal`` marks the legal
        cards of the player to move (see ``trickgym.render``).
        """
        if not isinstance(state, State) or state.game.name != self.name:
            raise ValueError(f"state must be a {self.name} State, got {state!r:.60}")
        symbols, color = check_flag("symbols", symbols), check_flag("color", color)
        mark_legal = check_flag("mark_legal", mark_legal)
        if viewer is not None:
            viewer = check_int("viewer", viewer, 0, self.n_seats - 1)
        r = state.record
        lines = [self._title(state, symbols, color)]
        for s in range(self.n_seats):
            hand = seat_hand(
                state,
                s,
                viewer=viewer,
                symbols=symbols,
                color=color,
                mark_legal=mark_legal,
                face_up=self._face_up(state, s),
            )
            marks = ["declarer"] if self._is_declarer(state, s) else []
            if s == state.current_player:
                marks.append("to move")
            lines.append(self._seat_line(state, s, hand, " ".join(marks)))
        lines += self._table_lines(state, symbols, color)
        if r["trick_n"]:
            trick = r["trick_cards"][: r["trick_n"]]
            cards = " ".join(card_label(c, self.deck, symbols, color) for c in trick)
            lines.append(f"  trick {int(r['trick_no']) + 1} led by {int(r['leader'])}: {cards}")
        lines += self._result_lines(state)
        return "\n".join(lines)

    def describe(self, state: State) -> dict:
        """The words of a table picture, without colour: what :mod:`trickgym.pictures` draws.

        ``{"title": str, "seats": [caption per seat], "table": [lines],
        "result": [lines], "declarers": [seats], "face_up": [seats]}``: the
        title line, each seat's caption (``"0 NS: meld 40 tricks 2"``,
        without its hand), the auction or contract lines, the scores and
        result lines, the seats marked as declarers and the exposed hands.
        """
        if not isinstance(state, State) or state.game.name != self.name:
            raise ValueError(f"state must be a {self.name} State, got {state!r:.60}")
        seats = range(self.n_seats)
        return {
            "title": self._title(state, True, False),
            # A seat line without its hand, its padding folded away.
            "seats": [" ".join(self._seat_line(state, s, "", "").split()) for s in seats],
            "table": [line.strip() for line in self._table_lines(state, True, False)],
            "result": [line.strip() for line in self._result_lines(state)],
            "declarers": [s for s in seats if self._is_declarer(state, s)],
            "face_up": [s for s in seats if self._face_up(state, s)],
        }

    # The game's own parts of ``render``.

    def _title(self, state: State, symbols: bool, color: bool) -> str:
        """The picture's first line: the game, the deal, the phase."""
        raise NotImplementedError

    def _seat_line(self, state: State, seat: int, hand: str, marks: str) -> str:
        """Seat ``seat``'s line: its ``hand`` as shown, its ``marks`` (declarer, to move)."""
        raise NotImplementedError

    def _table_lines(self, state: State, symbols: bool, color: bool) -> list[str]:
        """Lines between the seats and the trick: the auction, the contract, a kitty."""
        return []

    def _result_lines(self, state: State) -> list[str]:
        """Lines after the trick: scores, and the result of a finished deal."""
        return []

    def _is_declarer(self, state: State, seat: int) -> bool:
        """Whether ``seat`` is marked as the declarer: the state's ``declarer``, if it has one."""
        r = state.record
        return "declarer" in r.dtype.names and seat == r["declarer"]

    def _face_up(self, state: State, seat: int) -> bool:
        """Whether ``seat``'s hand is shown to every viewer (an exposed hand)."""
        return False

    def _wrap(self, array: np.ndarray) -> State:
        return State(self, array)


class State:
    """One game in progress: a one-record array stepped by the game's kernels."""

    def __init__(self, game: Game, array: np.ndarray):
        self.game = game
        self._array = array

    @property
    def record(self):
        """The underlying numpy structured record (shared, not a copy)."""
        return self._array[0]

    @property
    def array(self) -> np.ndarray:
        """The one-record state array, for kernels that take a batch."""
        return self._array

    @property
    def current_player(self) -> int:
        """The seat to act, or -1 when the deal is over."""
        over, _, to_move = self.game.kernels.status_at(self._array, 0)
        return -1 if over else int(to_move)

    @property
    def is_over(self) -> bool:
        """Whether the current deal is over (scored or passed out)."""
        return bool(self.game.kernels.status_at(self._array, 0)[0])

    @property
    def match_over(self) -> bool:
        """Whether the whole match is over."""
        return bool(self.game.kernels.status_at(self._array, 0)[1])

    @property
    def payoffs(self) -> np.ndarray:
        """Each seat's payoff for the current deal (zeros until it is over)."""
        return self.record["payoffs"][: self.game.n_seats].astype(np.int64)

    @property
    def scores(self) -> np.ndarray:
        """Cumulative match scores: per seat, or per team (NS, EW) in partnership games."""
        return self.record["scores"][: self.game.n_seats].astype(np.int64)

    def legal_actions(self) -> list[int]:
        """Ids of the legal actions of the player to move, ascending."""
        return np.flatnonzero(self.legal_action_mask()).tolist()

    def legal_action_mask(self) -> np.ndarray:
        """Boolean mask over all ``game.n_actions`` actions."""
        cards, calls = self.game.kernels.legal_sets_at(self._array, 0)
        return self.game.action_mask(cards, calls).astype(bool)

    def action_name(self, action) -> str:
        """Human name of an action id."""
        return self.game.action_name(action)

    def apply(self, action) -> State:
        """Play ``action`` (id or name) for the player to move; returns ``self``.

        Raises ``ValueError`` naming the action and the legal ones if it is
        unknown or illegal; the state is then unchanged.
        """
        if self.is_over:
            raise ValueError(f"the deal is over; cannot apply {action!r} (call next_deal())")
        a = self.game.parse_action(action)
        if isinstance(action, str) and a < self.game.deck.n_cards:
            a = self._legal_copy(a)
        if not self.game.kernels.is_legal_at(self._array, 0, a):
            legal = ", ".join(self.action_name(x) for x in self.legal_actions())
            raise ValueError(
                f"illegal action {self.action_name(a)!r} ({a}) for seat {self.current_player}; "
                f"legal: {legal}"
            )
        self.game.kernels.apply_action_at(self._array, 0, a)
        return self

    def _legal_copy(self, card: int) -> int:
        """For a card given by name, the legal one of its identical copies (if any)."""
        copies = self.game.deck.copies
        first = card - card % copies
        for c in range(first, first + copies):
            if self.game.kernels.is_legal_at(self._array, 0, c):
                return c
        return card

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        """Seat ``seat``'s information set as a dict of fixed-shape arrays."""
        seat = check_int("seat", seat, 0, self.game.n_seats - 1)
        obs = np.zeros(1, dtype=self.game.obs_dtype)
        self.game.kernels.observe_at(self._array, 0, seat, obs, 0)
        return self.game.encode_observation(obs, 0)

    def next_deal(self) -> State:
        """Start the match's next deal in place (the current one must be over)."""
        if not self.is_over:
            raise ValueError("the current deal is not over yet")
        if self.match_over:
            raise ValueError("the match is over; start a new one with game.deal()")
        self.game.kernels.next_deal_at(self._array, 0)
        return self

    def clone(self) -> State:
        """An independent copy."""
        return State(self.game, self._array.copy())

    def picture(self, viewer: int | None = None, mark_legal: bool = True):
        """The table as a picture (:class:`trickgym.pictures.Picture`): SVG or an RGB array.

        ``viewer`` None shows every hand; a seat shows that seat's view (the
        other hands as card backs), what its observation holds. ``mark_legal`` outlines
        the cards the player to move may play.
        """
        if viewer is not None:
            viewer = check_int("viewer", viewer, 0, self.game.n_seats - 1)
        mark_legal = check_flag("mark_legal", mark_legal)
        return Picture(table_scene(self, viewer, mark_legal))

    def to_svg(self, viewer: int | None = None) -> str:
        """The table as an SVG document (every hand open, or ``viewer``'s view)."""
        return self.picture(viewer).to_svg()

    def save_svg(self, path, viewer: int | None = None) -> None:
        """Write the table's SVG picture to ``path`` (every hand open, or ``viewer``'s view)."""
        self.picture(viewer).save_svg(path)

    def _repr_svg_(self) -> str:
        # Jupyter shows a state as its picture, every hand open.
        return self.to_svg()

    def __str__(self) -> str:
        return self.game.render(self)

    def __repr__(self) -> str:
        return f"<{self.game.name} state, player {self.current_player} to move>"

    def __getstate__(self):
        return {"game": self.game, "array": self._array}

    def __setstate__(self, d):
        self.game = d["game"]
        self._array = d["array"]
