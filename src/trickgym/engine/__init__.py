"""The engine: the play loops every run goes through, and what they read.

Floor of the package (it imports no agent, env or simulation): the built-in
agents as integer kinds (:mod:`.kinds`), the compiled loops that let them
play a deal over the game protocol (:mod:`.loops`), the rule agents'
parameter rows (:mod:`.params`), rule-agent playouts that value search
leaves (:mod:`.playout`) and the episode hooks shared by the games
(:mod:`.episode_hooks`). The protocol's default hooks name kernels here.
"""
