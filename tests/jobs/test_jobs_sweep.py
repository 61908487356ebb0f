"""jobs.sweep without a broker: which queues the sweep says no worker consumes, by the answers it is
given and a clock of the test's own."""

from __future__ import annotations

from jobs.sweep import Unconsumed


def test_the_sweep_says_a_queue_is_unconsumed_only_once_it_has_stayed_so() -> None:
    """A worker reconnecting to the broker (after a restart) does not answer the broadcast: its queue
    looks unconsumed for a while. The sweep says so only once a queue has stayed unconsumed for 30 s of
    its broadcasts, and reuses an answer in which every queue is consumed for a minute."""
    clock = [1000.0]
    answers: list[set[str] | None] = []
    unconsumed = Unconsumed(lambda: answers.pop(0), clock=lambda: clock[0])
    answers[:] = [{"fleet"}, {"fleet", "queens"}]
    assert unconsumed({"queens"}) == set()            # queens' worker reconnecting: not said
    clock[0] += 10
    assert unconsumed({"queens"}) == set() and not answers     # back: forgotten
    clock[0] += 20
    assert unconsumed({"queens"}) == set()            # the consuming answer, reused (no broadcast)
    answers[:] = [{"fleet"}, {"fleet"}, {"fleet"}]
    clock[0] += 60
    assert unconsumed({"queens"}) == set()
    clock[0] += 15
    assert unconsumed({"queens"}) == set()
    clock[0] += 15
    assert unconsumed({"queens"}) == {"queens"}       # unconsumed for 30 s: said
    answers[:] = [None]
    clock[0] += 1
    assert unconsumed({"queens"}) is None             # nobody answered: unknown
