"""merge_element_writes: element writes in a row become one update, reads of them forwarded."""
from __future__ import annotations

import numpy as np
import pytest

import nptf
from nptf.graph_ir.ir import Literal
from nptf.graph_ir.passes import PIPELINE
from nptf.graph_ir.verify import verify


def _verified(fn, *args):
    graph = nptf.compile(fn).trace(*args, stage="traced")
    for p in PIPELINE:
        graph = p(graph)
        verify(graph)
    return graph


def _bodies(graph):
    """The bodies of the graph's loops. A loop of small steps runs unrolled (several steps
    an iteration), then as written for the steps left over (``unroll_loops``)."""
    bodies = [e.params["body"] for e in graph.eqns if e.op.name == "while"]
    assert 1 <= len(bodies) <= 2
    return bodies


def _body(graph):
    """The body of the loop as written: the last one."""
    return _bodies(graph)[-1]


def _count(graph, op):
    return sum(e.op.name == op for e in graph.eqns)


def _agrees(fn, *args):
    expected = fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    for jit in (True, False):
        got = nptf.compile(fn, fallback="raise", jit_compile=jit)(*args)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        np.testing.assert_allclose(got, expected, rtol=1e-12)   # XLA may fuse a*b+c


def swap_neighbours(a):
    a = a.copy()
    for i in range(a.shape[0] - 1):
        a[i], a[i + 1] = a[i + 1], a[i]
    return a


def bubble_pass(a):
    a = a.copy()
    for i in range(a.shape[0] - 1):
        if a[i] > a[i + 1]:
            a[i], a[i + 1] = a[i + 1], a[i]
    return a


def swap_across_rows(a):
    a = a.copy()
    for i in range(a.shape[0] - 1):
        a[i, 0], a[i + 1, -1] = a[i + 1, -1], a[i, 0]
    return a


def two_steps_a_turn(b):
    a = np.empty_like(b)
    a[0] = b[0]
    for i in range(1, b.shape[0] - 1, 2):
        a[i] = a[i - 1] * 0.5 + b[i]
        a[i + 1] = a[i] * 0.5 + b[i + 1]     # reads what the line above wrote
    a[-1] = a[-2] * 0.5 + b[-1]
    return a


@pytest.mark.parametrize("fn, shape", [(swap_neighbours, (50,)), (bubble_pass, (50,)),
                                       (swap_across_rows, (20, 3)), (two_steps_a_turn, (51,))])
def test_writes_in_a_loop_body_become_one_update(fn, shape):
    x = np.random.default_rng(1).standard_normal(shape)
    for body in _bodies(_verified(fn, x)):
        if fn is bubble_pass:     # the swap sits in a cond branch
            (branch,) = [e for e in body.eqns if e.op.name == "cond"]
            body = [g for g in branch.params["branches"] if g.eqns][0]
        # Neighbours in a 1-d array are one region; elsewhere one scatter of all positions.
        one = "scatter" if fn is swap_across_rows else "dynamic_update_slice"
        other = "dynamic_update_slice" if fn is swap_across_rows else "scatter"
        assert _count(body, one) == 1 and _count(body, other) == 0
    assert _count(body, "scatter") + _count(body, "dynamic_update_slice") == 1
    reads = [e.inputs[0] for e in body.eqns if e.op.name == "gather_nd"]
    assert all(r in body.inputs or isinstance(r, Literal) for r in reads)   # the old array only
    _agrees(fn, x)


def overwritten(a, i):
    a = a.copy()
    a[i] = 1.0
    a[i] = 2.0
    return a


def test_a_write_to_the_same_position_replaces_the_earlier_one():
    x = np.zeros(5)
    graph = _verified(overwritten, x, np.int64(3))
    assert _count(graph, "scatter") == 1
    _agrees(overwritten, x, np.int64(3))


def maybe_same(a, i, j):
    a = a.copy()
    a[i] = 1.0
    a[j] = 2.0
    return a * a[i]


@pytest.mark.parametrize("i, j", [(1, 1), (1, 2), (-1, 4), (4, -1)])
def test_positions_that_may_coincide_merge_with_the_later_value_winning(i, j):
    x = np.zeros(5)
    graph = _verified(maybe_same, x, np.int64(i), np.int64(j))
    assert _count(graph, "scatter") == 1 and _count(graph, "equal") == 1
    _agrees(maybe_same, x, np.int64(i), np.int64(j))


