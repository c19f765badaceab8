"""``np.random`` inside compiled functions: stateless draws, a new one on every call.

The legacy global functions (``np.random.rand``, ``randint``, ...) and
``np.random.default_rng()`` Generators draw from a key that is threaded
through the trace like a mutable array, so loops and branches carry it and
every draw (every loop iteration too) gets its own key. A graph's starting
key is fed on every call from NumPy's global random state, so
``np.random.seed(s)`` before the call makes the results reproducible;
``np.random.seed(s)`` or ``default_rng(s)`` *inside* the function gives the
same numbers on every call, as in NumPy. The streams are not NumPy's own.

After a seed inside the function, draws made in the function's own graph (not in a
branch or loop body on traced values) with parameters known while tracing are NumPy's
own numbers: a NumPy generator seeded alike draws them while tracing, and the graph
holds them as constants (``np.random.seed(0); W = np.random.randn(3, 4)``). A draw on
a seeded stream it cannot make so (in a graph loop, with traced parameters) is not
compiled (``Stream._key_draw``): NumPy's numbers are fixed there, and the key's would
be others.
"""
from __future__ import annotations

import contextvars

import numpy as np

from ..errors import unsupported, user_location
from ..graph_ir import ArrayType
from ..graph_ir.ir import Literal
from . import numpy_api as api
from .builder import current_builder
from .indexing import getitem
from .tracer import Tracer, contains_tracer, emit, ndim_of, to_tracer
from .views import buffer_of, set_buffer

_KEY = ArrayType((2,), np.int64)
# NumPy's own generators (while tracing, ``np.random``'s names are nptf's).
_NUMPY_RANDOM_STATE = np.random.RandomState
_NUMPY_GENERATOR, _NUMPY_PCG64 = np.random.Generator, np.random.PCG64


def _numpy_default_rng(seed):
    # ``np.random.default_rng(seed)``, whose own checks would meet nptf's names.
    return _NUMPY_GENERATOR(_NUMPY_PCG64(seed))
_trace_state = contextvars.ContextVar("nptf_random_state", default=None)


class RandomState:
    """Per trace: the root builder and the global stream, made on first use."""

    def __init__(self, root):
        self.root, self.stream, self.seed_input = root, None, None
        self.seeded = False     # by ``np.random.seed(s)`` inside the function
        # NumPy's legacy generator, seeded as ``np.random.seed(s)`` inside the function
        # seeded it, while its draws still follow NumPy's (see the module's docstring).
        self.replay = None

    def global_stream(self):
        if self.stream is None:
            self.seed_input = self.root.new_input(_KEY)
            self.stream = Tracer(self.seed_input)
            buffer_of(self.stream)
        return self.stream


def start_trace(root):
    return _trace_state.set(RandomState(root))


def end_trace(token):
    state = _trace_state.get()
    _trace_state.reset(token)
    return state


def _state():
    state = _trace_state.get()
    if state is None:
        raise RuntimeError("np.random used outside of nptf tracing")
    return state


def _key_of_seed(seed):
    if isinstance(seed, Tracer):
        raise unsupported("seeding with a traced value", fix="Seed with a Python int.")
    words = np.random.SeedSequence(seed).generate_state(2, np.uint64).view(np.int64)
    return Literal(words, _KEY)


def _shape(size):
    """The draw's shape: Python ints, and traced ints where a size is known only at run
    time (``np.count_nonzero(x > 0)``)."""
    if size is None:
        return ()
    dims = size if isinstance(size, (tuple, list)) else (size,)
    if any(isinstance(d, Tracer) for d in dims):
        static, sizes = api.run_time_shape(size)
        sizes = iter(sizes)
        return tuple(next(sizes) if d is None else d for d in static)
    return api.shape_tuple(size)   # sizes only known at run time: DynamicShapeError


def _static(shape):
    return tuple(None if isinstance(d, Tracer) else d for d in shape)


