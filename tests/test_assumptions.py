"""Results whose kind the data choose: the eigenvalues of a real matrix (real where all
are, complex otherwise), np.roots, np.poly. The graph assumes one kind; a call whose data
give the other runs a graph traced with the other assumption, cached beside the first."""
import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy, mismatch

# Dense matrices, whose eigenvalues' order and eigenvectors' signs do not turn on their
# last bits (where they do, the call runs with NumPy whatever the kind).
SYMMETRIC = np.array([[2.0, 1.0, 0.3], [1.0, 3.0, 0.5], [0.3, 0.5, 1.0]])
ROTATION = np.array([[0.1, -1.0, 0.2], [1.0, 0.1, 0.3], [0.2, 0.1, 0.5]])
# Transitions of a reversible chain (real eigenvalues) and of one that cycles (complex).
CHAIN = SYMMETRIC / SYMMETRIC.sum(axis=1, keepdims=True)
CYCLE = np.array([[0.44, 0.445, 0.115], [0.292, 0.002, 0.706], [0.997, 0.001, 0.002]])


def spectrum(a):
    w = np.linalg.eigvals(a)
    return w, np.sort_complex(w), np.abs(w).max(), w.real.sum()


def stationary(P):
    # A stationary distribution as tutorials write it: the eigenvector of eigenvalue 1.
    w, v = np.linalg.eig(P.T)
    pi = np.abs(v[:, np.argmin(np.abs(w - 1))].real)
    return pi / pi.sum(), w


def stable_ar(coefficients):
    # An AR process is stationary where the roots of its polynomial lie outside the unit
    # circle; they are real or complex as the coefficients say.
    r = np.roots(np.r_[1.0, -coefficients][::-1])
    return r, bool(np.all(np.abs(r) > 1)), np.poly(r)


def characteristic(a, zeros):
    return np.poly(a), np.poly(zeros)


def _calls(fn, inputs, **options):
    """Call one compiled ``fn`` on each of ``inputs`` in turn, against NumPy each time."""
    compiled = nptf.compile(fn, fallback="raise", **options)
    for args in inputs:
        got, want = compiled(*args), fn(*args)
        problem = mismatch(want, got)
        assert problem is None, problem
    return compiled


@pytest.mark.parametrize("adaptive", [False, None])
def test_the_kind_of_eigenvalues_follows_the_data_call_by_call(adaptive, jit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # "runs without XLA"
        compiled = _calls(spectrum, [(a,) for a in (SYMMETRIC, ROTATION, ROTATION, CHAIN,
                                                     ROTATION, SYMMETRIC)],
                          adaptive=adaptive, jit_compile=jit)
        _calls(stationary, [(CHAIN,), (CYCLE,), (CHAIN,)], adaptive=adaptive,
               jit_compile=jit)
    info = compiled.cache_info()
    # One signature, a graph per kind: the second kind is traced once, not per call.
    assert info.size == 1 and info.traces == 2 and info.fallbacks == 0


def test_roots_and_poly_follow_the_data(jit):
    real = np.array([0.5, -0.06])          # roots 5 and 10/3 (real)
    complex_ = np.array([0.2, -0.5])       # a damped oscillation (complex roots)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        _calls(stable_ar, [(complex_,), (real,), (complex_,), (real,)], jit_compile=jit,
               adaptive=False)
        pairs = np.array([-0.5 + 0.8j, -0.5 - 0.8j, -1.0 + 0j])
        single = np.array([-0.5 + 0.8j, 1.0 + 0j, 2.0 - 1j])
        _calls(characteristic, [(SYMMETRIC, pairs), (ROTATION, single), (ROTATION, pairs),
                                (SYMMETRIC, single), (np.arange(9).reshape(3, 3), pairs)],
               jit_compile=jit, adaptive=False)


def two_sites(a, b):
    return np.linalg.eigvals(a) * 2, np.linalg.eigvals(b).sum()


def test_each_assumption_flips_on_its_own():
    compiled = _calls(two_sites, [(SYMMETRIC, SYMMETRIC), (ROTATION, SYMMETRIC),
                                  (SYMMETRIC, ROTATION), (ROTATION, ROTATION),
                                  (SYMMETRIC, SYMMETRIC), (ROTATION, ROTATION)],
                      adaptive=False, jit_compile=False)
    assert compiled.cache_info().traces == 4


def in_a_loop(mats, n):
    total = np.zeros(3, dtype=complex)
    for i in range(n):
        total = total + np.linalg.eigvals(mats[i])
    return total


