"""The RQ job paths an upgrade must keep (docs/operations.md, "Upgrades").

RQ stores a queued job's function by its dotted path and its arguments as
they were: during a rolling restart, and for as long as a job queued by an
older version may wait (a webhook retry, the jobs of a worker that died), a
new worker imports that path and calls it with those arguments. So every
path any released version has queued stays importable and callable with the
arguments that version sent; a new path is added here when the code first
queues it, and none is ever removed.
"""
from __future__ import annotations

import inspect

from rq import Queue
from rq.utils import import_attribute

from service.app.scheduling import NO_SEAT, QUEUES, Work
from service.wiring import Services

# every job path any version has queued, with the arguments it queued
# (positional: kind, game id, version, seat, due ms / webhook key, attempt)
JOB_PATHS = {
    "service.workers.jobs.run_work": [
        ("bot", "g1", 3, 1, 0),
        ("timeout", "g1", 3, 0, 1_800_000_000_000),
        ("abandon", "g1", 1, NO_SEAT, 1_800_000_000_000),
        ("fill", "g1", 1, NO_SEAT, 1_800_000_000_000),
        ("archive", "g1", 40, NO_SEAT, 1_800_000_000_000),
        ("delete", "g1", 1, NO_SEAT, 1_800_000_000_000),
    ],
    "service.workers.webhooks.deliver": [("wh1-evt1", 1)],
    "service.workers.analysis.run_analysis": [("g1", 0, 32, "0123abcd")],
    "service.workers.tournaments.run_tournament": [("t1", 3)],
}


def queued_jobs(redis_client) -> list:
    return [job for name in QUEUES for job in Queue(name, connection=redis_client).jobs]


def test_every_job_path_ever_queued_still_imports_and_takes_its_arguments():
    for path, calls in JOB_PATHS.items():
        function = import_attribute(path)  # as RQ's worker resolves a job's function
        assert callable(function), path
        for args in calls:
            inspect.signature(function).bind(*args)  # a TypeError says the arguments no longer fit


def test_every_job_the_code_queues_names_a_kept_path(redis_client):
    svc = Services(redis_client)
    for kind in ("bot", "timeout", "abandon", "fill", "archive", "delete"):
        svc.dispatcher.enqueue(Work(kind, "g1", 3, 1, 1_800_000_000_000))
    svc.webhooks.publisher.enqueue("wh1-evt1", 1)
    svc.dispatcher.enqueue_tournament("t1", 3)
    jobs = queued_jobs(redis_client)
    assert len(jobs) == 8
    for job in jobs:
        assert job.func_name in JOB_PATHS, f"{job.func_name} is queued: add it to JOB_PATHS (and keep it)"
        inspect.signature(job.func).bind(*job.args, **job.kwargs)
