"""Rule-based agents: one per game, acting on its seat's observation only.

Each game's module defines a frozen, documented options dataclass (the
heuristics' thresholds) and a compiled ``rule_action(obs, params, rng)``
that reads the seat's observation record and a float64 parameter row; the
rows are made by :mod:`trickgym.engine.params`. :mod:`.presets` holds named
settings (the fitted bidder).
"""
