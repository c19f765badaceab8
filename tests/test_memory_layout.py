"""Which reshapes are views depends on memory layout, as in NumPy: a Fortran-ordered or
strided argument is traced with its own strides (and compiled apart from a C-ordered one),
and an array NumPy lays out from non-C-ordered inputs (``a.T * 2``) either gets writes
placed as NumPy places them or is refused, never guessed."""
import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy, copy_like


def _grid():
    return np.arange(12.0).reshape(3, 4)


def flat_write_of_transpose(a):
    z = a.T.reshape(-1)       # a view when a is Fortran-ordered, a copy when C-ordered
    z[:5] = -1.0
    return a.sum()


def flat_write(a):
    z = a.reshape(-1)         # a copy when a is Fortran-ordered
    z[0] = 100.0
    return z


def ravel_write(a):
    z = np.ravel(a)
    z += 1.0
    return z.sum()


def reshape_3d_write(a):
    z = a.reshape(2, 2, 3)
    z[0] = 0.0
    return z


LAYOUTS = {
    "C": lambda a: a,
    "F": np.asfortranarray,
    "strided": lambda a: np.repeat(a, 2, axis=1)[:, ::2],
    "reversed": lambda a: np.ascontiguousarray(a[::-1])[::-1],
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("fn", [flat_write_of_transpose, flat_write, ravel_write,
                                reshape_3d_write])
def test_argument_layouts(fn, layout, jit):
    check_against_numpy(fn, LAYOUTS[layout](_grid()), jit=jit)


def test_each_layout_compiles_apart():
    f = nptf.compile(flat_write_of_transpose, fallback="raise")
    for layout in ("C", "F", "C", "F"):
        a = LAYOUTS[layout](_grid())
        expected_a = copy_like(a)
        expected = flat_write_of_transpose(expected_a)
        got = f(a)
        assert got == expected
        np.testing.assert_array_equal(a, expected_a)
    assert f.cache_info().misses == 2


def written_through_derived(a):
    y = a.T * 2.0             # Fortran-ordered in NumPy (order="K")
    z = y.reshape(-1)         # so this is a copy
    z[0] = 100.0
    return y


def derived_then_written(a):
    y = np.exp(a.T)
    z = y.ravel()
    y[0, 0] = -1.0            # z, a copy in NumPy, must not see it
    return z


def derived_reshape_unit_axes(a):
    y = a.T * 2.0
    z = y.reshape(1, 4, 3)    # a view whatever the layout
    z[0, 0] = 7.0
    return y


def derived_read_only(a):
    y = a.T * 2.0
    return y.reshape(-1)[:5].sum() + y.sum()


@pytest.mark.parametrize("fn", [written_through_derived, derived_then_written])
def test_layout_nptf_cannot_place_is_refused(fn):
    with pytest.raises(nptf.UnsupportedError, match="memory nptf cannot place"):
        nptf.compile(fn, fallback="raise")(_grid())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = nptf.compile(fn)(_grid())
    np.testing.assert_allclose(got, fn(_grid()))


@pytest.mark.parametrize("fn", [derived_reshape_unit_axes, derived_read_only])
def test_layout_independent_steps_compile(fn, jit):
    check_against_numpy(fn, _grid(), jit=jit)


def if_transposed(a, flag):
    if flag.sum() > 0:
        y = a.T * 1.0
    else:
        y = np.zeros((4, 3))
    z = y.reshape(-1)
    z[0] = 5.0
    return y


def loop_transposed(a, k):
    y = np.zeros((4, 3))
    for _ in range(k[0]):
        y = a.T + 0.0 * y
    z = y.reshape(-1)
    z[0] = 5.0
    return y


def test_if_result_from_transposed_is_refused():
    with pytest.raises(nptf.UnsupportedError, match="memory nptf cannot place"):
        nptf.compile(if_transposed, fallback="raise")(_grid(), np.ones(2))


def test_loop_result_from_transposed_is_refused():
    with pytest.raises(nptf.UnsupportedError, match="memory nptf cannot place"):
        nptf.compile(loop_transposed, fallback="raise")(_grid(), np.array([3]))


def loop_c_ordered(a, k):
    y = np.zeros((4, 3))
    for _ in range(k[0]):
        y = a.T @ np.eye(3) + y       # matmul of anything: still refused only if written
    return y.reshape(-1)


def test_loop_read_only_compiles(jit):
    check_against_numpy(loop_c_ordered, _grid(), np.array([3]), jit=jit)
