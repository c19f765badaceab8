"""Lists passed as arguments: arrays to NumPy functions, lists to Python.

A list of numbers reaches NumPy functions as the array NumPy makes of it, and
Python's own operations on it (repetition, concatenation, comparison, element
reads, methods) keep their meaning: compiled where nptf can follow them, else
the call runs with NumPy (or raises with ``fallback="raise"``). A list that holds
arrays is a container: the function gets each array, and writes reach them.
"""
import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy


def _numpy_and_compiled(fn, make_args, fallback="numpy"):
    """(NumPy's result and arguments after the call, nptf's) on fresh arguments each."""
    expected_args = make_args()
    expected = fn(*expected_args)
    got_args = make_args()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = nptf.compile(fn, fallback=fallback)(*got_args)
    return (expected, expected_args), (got, got_args), caught


def _same(a, b):
    assert type(a) is type(b), (a, b)
    if isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _same(x, y)
    elif isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            _same(a[k], b[k])
    elif isinstance(a, (np.ndarray, np.generic)):
        assert a.dtype == b.dtype and np.shape(a) == np.shape(b)
        np.testing.assert_array_equal(a, b)
    else:
        assert a == b or (a != a and b != b), (a, b)


LIST_OPERATIONS = {
    "repeat": lambda x: x * 2,
    "repeat_left": lambda x: 2 * x,
    "repeat_by_numpy_int": lambda x: x * np.int64(2),
    "concatenate": lambda x: x + [3.0],
    "concatenate_left": lambda x: [3.0] + x,
    "compare": lambda x: x == [1.0, 2.0],
    "order": lambda x: x < [1.0, 3.0],
    "contains": lambda x: 2.0 in x,
    "copy_then_repeat": lambda x: x.copy() * 2,
    "return_it": lambda x: x,
    "append": lambda x: (x.append(3.0), np.sum(x))[1],
    "write_element": lambda x: (x.__setitem__(0, 5.0), np.sum(x))[1],
    "augmented_add": lambda x: (x.__iadd__([4.0]), np.sum(x))[1],
    "index_method": lambda x: x.index(2.0),
}


# What the function does to the list itself (or hands it back): NumPy's run, always.
CHANGES_OR_RETURNS = {"append", "write_element", "augmented_add", "return_it"}


@pytest.mark.parametrize("name", sorted(LIST_OPERATIONS))
def test_python_list_operations_keep_their_meaning(name):
    """Python's operations on a short list of numbers need its numbers: calls are keyed
    by them (a graph per list, ``docs/shapes-and-caching.md``); a function that changes
    the list or returns it runs with NumPy."""
    fn = LIST_OPERATIONS[name]
    (expected, expected_args), (got, got_args), caught = _numpy_and_compiled(fn, lambda: ([1.0, 2.0],))
    _same(got, expected)
    _same(got_args, expected_args)
    if name in CHANGES_OR_RETURNS:
        assert any("runs with NumPy" in str(w.message) for w in caught)
        with pytest.raises(nptf.UnsupportedError,
                           match="list argument|a list passed in|passed in as an argument"):
            nptf.compile(fn, fallback="raise")([1.0, 2.0])
        return
    compiled = nptf.compile(fn, fallback="raise")
    for x in ([1.0, 2.0], [2.0, 1.0], [1.0, 2.0], [2, 1]):
        _same(compiled(list(x)), fn(list(x)))
    assert compiled.cache_info().traces == 5    # the traced list's, then per value (3 + 1)


def test_a_long_list_whose_python_operations_need_its_numbers_runs_with_numpy():
    x = [float(v) for v in range(40)]
    with pytest.warns(RuntimeWarning, match="runs with NumPy"):
        assert nptf.compile(lambda x: x * 2)(x) == x * 2


def test_a_numpy_float_scalar_times_a_list_is_pythons_type_error():
    with pytest.raises(TypeError, match="can't multiply sequence"):
        nptf.compile(lambda x: x * np.float64(2))([1.0, 2.0])


