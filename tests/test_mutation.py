"""Indexing and in-place mutation, against NumPy: every index form x assignment form x dtype,
views, write-back into arguments, and random index expressions (hypothesis)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nptf
from harness import check_against_numpy, mismatch, run_numpy

DTYPES = [np.bool_, np.int8, np.int64, np.uint16, np.float32, np.float64, np.complex64]

READ_KEYS = {
    "int_array": lambda x: x[[0, 2, -1]],
    "int_array_2d": lambda x: x[np.array([[0, 1], [2, 0]])],
    "two_arrays": lambda x: x[[0, 1, 2], [3, 0, -1]],
    "broadcast_arrays": lambda x: x[np.array([[0], [2]]), np.array([1, 3])],
    "array_slice": lambda x: x[[2, 0], 1:3],
    "slice_array": lambda x: x[1:, [0, 0, 3]],
    "separated": lambda x: x[[0, 1], :, [1, 0]] if x.ndim == 3 else x[[0, 1], None, [1, 0]],
    "newaxis_ellipsis": lambda x: x[None, ..., [1]],
    "int_and_array": lambda x: x[0, [1, 2]],
    "mask": lambda x: x[x.real > 0] if x.dtype != bool else x[x],
    "mask_rows": lambda x: x[np.array([True, False, True]), :],
    "mask_and_slice": lambda x: x[np.array([True, False, True]), 1:],
}


@pytest.mark.parametrize("name", READ_KEYS)
def test_advanced_reads(name, jit):
    fn = READ_KEYS[name]
    rng = np.random.default_rng(0)
    for dtype in DTYPES:
        x = (rng.standard_normal((3, 4)) * 3).astype(dtype)
        check_against_numpy(fn, x, jit=jit)


@pytest.mark.parametrize("fn", [
    lambda x, i: x[i], lambda x, i: np.take(x, i), lambda x, i: np.take(x, i, axis=1),
    lambda x, i: x[:, i], lambda x, i: np.take(x, i, mode="wrap"), lambda x, i: np.take(x, i, mode="clip"),
])
def test_traced_index_arrays(fn, jit):
    x = np.arange(12.0).reshape(3, 4)
    check_against_numpy(fn, x, np.array([0, -1, 2]), jit=jit)


def test_out_of_bounds_raises_index_error(jit):
    f = nptf.compile(lambda x, i: x[i], jit_compile=jit, fallback="raise")
    with pytest.raises(IndexError, match="out of bounds"):
        f(np.arange(5.0), np.array([0, 5]))
    with pytest.raises(IndexError, match="out of bounds"):
        nptf.compile(lambda x: x[[0, 9]], fallback="raise")(np.arange(5.0))
    with pytest.raises(IndexError):
        nptf.compile(lambda x: x[np.array([True, False])], fallback="raise")(np.arange(5.0))


def test_float_index_is_an_index_error():
    with pytest.raises(IndexError, match="only integers"):
        nptf.compile(lambda x: x[np.array([1.0])], fallback="raise")(np.arange(5.0))


@pytest.mark.parametrize("fn", [
    lambda x: np.nonzero(x > 0), lambda x: np.argwhere(x > 0), lambda x: np.where(x > 0),
    lambda x: np.compress([True, False, True], x, axis=0), lambda x: np.extract(x > 0, x),
    lambda x: np.flatnonzero(x), lambda x: np.compress(x[:, 0] > 0, x, axis=0),
])
def test_data_dependent_shapes(fn, jit):
    check_against_numpy(fn, np.random.default_rng(1).standard_normal((3, 4)), jit=jit)


# ------------------------------------------------------------------ writes
def _copy_then(op):
    def fn(x, *args):
        y = x.copy()
        op(y, *args)
        return y
    return fn


def _set(key, value):
    def op(y):
        y[key] = value
    return op


WRITES = {
    "int": _set(1, 5), "slice": _set(slice(1, 3), 7), "step_slice": _set((slice(None, None, -2),), 1),
    "ellipsis": _set(..., 2), "row_broadcast": _set(0, np.arange(4)),
    "int_array": _set(([0, 2],), 9), "duplicates_last_wins": _set(([0, 0, 2],), np.array([[1], [2], [3]])),
    "two_arrays": _set(([0, 1, 1], [3, 2, 2]), np.array([1, 2, 3])),
    "mask_scalar": None, "mask_array": None, "column": _set((slice(None), 1), np.array([1, 2, 3])),
    "newaxis": _set((None, 0), 3),
}


def _mask_scalar(y):
    y[y.real > 0] = 0


def _mask_array(y):
    m = np.array([[True, False, True, False]] * 3)
    y[m] = np.arange(6)


WRITES["mask_scalar"], WRITES["mask_array"] = _mask_scalar, _mask_array


@pytest.mark.parametrize("name", WRITES)
def test_assignment_forms(name, jit):
    rng = np.random.default_rng(3)
    fn = _copy_then(WRITES[name])
    for dtype in DTYPES:
        check_against_numpy(fn, (rng.standard_normal((3, 4)) * 4).astype(dtype), jit=jit)


AUGMENTED = {
    "iadd_name": lambda y: y.__iadd__(2),
    "isub_slice": lambda y: y.__setitem__(slice(1, None), y[1:] - 1),
    "imul_mask": None, "iadd_dup": None, "ifloordiv_col": None,
}


def _imul_mask(y):
    y[y > 0] *= 2


def _iadd_dup(y):
    y[[0, 0, 1]] += 1   # duplicates do not accumulate


def _ifloordiv_col(y):
    y[:, 1] //= 2


AUGMENTED.update(imul_mask=_imul_mask, iadd_dup=_iadd_dup, ifloordiv_col=_ifloordiv_col)


@pytest.mark.parametrize("name", AUGMENTED)
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
def test_augmented_assignment(name, dtype, jit):
    x = np.arange(-6, 6).reshape(3, 4).astype(dtype)
    check_against_numpy(_copy_then(AUGMENTED[name]), x, jit=jit)


def test_augmented_assignment_casting_error():
    def f(x):
        x = x.copy()
        x += 1.5
        return x

    with pytest.raises(TypeError, match="Cannot cast"):
        nptf.compile(f, fallback="raise")(np.arange(3))


@pytest.mark.parametrize("mode", ["add", "subtract", "multiply", "maximum", "minimum"])
def test_ufunc_at_accumulates_duplicates(mode, jit):
    def f(x, idx, v):
        y = x.copy()
        getattr(np, mode).at(y, idx, v)
        return y

    check_against_numpy(f, np.arange(5.0), np.array([0, 1, 1, 4, 1]), np.array([1.0, 2, 3, 4, 5]), jit=jit)
    check_against_numpy(lambda c, i: (np.add.at(c, i, 1), c)[1], np.zeros(4, np.int64),
                        np.array([3, 3, 0]), jit=jit)


def test_out_arguments_and_friends(jit):
    def f(x, y):
        out = np.empty_like(x)
        np.multiply(x, y, out=out)
        np.add(out, 1, out=out)
        np.exp(x, out=x)          # out aliases an input
        a = np.zeros(5)
        np.copyto(a, 3.0)
        a.fill(2)
        np.put(a, [0, 4], [9, 8])
        b = np.arange(6.0)
        np.place(b, b > 2, [10, 20])
        c = np.arange(6.0)
        np.putmask(c, c < 3, -c)
        d = np.array([3, 1, 2])
        d.sort()
        return out, x, a, b, c, d

    check_against_numpy(f, np.arange(4.0), np.full(4, 2.0), jit=jit)


# ------------------------------------------------------------------- views
def test_writes_through_views_reach_the_base_and_other_views(jit):
    def f(a):
        a = a.copy()
        row = a[0]
        row[:] = 1
        col = a[:, 2]
        col += 10
        t = a.T
        t[0, 1] = -5              # a[1, 0]
        flat = a.reshape(-1)
        flat[-1] = 99
        inner = a[1:, 1:][::-1]   # view of a view
        inner[0, 0] = 42
        e = a[..., None]
        e[1, 1, 0] = 7
        return a, row, col, t, flat, e

    check_against_numpy(f, np.arange(12.0).reshape(3, 4), jit=jit)


def test_advanced_indexing_and_astype_copy(jit):
    def f(a):
        c = a[[0, 1]]
        c[:] = 0
        d = a.astype(a.dtype)
        d[0] = -1
        return a, c, d

    check_against_numpy(f, np.arange(6.0).reshape(3, 2), jit=jit)


def test_reshape_of_transposed_is_a_copy(jit):
    def f(a):
        a = a.copy()
        r = a.T.reshape(-1)   # NumPy must copy here
        r[0] = 100
        return a, r

    check_against_numpy(f, np.arange(6.0).reshape(2, 3), jit=jit)


def test_broadcast_view_is_read_only():
    def f(a):
        b = np.broadcast_to(a, (3, 3))
        b[0, 0] = 1
        return b

    with pytest.raises(ValueError, match="read-only"):
        nptf.compile(f, fallback="raise")(np.arange(3.0))


# --------------------------------------------------------- argument write-back
def normalise_in_place(x):
    x -= x.mean()
    x /= x.std()


def test_arguments_are_written_back(jit):
    f = nptf.compile(normalise_in_place, jit_compile=jit, fallback="raise")
    x = np.array([1.0, 2.0, 4.0, 7.0])
    expected = x.copy()
    normalise_in_place(expected)
    assert f(x) is None
    np.testing.assert_allclose(x, expected)
    y = x.copy()
    normalise_in_place(y)
    f(x)
    np.testing.assert_allclose(x, y)


def test_unwritten_arguments_are_untouched_and_read_only_is_refused():
    f = nptf.compile(lambda a, b: (a.__setitem__(0, 5), b * 2)[1], fallback="raise")
    a, b = np.zeros(3), np.ones(3)
    b_before = b.copy()
    f(a, b)
    assert a[0] == 5 and np.array_equal(b, b_before)
    a.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        f(a, b)


def test_arrays_created_inside_and_filled_piecewise(jit):
    def f(x):
        out = np.zeros_like(x)
        out[1:-1] = (x[:-2] + x[2:]) / 2
        out[0], out[-1] = x[0], x[-1]
        acc = np.empty((2, x.size))
        acc[0] = x
        acc[1, :] = x ** 2
        return out, acc

    check_against_numpy(f, np.arange(6.0) ** 2, jit=jit)


def test_shape_mismatch_in_assignment():
    def f(x):
        y = x.copy()
        y[:2] = np.ones(3)
        return y

    with pytest.raises(ValueError, match="could not broadcast"):
        nptf.compile(f, fallback="raise")(np.arange(5.0))


# ------------------------------------------------------- property-based
def _index_strategy(shape):
    def entry(n):
        return st.one_of(
            st.integers(-n, n - 1),
            st.builds(slice, st.one_of(st.none(), st.integers(-n - 1, n + 1)),
                      st.one_of(st.none(), st.integers(-n - 1, n + 1)),
                      st.one_of(st.none(), st.sampled_from([1, 2, -1, -2]))),
            st.lists(st.integers(-n, n - 1), min_size=1, max_size=3),
        )
    return st.tuples(*[entry(n) for n in shape])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_index_expressions_read_and_write(data):
    shape = data.draw(st.sampled_from([(4,), (3, 4), (2, 3, 4)]))
    key = data.draw(_index_strategy(shape))
    key = tuple(np.array(k) if isinstance(k, list) else k for k in key)
    x = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)

    def read(a):
        return a[key]

    def write(a):
        b = a.copy()
        b[key] = -1.0
        b[key] += 3.0
        return b

    for fn in (read, write):
        expected, err = run_numpy(fn, x)
        f = nptf.compile(fn, fallback="raise")
        if err is not None:
            with pytest.raises(type(err)):
                f(x)
            continue
        assert mismatch(expected, f.interpret(x)) is None
        assert mismatch(expected, f(x)) is None


def test_ndarray_view_aliases_like_numpy():
    def f(x):
        v = x.view()
        v[0] = 7.0
        return x.sum(), v.view(x.dtype)[1]

    check_against_numpy(f, np.arange(4.0))
    with pytest.raises(nptf.UnsupportedError, match="view"):
        nptf.compile(lambda x: x.view(np.complex64), fallback="raise")(np.arange(4.0))


_REGIONS = [(slice(1, -1),), (slice(0, 0),), (slice(None),), (slice(2, None), slice(None, 1)),
            (slice(1, 3), slice(1, -1)), (slice(None, None, 2), slice(1, 4)), (1, slice(0, 3)),
            (slice(-3, None), slice(4, 5))]


@pytest.mark.parametrize("jit", [True, False])
@pytest.mark.parametrize("dtype", ["bool", "int8", "float16", "float32", "complex128"])
@pytest.mark.parametrize("region", _REGIONS, ids=str)
def test_basic_slice_writes_of_arrays(region, dtype, jit):
    def write(a):
        b = a.copy()
        b[region] = a[region] * 2 if dtype != "bool" else ~a[region]
        return b

    x = (np.arange(30).reshape(5, 6) % 7).astype(dtype)
    check = nptf.compile(write, jit_compile=jit, fallback="raise")
    assert mismatch(write(x), check(x)) is None


def diffuse_in_place(u):
    """Time steps of a stencil written into the interior of the argument itself."""
    for _ in range(25):     # past unrolling: a graph loop
        u[1:-1, 1:-1] = u[1:-1, 1:-1] + 0.1 * (
            u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4 * u[1:-1, 1:-1])
    return u[2:-2, 3]


@pytest.mark.parametrize("jit", [True, False])
def test_stencil_steps_written_into_the_interior_match_numpy(jit):
    # Under XLA the write is a select over an index mask: the edges, NaN and -0.0 among
    # them, must stay bit for bit, and NaN/inf must spread inward as NumPy spreads them.
    u = np.random.default_rng(4).random((9, 12))
    u[0, 4], u[5, 0], u[8, 11], u[0, 0] = np.nan, -0.0, np.inf, -0.0
    check_against_numpy(diffuse_in_place, u, jit=jit)
    got = u.copy()
    nptf.compile(diffuse_in_place, jit_compile=jit, fallback="raise")(got)
    edges = np.ones(u.shape, bool)
    edges[1:-1, 1:-1] = False
    np.testing.assert_array_equal(got[edges].view(np.int64), u[edges].view(np.int64))


@pytest.mark.parametrize("jit", [True, False])
def test_slice_writes_of_three_dimensional_regions(jit):
    def write(a):
        b = a.copy()
        b[1:3, :, 2:] = a[1:3, :, 2:] * 2.0 + 1.0
        b[:, 1:2, :1] = -b[:, 1:2, :1]
        return b

    check_against_numpy(write, np.arange(4 * 3 * 5, dtype=np.float32).reshape(4, 3, 5), jit=jit)


def augmented_slices(x):
    x = x.copy()
    x[1:3] += 1
    x[0, ::2] *= 2
    v = x[2:4]
    x[3] = 9                 # v sees this write, as a NumPy view does
    x[2:4] = v               # writes back what the memory already holds
    return x, v.copy()


def test_the_write_back_of_an_augmented_slice_assignment_is_one_write():
    x = np.arange(20.0).reshape(5, 4)
    graph = nptf.compile(augmented_slices).trace(x, stage="traced")
    writes = [e for e in graph.eqns if e.op.name in ("scatter", "slice_update")]
    assert len(writes) == 3          # x[1:3] += 1, x[0, ::2] *= 2, x[3] = 9; no write-backs
    for jit in (True, False):
        got = nptf.compile(augmented_slices, fallback="raise", jit_compile=jit)(x)
        for g, e in zip(got, augmented_slices(x)):
            assert g.dtype == e.dtype and g.shape == e.shape
            np.testing.assert_array_equal(g, e)


# A view whose base was written since it was last read takes its value from the base at
# its next read; when that read is inside a branch or a loop body, the value exists only
# in that branch's (or body's) graph, and reads outside it derive the value again.
def view_read_first_in_branches(a, x):
    u = a[:, ::2]
    a[0, 0] = 5
    if x.sum() > 0:
        y = u * 2
    else:
        y = u * 3
    return y + u


def view_read_first_in_one_branch(a, x):
    u = a[1:, :]
    a += 1
    if x.sum() > 0:
        y = u.sum()
    else:
        y = a.sum()
    return y + u[0, 0]


def view_written_in_branch_in_loop(a, c, k, x):
    u = a[:, ::2]
    for i in range(k[0]):
        a.T.reshape(-1)[...] -= a.T.reshape(-1)      # a copy: NumPy writes nothing back
        if a.max() > x:
            u *= 1.5
        a[0, 1] += c[i]
    return a, u


def view_rebound_in_loop(a, x):
    u = a[::2]
    for i in range(11):     # unrolled: the body writes through `u`'s array and rebinds it
        a[1] = u[0] * 0.5
        u = a[::2]
        if x.sum() > 0:
            a[3] += u.sum() * 0.1
        else:
            a[3] -= u[1]
    return u, a


@pytest.mark.parametrize("fn, args", [
    (view_read_first_in_branches, (np.ones((3, 5)), np.ones(2))),
    (view_read_first_in_branches, (np.ones((3, 5)), -np.ones(2))),
    (view_read_first_in_one_branch, (np.arange(12.0).reshape(3, 4), np.ones(2))),
    (view_read_first_in_one_branch, (np.arange(12.0).reshape(3, 4), -np.ones(2))),
    (view_written_in_branch_in_loop, (np.ones((3, 5), np.float32), np.arange(24.0),
                                      np.array([12, 2]), 0.5)),
    (view_rebound_in_loop, (np.arange(10.0) - 3, np.ones(2))),
    (view_rebound_in_loop, (np.arange(10.0) - 3, -np.ones(2))),
])
def test_views_read_first_inside_branches_and_loops(fn, args, jit):
    check_against_numpy(fn, *args, jit=jit)


# Results NumPy returns as new arrays although nptf's implementation hands back the
# argument itself, and results NumPy returns as the argument itself: a write into the
# argument afterwards shows in the result exactly when it does in NumPy.
ALIASING = {
    "nan_to_num_of_integers": lambda a: np.nan_to_num(a),
    "round_of_integers": lambda a: np.round(a),
    "round_method_of_integers": lambda a: a.round(),
    "around_of_integers": lambda a: np.around(a, 1),
    "pad_by_nothing": lambda a: np.pad(a, 0),
    "real_of_a_real_array": lambda a: np.real(a),
    "real_attribute_of_a_real_array": lambda a: a.real,
    "nan_to_num_without_a_copy": lambda a: np.nan_to_num(a.astype(np.float64), copy=False),
    "asarray": lambda a: np.asarray(a),
    "copy": lambda a: np.copy(a),
}


def _write_after(fn):
    def f(a):
        y = fn(a)
        a[0] += 1
        return y, a
    return f


@pytest.mark.parametrize("name", sorted(ALIASING))
@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_a_result_shares_memory_with_its_argument_as_numpys_does(name, dtype):
    check_against_numpy(_write_after(ALIASING[name]), np.array([1, -2, 0, 3], dtype))
    # A large array: NumPy is asked on a small one of the same rank.
    check_against_numpy(_write_after(ALIASING[name]), np.arange(-300, 300 * 299).astype(dtype))


def _nan_to_num_in_place(x):
    y = np.nan_to_num(x, copy=False, nan=-1.0)
    return y, x


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_nan_to_num_without_a_copy_writes_into_its_argument(jit):
    check_against_numpy(_nan_to_num_in_place, np.array([np.nan, np.inf, 1.0, -np.inf]), jit=jit)
    check_against_numpy(_nan_to_num_in_place, np.array([complex(np.nan, np.inf), 1j]), jit=jit)


def _real_part_then_write(z):
    r, i = z.real, np.imag(z)
    z[0] = 5.0
    z[z.real > 4] += 1j
    return r, i, z


def _trimmed_then_write(a):
    t = np.trim_zeros(a)
    a[1] = 7
    return t, a


def _slice_of_the_real_part_then_write(z):
    r = z.real[1:]
    z[1] = 9 + 9j
    return r


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_a_view_nptf_derives_shows_later_writes_into_its_argument(jit):
    """NumPy's z.real, np.imag(z) and np.trim_zeros(a) are views: read after a write
    into their argument, they show it."""
    check_against_numpy(_real_part_then_write, np.array([1 + 2j, 3j, 5 + 1j]), jit=jit)
    check_against_numpy(_trimmed_then_write, np.array([0, 1, 2, 0]), jit=jit)
    check_against_numpy(_slice_of_the_real_part_then_write, np.array([1 + 2j, 3j, 2 + 0j]),
                        jit=jit)


def _write_through_the_real_part(z):
    r = z.real
    r[0] = 9.0
    return z


def _write_through_trimmed(a):
    t = np.trim_zeros(a)
    t[0] = 9
    return a


def _write_through_a_slice_of_the_imaginary_part(z):
    z.imag[1:] = 5.0
    return z


def _fill_the_real_part(z):
    z.real[...] = 0
    return z


def _write_through_a_slice_of_trimmed(a):
    t = np.trim_zeros(a)[1:]
    t[0] = 7
    return a


def _normalized_eigenvector(P):
    # The stationary distribution as textbooks write it: in place, through `.real`.
    w, v = np.linalg.eig(P.T)
    p = v[:, np.argmin(np.abs(w - 1))].real
    p /= p.sum()
    return p


def _parts_set(z, x):
    z.real = x
    z.imag += 1
    part = z[::-1].imag
    part[0] = -4
    return z, part, (z * 2).real.__itruediv__(3)


def test_writes_through_the_real_and_imaginary_parts_land_in_the_array(jit):
    """``z.real`` and ``z.imag`` of a complex array are views: writes through them, and
    ``z.real = v``, change the array's parts, as in NumPy."""
    for z in (np.array([1 + 2j, 3j]), np.array([1 + 2j, 3j, 2 + 0j], np.complex64)):
        check_against_numpy(_write_through_the_real_part, z, jit=jit)
        check_against_numpy(_write_through_a_slice_of_the_imaginary_part, z, jit=jit)
        check_against_numpy(_fill_the_real_part, z, jit=jit)
        check_against_numpy(_parts_set, z, z.real * 3, jit=jit)
    P = np.array([[0.5, 0.4, 0.1], [0.2, 0.6, 0.2], [0.1, 0.3, 0.6]])
    check_against_numpy(_normalized_eigenvector, P, jit=jit)
    with pytest.raises(TypeError, match="does not have imaginary part"):
        nptf.compile(lambda x: setattr(x, "imag", 3), fallback="raise")(np.ones(2))