def reverse_in_place(a):
    a = a.copy()
    n = a.shape[0]
    for i in range((n + 1) // 2):     # the middle of an odd length swaps with itself
        a[i], a[n - 1 - i] = a[n - 1 - i], a[i]
    return a


@pytest.mark.parametrize("fn, n, update", [(swap_neighbours, 300, "dynamic_update_slice"),
                                           (reverse_in_place, 601, "scatter"),
                                           (reverse_in_place, 600, "scatter")])
def test_swaps_in_long_loops_stay_one_update_per_iteration(fn, n, update):
    """Long enough for unroll_loops: the neighbour swap runs unrolled (then the steps left
    over), its copies' writes one update; the reversal's copies would not merge (a read
    between them may see a write), so it stays as written."""
    x = np.random.default_rng(5).standard_normal(n)
    bodies = _bodies(_verified(fn, x))
    assert len(bodies) == (2 if fn is swap_neighbours else 1)
    for body in bodies:
        assert [e.op.name for e in body.eqns if e.op.name in ("scatter", "dynamic_update_slice")] \
            == [update]
    _agrees(fn, x)


@pytest.mark.parametrize("n", [30, 31])   # more steps than are unrolled
def test_a_reversal_swap_is_one_update(n):
    x = np.random.default_rng(2).standard_normal(n)
    for body in _bodies(_verified(reverse_in_place, x)):
        assert _count(body, "scatter") == 1
    _agrees(reverse_in_place, x)


def read_between(a, i):
    a = a.copy()
    a[i] = 3.0
    total = a.sum()               # reads the array between the writes
    a[i + 1] = total
    return a


def test_an_update_read_in_between_is_not_merged():
    x = np.arange(6.0)
    graph = _verified(read_between, x, np.int64(2))
    assert _count(graph, "scatter") == 2
    _agrees(read_between, x, np.int64(2))


def read_back(a, i):
    a = a.copy()
    a[i] = 2.7                    # cast to the array's dtype on the way in
    total = a + a[i] + a[i + 1]
    a[i + 2] = 1.0                # a later write: the reads above were of a passing state
    return total, a


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
def test_reads_between_writes_get_the_written_value(dtype):
    x = np.arange(6).astype(dtype)
    graph = _verified(read_back, x, np.int64(2))
    gathers = [e for e in graph.eqns if e.op.name == "gather_nd"]
    first = [e for e in graph.eqns if e.op.name == "scatter"][0]
    # a[i] is the value written; a[i + 1] may wrap around to a[0] (i == -1): read from
    # the array before the write, through a select on the two positions
    assert sum(g.inputs[0] is first.outputs[0] for g in gathers) == 0
    assert any(e.op.name == "where" for e in graph.eqns)
    for i in (2, -1, -3):
        expected = read_back(x.copy(), np.int64(i))
        for jit in (True, False):
            got = nptf.compile(read_back, fallback="raise", jit_compile=jit)(x, np.int64(i))
            for g, e in zip(got, expected):
                assert g.dtype == e.dtype and g.shape == e.shape
                np.testing.assert_array_equal(g, e)


def shared_read(x):
    a = np.zeros_like(x)
    b = np.ones_like(x)
    for i in range(1, x.shape[0]):
        t = a[i - 1]
        a[i] = t + x[i]
        b[i] = t * 0.5 + a[i]     # reads of a after a's write
    return a + b


def test_reads_used_after_a_write_read_the_written_array():
    """The same value, but XLA then has no reason to keep the array's old state (it
    recomputed the old read where b's value is made, and copied the array for it)."""
    x = np.random.default_rng(3).random(40)
    body = _body(_verified(shared_read, x))
    (write_a, write_b) = [e for e in body.eqns if e.op.name == "scatter"]
    made = {v: e for e in body.eqns for v in e.outputs}
    used_after = {v for e in body.eqns[body.eqns.index(write_a) + 1:] for v in e.inputs}
    reads_of_old_a = [v for v in used_after if v in made and made[v].op.name == "gather_nd"
                      and made[v].inputs[0] is write_a.inputs[0]]
    assert not reads_of_old_a
    _agrees(shared_read, x)


def trajectory(x0, steps):
    traj = np.zeros((steps, x0.shape[0]))
    traj[0] = x0
    for i in range(1, steps):
        x = traj[i - 1]
        traj[i] = x + 0.01 * (np.roll(x, 1) - x)
    return traj


def rows_from_the_end(a, i):
    a = a.copy()
    a[i] = -1.0                   # i is a traced 0-d integer: a row, each position once
    a[:, i] = 7.0
    return a


def test_rows_written_at_a_traced_index_take_the_unique_update():
    """A 0-d integer index selects each position once, as an int does: no last-write-wins
    bookkeeping over the whole array (which ran every iteration of a trajectory loop)."""
    x0 = np.linspace(0.0, 1.0, 8)
    graph = _verified(trajectory, x0, 50)
    (scatter,) = [e for e in _body(graph).eqns if e.op.name == "scatter"]
    assert scatter.params["unique"] is True
    _agrees(trajectory, x0, 50)
    a = np.arange(12.0).reshape(3, 4)
    for i in (0, 2, -1, -3):
        _agrees(rows_from_the_end, a, np.int64(i))


def running_rows(a):
    out = np.zeros_like(a)
    for i in range(a.shape[0]):
        for j in range(1, a.shape[1]):
            out[i, j] = out[i, j - 1] + a[i, j]
    return out


def first_column(a):
    a = a.copy()
    for i in range(1, a.shape[0]):
        a[i, 0] = a[i - 1, 0] * 0.5 + a[i, 1]
    return a


def corners(a, i):
    a = a.copy()
    a[i, 0, -1] = 5.0
    a[-1, i, 0] += 1.0            # an update with ufunc.at semantics: through the flat form
    a[i] = 2.0
    return a


def test_element_writes_update_n_d_arrays_without_a_reshape():
    """One element written into an n-d array goes to the array itself, at its n-d index:
    through a flat reshape XLA copied a loop-carried array every iteration."""
    a = np.random.default_rng(2).random((10, 12))   # both loops longer than unrolled ones
    graph = _verified(running_rows, a)
    (outer,) = [e for e in graph.eqns if e.op.name == "while"]
    (inner,) = [e for e in _body(graph).eqns if e.op.name == "while"]
    (scatter,) = [e for e in inner.params["body"].eqns if e.op.name == "scatter"]
    assert scatter.inputs[0].type.shape == (10, 12)
    assert "reshape" not in {e.op.name for e in inner.params["body"].eqns if
                             scatter.inputs[0] in e.outputs}
    _agrees(running_rows, a)
    _agrees(first_column, a)
    compiled = nptf.compile(first_column, jit_compile=True, fallback="raise")
    compiled(a)
    library = compiled.entry_for(a).concrete.graph.as_graph_def().library.function
    producers = {(f.signature.name, n.name): n.op for f in library for n in f.node_def}
    updates = [(f.signature.name, n) for f in library for n in f.node_def
               if n.op == "TensorScatterUpdate"]
    assert updates and all(producers.get((f, n.input[0].split(":")[0])) != "Reshape"
                           for f, n in updates)
    b = np.arange(24.0).reshape(2, 3, 4)
    for i in (0, 1, -1):
        _agrees(corners, b, np.int64(i))
    _agrees(lambda x: (x.__setitem__((), 3.0), x)[1], np.array(1.5))


def clip_square(x):
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        v = x[i]
        if v < -1:
            out[i] = -1.0
        elif v > 1:
            out[i] = 1
        else:
            out[i] = v * v
    return out


def keep_positive(x):
    out = np.zeros(x.shape[0] + 1, dtype=x.dtype)
    for i in range(x.shape[0]):
        if x[i] > 0:
            out[i:i + 2] = x[i]          # the other branch leaves out as it is
    return out


def two_windows(x):
    out = np.zeros((x.shape[0] + 2, 3))
    for i in range(x.shape[0]):
        if x[i] > 0:
            out[i:i + 2, 1] = x[i]
        else:
            out[i + 1:i + 3, 0] = -x[i]
    return out


@pytest.mark.parametrize("fn, dtype", [(clip_square, np.float64), (clip_square, np.float32),
                                       (keep_positive, np.float64), (keep_positive, np.int32),
                                       (two_windows, np.float64)])
def test_writes_at_the_end_of_branches_happen_once_after_the_branch(fn, dtype):
    x = (np.random.default_rng(6).standard_normal(40) * 2).astype(dtype)
    body = _body(_verified(fn, x))
    writes = [e for e in body.eqns if e.op.name in ("scatter", "dynamic_update_slice")]
    # Small branches are then computed on both paths and chosen (``select_small_branches``):
    # a `cond` may be left or not, but none writes.
    conds = [e for e in body.eqns if e.op.name == "cond"]

    def inner_writes(g):
        return sum(e.op.name in ("scatter", "dynamic_update_slice") or
                   any(inner_writes(b) for b in e.params.get("branches", ())) for e in g.eqns)
    assert len(writes) == 1 and not any(inner_writes(b) for c in conds
                                        for b in c.params["branches"])
    _agrees(fn, x)


def running_table(g):
    out = np.zeros_like(g)
    for i in range(1, g.shape[0]):
        for j in range(1, g.shape[1]):
            out[i, j] = max(out[i - 1, j], out[i, j - 1]) + g[i, j]
    return out


@pytest.mark.parametrize("jit", [False, True])
def test_exported_loops_with_element_and_branch_writes_match_numpy(tmp_path, jit):
    import tensorflow as tf
    rng = np.random.default_rng(7)
    for fn, x in [(running_table, rng.random((12, 9))), (clip_square, rng.standard_normal(30) * 2),
                  (swap_neighbours, rng.standard_normal(30))]:
        path = tmp_path / f"{fn.__name__}_{jit}"
        nptf.export(fn, path, nptf.Spec(x.shape, x.dtype), jit_compile=jit)
        serve = tf.saved_model.load(str(path)).signatures["serving_default"]
        (name,) = serve.structured_input_signature[1]
        got, expected = serve(**{name: tf.constant(x)})["output_0"].numpy(), fn(x.copy())
        assert got.dtype == expected.dtype and got.shape == expected.shape
        np.testing.assert_allclose(got, expected, rtol=1e-12)


def _view_add(y, v):
    y = y.copy()
    y[1:-1] += v        # a write through the view y[1:-1]
    return y


def _view_out(a, b, y):
    y = y.copy()
    np.multiply(a, b, out=y[:-1])
    return y


def _view_columns(m):
    m = m.copy()
    m[:, 1:] *= 2
    return m


def _view_transposed(m):
    m = m.copy()
    m.T[1:5] = 0
    return m


def _view_reversed(m):
    m = m.copy()
    t = m[::-1, 2:]
    t += 1
    return m


def _view_of_a_view(m):
    m = m.copy()
    t = m.T[:, ::-1]
    t[1:3] += np.arange(m.shape[0])
    return m


def _view_row_and_column(a):
    a = a.copy()
    a[2, 1:4, :] += 1
    v = a[:, 0]
    v[1:] = 7
    return a


_RNG = np.random.default_rng(3)


@pytest.mark.parametrize("fn, args", [
    (_view_add, (_RNG.random(10), _RNG.random(8))),
    (_view_out, (_RNG.random(9), _RNG.random(9), _RNG.random(10))),
    (_view_columns, (_RNG.random((4, 5)),)), (_view_transposed, (_RNG.random((6, 7)),)),
    (_view_reversed, (_RNG.random((4, 6)),)), (_view_of_a_view, (_RNG.random((5, 6)),)),
    (_view_row_and_column, (_RNG.random((3, 5, 4)).astype(np.float32),))])
@pytest.mark.parametrize("jit", [False, True])
def test_a_write_through_a_view_of_one_box_is_a_slice_update(fn, args, jit):
    """Views of slices, integers, transposes and reversals cover one box of their array:
    a write through them updates that box, with no scatter from a table of positions (a
    constant as large as the view: 21 ms for y[1:-1] += v on 1e6 floats, NumPy 0.4)."""
    _assert_one_slice_update(fn, args, jit)


def _assert_one_slice_update(fn, args, jit):
    f = nptf.compile(fn, fallback="raise", adaptive=False, jit_compile=jit)
    got, expected = f(*args), fn(*args)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)
    ops = [e.op.name for e in f.trace(*args).eqns]
    assert "scatter" not in ops and "slice_update" in ops, ops