ARRAY_OPERATIONS = {
    "numpy_function": lambda x: np.sum(x) + np.mean(x),
    "array_plus_list": lambda x, a: a + x,
    "list_plus_array": lambda x, a: x + a,
    "list_times_array": lambda x, a: x * a,
    "list_compared_to_array": lambda x, a: (x < a, a >= x),
    "list_plus_numpy_scalar": lambda x, a: x + a[0],
    "list_matmul_array": lambda x, a: x @ a,
    "asarray_then_arithmetic": lambda x, a: np.asarray(x) * 2 + 1,
    "asarray_written": lambda x, a: (lambda y: (y.__setitem__(0, 5.0), y, np.sum(x)))(np.asarray(x)),
    "index_an_array_with_it": lambda x, a: a[np.asarray(x, dtype=np.int64) % 2],
    "length_and_truth": lambda x, a: (len(x), bool(x), not x),
    "element_read_is_a_python_float": lambda x, a: x[0] + np.float32(1),
    "element_read_negative_index": lambda x, a: x[-1] * a,
    "iteration_gives_python_floats": lambda x, a: [v * 2 for v in x],
    "builtin_sum": lambda x, a: sum(x) / len(x),
    "enumerate_and_zip": lambda x, a: [i * v for i, v in enumerate(x)] + [v * w for v, w in zip(x, x)],
    "polynomial_coefficients": lambda x, a: x[0] + x[1] * a.astype(np.float32) + x[2] * a ** 2,
}


@pytest.mark.parametrize("name", sorted(ARRAY_OPERATIONS))
def test_numpy_operations_on_a_list_compile(name, jit):
    check_against_numpy(ARRAY_OPERATIONS[name], [1.0, 2.0, 3.5], np.arange(3.0), jit=jit)


def test_list_index_of_an_array_compiles(jit):
    check_against_numpy(lambda a, idx: a[idx], np.arange(5.0), [0, 3, 3], jit=jit)

    def write(a, idx, values):
        a[idx] = values
        return a
    check_against_numpy(write, np.arange(5.0), [0, 3], [7.0, 8.0], jit=jit)


def test_elements_of_a_list_of_numpy_scalars_keep_their_type(jit):
    check_against_numpy(lambda x: x[0] + x[1] * 3, [np.float32(1.5), np.float32(2)], jit=jit)


def test_a_nested_list_is_a_matrix_to_numpy(jit):
    check_against_numpy(lambda m: np.linalg.det(m) + np.sum(np.asarray(m) @ np.ones(2)),
                        [[1.0, 2.0], [3.0, 5.0]], jit=jit)


def trapezoid_errors(scale, n_list=[4, 8, 16], opts={"k": 2.0, "names": ["a"]}):
    errors = []
    for n in n_list:
        x = np.linspace(0, scale, n + 1)
        errors.append(abs(np.trapezoid(np.exp(opts["k"] * x), x) - np.expm1(opts["k"] * scale) / 2))
    return np.array(errors), n_list[0] + n_list[-1], len(opts["names"])


def counted(x, seen=[]):
    seen.append(1)
    return x * len(seen)


def test_list_and_dict_defaults_are_arguments_as_if_passed(jit):
    """A default that cannot be part of the cache key is traced as the caller's would be;
    appending to it (the next call would see the change) runs with NumPy."""
    check_against_numpy(trapezoid_errors, 1.0, jit=jit)
    with pytest.raises(nptf.UnsupportedError, match="seen.append"):
        nptf.compile(counted, fallback="raise", jit_compile=jit)(np.ones(2))


def test_elements_of_a_list_of_ints_or_bools_are_python_numbers(jit):
    # A character RNN's inputs: indices read one by one, as Python ints (weak in
    # promotion, with the overflow checks of traced Python ints).
    def one_hot_steps(inputs, flags, w):
        out = 0.0
        for t in range(len(inputs)):
            x = np.zeros(4, np.float32)
            x[inputs[t]] = 1
            out = out + (x @ w if flags[t] else -x @ w)
        return out, inputs[0] * 2, inputs[-1] + np.int8(1), flags[1]
    check_against_numpy(one_hot_steps, [1, 2, 3, 0], [True, False, True, True],
                        np.arange(4, dtype=np.float32), jit=jit)


