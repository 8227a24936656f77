"""A worker process's webhook delivery threads (``service.workers.deliveries``),
run in this process against the test server and a receiver in the test."""
from __future__ import annotations

from service.config import Config
from service.wiring import Services
from service.workers import deliveries, jobs
from tests.support.patience import PATIENCE, until


def test_a_delivery_thread_whose_rq_worker_stops_starts_another(redis_client, receivers, monkeypatch):
    """RQ ends a worker's loop on an error it does not handle; a delivery
    thread then starts another worker, so the process keeps its threads."""
    monkeypatch.setattr(deliveries.Deliveries, "FIRST_PAUSE", 0.05)
    svc = Services(redis_client, config=Config(webhooks_allow_private=True))
    monkeypatch.setitem(jobs._services, id(redis_client), svc)  # the jobs of this process run on it (jobs.use)
    receiver = receivers()
    svc.webhooks.register(receiver.url, ["turn"])
    sending = deliveries.start(svc, 1, "test")
    try:
        svc.webhooks.publish("turn", {}, "g-1-0")
        until(lambda: receiver.count() == 1, "the first delivery")
        first = sending.workers[0]
        first._stop_requested = True  # its loop ends after the job it waits for, as on an error
        svc.webhooks.publish("turn", {}, "g-2-0")
        until(lambda: receiver.count() == 2 and sending.workers[0] is not first, "another worker on the thread")
        svc.webhooks.publish("turn", {}, "g-3-0")
        until(lambda: receiver.count() == 3, "a delivery by the new worker")
        assert sending.threads[0].is_alive() and sending.workers[0].name == "test-deliveries-0.1"
    finally:
        sending.stop(5)
        # an idle worker waits for a job (RQ's blocking pop, minutes) before its
        # loop sees the stop: a job for nothing wakes each, so no thread outlives the test
        for n in range(len(sending.threads)):
            svc.webhooks.publisher.enqueue(f"wake-{n}", 1)
        for thread in sending.threads:
            thread.join(PATIENCE)
    assert not any(thread.is_alive() for thread in sending.threads)
