"""Clients that wait: long polls and event streams.

``notifier`` wakes the waiters of a game when its log grows (one store
subscription per process); ``client`` notices a client that went away while
it waited; ``limits`` caps the open streams and waits per token and per
client address; ``streams`` writes a game's changes as Server-Sent Events or
NDJSON.
"""