def _run_time(shape, what):
    if any(isinstance(d, Tracer) for d in shape):
        raise unsupported(f"{what} of a size known only at run time",
                          fix="Draw a size known when tracing, and select from it.")


def _draw(stream, dist, shape, dtype, args=(), weak=False):
    view = buffer_of(stream)
    new_key, sub = emit("rng_split", [stream])
    set_buffer(view.buffer, new_key.atom)
    sizes = [d for d in shape if isinstance(d, Tracer)]
    params = {"dist": dist, "shape": _static(shape), "dtype": np.dtype(dtype), "weak": weak}
    if sizes:
        params["sizes"] = len(sizes)     # the last inputs: the sizes of the None dims
    return emit("random", [sub, *args, *sizes], params, scalar=len(shape) == 0)


def _out_shape(size, *params):
    if size is not None:
        return _shape(size)
    return np.broadcast_shapes(*[to_tracer(p).shape for p in params]) if params else ()


_NOT_REPLAYED = object()


def _replaying(holder):
    """The NumPy generator that draws NumPy's own numbers for ``holder``'s stream now (at
    the function's own graph), or None."""
    if holder is None or holder.replay is None:
        return None
    if current_builder() is not _state().root:
        # A draw in a branch or loop body: how many numbers the graph takes is the
        # data's to say, so NumPy's generator no longer follows the stream.
        holder.replay = None
    return holder.replay


