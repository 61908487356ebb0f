"""jobs.slot.slot_arguments: a slot task's arguments read by position or by name, a wrong set of them a
bad task in one line."""

from __future__ import annotations

import pytest

from jobs.params import BadTask
from jobs.slot import slot_arguments


def test_a_slot_tasks_arguments_are_read_by_position_or_name() -> None:
    params = {"game": "queens", "size": 8}
    assert slot_arguments((1, 0, 4, params, 5), {}) == (1, 0, 4, params, 5)
    assert slot_arguments((1, 0), {"stop": 4, "params": params, "seed": 5}) == (1, 0, 4, params, 5)
    with pytest.raises(BadTask, match=r"^generate_slots is missing params, seed$"):
        slot_arguments((1, 0, 4), {})
    with pytest.raises(BadTask, match=r"^generate_slots takes \(job_id, start, stop, params, seed\), got 2 "
                                      r"positional argument\(s\) and \['job_id'\]$"):
        slot_arguments((1, 0), {"job_id": 1})
    with pytest.raises(BadTask, match="got 6 positional"):
        slot_arguments((1, 0, 4, params, 5, 6), {})