@pytest.mark.parametrize("fn, arg", [(_write_through_trimmed, np.array([0, 1, 2, 0]))],
                         ids=["trim_zeros"])
def test_a_write_through_a_view_nptf_derives_is_refused_rather_than_lost(fn, arg):
    """A write through such a view lands in its argument in NumPy, which nptf cannot place:
    the function runs as NumPy (default) or raises, never loses the write."""
    with pytest.raises(nptf.UnsupportedError, match="view of its argument"):
        nptf.compile(fn, fallback="raise")(arg.copy())
    with pytest.warns(RuntimeWarning):
        got = nptf.compile(fn)(arg.copy())
    np.testing.assert_array_equal(got, fn(arg.copy()))


def _copy_then_write(a):
    y = np.copy(a)
    a[0] += 1
    return y


@pytest.mark.parametrize("output", ["numpy", "tensor"])
@pytest.mark.parametrize("jit", [None, False, True], ids=["default", "graph", "xla"])
def test_a_copy_of_an_argument_keeps_its_values_when_the_argument_is_written(jit, output):
    """np.copy(a) may be the argument's own buffer inside TensorFlow: the result is taken
    before the written argument goes back into the caller's array, on every call
    (the first calls run the executor trial)."""
    f = nptf.compile(_copy_then_write, jit_compile=jit, fallback="raise", output=output)
    for _ in range(8):
        x = np.arange(100_000, dtype=np.int32)
        y = np.asarray(f(x))
        assert y.dtype == np.int32 and y.shape == x.shape
        assert y[0] == 0 and x[0] == 1