def _strided_store(y, v):
    y = y.copy()
    y[::2] = v
    return y


def _strided_views(y):
    y = y.copy()
    y[1::3] = 0
    y[::-2] += 1
    return y


def _strided_2d(m):
    m = m.copy()
    m[::2, 1::3] = -1
    m[-1::-3, ::-1] *= 2
    m[1:7:4, 2] = 5
    return m


def _strided_backward(y):
    y = y.copy()
    y[8:1:-3] = np.arange(3)
    return y


@pytest.mark.parametrize("fn, args", [
    (_strided_store, (_RNG.random(11), _RNG.random(6))),
    (_strided_store, (np.arange(10), np.arange(5) * 3)),
    (_strided_views, (_RNG.random(13),)), (_strided_2d, (_RNG.random((7, 8)),)),
    (_strided_2d, (_RNG.random((9, 9)).astype(np.float32),)),
    (_strided_backward, (_RNG.random(10),))])
@pytest.mark.parametrize("jit", [False, True])
def test_a_strided_write_is_a_slice_update(fn, args, jit):
    """Steps other than 1, either sign, directly or through a view: one strided slice
    update (XLA's, through a reshape that makes the step an axis), no scatter."""
    _assert_one_slice_update(fn, args, jit)


_KEYED_WRITES = {
    "1-d": (lambda x, i: (i,), (12,), [3, -1, 3, 0, 11, -12]),
    "rows": (lambda x, i: (i,), (6, 4), [1, 4, 1, -1]),
    "rows, slice": (lambda x, i: (i, slice(1, 3)), (6, 4), [5, 0, 5]),
    "slice, columns": (lambda x, i: (slice(None, None, 2), i), (6, 4), [3, 0, -4]),
    "pairs": (lambda x, i: (i, i[::-1]), (5, 5), [0, 1, 0, 4]),
    "split by a slice": (lambda x, i: (i, slice(None), i), (4, 3, 4), [1, 3, 1]),
    "ellipsis": (lambda x, i: (Ellipsis, i), (3, 2, 5), [4, 0, 4]),
    "newaxis": (lambda x, i: (None, i), (7,), [6, 2, 2]),
    "2-d index": (lambda x, i: (i.reshape(2, -1),), (9,), [1, 2, 3, 1]),
    "integer and array": (lambda x, i: (2, i), (4, 6), [5, -6, 5]),
}