@pytest.mark.parametrize("make", [lambda: [2 ** 63, 1], lambda: [[1.0, 2.0]],
                                  lambda: [1.0, 2 ** 60]])
def test_elements_nptf_cannot_type_are_keyed_by_value_or_run_with_numpy(make):
    # Ints past int64, rows of a nested list (lists), a mixed list whose array does not
    # hold its int exactly: a short list keys the graph by its numbers (a row returned is
    # the caller's own list in NumPy: refused), a long one runs with NumPy.
    fn = lambda x: [x[0], x[-1]]                                    # noqa: E731
    if type(make()[0]) is list:
        with pytest.raises(nptf.UnsupportedError, match="returning a list argument"):
            nptf.compile(fn, fallback="raise")(make())
    else:
        _same(nptf.compile(fn, fallback="raise")(make()), fn(make()))
    (expected, _), (got, _), caught = _numpy_and_compiled(fn, lambda: (make() * 40,))
    _same(got, expected)
    assert any("runs with NumPy" in str(w.message) for w in caught)


def test_a_traced_choice_between_lists_keyed_by_value_or_run_with_numpy():
    def choose(x, a, b):
        y = a if x.sum() > 0 else b
        return y * 2

    def assign(x, a, b):
        if x.sum() > 0:
            y = a
        else:
            y = b
        return y + [0.0]
    for fn in (choose, assign):
        for x in (np.ones(2), -np.ones(2)):
            _same(nptf.compile(fn, fallback="raise")(x, [1.0, 2.0], [3.0, 4.0]),
                  fn(x, [1.0, 2.0], [3.0, 4.0]))
        (expected, _), (got, _), caught = _numpy_and_compiled(
            fn, lambda: (np.ones(2), [1.0, 2.0] * 20, [3.0, 4.0] * 20))
        _same(got, expected)
        assert any("runs with NumPy" in str(w.message) for w in caught)


def test_a_list_rebound_in_a_loop_keyed_by_value_or_run_with_numpy():
    def grow(x, a, n):
        y = a
        for _ in range(n):
            y = y * 2
        return np.sum(x) + len(y)
    _same(nptf.compile(grow, fallback="raise")(np.ones(2), [1.0], 12), grow(np.ones(2), [1.0], 12))
    (expected, _), (got, _), caught = _numpy_and_compiled(grow, lambda: (np.ones(2), [1.0] * 40,
                                                                         12))
    _same(got, expected)
    assert any("runs with NumPy" in str(w.message) for w in caught)


def mlp(x, weights, biases):
    for w, b in zip(weights, biases):
        x = np.tanh(x @ w + b)
    return x


def test_a_list_of_arrays_of_different_shapes_compiles(jit):
    rng = np.random.default_rng(0)
    weights = [rng.normal(size=(3, 5)), rng.normal(size=(5, 2))]
    biases = [np.zeros(5), np.ones(2)]
    check_against_numpy(mlp, rng.normal(size=(4, 3)), weights, biases, jit=jit)
    f = nptf.compile(mlp, fallback="raise")
    f(np.ones((4, 3)), weights, biases)
    assert f.cache_info().traces == 1


def test_writes_into_arrays_held_in_a_list_reach_them(jit):
    def step(params, grads, lr):
        for p, g in zip(params, grads):
            p -= lr * g
        return len(params)
    check_against_numpy(step, [np.ones(3), np.ones((2, 2))], [np.arange(3.0), np.eye(2)], 0.5,
                        jit=jit)
    params = [np.ones(3), np.ones((2, 2))]
    nptf.compile(step, fallback="raise", jit_compile=jit)(params, [np.arange(3.0), np.eye(2)], 0.5)
    np.testing.assert_array_equal(params[0], [1.0, 0.5, 0.0])
    np.testing.assert_array_equal(params[1], [[0.5, 1.0], [1.0, 0.5]])


def test_appending_to_a_list_of_arrays_runs_with_numpy():
    def add_one(x, arrays):
        arrays.append(x * 2)
        return len(arrays)
    (expected, expected_args), (got, got_args), caught = _numpy_and_compiled(
        add_one, lambda: (np.ones(2), [np.zeros(2)]))
    _same(got, expected)
    _same(got_args, expected_args)
    assert any("runs with NumPy" in str(w.message) for w in caught)