def add_then_read(a, b):
    a += 1
    return b.sum(), a


def copied_across(a, b):
    a[1:] = b[:a.size - 1] * 2
    return a


@pytest.mark.parametrize("fn", [add_then_read, copied_across])
def test_arguments_that_share_memory_with_one_written(fn):
    """The graph holds each argument as a value of its own: where one it writes into
    shares memory with another, the call runs with NumPy."""
    import warnings
    for call in (lambda f, x: f(x, x), lambda f, x: f(x[:4], x[2:]),
                 lambda f, x: f(x[::2], x[1::2]), lambda f, x: f(x, x.copy())):
        x, y = np.arange(8.0), np.arange(8.0)
        expected = call(fn, x)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = call(nptf.compile(fn, adaptive=False), y)
        assert mismatch(expected, got) is None and mismatch(x, y) is None
    with pytest.raises(nptf.Error, match="shares memory"):
        z = np.arange(8.0)
        nptf.compile(fn, fallback="raise", adaptive=False)(z[:6], z[2:])


def full_of_traced_fills(x, floor):
    y = np.full_like(x, floor)
    y[0] = 5.0
    z = np.full(x.shape, x)         # the fill an array of the result's shape: a copy of it
    z[1] = -1.0
    w = np.full((2, 3), x[:3])
    w[0, 0] = 9.0
    np.copyto(y, x, where=np.abs(x) >= 2.0)
    return y, z, w, x


