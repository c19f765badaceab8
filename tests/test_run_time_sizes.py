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


def imag_of_an_unread_broadcast(c):
    # The broadcast's values are never read: np.imag of a real array is zeros of its shape.
    return np.imag(np.logaddexp(c * c, c[c > 0]))


def where_of_a_masked_operand(c, x):
    return np.where(x > 0, c[c > 0], 0.0).shape


@pytest.mark.parametrize("jit", [None, False, True], ids=["auto", "graph", "xla"])
def test_broadcast_of_a_run_time_size_against_a_known_size(jit):
    """NumPy raises when a run-time size meets a known size other than 1, even where the
    result's values are never computed."""
    for c in ([1, -2, 3, 4], [1, 2, 3, 4], [-1, -2, 3, -4], [-1, -2, -3, -4]):
        c = np.array(c, np.int16)
        check_against_numpy(imag_of_an_unread_broadcast, c, jit=jit)
        check_against_numpy(where_of_a_masked_operand, c, np.ones(4), jit=jit)


def selection_into_fixed_places(a, c):
    a[[0, -1]] = np.where(c)[0]
    a[::2] = np.ravel(c[c > 1])
    return a


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_a_selection_written_into_places_of_known_size(jit):
    """A value whose size is known only at run time, written into places of a known size:
    one element broadcasts, as many as the places fill them, any other count is NumPy's
    ValueError (after the run)."""
    for c in ([0, 0, 2, 0], [3, 0, 2, 0], [0, 5, 0, 0], [0, 0, 0, 0], [1, 1, 4, 2]):
        check_against_numpy(selection_into_fixed_places, np.zeros((3, 1)),
                            np.array(c, np.int64), jit=jit)
