"""Arrays whose size becomes known only at run time inside compiled control flow: a
branch whose paths give different sizes, a loop that shrinks an array until it is empty,
``len()`` of such arrays, and NumPy arrays the function holds carried through loops."""
import numpy as np
import pytest

from harness import check_against_numpy

TABLE = np.arange(4.0)


def shrink_until_empty(z, n):
    for i in range(n):
        if not len(z):
            break
        z = z[z > 0.1] * 0.9
    return z


def shrink_on_a_traced_condition(z, c):
    if c.sum() > 0:
        z = z[z > 0.5]
    return z * 2, len(z) + 1


def table_through_a_loop(x, n):
    t = TABLE
    for i in range(n):
        t = t * 0.5 + x
    return t


@pytest.mark.parametrize("jit", [None, False, True], ids=["auto", "graph", "xla"])
def test_sizes_known_at_run_time(jit):
    check_against_numpy(shrink_until_empty, np.linspace(0, 1, 50), 20, jit=jit)
    check_against_numpy(shrink_until_empty, np.linspace(0, 1, 50), 3, jit=jit)
    for c in (1.0, -1.0):
        check_against_numpy(shrink_on_a_traced_condition, np.linspace(0, 1, 5), np.full(2, c),
                            jit=jit)
    check_against_numpy(table_through_a_loop, np.ones(4), 12, jit=jit)
