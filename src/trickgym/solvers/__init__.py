"""Solvers for perfect-information positions: :mod:`.dd` (double dummy, whist family)."""
