"""What no HTTP request drives: bot moves and timeouts, run on RQ workers.

``plan`` works out from a game's state what is due (a bot to move now, a
deadline to enforce later); ``dispatch`` turns that into RQ jobs after every
append; ``jobs`` runs them through the same command path as a player's move;
``sweeper`` re-dispatches work a dead worker left undone.
"""
