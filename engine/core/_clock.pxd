# Shared by the compiled modules of every game: the monotonic clock the engine's deadlines are measured
# on, and splitmix64 for seeded random choices inside nogil loops. Inline, so nothing extra is compiled.

from libc.stdint cimport uint64_t
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline uint64_t splitmix(uint64_t *state) noexcept nogil:
    state[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)