def test_a_loop_whose_kinds_differ_from_one_iteration_to_the_next_runs_numpy():
    """No one graph holds: the call runs with NumPy (an nptf error under "raise"), as the
    first graph's failed check alone did."""
    mats = np.stack([SYMMETRIC, ROTATION])
    n = np.int64(2)
    with pytest.raises(nptf.OutsideTheGraphError, match="np.linalg.eigvals.*need both kinds"):
        nptf.compile(in_a_loop, fallback="raise", adaptive=False)(mats, n)
    with pytest.warns(RuntimeWarning, match="runs with NumPy"):
        got = nptf.compile(in_a_loop, adaptive=False)(mats, n)
    np.testing.assert_allclose(got, in_a_loop(mats, n))
    # One kind in every iteration: a graph of that kind.
    for same in (np.stack([ROTATION, ROTATION.T]), np.stack([SYMMETRIC, CHAIN])):
        check_against_numpy(in_a_loop, same, n, adaptive=False)


def shifted_in_place(a, shift):
    a -= shift * np.eye(len(a))
    return np.linalg.eigvals(a)


def test_a_function_that_writes_its_argument_writes_it_once():
    compiled = nptf.compile(shifted_in_place, fallback="raise", adaptive=False)
    for a in (SYMMETRIC, ROTATION, SYMMETRIC):
        mine, theirs = a.copy(), a.copy()
        got, want = compiled(mine, 0.5), shifted_in_place(theirs, 0.5)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want)
        np.testing.assert_array_equal(mine, theirs)


def printed_then_eigvals(a, n):
    for i in range(n):
        print("step", i, a[i].sum())
    return np.linalg.eigvals(a)


def test_what_a_graph_prints_is_printed_once(capsys):
    """A graph whose check hands the call to another run (the other kind's graph, or
    NumPy's run) holds its prints back: the run that answers prints them, once."""
    compiled = nptf.compile(printed_then_eigvals, adaptive=False)
    for a in (SYMMETRIC, ROTATION, SYMMETRIC):
        got = compiled(a, np.int64(2))
        assert capsys.readouterr().out == "".join(f"step {i} {a[i].sum()}\n" for i in range(2))
        np.testing.assert_allclose(got, np.linalg.eigvals(a))
    mats = np.stack([SYMMETRIC, ROTATION])
    with pytest.warns(RuntimeWarning, match="runs with NumPy"):
        nptf.compile(in_a_loop_printing, adaptive=False)(mats, np.int64(2))
    assert capsys.readouterr().out == "0\n1\n"


def in_a_loop_printing(mats, n):
    total = np.zeros(3, dtype=complex)
    for i in range(n):
        print(i)
        total = total + np.linalg.eigvals(mats[i])
    return total


EMATH = {
    "sqrt": lambda x: np.emath.sqrt(x),
    "log": lambda x: np.emath.log(x),
    "log10": lambda x: np.emath.log10(x),
    "log2": lambda x: np.emath.log2(x),
    "arccos": lambda x: np.emath.arccos(x),
    "arcsin": lambda x: np.emath.arcsin(x),
    "arctanh": lambda x: np.emath.arctanh(x / 3),
    "logn": lambda x: np.emath.logn(3, x),
    "power": lambda x: np.emath.power(x, 2),
    "integer_powers": lambda x: np.emath.power(np.arange(1, 4), (x * 2).astype(np.int64)),
    "real_if_close": lambda x: np.real_if_close(np.fft.ifft(np.fft.fft(x))),
    "not_close": lambda x: np.real_if_close(x + 1j * x * 1e-3),
    "of_a_number": lambda x: np.emath.sqrt(float(x[0])) + np.emath.sqrt(x[1]),
    "of_a_scalar": lambda x: (np.emath.log(x.sum() - 3), np.emath.sqrt(np.any(x > 3))),
}


# Every function on the plain executor, a few under XLA too (the same ufuncs as NumPy's
# own np.sqrt, np.log, ... otherwise, swept by the op records).
_EMATH_UNDER_XLA = ("sqrt", "integer_powers", "real_if_close", "of_a_scalar")


@pytest.mark.parametrize("name,jit", [(n, False) for n in sorted(EMATH)] +
                         [(n, True) for n in _EMATH_UNDER_XLA])