def test_full_of_a_traced_fill_is_a_new_writable_array():
    check_against_numpy(full_of_traced_fills, np.arange(4.0), 0.5)


def decide_after_writes(x):
    """Python's decisions on arrays the trace knew (zeros, ones) before a write into them,
    or into a view of them, put the data there."""
    a = np.zeros(1)
    a[0] = x[0]
    b = np.ones(1)
    v = b[:]
    v[0] = x[1]
    c = np.zeros(())
    c[...] = x[2]
    return (1.0 if a else 2.0), (3.0 if b else 4.0), float(c) + 1, bool(b), int(c > 0)


@pytest.mark.parametrize("x", [[3.0, 0.0, -1.0], [0.0, 2.0, 5.0]])
def test_decisions_on_an_array_after_a_write_read_what_was_written(x, jit):
    check_against_numpy(decide_after_writes, np.array(x), jit=jit)


TABLE = np.zeros(4)


@pytest.mark.parametrize("write", [
    lambda x: np.copyto(TABLE, x), lambda x: np.place(TABLE, x > 0, x[x > 0]),
    lambda x: np.put(TABLE, [0, 2], x[:2]), lambda x: np.putmask(TABLE, x > 0, x),
    lambda x: np.put_along_axis(TABLE, np.array([1]), x[0], axis=0),
    lambda x: np.fill_diagonal(TABLE.reshape(2, 2), x[0])],
    ids=["copyto", "place", "put", "putmask", "put_along_axis", "fill_diagonal"])
