"""Monte Carlo agents: determinised sampling (PIMC) and information-set MCTS.

``PIMCAgent(game, samples=...)`` and ``ISMCTSAgent(game, iterations=...)``
act only on their seat's observation record; ``make_mc_agent(name, game)``
builds one by name (``"pimc"``, ``"ismcts"``). The per-game samplers
(``sample_<game>.determinize``) deal the unseen cards uniformly among the
deals consistent with the seat's information set.
"""

from __future__ import annotations

from .agent import ISMCTSAgent, PIMCAgent, make_mc_agent

__all__ = ["ISMCTSAgent", "PIMCAgent", "make_mc_agent"]
