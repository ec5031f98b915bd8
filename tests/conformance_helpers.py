"""What the conformance suite knows of each game: configurations, rule facts, hidden cards.

The suite (``tests/games``, ``tests/envs``, ``tests/agents``, ``tests/sim``)
checks each behaviour once, over every configuration in :data:`CONFIGS`.
What differs between the games is written here as data or as one small
function per game, each taken from the rules files (``docs/rules/*.md``),
never from the kernels:

- :class:`Config`: the game and its options, the env that plays it, the play
  phase, whose payoffs are shared, how ``simulate`` counts its work;
- :func:`set_aside`: the cards a deal leaves out of play;
- :func:`known_cards`: the cards a seat has seen (its information set);
- :func:`deal_like`: the same deal with other cards in the holdings.

Tests reach the games through public APIs only (``trickgym.game``, ``State``,
the envs, ``simulate``, ``make_agent``, ``python_action``) and the stable
``game.kernels.*_at`` entry points; the one exception, the built-in agents'
compiled entry point, is wrapped in :func:`builtin_action`.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass, field

import numpy as np

import trickgym


@dataclass(frozen=True)
class Config:
    """One game configuration the suite runs over."""

    id: str
    name: str
    options: dict = field(default_factory=dict)
    env_id: str = ""
    #: Partnership game: seats ``s`` and ``s + 2`` share one payoff.
    teams: bool = False
    #: The record field naming the seat that deals (Phat: the pitcher).
    dealer_field: str = "dealer"
    #: The record fields the rules make public that hidden cards decide
    #: (Troggu's forced Tapp goes to the Fool's holder, Pinochle's meld).
    public: tuple[str, ...] = ()
    #: Options that make a whole match short enough to play out.
    short_match: dict = field(default_factory=dict)
    #: The ``simulate`` keyword that counts the work (Phat races whole matches).
    unit: str = "deals"
    #: The text the ansi render starts with or contains.
    title: str = ""


CONFIGS = [
    Config(
        "solowhist",
        "solowhist",
        env_id="trickgym/SoloWhist-v0",
        short_match={"num_deals": 3},
        title="Solo Whist",
    ),
    *(
        Config(
            f"troggu{n}",
            "troggu",
            {"players": n},
            env_id="trickgym/Troggu-v0",
            public=("contract", "declarer", "called_card"),
            short_match={"num_deals": 2},
            title=f"Troggu, {n} players",
        )
        for n in (3, 5, 8)
    ),
    Config(
        "phat",
        "phat",
        env_id="trickgym/Phat-v0",
        teams=True,
        dealer_field="pitcher",
        short_match={"target": 60},
        unit="matches",
        title="Phat",
    ),
    *(
        Config(
            f"pinochle-{mode}",
            "pinochle",
            {"mode": mode},
            env_id="trickgym/Pinochle-v0",
            teams=True,
            public=("meld", "meld_cards"),
            short_match={"target": 100},
            title=f"Pinochle ({mode})",
        )
        for mode in ("kitty", "exchange")
    ),
]
IDS = [c.id for c in CONFIGS]
BY_ID = {c.id: c for c in CONFIGS}


@functools.cache
def _game(name: str, options: tuple) -> trickgym.api.Game:
    return trickgym.game(name, **dict(options))


def game_of(config: Config, **more) -> trickgym.api.Game:
    """The configuration's game (built once per option set and process)."""
    return _game(config.name, tuple(sorted({**config.options, **more}.items())))


def constants(game):
    """The game's constants module (phase numbers)."""
    return importlib.import_module(f"trickgym.games.{game.name}.constants")


def play_phase(game) -> int:
    """The phase in which cards are played to tricks."""
    return constants(game).PHASE_NAMES.index("play")


def bits(mask) -> list[int]:
    """The card ids in a ``uint64`` mask."""
    mask = int(mask)
    return [c for c in range(64) if mask >> c & 1]


def mask_of(cards) -> int:
    """The mask of some card ids (or of a 0/1 card array's nonzero entries)."""
    return sum(1 << int(c) for c in cards)


def deck_mask(game) -> int:
    """Every card of the game's pack."""
    return (1 << game.deck.n_cards) - 1


def or_all(masks) -> int:
    """The union of some card masks."""
    out = 0
    for m in masks:
        out |= int(m)
    return out


# ----------------------------------------------------------------- rules as data