class Stream:
    """The draws NumPy offers, on one key stream (a Generator, or the global legacy one)."""

    def __init__(self, key_tracer, python_ints, holder=None):
        self.key = key_tracer
        # size=None gives Python floats; the legacy API's integers are Python ints too.
        self.python_scalars = True
        self.python_ints = python_ints
        # What holds the NumPy generator replaying this stream (``.replay``), if any.
        self.holder = holder

    def _weak(self, size, *params):
        return self.python_scalars and size is None and not params

    def _key_draw(self, dist, shape, dtype, args=(), weak=False):
        """A draw from the stream's key: numbers of nptf's own, which is no answer where
        the function seeded the stream itself and NumPy's numbers are fixed."""
        if self.holder is not None and self.holder.seeded:
            raise unsupported(
                "a random draw after a seed set inside the function, in a graph loop, in "
                "a branch on traced values or with a traced parameter or size (NumPy's "
                "numbers for it cannot be drawn while tracing; nptf's own stream would "
                "give others)",
                fix="Draw the numbers before the loop or branch, with sizes known when "
                    "tracing, or pass them in as an argument.")
        return _draw(self.key, dist, shape, dtype, args, weak)

    @property
    def _legacy_api(self):
        return isinstance(self.holder.replay, _NUMPY_RANDOM_STATE)

    def _replayed(self, name, *args, traced_array=None):
        """NumPy's own draw ``rng.<name>(*args)`` where the stream replays NumPy's
        generator and every parameter is known; ``traced_array``: a traced array the
        draw orders or picks from, whose length alone decides the numbers taken (NumPy
        draws the same for ``shuffle(x)`` as for ``shuffle(arange(len(x)))``)."""
        rng = _replaying(self.holder)
        if rng is None:
            return _NOT_REPLAYED
        if contains_tracer(list(args)) or (traced_array is not None and
                                          None in to_tracer(traced_array).shape[:1]):
            self.holder.replay = None
            return _NOT_REPLAYED
        value = getattr(rng, name)(*args)
        return to_tracer(value) if isinstance(value, np.ndarray) else value

    def random(self, size=None, dtype=np.float64, out=None):
        api.reject("random", out=out)
        dtype = np.dtype(dtype)
        if dtype not in (np.float32, np.float64):
            raise TypeError(f"Unsupported dtype {dtype!r} for random")
        got = self._replayed("random_sample", size) if self.holder and self._legacy_api else \
            self._replayed("random", size, dtype)
        if got is not _NOT_REPLAYED:
            return got
        return self._key_draw("uniform", _shape(size), dtype, weak=self._weak(size))

    def uniform(self, low=0.0, high=1.0, size=None):
        got = self._replayed("uniform", low, high, size)
        if got is not _NOT_REPLAYED:
            return got
        shape = _out_shape(size, low, high)
        u = self._key_draw("uniform", shape, np.float64)
        return _finish(to_tracer(low) + (to_tracer(high) - to_tracer(low)) * u, shape,
                       self._weak(size, *_arrays(low, high)))

    def normal(self, loc=0.0, scale=1.0, size=None):
        got = self._replayed("normal", loc, scale, size)
        if got is not _NOT_REPLAYED:
            return got
        shape = _out_shape(size, loc, scale)
        z = self._key_draw("normal", shape, np.float64)
        return _finish(to_tracer(loc) + to_tracer(scale) * z, shape,
                       self._weak(size, *_arrays(loc, scale)))

    def standard_normal(self, size=None, dtype=np.float64, out=None):
        api.reject("standard_normal", out=out)
        got = self._replayed("standard_normal", size) if self.holder and self._legacy_api \
            else self._replayed("standard_normal", size, dtype)
        if got is not _NOT_REPLAYED:
            return got
        return self._key_draw("normal", _shape(size), dtype, weak=self._weak(size))

    def exponential(self, scale=1.0, size=None):
        got = self._replayed("exponential", scale, size)
        if got is not _NOT_REPLAYED:
            return got
        shape = _out_shape(size, scale)
        u = self._key_draw("uniform", shape, np.float64)
        return _finish(-to_tracer(scale) * np.log1p(-u), shape, self._weak(size, *_arrays(scale)))

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False):
        got = self._replayed("randint", low, high, size, dtype) if self.holder and \
            self._legacy_api else self._replayed("integers", low, high, size, dtype, endpoint)
        if got is not _NOT_REPLAYED:
            return got
        if high is None:
            low, high = 0, low
        if any(isinstance(v, Tracer) or ndim_of(v) for v in (low, high)):
            raise unsupported("random integers with array or traced bounds",
                              fix="Use Python ints for low and high.")
        low, high = int(low), int(high) + (1 if endpoint else 0)
        if high <= low:
            raise ValueError(f"high <= low\n  at {user_location()}")
        shape = _shape(size)
        return self._key_draw("integers", shape, dtype, (np.int64(low), np.int64(high)),
                     weak=self.python_ints and size is None and np.dtype(dtype) == np.int64)

    def binomial(self, n, p, size=None):
        got = self._replayed("binomial", n, p, size)
        if got is not _NOT_REPLAYED:
            return got
        shape = _out_shape(size, n, p)
        _run_time(shape, "binomial draws")
        return self._key_draw("binomial", shape, np.int64,
                     (api.broadcast_to(api.astype(to_tracer(n), np.float64), shape),
                      api.broadcast_to(api.astype(to_tracer(p), np.float64), shape)))

    def poisson(self, lam=1.0, size=None):
        got = self._replayed("poisson", lam, size)
        if got is not _NOT_REPLAYED:
            return got
        shape = _out_shape(size, lam)
        _run_time(shape, "Poisson draws")
        return self._key_draw("poisson", shape, np.int64,
                     (api.broadcast_to(api.astype(to_tracer(lam), np.float64), shape),))

    def permutation(self, x, axis=0):
        if isinstance(x, Tracer) and axis == 0 and x.ndim:
            order = self._replayed("permutation", x.shape[0], traced_array=x)
            if order is not _NOT_REPLAYED:
                return getitem(x, (order,))
        elif not isinstance(x, Tracer) and axis == 0:
            got = self._replayed("permutation", x)
            if got is not _NOT_REPLAYED:
                return got
        if isinstance(x, (int, np.integer)):
            return getitem(api.arange(int(x)), (self._order(int(x)),))
        x = to_tracer(x)
        n = x.shape[axis]
        key = (slice(None),) * api.axis_index(axis, x.ndim) + (self._order(n),)
        return getitem(x, key)

    def shuffle(self, x, axis=0):
        if not isinstance(x, Tracer):
            raise unsupported("shuffling an array that is not traced")
        if axis == 0 and x.ndim:
            order = self._replayed("permutation", x.shape[0], traced_array=x)
            if order is not _NOT_REPLAYED:
                x[...] = getitem(x, (order,))
                return
        x[...] = self.permutation(x, axis)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        if self.holder is not None and self.holder.replay is not None and axis == 0 and \
                shuffle and not (isinstance(a, Tracer) and a.ndim == 0):
            traced = isinstance(a, Tracer)
            idx = self._replayed("choice", a.shape[0] if traced else a, size, replace, p,
                                 traced_array=a if traced else None)
            if idx is not _NOT_REPLAYED:
                return getitem(a, (idx,)) if traced else idx
        pool = api.arange(int(a)) if isinstance(a, (int, np.integer)) else to_tracer(a)
        n = pool.shape[axis]
        shape = _shape(size)
        if p is not None:
            if not replace:
                raise unsupported("random choice without replacement with probabilities p=")
            idx = self._weighted(p, n, shape)
        elif replace:
            idx = self._key_draw("integers", shape, np.int64, (np.int64(0), np.int64(n)))
        else:
            _run_time(shape, "a choice without replacement")
            count = int(np.prod(shape, dtype=np.int64))
            if count > n:
                raise ValueError("Cannot take a larger sample than population when replace=False")
            idx = api.reshape_to(getitem(self._order(n), (slice(0, count),)), shape)
        out = getitem(pool, (slice(None),) * axis + (idx,))
        if isinstance(a, (int, np.integer)) and size is None:
            # One draw from range(a) is a Python int in NumPy (of an array, its scalar).
            return emit("convert", [out], {"dtype": out.dtype, "weak": True}, scalar=True)
        return Tracer(out.atom, is_scalar=out.ndim == 0)

    def _weighted(self, p, n, shape):
        """Indices drawn with probabilities ``p`` as NumPy's Generator draws them: the first
        index whose cumulative probability passes a uniform draw, after NumPy's checks
        of ``p`` (its errors, raised when the graph runs)."""
        p = api.astype(to_tracer(p), np.float64)
        if p.ndim != 1:
            raise ValueError(f"p must be 1-dimensional\n  at {user_location()}")
        if None not in (p.shape[0], n) and p.shape[0] != n:
            raise ValueError(f"a and p must have same size\n  at {user_location()}")
        if None in (p.shape[0], n):
            raise unsupported("random choice with probabilities p= of a size known only at "
                              "run time")
        cdf = np.cumsum(p)
        total = cdf[-1]
        atol = np.sqrt(np.finfo(np.float64).eps)
        for ok, message in ((np.logical_not(np.isnan(total)), "Probabilities contain NaN"),
                            (np.all(p >= 0), "Probabilities are not non-negative"),
                            (np.abs(total - 1.0) <= atol, "Probabilities do not sum to 1")):
            cdf = emit("check", [cdf, ok], {"error": "ValueError",
                                            "message": f"{message} (at {user_location()})"})
        u = self._key_draw("uniform", shape, np.float64)
        return np.searchsorted(cdf / total, u, side="right")

    def _order(self, n):
        """A uniformly random permutation of range(n): argsort of uniform draws."""
        u = self._key_draw("uniform", (n,), np.float64)
        return np.argsort(u, kind="stable")


