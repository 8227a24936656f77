"""What no HTTP request drives: bot moves and timeouts, run on RQ workers.

``plan`` works out from a game's state what is due (a bot to move now, a
deadline to enforce later); ``dispatch`` records it after every append and
queues bot moves at once; ``scheduler`` (in every worker) queues timeouts at
their deadlines and queues again work a dead worker left undone; ``jobs`` runs
the work through the same command path as a player's move.
"""