def set_aside(record, game) -> int:
    """The cards a finished deal leaves out of play: neither played nor left in a hand.

    Troggu: a Tappist's discards, else the Tapp (onto the Soloist's pile
    unseen, or set aside in Misère; rules §5). Pinochle kitty mode: the
    declarer's buried cards (§5). Solo Whist and Phat: none.
    """
    if game.name == "troggu":
        tappist = int(record["contract"]) in _troggu_tapp_contracts()
        return int(record["discards"]) if tappist else int(record["initial_tapp"])
    if game.name == "pinochle":
        return int(record["discards"])
    return 0


def _troggu_tapp_contracts():
    c = importlib.import_module("trickgym.games.troggu.constants")
    return (c.TAPP, c.FORCED_TAPP)


def known_cards(record, game, seat: int) -> int:
    """The cards ``seat`` has seen by the end of ``record``'s history (from the rules files).

    Always its own cards and every card played. Solo Whist: the turn-up,
    public until played, and a Misère Ouverte hand once exposed (§3, §4).
    Troggu: the Tapp, for the Tappist only (TR-D14). Pinochle: the kitty
    once the auction is won (kitty mode), everyone's meld cards, the
    declarer's own discards and, in exchange mode, the cards the two
    partners passed each other (§5, §6).
    """
    n = game.n_seats
    known = int(record["initial_hands"][seat]) | or_all(record["played"][:n])
    if game.name == "solowhist":
        known |= 1 << int(record["turn_up"])
        if record["exposed"]:
            known |= int(record["initial_hands"][int(record["declarer"])])
    elif game.name == "troggu":
        tappist = int(record["contract"]) in _troggu_tapp_contracts()
        if tappist and int(record["declarer"]) == seat:
            known |= int(record["initial_tapp"])
    elif game.name == "pinochle":
        declarer = int(record["declarer"])
        known |= or_all(record["meld_cards"])
        if declarer >= 0 and game.options.mode == "kitty":
            known |= int(record["kitty"])
        if seat == declarer:
            known |= int(record["discards"])
        if declarer >= 0 and seat in (declarer, (declarer + 2) % 4):
            known |= int(record["passed_in"]) | int(record["passed_back"])
    return known


def holdings(record, game) -> list[int]:
    """Where the cards were dealt: each seat's hand, then the Tapp or the kitty (if any)."""
    hands = [int(h) for h in record["initial_hands"][: game.n_seats]]
    if game.name == "troggu":
        return [*hands, int(record["initial_tapp"])]
    if game.name == "pinochle" and game.options.mode == "kitty":
        return [*hands, int(record["kitty"])]
    return hands


def deal_like(game, record, cards: list[int]) -> trickgym.api.State:
    """A new match whose first deal is ``record``'s with the holdings ``cards``.

    Same dealer (pitcher) and turn-up; ``cards`` as :func:`holdings` lists them.
    """
    n = game.n_seats
    hands = cards[:n]
    if game.name == "solowhist":
        return game.deal(
            0, hands=hands, dealer=int(record["dealer"]), turn_up=int(record["turn_up"])
        )
    if game.name == "troggu":
        return game.deal(0, hands=hands, tapp=cards[n], dealer=int(record["dealer"]))
    if game.name == "phat":
        return game.deal(0, hands=hands, pitcher=int(record["pitcher"]))
    kitty = cards[n] if game.options.mode == "kitty" else None
    return game.deal(0, hands=hands, kitty=kitty, dealer=int(record["dealer"]))


# ----------------------------------------------------------------------- play


def choose(state, rng, steer: float = 0.5) -> int:
    """A random legal action: uniform, or (outside the play, with probability ``steer``)
    weighted towards the lowest ids, ``1 / (rank + 1)**3``: mostly a pass, often the
    lowest bid or contract, seldom the highest.

    That reaches the rarer ends of the auctions more often than uniform play:
    Misère and forced Tapps, a stuck dealer, passed-out hands, and contracts
    with a partner call where uniform calls would mostly end in a Solo.
    """
    legal = state.legal_actions()
    if steer and state.record["phase"] != play_phase(state.game) and rng.random() < steer:
        weights = 1.0 / (np.arange(len(legal)) + 1.0) ** 3
        return int(legal[rng.choice(len(legal), p=weights / weights.sum())])
    return int(rng.choice(legal))


STEER = (0.0, 0.8, 0.95)  # uniform, then two strengths of steering (see ``choose``)


