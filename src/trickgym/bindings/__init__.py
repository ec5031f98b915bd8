"""Each game's kernels registered for the game protocol (:mod:`trickgym.protocol`), once.

One module per game. A game class names its module in its ``bindings``
attribute and :func:`trickgym.protocol.require` imports it before a generic
kernel is compiled for that game; nothing here is imported by the generic
kernels themselves, so the layers below never import the ones above.
"""