def test_a_write_into_a_numpy_array_the_trace_did_not_make_is_refused(write):
    """NumPy's in-place functions into an array that is not traced (a global, or one a
    library makes with its own ``numpy.zeros``, as scipy.stats' ``cdf`` does) cannot land
    in its memory: refused, never dropped."""
    def fn(x):
        write(x)
        return TABLE.copy()

    x = np.array([1.0, -2.0, 3.0, 4.0])
    TABLE[:] = 0
    with pytest.raises(nptf.Error):     # (NumPy's own fill_diagonal converts x[0])
        nptf.compile(fn, fallback="raise")(x)
    want = fn(x)
    TABLE[:] = 0
    with pytest.warns(RuntimeWarning, match="runs with NumPy"):
        got = nptf.compile(fn)(x)
    np.testing.assert_array_equal(got, want)
    TABLE[:] = 0


def test_a_write_through_np_asarray_of_a_global_is_refused():
    """np.asarray of a NumPy array the function holds is that array in NumPy: a write
    through it changes the global there, which the graph cannot; reads are fine."""
    def write_through(x):
        a = np.asarray(TABLE)
        a[0] = x[0]
        return TABLE.copy()

    def read_through(x):
        return np.asarray(TABLE) + x, np.array(TABLE, copy=False).sum()

    TABLE[:] = np.arange(4.0)
    with pytest.raises(nptf.UnsupportedError, match="np.asarray of a NumPy array"):
        nptf.compile(write_through, fallback="raise")(np.ones(4))
    check_against_numpy(read_through, np.ones(4))
    TABLE[:] = 0


def test_scipy_stats_cdf_of_a_number_is_never_silently_zero():
    # scipy.stats fills the result of a distribution's cdf with np.place: refused, where
    # nptf has no formula of its own for the distribution (it has for norm's).
    stats = pytest.importorskip("scipy.stats")
    with pytest.raises(nptf.Error):
        nptf.compile(lambda x: stats.logistic.cdf(x), fallback="raise")(0.3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert nptf.compile(lambda x: stats.logistic.cdf(x))(0.3) == stats.logistic.cdf(0.3)
    got = nptf.compile(lambda x: stats.norm.cdf(x), fallback="raise")(0.3)
    assert type(got) is np.float64 and got == pytest.approx(stats.norm.cdf(0.3), rel=1e-15)