def _arrays(*params):
    return [p for p in params if not isinstance(p, (int, float))]


def _finish(t, shape, python_float=False):
    t = api.astype(t, np.float64)
    if t.shape != _static(shape):      # (a draw's run-time sizes are the result's)
        t = api.broadcast_to(t, shape)
    if python_float:
        return emit("positive", [t], {"weak": True}, scalar=True)
    return Tracer(t.atom, is_scalar=len(shape) == 0)


# ------------------------------------------------------------- legacy API
def _legacy():
    state = _state()
    return Stream(state.global_stream(), python_ints=True, holder=state)


def _replay_of(make, seed):
    """A NumPy generator made as the function makes its own (``make(seed)``), to replay
    while the function's own graph draws; None for no seed, or a seed in a branch or
    loop body on traced values."""
    if seed is None or current_builder() is not _state().root:
        return None
    return make(seed)


def seed(seed=None):
    state = _state()
    stream = state.global_stream()
    state.seeded = seed is not None
    if seed is None:
        state.replay = None
        return None
    set_buffer(buffer_of(stream).buffer, _key_of_seed(seed))
    state.replay = _replay_of(_NUMPY_RANDOM_STATE, seed)


LEGACY = {
    "seed": seed,
    "rand": lambda *shape: _legacy().random(shape or None),
    "randn": lambda *shape: _legacy().standard_normal(shape or None),
    "random": lambda size=None: _legacy().random(size),
    "random_sample": lambda size=None: _legacy().random(size),
    "sample": lambda size=None: _legacy().random(size),
    "ranf": lambda size=None: _legacy().random(size),
    "uniform": lambda low=0.0, high=1.0, size=None: _legacy().uniform(low, high, size),
    "normal": lambda loc=0.0, scale=1.0, size=None: _legacy().normal(loc, scale, size),
    "standard_normal": lambda size=None: _legacy().standard_normal(size),
    "exponential": lambda scale=1.0, size=None: _legacy().exponential(scale, size),
    "randint": lambda low, high=None, size=None, dtype=int: _legacy().integers(low, high, size, dtype),
    "binomial": lambda n, p, size=None: _legacy().binomial(n, p, size),
    "poisson": lambda lam=1.0, size=None: _legacy().poisson(lam, size),
    "permutation": lambda x: _legacy().permutation(x),
    "shuffle": lambda x: _legacy().shuffle(x),
    "choice": lambda a, size=None, replace=True, p=None: _legacy().choice(a, size, replace, p),
}


