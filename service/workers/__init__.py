"""What no HTTP request drives: bot moves and timeouts, run on RQ workers.

``service.app.scheduling`` works out from a game's state what is due (a bot
to move now, a deadline to enforce later), records it after every append and queues bot moves at once (both in the API process, which
never imports this package). Here, on the workers: ``scheduler`` (in every
worker) queues timeouts at their deadlines and queues again work a dead
worker left undone; ``jobs`` runs the work through the same command path as
a player's move, a bot's by handing its game to ``turns``, which plays the
bots of every game the worker holds in turns between its jobs.
"""
