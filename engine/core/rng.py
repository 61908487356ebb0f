"""Seeds: every random choice in the engine comes from a `random.Random` built from an integer seed."""

from __future__ import annotations

import hashlib

SEED_BITS = 63      # fits a signed 64-bit database column


def derive_seed(seed: int, *parts: int) -> int:
    """A well-mixed seed for one slot (and attempt) of a job, so that boards of a job are reproducible
    one by one: derive_seed(job_seed, slot, attempt)."""
    text = ":".join(str(x) for x in (seed, *parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> (64 - SEED_BITS)