def test_emath_and_real_if_close_are_real_or_complex_as_the_data_say(name, jit):
    """np.emath's functions (numpy.lib.scimath) and np.real_if_close, whose result NumPy
    makes real or complex by the data, called in turn on data of either kind."""
    inputs = [np.array([0.25, 1.0, 4.0]), np.array([-0.25, 1.0, 4.0]),
              np.array([0.25, 1.0, 4.0]), np.array([-2, 1, 4]),
              np.array([0.25, 1.0, 4.0], np.float32), np.array([-0.5, 0.5, 0.0], np.float32)]
    if name != "of_a_number":       # float() of a complex number: a ComplexWarning
        inputs.append(np.array([1 + 1j, 2, 3]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # log(0), arctanh(1)
        _calls(EMATH[name], [(x,) for x in inputs], jit_compile=jit, adaptive=False)


def test_an_exported_model_has_the_kind_its_trace_assumes(tmp_path):
    import tensorflow as tf
    path = str(tmp_path / "model")
    nptf.export(lambda x: np.emath.sqrt(x), path, nptf.Spec((3,), np.float64))
    run = tf.saved_model.load(path).signatures["serving_default"]
    (out,) = run(tf.constant([1.0, 4.0, 9.0], tf.float64)).values()
    np.testing.assert_array_equal(out.numpy(), [1.0, 2.0, 3.0])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="OutsideTheGraph: np.emath.sqrt.*result complex"):
        run(tf.constant([-1.0, 4.0, 9.0], tf.float64))


def counts_per_step(labels, weights, steps):
    # Per-class totals over a simulation: np.bincount(..., minlength=n_classes) is as long
    # as minlength where the labels stay below it, and loops and lists keep its length.
    out = []
    for _ in range(steps):
        out.append(np.bincount(labels, weights=weights, minlength=4))
        weights = np.roll(weights, 1)
    return np.array(out)


def class_shares(labels):
    return np.bincount(labels, minlength=4) / len(labels)


def confusion(truth, predicted, k=3):
    return np.bincount(k * truth + predicted, minlength=k * k).reshape(k, k)


def three_counts(a, b, c):
    return np.bincount(a, minlength=2), np.bincount(b, minlength=2), np.bincount(c, minlength=2)


def test_bincount_is_as_long_as_minlength_where_the_data_allow(jit):
    small, large = np.array([0, 3, 1, 1, 2]), np.array([0, 6, 1, 1, 2])
    weights = np.linspace(0.0, 1.0, 5)
    compiled = _calls(class_shares, [(small,), (large,), (small[::-1].copy(),)],
                      jit_compile=jit, adaptive=False)
    assert compiled.cache_info().traces == 2
    _calls(counts_per_step, [(small, weights, np.int64(3)), (small[::-1].copy(), weights,
                                                             np.int64(2))], jit_compile=jit)
    # The counts have a length known when tracing: the loop's list is one array, and XLA
    # compiles the counts.
    from nptf.lowering import xla_obstacles
    graph = nptf.compile(counts_per_step, fallback="raise").trace(small, weights, np.int64(3))
    assert graph.outputs[0].type.shape == (None, 4)
    assert not xla_obstacles(nptf.compile(class_shares, fallback="raise").trace(small))
    # Labels past minlength: a graph of counts of run-time length, which that loop cannot
    # append, so NumPy runs the call.
    with pytest.warns(RuntimeWarning, match="runs with NumPy.*longer than minlength=4"):
        got = nptf.compile(counts_per_step, jit_compile=jit)(large, weights, np.int64(3))
    np.testing.assert_array_equal(got, counts_per_step(large, weights, 3))
    truth, predicted = np.array([0, 1, 2, 2]), np.array([0, 2, 2, 1])
    compiled = _calls(confusion, [(truth, predicted)], jit_compile=jit)
    # A label past k: NumPy's counts cannot be reshaped to (k, k), and neither can nptf's.
    with pytest.raises(ValueError, match="cannot reshape"):
        compiled(truth, predicted + 1)


def test_several_failed_assumptions_flip_in_one_trace():
    small, large = np.array([0, 1, 1]), np.array([0, 1, 5])
    compiled = _calls(three_counts, [(small, small, small), (large, large, large),
                                     (small, large, small), (small, small, small)],
                      adaptive=False, jit_compile=False)
    # The graph of counts of run-time length holds for any labels.
    assert compiled.cache_info().traces == 2


# ------------------------------------------- `if`s whose paths give values of other kinds
def rand_index(a, b):
    # An early return of a number where the other path returns a tuple.
    tn, fp = int(a.sum()), int(b.sum())
    if fp == 0:
        return 1.0
    return tn / fp, float(tn - fp)


def simplex_status(x):
    # Dicts of other keys, one with a string.
    if np.all(x < 0):
        return {"status": "infeasible", "n": len(x)}
    return {"status": "optimal", "x": x * 2, "objective": x.sum()}


def strong_pairs(C, names, threshold):
    # Tuples with a name in them appended under an `if` of each unrolled step, then sorted
    # by a traced key: each item's names are the ones its position gives.
    pairs = []
    for i, a in enumerate(names):
        for j in range(i):
            r = C[i, j]
            if r * r >= threshold ** 2:
                pairs.append((names[j], a, float(r)))
    pairs.sort(key=lambda p: -abs(p[2]))
    return pairs, sorted(names, key=lambda n: C[names.index(n)].sum())


def bonds(P, A):
    # Keys only some paths add.
    out = {}
    for i in range(len(A)):
        for j in range(i + 1, len(A)):
            if A[i, j]:
                out[(i, j)] = round(float(P[i, j]), 6)
    return out


def noisy_label(x):
    # A draw comes first, so the trace cannot tell which path the call's data take: it
    # assumes the false one, which appends no label, and Python's IndexError follows,
    # which NumPy's run of data that take the true path does not raise.
    noise = np.random.random(len(x)) * 1e-9
    labels = []
    if (x + noise).std() > 0.5:
        labels.append("wide")
    return labels[0] + "!"


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_an_if_whose_paths_give_values_of_other_kinds_takes_the_path_of_the_data(jit):
    """The trace assumes the false path and the graph checks the condition; a call whose
    data take the true path runs a graph traced with that path, cached beside the first,
    and later calls run the graph their data fit without tracing again."""
    compiled = nptf.compile(rand_index, jit_compile=jit, fallback="raise")
    calls = [(np.ones(3), np.ones(2)), (np.ones(3), np.zeros(2)), (np.ones(3), np.ones(2)),
             (np.ones(3), np.zeros(2))]
    for a, b in calls:
        got = compiled(a, b)
        assert mismatch(rand_index(a, b), got) is None and type(got) is type(rand_index(a, b))
    assert compiled.cache_info().traces == 2
    for x in (np.arange(3.0), -np.ones(3), np.arange(3.0) - 5, np.arange(3.0)):
        check_against_numpy(simplex_status, x, jit=jit)


def test_texts_appended_on_the_paths_of_unrolled_ifs_and_sorted_by_traced_keys():
    rng = np.random.default_rng(0)
    names = ["a", "b", "c", "d"]
    for _ in range(3):
        C = np.corrcoef(rng.normal(size=(20, 4)), rowvar=False)
        check_against_numpy(strong_pairs, C, names, 0.2)
    A = np.array([[0, 1, 0, 1], [1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 1, 0]])
    check_against_numpy(bonds, rng.normal(size=(4, 4)), A)
    check_against_numpy(bonds, rng.normal(size=(4, 4)), A[::-1].copy())


def test_python_s_error_on_the_assumed_path_runs_numpy():
    x = np.array([1.0, 4.0, 2.0])
    with pytest.raises(nptf.OutsideTheGraphError, match=r"test_assumptions.*IndexError"):
        nptf.compile(noisy_label, fallback="raise")(x)
    with pytest.warns(RuntimeWarning, match="runs with NumPy"):
        assert nptf.compile(noisy_label)(x) == "wide!"
    with pytest.raises(IndexError), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nptf.compile(noisy_label)(x / 100)     # NumPy's own IndexError


def test_data_that_need_more_graphs_than_a_signature_keeps_run_numpy():
    """Each of six `if`s appends on its own path: data of new patterns trace new graphs up
    to four for the signature; later calls whose data fit none run NumPy at once."""
    compiled = nptf.compile(strong_pairs)
    rng = np.random.default_rng(1)
    names = ["a", "b", "c", "d"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(8):
            C = np.corrcoef(rng.normal(size=(6, 4)), rowvar=False)
            # (The threshold an array: a Python float deciding a path keys the graphs
            # by its value.)
            t = np.array(0.3)
            assert mismatch(strong_pairs(C, names, t), compiled(C, names, t)) is None
    assert compiled.cache_info().traces <= 4
    assert any("runs with NumPy" in str(w.message) for w in caught)


def test_an_if_of_other_kinds_on_its_paths_is_refused_by_export(tmp_path):
    with pytest.raises(nptf.Error, match="test_assumptions"):
        nptf.export(rand_index, tmp_path / "m", nptf.Spec((3,)), nptf.Spec((2,)))


def test_the_first_trace_takes_the_path_of_the_call_s_data(monkeypatch):
    """The trace computes the condition from the call's arguments (NumPy's rules), so a
    first call whose data take the true path traces once; where that computation would
    take longer than its budget (a long loop before the `if`), the trace assumes the false
    path and the graph's check sends the call to a second trace."""
    from nptf.tracer import shadow
    x = -np.ones(4)
    compiled = nptf.compile(simplex_status, fallback="raise")
    assert mismatch(simplex_status(x), compiled(x)) is None
    assert compiled.cache_info().traces == 1
    monkeypatch.setattr(shadow, "SHADOW_SECONDS", 0.0)
    compiled = nptf.compile(status_again, fallback="raise")
    assert mismatch(status_again(x), compiled(x)) is None
    assert compiled.cache_info().traces == 2


def status_again(x):
    # simplex_status's `if` at a place of its own: no trace has met it yet.
    if np.all(x < 0):
        return {"status": "infeasible", "n": len(x)}
    return {"status": "optimal", "x": x * 2, "objective": x.sum()}


def first_negative(x, n):
    for i in range(n):              # past the unroll limit: a graph loop
        if x[i] < 0:
            return "negative"
    return {"status": "none negative", "total": x.sum()}


def test_an_if_of_paths_of_other_kinds_in_a_graph_loop_holds_on_every_iteration():
    """In a graph loop the trace assumes the path on every iteration, which the graph
    checks on each: data that never take the `return` run the graph loop; data that take
    it run a graph of the loop unrolled (a string cannot leave a graph loop), each step's
    `if` on the path its data take."""
    compiled = nptf.compile(first_negative, fallback="raise", static_argnames=["n"],
                            adaptive=False)
    n = 40
    for x in (np.arange(1.0, 41.0), np.arange(2.0, 42.0)):
        assert mismatch(first_negative(x, n), compiled(x, n)) is None
    assert compiled.cache_info().traces == 1
    later = np.arange(1.0, 41.0) * np.where(np.arange(40) == 2, -1, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for x in (later, np.arange(1.0, 41.0), later):
            assert mismatch(first_negative(x, n), compiled(x, n)) is None
    assert compiled.cache_info().traces == 2


def schedule(principal, rate, years, extra=0.0):
    # Python floats that decide the loop's `break` and numbers of both kinds in the rows.
    months = int(years * 12)
    r = rate / 12
    due = principal * r / (1 - (1 + r) ** -months)
    left, table = principal, []
    for k in range(months):
        owed = left * r
        paid = min(due + extra - owed, left)
        left = left - paid
        table.append([k + 1, owed, paid, left])
        if left <= 1e-9:
            break
    out = np.array(table)
    return round(due, 2), out, float(out[:, 1].sum())


def test_a_trace_keyed_by_deciding_floats_comes_before_assumed_paths():
    """Python floats that decide paths key the graphs by their values, which hold for
    every call of those values; only where that trace fails too does one assume paths.
    (Its rows hold 720 numbers that are Python floats or NumPy scalars as the data say:
    NumPy's promotion for each mix is asked of a few samples, never of all 2**720.)"""
    for args in ((250_000, 0.06, 15, 500.0), (10_000.0, 0.05, 2, 0.0)):
        check_against_numpy(schedule, *args)


def tagged_square(x):
    tags = []
    if x.sum() > 0:
        tags.append("positive")          # a string on one path: no one graph holds it
    return (x ** 2).sum() * (len(tags) + 1)


def test_grad_and_vmap_of_an_if_of_paths_of_other_kinds_are_refused():
    """One graph serves every call of nptf.grad and nptf.vmap: such an `if` is refused with
    its line (vmap runs NumPy example by example by default), where nptf.compile takes the
    data's path."""
    for x in (np.arange(3.0), -np.arange(3.0)):
        check_against_numpy(tagged_square, x)
    with pytest.raises(nptf.Error, match="test_assumptions"):
        nptf.grad(tagged_square)(np.arange(3.0))
    batch = np.arange(6.0).reshape(2, 3) - 2
    with pytest.raises(nptf.Error, match="test_assumptions"):
        nptf.vmap(tagged_square, fallback="raise")(batch)
    with pytest.warns(RuntimeWarning, match="runs with NumPy"):
        got = nptf.vmap(tagged_square)(batch)
    np.testing.assert_array_equal(got, np.stack([tagged_square(b) for b in batch]))