def random_history(game, seed: int, steps: int, rng, steer: float | None = None):
    """Deal ``seed`` as a set deal and up to ``steps`` random actions: ``(state, actions)``.

    ``steer`` (see :func:`choose`) defaults to one of :data:`STEER` by ``seed``.

    The deal is rebuilt with :func:`deal_like` so that its twins (which are
    built the same way) differ from it in the cards only.
    """
    dealt = game.deal(seed)
    state = deal_like(game, dealt.record, holdings(dealt.record, game))
    steer = STEER[seed % len(STEER)] if steer is None else steer
    actions = []
    while len(actions) < steps and not state.is_over:
        actions.append(choose(state, rng, steer))
        state.apply(actions[-1])
    return state, actions


def replay(game, record, cards, actions):
    """``deal_like(cards)`` with ``actions`` applied; ``None`` if one is illegal there."""
    state = deal_like(game, record, cards)
    for action in actions:
        if not state.legal_action_mask()[action]:
            return None
        state.apply(action)
    return state


# ------------------------------------------------------------- information sets


def hidden_twin(game, final, actions, seat, rng, tries: int = 30):
    """Another deal and history that ``seat`` cannot tell from ``final``'s (``actions``).

    The cards ``seat`` has not seen by the end (:func:`known_cards` of
    ``final``) are permuted among the holdings they were dealt to, each
    moving to where another was: by any permutation, or one within each
    suit (so that shown voids stay true). A hidden card that moved between
    players (a discard, a passed card) is replaced in the history by the card
    now in its place; every other action is the same. A twin is kept when
    its history is legal and the rules' public facts (``Config.public``)
    come out the same. Returns ``(twin_start_cards, twin_actions)`` or
    ``None`` after ``tries`` attempts.
    """
    config = _config_of(game)
    cards = holdings(final.record, game)
    start = deal_like(game, final.record, cards)
    hidden = deck_mask(game) & ~known_cards(final.record, game, seat)
    pool = bits(hidden)
    if len(pool) < 2:
        return None
    movers = _moved_cards(game, start, actions)
    suit_of = game.deck.suit_of
    for attempt in range(tries):
        perm = np.array(pool)
        if attempt % 2:
            perm = rng.permutation(perm)
        else:
            for suit in set(int(suit_of[c]) for c in pool):
                idx = [i for i, c in enumerate(pool) if suit_of[c] == suit]
                perm[idx] = rng.permutation(perm[idx])
        to = dict(zip(pool, (int(c) for c in perm), strict=True))
        twin_cards = [(m & ~hidden) | mask_of(to[c] for c in bits(m & hidden)) for m in cards]
        if twin_cards == cards:
            continue
        twin_actions = [to.get(a, a) if i in movers else a for i, a in enumerate(actions)]
        twin = replay(game, final.record, twin_cards, twin_actions)
        if twin is None:
            continue
        if any(not np.array_equal(twin.record[f], final.record[f]) for f in config.public):
            continue
        return twin_cards, twin_actions
    return None


def _moved_cards(game, start, actions) -> set[int]:
    """Indices of the actions that move a card out of the mover's hand."""
    state = start.clone()
    out = set()
    for i, action in enumerate(actions):
        p = state.current_player
        if action < game.deck.n_cards and int(state.record["hands"][p]) >> action & 1:
            out.add(i)
        state.apply(action)
    return out


def _config_of(game) -> Config:
    for config in CONFIGS:
        if config.name == game.name and all(
            getattr(game.options, k) == v for k, v in config.options.items()
        ):
            return config
    raise KeyError(game)


def views(game, record, cards, actions, seat):
    """``seat``'s observation after each action of a replay (the first: before any)."""
    state = deal_like(game, record, cards)
    out = [state.observe(seat)]
    for action in actions:
        state.apply(action)
        out.append(state.observe(seat))
    return state, out


def assert_obs_equal(a: dict, b: dict, context: str = "") -> None:
    """Two observation dicts have the same keys and equal arrays (values and dtypes)."""
    assert a.keys() == b.keys(), context
    for key in a:
        x, y = np.asarray(a[key]), np.asarray(b[key])
        assert x.dtype == y.dtype, f"{context} key {key}: dtype {x.dtype} != {y.dtype}"
        np.testing.assert_array_equal(x, y, err_msg=f"{context} key {key}")


# --------------------------------------------------------------------- agents


