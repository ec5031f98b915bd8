"""Gymnasium environment for Troggu (3 to 8 players): one learning seat, agents in the others."""

from __future__ import annotations

from trickgym.games.troggu.encode import OBS_SHAPES

from .base import TrickEnv

__all__ = ["TrogguEnv"]


class TrogguEnv(TrickEnv):
    """Troggu (``docs/rules/troggu.md``), one deal per episode, from one seat's point of view.

    ``gymnasium.make("trickgym/Troggu-v0", players=5, seat=0,
    opponents="random", render_mode=None, illegal_action="terminate",
    illegal_penalty=None)``. ``players`` (3..8, required) is the game's
    table option; ``seat`` is ``0 .. players-1`` (seats are numbered in
    playing order, anticlockwise). The other ``players - 1`` seats are played
    by ``opponents``: a built-in agent name (``"random"``), an object with
    ``act(observation, action_mask)``, or a list of ``players - 1`` of those
    for the seats ``seat+1, seat+2, ...`` (mod ``players``). The option
    ``num_deals`` has no effect: every episode is a match of one deal.

    Actions
        ``Discrete(66)``; only the actions in ``observation["action_mask"]``
        are legal (and ``action_space.sample()`` draws among them).

        ===========  ==============================================================
        id           meaning
        ===========  ==============================================================
        ``0..20``    trumps I..XXI (as cards)
        ``21``       the Fool
        ``22..61``   the plain suits, 10 cards each from the weakest: Cups
                     ``22..31`` (6..1, J, Knight, Q, K), Coins ``32..41`` (same
                     order), Swords ``42..51`` (5..10, J, Knight, Q, K), Batons
                     ``52..61`` (same order)
        ``62``       Pass (auction)
        ``63``       Tapp (auction; only while nobody has said Tapp)
        ``64``       Solo (auction; ends it)
        ``65``       No partner (partner call, 7-8 players)
        ===========  ==============================================================

        A card id means, by phase: play it (play), discard it (the Tappist,
        one card per step, as many as the Tapp held; never Fool, XXI or I,
        Kings only all four), or name it as the partner's trump (partner
        call, 7-8 players: II..XX, ids ``1..19``). ``trickgym.game("troggu")
        .action_name(a)`` gives the name of any id. An illegal action ends the
        episode with reward ``-illegal_penalty`` (default: the game's
        ``payoff_bound``, ``60 * (players - 1)``: the most a deal can cost a
        seat) and ``info["illegal_action"] = True``, or raises ``ValueError``
        with ``illegal_action="raise"``. Every id, the observation ranges, the
        reward scale per table and ``info``: ``docs/spec.md``.

    Observation
        ``Dict`` of the seat's information set; see
        :mod:`trickgym.games.troggu.encode` for the table. Keys: ``seat``,
        ``n_players``, ``dealer``, ``phase`` (0 auction, 1 discard, 2 partner
        call, 3 play, 4 deal over), ``contract`` (0 none yet, 1 Misère, 2
        Tapp, 3 forced Tapp, 4 Solo), ``declarer``, ``called_card``,
        ``partner`` (-1 until known to this seat: revealed when the called
        card is played, or the seat is the partner), ``trick_leader``,
        ``held_back`` (own Fool hold-back), ``hand``, ``tapp`` and
        ``discards`` (seen only by the Tappist), ``auction`` (per seat: -1
        not spoken, 0 Pass, 1 Tapp, 2 Solo), ``trick`` and ``last_trick``
        (card per seat), ``played`` (8 x 62), ``tricks_won``, ``voids`` (8 x
        5), ``trick_points``, ``scores`` (0 until the deal is scored, then
        its payoffs: every episode is a new match) and ``action_mask`` (66).
        Per-seat arrays have 8 rows whatever ``players``; rows ``>= players``
        are padding.

    Reward
        The seat's payoff in game points for the deal (zero-sum over seats;
        Tapp base 10, Solo base 20, Misère 10 per seat with fewer points),
        given on the final step; 0 before.

    Episode
        Starts with a freshly shuffled deal (dealer drawn from the seed; the
        opponents before the seat in the auction have spoken) and ends when
        the last trick is played and the deal is scored. The seat speaks once
        in the auction (unless an earlier seat bids Solo), plays one card per
        trick (18, 13, 11, 9, 8 or 7 tricks for 3..8 players) and, as the
        Tappist, discards one card per step and then (7-8 players) calls.

    Version history
        v0: first release.
    """

    game_name = "troggu"
    obs_shapes = OBS_SHAPES