@pytest.mark.parametrize("name", list(_KEYED_WRITES))
@pytest.mark.parametrize("mode", ["set", "add.at"])
@pytest.mark.parametrize("jit", [False, True])
def test_writes_at_traced_indices_compute_their_positions(name, mode, jit):
    """A write at traced indices finds its positions from the indices, NumPy's last write
    winning where they repeat, with no table of every position of the array in the graph."""
    key_of, shape, idx = _KEYED_WRITES[name]

    def fn(x, i, v):
        x = x.copy()
        key = key_of(x, i)
        if mode == "set":
            x[key] = v
        else:
            np.add.at(x, key, v)
        return x

    x = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    i = np.asarray(idx)
    v = np.asarray(x[key_of(x, i)]) * 0 + np.arange(np.asarray(x[key_of(x, i)]).size).reshape(
        np.asarray(x[key_of(x, i)]).shape) + 100
    f = nptf.compile(fn, fallback="raise", adaptive=False, jit_compile=jit)
    expected, got = fn(x, i, v), f(x, i, v)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)
    graph = f.trace(x, i, v)
    sizes = [a.type.size for e in graph.eqns for a in e.inputs if isinstance(a, Literal)]
    assert max(sizes, default=0) < x.size, sizes
    if name == "1-d":
        with pytest.raises(IndexError):
            f(x, np.asarray([0, 12]), v[:2])


def _swap_rows_at_traced_indices(a, k, p):
    a = a.copy()
    a[[k, p]] = a[[p, k]]
    return a


@pytest.mark.parametrize("jit", [False, True])
def test_a_list_of_traced_indices_as_a_write_key(jit):
    f = nptf.compile(_swap_rows_at_traced_indices, fallback="raise", adaptive=False,
                     jit_compile=jit)
    a = np.arange(12.0).reshape(4, 3)
    for k, p in ((0, 2), (3, 3), (-1, 1)):
        np.testing.assert_array_equal(f(a, np.int64(k), np.int64(p)),
                                      _swap_rows_at_traced_indices(a, k, p))
