"""Examples in docstrings run as tests."""

from __future__ import annotations

import doctest

import pytest

import trickgym.analysis.agents
import trickgym.analysis.failures
import trickgym.cards.notation
import trickgym.render


@pytest.mark.parametrize(
    "module",
    [
        trickgym.cards.notation,
        trickgym.analysis.failures,
        trickgym.analysis.agents,
        trickgym.render,
    ],
)
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