class TracedGenerator(Stream):
    """``np.random.default_rng(seed)`` while tracing."""

    def __init__(self, seed=None):
        if seed is None:
            parent = _state().global_stream()
            key = Tracer(emit("rng_split", [parent])[1].atom)
            new_parent = emit("rng_split", [parent])[0]
            set_buffer(buffer_of(parent).buffer, new_parent.atom)
        else:
            key = Tracer(_key_of_seed(seed))
        buffer_of(key)
        self.replay = _replay_of(_numpy_default_rng, seed)
        self.seeded = seed is not None
        super().__init__(key, python_ints=False, holder=self)


def default_rng(seed=None):
    return TracedGenerator(seed)


class TracedRandomState(Stream):
    """``np.random.RandomState(seed)`` while tracing: the legacy methods (``rand``,
    ``randn``, ``randint``, ``random_sample``, ...) on a stream of its own, seeded as
    ``default_rng(seed)`` is (other numbers than NumPy's, the same distributions)."""

    def __init__(self, seed=None):
        super().__init__(TracedGenerator(seed).key, python_ints=True, holder=self)
        self.replay = _replay_of(_NUMPY_RANDOM_STATE, seed)
        self.seeded = seed is not None

    def seed(self, seed=None):
        fresh = TracedGenerator(seed).key
        set_buffer(buffer_of(self.key).buffer, fresh.atom)
        self.replay = _replay_of(_NUMPY_RANDOM_STATE, seed)
        self.seeded = seed is not None

    def rand(self, *shape):
        return self.random(shape or None)

    def randn(self, *shape):
        return self.standard_normal(shape or None)

    def random_sample(self, size=None):
        return self.random(size)

    def randint(self, low, high=None, size=None, dtype=int):
        return self.integers(low, high, size, dtype)


LEGACY["default_rng"] = default_rng
LEGACY["RandomState"] = TracedRandomState
__all__ = ["LEGACY", "TracedGenerator", "TracedRandomState", "start_trace", "end_trace",
           "current_builder"]