def builtin_action(kind: str, state, seat: int, seed: int) -> int:
    """The action built-in agent ``kind`` (``"random"``, ``"rule"``) takes for ``seat``.

    Through the built-in agents' compiled entry point
    (:func:`trickgym.engine.loops.act`, no oracle linked) with the default
    rule settings.
    """
    from trickgym.agents import kernel_scratch, resolve_kind
    from trickgym.engine.loops import act

    rng = np.array([seed], dtype=np.uint64)
    record = state.array.copy()[0]  # the agent must not change the state it reads
    return int(act(resolve_kind(kind), record, seat, rng, *kernel_scratch(state.game), None))


# ------------------------------------------------------------------ simulate rows


def sim_count(config: Config, n: int) -> dict:
    """``simulate``'s count keyword for ``n`` units of work (deals, or Phat's matches)."""
    return {config.unit: n}


def dealt(config: Config, df) -> np.ndarray:
    """``uint64[rows, k]``: the cards each holding was dealt (hands, then the Tapp or kitty)."""
    n = config.options.get("players", 4)
    cols = [f"hand_{s}" for s in range(n)] + [c for c in ("tapp", "kitty") if c in df.columns]
    return df[cols].to_numpy(dtype=np.uint64)


def deal_columns(config: Config, df) -> list[str]:
    """The columns a deal is dealt with: the dealer (pitcher), the holdings, the turn-up."""
    n = config.options.get("players", 4)
    cols = [config.dealer_field, *(f"hand_{s}" for s in range(n)), "tapp", "kitty", "turn_up"]
    return [c for c in cols if c in df.columns]


def even_minus_odd(config: Config, df) -> np.ndarray:
    """Per row, what the even seats won minus what the odd seats won (per seat, payoff units).

    Solo Whist and Troggu: the mean payoff of each group. Phat: the NS
    team's phat and muck bonus minus EW's (the deal's payoff); Pinochle: the
    NS hand score minus EW's.
    """
    if config.name == "phat":
        to = df["bonus_to"].astype(str).to_numpy()
        bonus = df["bonus"].to_numpy()
        ns = df["phat_ns"].to_numpy() + np.where(np.isin(to, ("0", "NS")), bonus, 0)
        ew = df["phat_ew"].to_numpy() + np.where(np.isin(to, ("1", "EW")), bonus, 0)
        return (ns - ew).astype(float)
    if config.name == "pinochle":
        return (df["score_ns"] - df["score_ew"]).to_numpy(dtype=float)
    n = config.options.get("players", 4)
    pay = df[[f"payoff_{s}" for s in range(n)]].to_numpy(dtype=float)
    even = np.arange(n) % 2 == 0
    return pay[:, even].mean(axis=1) - pay[:, ~even].mean(axis=1)


def row_totals_hold(config: Config, df) -> None:
    """The totals the rules fix in every row: payoffs sum to zero, all the points are won.

    Solo Whist and Troggu: payoffs zero-sum, the declarer's tricks at most
    the hand size; Troggu's card points at most 114 (rules §2; less in
    Misère, whose Tapp counts for nobody). Phat: a deal played to trick 13
    hands out 80 phat and 80 muck (§5). Pinochle: 250 in counters every
    hand, won by a declarer (§8).
    """
    n = config.options.get("players", 4)
    if config.name in ("solowhist", "troggu"):
        assert (df[[f"payoff_{s}" for s in range(n)]].sum(axis=1) == 0).all()
        assert df["declarer_tricks"].between(0, game_of(config).deck.n_cards // n).all()
    if config.name == "troggu":
        assert (df[[f"points_{s}" for s in range(n)]].sum(axis=1) <= 114).all()
    if config.name == "phat":
        full = df[df["tricks"] == 13]
        assert len(full) > 0
        assert ((full["phat_ns"] + full["phat_ew"]) == 80).all()
        assert ((full["muck_ns"] + full["muck_ew"]) == 80).all()
    if config.name == "pinochle":
        assert ((df["counters_ns"] + df["counters_ew"]) == 250).all()
        assert df["declarer"].between(0, 3).all()


def same_state(a, b) -> bool:
    """Whether two state arrays hold equal values in every field.

    Field by field, not byte by byte: the padding between a record's fields
    holds whatever a compiled copy left there.
    """
    return all(np.array_equal(a[f], b[f]) for f in a.dtype.names)
