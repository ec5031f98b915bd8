"""A griffe extension: the docstrings' Sphinx roles rendered as code.

The docstrings cite code as reStructuredText roles (``:func:`simulate```,
``:class:`~trickgym.envs.base.TrickEnv```); Markdown would show the role's
name as text. This keeps the cited name, as code, and drops the rest.
"""

from __future__ import annotations

import re

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|attr|data|obj|exc|const|ref|doc):`~?([^`]+)`")


class SphinxRoles(griffe.Extension):
    """Rewrite ``:role:`name``` as ``name`` in every docstring griffe loads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs) -> None:
        """Called for every module, class, function and attribute loaded."""
        if obj.docstring is not None:
            obj.docstring.value = ROLE.sub(r"`\1`", obj.docstring.value)