def sliced_list(x, window=3):
    out = []
    for i in range(window - 1, len(x)):
        chunk = x[i - window + 1:i + 1]          # a new Python list, as in Python
        out.append(sum(chunk) / window)
    return out, x[::-2], x[1:3], sum(x[2:]), type(x[:1]).__name__, x[:1] * 2, x[::-1]


def test_a_list_argument_sliced_by_known_bounds_is_a_python_list():
    check_against_numpy(sliced_list, [0.5, 1.5, -2.0, 4.0, 3.25, 1.0])


def max_path_sum(rows):
    """Project Euler 18: a triangle of numbers, one list per row."""
    best = list(rows[-1])
    for r in range(len(rows) - 2, -1, -1):
        best = [rows[r][i] + max(best[i], best[i + 1]) for i in range(len(rows[r]))]
    return best[0], [sum(row) for row in rows], len(rows[1])


def test_a_ragged_list_is_a_list_of_list_arguments(jit):
    """A list of rows of several lengths, of which NumPy makes no array, is several
    arguments: a list of numbers per row, each read as a list argument is; writes into it
    stay refused, as for any list argument."""
    check_against_numpy(max_path_sum, [[3], [7, 4], [2, 4, 6], [8, 5, 9, 3]], jit=jit)
    check_against_numpy(max_path_sum, [[1.5], [2.0, -1.0], [0.5, 4.0, 1.0]], jit=jit)

    def write(rows):
        rows[1][0] = 9
        return rows[1][1]
    with pytest.raises(nptf.Error):
        nptf.compile(write, fallback="raise")([[1], [2, 3]])


def _iir_matlab(b, a, x):
    b = np.array(b, dtype=float) / a[0]
    a = np.array(a, dtype=float) / a[0]
    y = np.zeros(np.shape(x))
    for n in range(1, np.size(x, 0) + 1):
        for k in range(1, len(b) + 1):
            if n - k + 1 >= 1:
                y[n - 1] = y[n - 1] + b[k - 1] * x[n - k]
        for k in range(2, len(a) + 1):
            if n - k + 1 >= 1:
                y[n - 1] = y[n - 1] - a[k - 1] * y[n - k]
    return y


def _kinds_of_items(coefs, x):
    first, *rest = coefs
    return [type(c).__name__ for c in coefs], first // 2, x * coefs[1], coefs[-1] + first


@pytest.mark.parametrize("a", [[1, -0.8], [2, 0.5, True]])
def test_list_argument_of_python_numbers_of_several_types(a):
    # Each element is read as the number it is (an int stays an int: ``first // 2``).
    check_against_numpy(_iir_matlab, [0.2], a, np.ones((12, 1)))
    check_against_numpy(_kinds_of_items, a, np.arange(3.0))


def cooccurrences(corpus, V, window=2):
    M = np.zeros((V, V))
    for sent in corpus:
        for i, w in enumerate(sent):
            for j in range(max(0, i - window), min(len(sent), i + window + 1)):
                if j != i:
                    M[w, sent[j]] += 1.0 / abs(i - j)
    return M


def read_where_found(xs, x):
    k = int(np.argmax(x))
    return xs[k] * 2, xs[-1 - k], type(xs[k]).__name__


def test_a_list_argument_read_at_a_position_the_data_choose():
    """``sent[j]`` in a graph loop, ``xs[k]`` at an index computed from an array: the
    element the data choose, of the list's one Python type."""
    rng = np.random.default_rng(3)
    corpus = [rng.integers(0, 9, n).tolist() for n in (12, 10, 11)]
    check_against_numpy(cooccurrences, corpus, 9)
    check_against_numpy(read_where_found, [4, 9, -2, 7], np.array([0.1, 0.5, 0.2]))
    check_against_numpy(read_where_found, [0.5, 1.5, 2.5], np.array([0.1, 0.0, 0.9]))
    check_against_numpy(read_where_found, [1.0], np.array([0.1, 0.9]))  # IndexError
