"""``np.random`` inside compiled functions: stateless draws, a new one on every call.

The legacy global functions (``np.random.rand``, ``randint``, ...) and
``np.random.default_rng()`` Generators draw from a key that is threaded
through the trace like a mutable array, so loops and branches carry it and
every draw (every loop iteration too) gets its own key. A graph's starting
key is fed on every call from NumPy's global random state, so
``np.random.seed(s)`` before the call makes the results reproducible;
``np.random.seed(s)`` or ``default_rng(s)`` *inside* the function gives the
same numbers on every call, as in NumPy. The streams are not NumPy's own.

After a seed inside the function, the numbers are NumPy's own: a NumPy generator seeded
alike draws them while tracing, and the graph holds them as constants
(``np.random.seed(0); W = np.random.randn(3, 4)``). That holds for draws in the
function's own graph and in graph loops of a trip count known while tracing (a Python
``range``, no ``break``): the loop's draws, every iteration's, are drawn in NumPy's order
once the body is traced (``_Loop``) and the body reads its iteration's row. A draw whose
parameters are traced (``normal(mu, sigma)``, ``choice(n, p=p)``) replays the standard
draw NumPy transforms (``loc + scale * z``; the first index whose cumulative probability
passes a uniform draw) and transforms it in the graph. A draw on a seeded stream it
cannot make so (in a branch on traced values, in a loop of a run-time trip count, of a
traced size) makes the function be traced again with the seeded streams in the graph
(``streams_in_graph``): a legacy stream's Mersenne Twister runs there word for word as
NumPy's (``mt_draw``), and a ``default_rng(s)`` Generator's state goes through the graph
to NumPy's own Generator, called from it (``generator_draw``; not under XLA, nor in a
SavedModel).
"""
from __future__ import annotations

import contextlib
import contextvars

import numpy as np

from ..errors import unsupported, user_location
from ..graph_ir import ArrayType
from ..graph_ir.ir import Literal
from ..graph_ir.ops_random import GENERATOR_STATE, MT_STATE, generator_state_of, mt_state_of
from . import numpy_api as api
from .builder import current_builder
from .indexing import getitem
from .tracer import Tracer, contains_tracer, dim_of, emit, ndim_of, to_tracer
from .views import buffer_of, set_buffer

_KEY = ArrayType((2,), np.int64)
# NumPy's own generators (while tracing, ``np.random``'s names are nptf's).
_NUMPY_RANDOM_STATE = np.random.RandomState
_NUMPY_GENERATOR, _NUMPY_PCG64 = np.random.Generator, np.random.PCG64


def _numpy_default_rng(seed):
    # ``np.random.default_rng(seed)``, whose own checks would meet nptf's names.
    return _NUMPY_GENERATOR(_NUMPY_PCG64(seed))
_trace_state = contextvars.ContextVar("nptf_random_state", default=None)
# True while a function is traced again with its seeded legacy streams in the graph
# (``streams_in_graph``).
_IN_GRAPH = contextvars.ContextVar("nptf_streams_in_graph", default=False)


@contextlib.contextmanager
def streams_in_graph():
    """Around a trace of a function that draws from a legacy stream it seeds
    (``np.random.seed(s)``, ``RandomState(s)``) where NumPy's numbers cannot be drawn
    while tracing (the data decide how many): the stream's Mersenne Twister runs in the
    graph from the seed on (``mt_draw``), word for word as NumPy's."""
    token = _IN_GRAPH.set(True)
    try:
        yield
    finally:
        _IN_GRAPH.reset(token)


def _mt_stream(seed):
    """The traced state of a legacy stream seeded with ``seed`` (a buffer, so that
    loops and branches carry it), or None where the stream is replayed."""
    if not _IN_GRAPH.get():
        return None
    if isinstance(seed, Tracer):
        raise unsupported("seeding with a traced value", fix="Seed with a Python int.")
    state = Tracer(Literal(mt_state_of(_NUMPY_RANDOM_STATE(seed)), MT_STATE))
    buffer_of(state)
    return state


def _generator_stream(seed):
    """The traced state of a Generator seeded with ``seed`` (a buffer), or None where
    the Generator's draws are replayed."""
    if not _IN_GRAPH.get():
        return None
    if contains_tracer(seed):
        raise unsupported("seeding with a traced value", fix="Seed with a Python int.")
    state = Tracer(Literal(generator_state_of(_numpy_default_rng(seed)), GENERATOR_STATE))
    buffer_of(state)
    return state


def _reseeded(holder, seed):
    """``holder``'s stream seeded again with ``seed``, in the graph: its state's buffer
    takes the new state (where the seed is under a traced ``if`` or in a loop body, the
    state the graph carries)."""
    fresh = _mt_stream(seed)
    if fresh is None:
        return
    if holder.mt is None:
        if current_builder() is not _state().root:
            raise unsupported("a first np.random.seed() or RandomState() inside a branch or "
                              "loop body on traced values, with draws the data decide",
                              fix="Seed the stream once before the branch or loop.")
        holder.mt = fresh
    else:
        set_buffer(buffer_of(holder.mt).buffer, fresh.atom)


class RandomState:
    """Per trace: the root builder and the global stream, made on first use."""

    def __init__(self, root):
        self.root, self.stream, self.seed_input = root, None, None
        self.seeded = False     # by ``np.random.seed(s)`` inside the function
        self.mt = None          # the stream's state in the graph (``streams_in_graph``)
        # NumPy's legacy generator, seeded as ``np.random.seed(s)`` inside the function
        # seeded it, while its draws still follow NumPy's (see the module's docstring).
        self.replay = None
        # (NumPy Generator made outside the function, its TracedGenerator): the graph
        # takes each one's state as an input and gives back the state after its draws.
        self.captured = []

    def captured_generator(self, g):
        for owner, traced in self.captured:
            if owner is g:
                return traced
        traced = TracedGenerator.argument(Tracer(self.root.new_input(GENERATOR_STATE)))
        self.captured.append((g, traced))
        return traced

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


def outside_generator_call(fn):
    """What a call of ``fn``, a method of a NumPy generator made outside the function (a
    module's ``RNG = np.random.default_rng(0)``, a static argument), runs while tracing:
    for a PCG64 Generator, the method of a TracedGenerator whose state is a graph input,
    read from that Generator at every call and written back after it (NumPy's own draws,
    in NumPy's order); None where ``fn`` is no such method. NumPy's generators make
    their arrays with ``np.empty``, which a trace replaces: they never run on it."""
    owner = getattr(fn, "__self__", None)
    if not isinstance(owner, (_NUMPY_GENERATOR, _NUMPY_RANDOM_STATE, np.random.BitGenerator)):
        return None
    state = _trace_state.get()
    if state is None:
        return None
    name = getattr(fn, "__name__", "")
    if isinstance(owner, _NUMPY_GENERATOR) and type(owner.bit_generator) is _NUMPY_PCG64:
        return getattr(state.captured_generator(owner), name)
    raise unsupported(f"{type(owner).__name__}.{name} of a generator made outside the "
                      f"function (other than a Generator on PCG64)",
                      fix="Use np.random.default_rng(seed), or draw the numbers with NumPy "
                          "and pass them in as an argument.")


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
    """What draws NumPy's own numbers for ``holder``'s stream now: its NumPy generator (at
    the function's own graph), a ``_LoopDraws`` (in the body of graph loops of known
    trip counts), or None."""
    if holder is None or holder.replay is None:
        return None
    if current_builder() is _state().root:
        return holder.replay
    loops = _Loop.around_draw()
    if loops is None:
        # A draw in a branch or a loop of a run-time trip count: how many numbers the
        # graph takes is the data's to say, so NumPy's generator no longer follows the
        # stream.
        holder.replay = None
        return None
    return _LoopDraws(holder, loops)


# Draws of graph loops are constants of the graph: at most this many numbers in all.
LOOP_DRAWS_LIMIT = 1 << 23
_LOOP = contextvars.ContextVar("nptf_random_loop", default=None)


class _Site:
    """One draw in a traced loop body: ``holder.replay.<name>(*args)``, made once per
    iteration; ``literal``: the graph's constant of every iteration's result (one axis per
    loop around it), filled once the outermost loop is traced."""

    def __init__(self, holder, name, args, sample, literal):
        self.holder, self.name, self.args, self.literal = holder, name, args, literal
        self.kind = (type(sample), np.shape(sample), np.asarray(sample).dtype)

    def signature(self):
        return (id(self.holder), self.name, _args_key(self.args), self.kind)


def _args_key(args):
    return tuple(repr(np.asarray(a).tolist()) if isinstance(a, (np.ndarray, list, tuple))
                 else repr(a) for a in args)


class _Loop:
    """A graph loop of a trip count known while tracing (``values``, a Python range, and
    no ``break``) whose body draws from seeded streams: the draws of each trace of its
    body, in order (``_Site``s and the ``_Loop``s of loops inside it). Once the
    outermost such loop is traced, NumPy's generators make every iteration's draws in
    the order the loop makes them (``realize``) and the sites' constants take them."""

    def __init__(self, parent, values):
        self.parent, self.values = parent, values
        self.outer = current_builder()
        state = _trace_state.get()
        # Draws replay only where the loop is in the function's own graph or directly in
        # the body of a loop like this one (not under a traced ``if``).
        self.ok = state is not None and self.outer is (
            state.root if parent is None else parent.body)
        self.body = None        # the builder of the body's current trace
        self.counter = None     # the loop's counter in that trace
        self.traces = []        # per trace of the body: its draws, in order
        self.done = []          # the traces that ran to the end of the body
        self.indices = {}       # builder -> the iteration number emitted in it

    def trace(self, counter):
        """A new trace of the body starts, its counter ``counter``."""
        self.body, self.counter, self.indices = current_builder(), counter, {}
        self.traces.append([])

    def traced(self):
        """The current trace of the body reached its end (a trace cut short by an error
        leaves no graph, so its draws count for nothing)."""
        self.done.append(self.traces[-1])

    def iteration(self):
        """The number of the current iteration, 0, 1, ...: a traced int."""
        builder = current_builder()
        got = self.indices.get(builder)
        if got is None:
            r = self.values
            got = to_tracer(self.counter)
            if r.start:
                got = got - r.start
            if r.step != 1:
                got = got // r.step
            got = self.indices[builder] = api.astype(got, np.int64)
        return got

    @staticmethod
    def around_draw():
        """The loops, outermost first, whose iterations the current draw replays in; None
        where NumPy's numbers for it are not known while tracing."""
        loop = _LOOP.get()
        if loop is None or not loop.ok or loop.body is not current_builder():
            return None
        loops = []
        while loop is not None:
            if not loop.ok:
                return None
            loops.append(loop)
            loop = loop.parent
        return loops[::-1]

    def signature(self):
        last = self.done[-1] if self.done else []
        sig = tuple(e.signature() for e in last)
        for trace in self.done[:-1]:
            if tuple(e.signature() for e in trace) != sig:
                raise unsupported(
                    "random draws in a loop whose body draws differently from one trace "
                    "to the next after a seed set inside the function",
                    fix="Draw the numbers before the loop, or pass them in as an argument.")
        return ("loop", len(self.values), sig)

    def realize(self):
        """NumPy's draws for every iteration, in the loop's order, into the constants of
        the draws of every trace of the body (they draw alike: ``signature``)."""
        self.signature()
        columns = {}
        self._draw(columns, ())
        self._fill(columns, ())

    def _draw(self, columns, path):
        last = self.done[-1] if self.done else []
        for _ in self.values:
            for k, entry in enumerate(last):
                if isinstance(entry, _Loop):
                    entry._draw(columns, path + (k,))
                else:
                    columns.setdefault(path + (k,), []).append(
                        getattr(entry.holder.replay, entry.name)(*entry.args))

    def _fill(self, columns, path):
        for trace in self.done:
            for k, entry in enumerate(trace):
                if isinstance(entry, _Loop):
                    entry._fill(columns, path + (k,))
                else:
                    lit = entry.literal
                    lit.value[...] = np.asarray(columns[path + (k,)]).reshape(
                        lit.value.shape)


@contextlib.contextmanager
def counted_loop(values):
    """Around the tracing of a graph loop over the Python range ``values`` (no
    ``break``): its body's draws from seeded streams replay NumPy's. Yields the
    ``_Loop``; the caller calls ``trace(counter)`` as each trace of the body starts."""
    parent = _LOOP.get()
    loop = _Loop(parent, values)
    token = _LOOP.set(loop)
    try:
        yield loop
    finally:
        _LOOP.reset(token)
    if not any(loop.done):
        return
    if parent is None:
        loop.realize()
    elif parent.traces:
        loop.signature()
        parent.traces[-1].append(loop)


def _copy_of(rng):
    """A NumPy generator in ``rng``'s state (made from NumPy's own classes: while
    tracing, ``np.random``'s names are nptf's)."""
    if isinstance(rng, _NUMPY_RANDOM_STATE):
        other = _NUMPY_RANDOM_STATE(0)
        other.set_state(rng.get_state())
        return other
    other = _NUMPY_GENERATOR(_NUMPY_PCG64(0))
    other.bit_generator.state = rng.bit_generator.state
    return other


class _Uncounted:
    """A graph loop of a run-time trip count, or with a ``break``: its draws replay none
    of NumPy's (``_Loop.around_draw`` finds no loop of their builder)."""

    def trace(self, counter):
        pass

    def traced(self):
        pass


UNCOUNTED = _Uncounted()


class _LoopDraws:
    """Stands in for a NumPy generator in a loop body (``_replaying``): a draw
    ``<name>(*args)`` becomes a site of the loop, and the body reads its iteration's
    result from the site's constant."""

    def __init__(self, holder, loops):
        self.holder, self.loops = holder, loops

    def __getattr__(self, name):
        return lambda *args: self._draw(name, args)

    def _draw(self, name, args):
        # The draw on a copy of the generator: its kind (and NumPy's errors for bad
        # arguments, as the call would raise them).
        sample = getattr(_copy_of(self.holder.replay), name)(*args)
        counts = tuple(len(loop.values) for loop in self.loops)
        value = np.asarray(sample)
        total = value.size
        for n in counts:
            total *= n
        for loop in self.loops:
            total += sum(e.literal.value.size for t in loop.traces[-1:] for e in t
                         if isinstance(e, _Site))
        if total > LOOP_DRAWS_LIMIT:
            raise unsupported(
                f"random draws in a loop after a seed set inside the function: "
                f"{total:,} numbers in all, more than nptf holds in a graph "
                f"({LOOP_DRAWS_LIMIT:,})", fix="Draw the numbers with NumPy and pass them "
                "in as an argument.")
        literal = Literal(np.zeros(counts + value.shape, value.dtype),
                          ArrayType(counts + value.shape, value.dtype))
        self.loops[-1].traces[-1].append(_Site(self.holder, name, args, sample, literal))
        got = getitem(Tracer(literal), tuple(loop.iteration() for loop in self.loops))
        if isinstance(sample, np.ndarray):
            return got
        if isinstance(sample, (bool, int, float, complex)):
            # A Python number, as NumPy gives it: weak in promotion.
            return emit("convert", [got], {"dtype": got.dtype, "weak": True}, scalar=True)
        return Tracer(got.atom, is_scalar=True)


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

    @property
    def _mt(self):
        """The traced state of this stream's Mersenne Twister, or None."""
        return getattr(self.holder, "mt", None) if self.holder is not None else None

    def _key_draw(self, dist, shape, dtype, args=(), weak=False):
        """A draw from the stream's key: numbers of nptf's own, which is no answer where
        the function seeded the stream itself and NumPy's numbers are fixed (there, a
        legacy stream's draws come from its Mersenne Twister in the graph)."""
        if self._mt is not None:
            return self._mt_draw(dist, shape, dtype, args, weak)
        if self.holder is not None and self.holder.seeded:
            e = unsupported(
                "a random draw after a seed set inside the function, in a branch on traced "
                "values (`if`, `and`/`or`), in a loop of a run-time trip count or with a "
                "`break`, or of a traced size (NumPy's numbers for it cannot be drawn "
                "while tracing; nptf's own stream would give others)",
                fix="Draw the numbers before the branch or loop (all the loop's at once, "
                    "with sizes known when tracing), or pass them in as an argument.")
            # A seeded stream can run in the graph: traced again so.
            e.streams_in_graph = not _IN_GRAPH.get()
            raise e
        return _draw(self.key, dist, shape, dtype, args, weak)

    def _mt_emit(self, dist, shape, **params):
        state = self._mt
        view = buffer_of(state)
        sizes = [d for d in shape if isinstance(d, Tracer)]
        if sizes:
            params["sizes"] = len(sizes)     # the last inputs: the sizes of the None dims
        new_state, values = emit("mt_draw", [state, *sizes],
                                 {"dist": dist, "shape": _static(shape), **params})
        set_buffer(view.buffer, new_state.atom)
        return values

    def _mt_draw(self, dist, shape, dtype, args, weak):
        """``_key_draw``'s draw as NumPy's legacy samplers make it from the stream."""
        if dist == "uniform":
            out = self._mt_emit("double", shape)
        elif dist == "normal":
            out = self._mt_emit("gauss", shape)
        elif dist == "integers":
            low, high = int(args[0]), int(args[1])
            if high - 1 - low > 0xFFFFFFFF or np.dtype(dtype) != np.int64:
                raise unsupported(f"random integers of {np.dtype(dtype)} or of a range past "
                                  f"2**32 from a seeded stream, with draws the data decide",
                                  fix="Draw the numbers before the branch or loop.")
            out = self._mt_emit("bounded", shape, low=low, rng=high - 1 - low)
        else:
            raise unsupported(f"{dist} draws from a seeded stream with draws the data "
                              f"decide", fix="Draw the numbers before the branch or loop.")
        out = api.astype(out, dtype)
        if weak:
            return emit("convert", [out], {"dtype": np.dtype(dtype), "weak": True},
                        scalar=True)
        return Tracer(out.atom, is_scalar=len(shape) == 0)

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

    def _standard(self, size, *params):
        """Where a parameter is traced and the stream replays NumPy's: NumPy's standard
        draw of the draw's shape, ``(draws, shape)`` (as float64), which NumPy transforms
        with the parameters (``loc + scale * z``); else ``(_NOT_REPLAYED, None)``. The
        caller's draw is one of "normal", "uniform", "exponential"."""
        if not contains_tracer(list(params)) or self.holder is None or \
                self.holder.replay is None:
            return _NOT_REPLAYED, None
        shape = _out_shape(size, *params)
        if any(isinstance(d, Tracer) for d in shape):
            return _NOT_REPLAYED, None
        return shape, (None if size is None and not shape else shape)

    def _transformed(self, name, size, params, transform, checks):
        """NumPy's draw ``name(*params, size)`` with traced parameters, from its standard
        draw ``name`` ("standard_normal", "random", "standard_exponential") and
        ``transform(*params, z)`` in float64 (NumPy's own arithmetic, in its order), after
        ``checks``: (condition of the float64 params, error, message) as NumPy raises them
        (when the graph runs); _NOT_REPLAYED where the stream does not replay NumPy's."""
        if self._mt is not None:
            # The legacy samplers on the stream's Mersenne Twister in the graph.
            shape = _out_shape(size, *params)
            z = self._mt_emit("gauss", shape) if name == "standard_normal" else \
                self._mt_emit("double", shape)
            if name == "standard_exponential":
                z = -np.log(1.0 - z)
        else:
            shape, standard_size = self._standard(size, *params)
            if shape is _NOT_REPLAYED:
                return _NOT_REPLAYED
            if name == "random" and self._legacy_api:
                name = "random_sample"
            z = self._replayed(name, standard_size)
            if z is _NOT_REPLAYED:
                return _NOT_REPLAYED
        values = [api.astype(to_tracer(v), np.float64) for v in params]
        out = api.astype(transform(*values, to_tracer(z)), np.float64)
        for condition, error, message in checks:
            out = emit("check", [out, condition(*values)], {
                "error": error, "message": f"{message} (at {user_location()})"})
        python_float = size is None and all(ndim_of(v) == 0 for v in params)
        return _finish(out, shape, python_float)

    def uniform(self, low=0.0, high=1.0, size=None):
        if self._mt is not None or (self.holder is not None and self.holder.replay is not None
                                    and self._legacy_api):
            checks = [(lambda lo, hi: np.all(np.isfinite(hi - lo)), "OverflowError",
                       "Range exceeds valid bounds")]
        else:
            checks = [(lambda lo, hi: np.logical_not(np.any(hi - lo < 0)), "ValueError",
                       "high - low < 0"),
                      (lambda lo, hi: np.all(np.logical_not(np.isinf(hi - lo))),
                       "OverflowError", "high - low range exceeds valid bounds")]
        got = self._transformed("random", size, (low, high), lambda lo, hi, u:
                                lo + (hi - lo) * u, checks)
        if got is not _NOT_REPLAYED:
            return got
        got = self._replayed("uniform", low, high, size)
        if got is not _NOT_REPLAYED:
            return got
        shape = _out_shape(size, low, high)
        u = self._key_draw("uniform", shape, np.float64)
        return _finish(to_tracer(low) + (to_tracer(high) - to_tracer(low)) * u, shape,
                       self._weak(size, *_arrays(low, high)))

    def normal(self, loc=0.0, scale=1.0, size=None):
        got = self._transformed("standard_normal", size, (loc, scale),
                                lambda loc, scale, z: loc + scale * z, [_SCALE_CHECK])
        if got is not _NOT_REPLAYED:
            return got
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
        got = self._transformed("standard_exponential", size, (scale,),
                                lambda scale, e: scale * e, [_SCALE_CHECK])
        if got is not _NOT_REPLAYED:
            return got
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
        if isinstance(x, Tracer) and x.ndim == 0:
            # permutation(n): n items, a number of draws only the data give (from a
            # seeded stream, NumPy's own in the graph).
            if x.dtype.kind not in "iu":
                raise unsupported("a permutation of a count that is not an integer")
            # NumPy permutes arange(n): nothing for a count below one.
            n = np.maximum(api.astype(x, np.int64), 0)
            return api.astype(self._order(n), np.int64)
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
        axis = api.axis_index(axis, x.ndim)
        n = x.shape[axis] if x.shape[axis] is not None else dim_of(x, axis)
        key = (slice(None),) * axis + (self._order(n),)
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
        uniform = None
        if self.holder is not None and self.holder.replay is not None and axis == 0 and \
                replace and contains_tracer(p) and not contains_tracer(size):
            # NumPy's draw with traced probabilities: uniform draws (NumPy's own), then
            # the first index whose cumulative probability passes each (``_weighted``).
            uniform = self._replayed("random_sample" if self._legacy_api else "random",
                                     size)
            if uniform is _NOT_REPLAYED:
                uniform = None
        elif self.holder is not None and self.holder.replay is not None and axis == 0 and \
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
            idx = self._weighted(p, n, shape, uniform)
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

    def _weighted(self, p, n, shape, uniform=None):
        """Indices drawn with probabilities ``p`` as NumPy draws them: the first index
        whose cumulative probability passes a uniform draw (``uniform``: NumPy's own, else
        one from the key), after NumPy's checks of ``p`` (its errors, raised when the
        graph runs)."""
        # NumPy allows float32 (float16) probabilities their own rounding in the sum.
        atol = np.sqrt(np.finfo(np.float64).eps)
        if isinstance(p, (Tracer, np.ndarray)) and np.dtype(p.dtype).kind == "f":
            atol = max(atol, np.sqrt(np.finfo(p.dtype).eps))
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
        for ok, message in ((np.logical_not(np.isnan(total)), "Probabilities contain NaN"),
                            (np.all(p >= 0), "Probabilities are not non-negative"),
                            (np.abs(total - 1.0) <= atol, "Probabilities do not sum to 1")):
            cdf = emit("check", [cdf, ok], {"error": "ValueError",
                                            "message": f"{message} (at {user_location()})"})
        u = self._key_draw("uniform", shape, np.float64) if uniform is None else \
            to_tracer(uniform)
        return np.searchsorted(cdf / total, u, side="right")

    def _order(self, n):
        """A uniformly random permutation of range(n): argsort of uniform draws (NumPy's
        own shuffle where the stream's Mersenne Twister runs in the graph)."""
        if self._mt is not None:
            return self._mt_emit("permutation", (n,))
        u = self._key_draw("uniform", (n,), np.float64)
        return np.argsort(u, kind="stable")


_SCALE_CHECK = (lambda *values: np.logical_not(np.any(values[-1] < 0)), "ValueError",
                "scale < 0")


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


def _unseeded(holder):
    """``holder``'s stream seeded with None (from the OS, anew each call): its Mersenne
    Twister leaves the graph. Under a traced ``if`` or in a loop body, where the stream
    may or may not stay NumPy's seeded one, that is not compiled."""
    if holder.mt is not None and current_builder() is not _state().root:
        raise unsupported("np.random.seed() or RandomState.seed() without a seed under a "
                          "traced `if` or in a loop body, after a seed",
                          fix="Seed once, before the branch or loop.")
    holder.mt = holder.replay = None


def seed(seed=None):
    state = _state()
    stream = state.global_stream()
    if seed is None:
        _unseeded(state)
        state.seeded = False
        # A key from the call's own seed again, one no draw takes: the first draw's
        # subkey is used as it is, never split.
        first_sub = emit("rng_split", [Tracer(state.seed_input)])[1]
        set_buffer(buffer_of(stream).buffer, emit("rng_split", [first_sub])[0].atom)
        return None
    state.seeded = True
    set_buffer(buffer_of(stream).buffer, _key_of_seed(seed))
    _reseeded(state, seed)
    state.replay = None if state.mt is not None else _replay_of(_NUMPY_RANDOM_STATE, seed)


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


# Draws of a seeded Generator in the graph whose array arguments stand for indices or
# are indexed: NumPy draws the same numbers for ``choice(a)`` as for ``choice(len(a))``,
# and for ``permutation(x)`` as for ``permutation(len(x))``.
_BY_INDEX = {"choice": ("a", "size", "replace", "p", "axis", "shuffle"),
             "permutation": ("x", "axis"), "shuffle": ("x", "axis")}


class TracedGenerator(Stream):
    """``np.random.default_rng(seed)`` while tracing. Where its seeded stream is in the
    graph (``self.gen``), every ``Generator`` method is NumPy's own, called from the
    graph on the state it carries (``_generator_draw``)."""

    def __getattr__(self, name):
        if name.startswith("_") or not callable(getattr(_NUMPY_GENERATOR, name, None)):
            raise AttributeError(name)
        if self.__dict__.get("gen") is None:
            raise unsupported(f"np.random.Generator.{name}",
                              fix="Draw the numbers with NumPy and pass them in as an "
                                  "argument.")
        return lambda *args, **kwargs: self._generator_draw(name, args, kwargs)

    def _generator_draw(self, name, args, kwargs):
        if kwargs.get("out") is not None or name in ("permuted", "spawn"):
            # NumPy writes into ``out``, and ``permuted`` may: the graph's call, into a copy.
            raise unsupported(f"rng.{name}(..., out=...) or rng.{name} from a seeded "
                              f"Generator with draws the data decide")
        parameters = _BY_INDEX.get(name)
        if parameters is not None:
            bound = dict(zip(parameters, args), **kwargs)
            x = bound.get(parameters[0])
            if name == "shuffle" and not isinstance(x, Tracer):
                raise unsupported("shuffling an array that is not traced")
            if name == "permutation" and isinstance(x, Tracer) and x.ndim == 0:
                return self._permutation_of(x)
            if x is not None and (isinstance(x, (list, tuple)) or ndim_of(x) > 0):
                # The indices drawn, then the items at them.
                x = to_tracer(x)
                axis = api.axis_index(bound.get("axis", 0), x.ndim)
                n = x.shape[axis]
                if n is None and name != "choice":
                    idx = self._permutation_of(dim_of(x, axis))
                elif n is None:
                    raise unsupported(f"rng.{name} of an array of a length known only at "
                                      f"run time, from a seeded Generator with draws the "
                                      f"data decide")
                elif name == "choice":
                    bound["a"] = n
                    idx = self._generator_draw("choice", (), bound)
                else:
                    idx = self._generator_draw("permutation", (n,), {})
                got = getitem(x, (slice(None),) * axis + (idx,))
                if name == "shuffle":
                    x[...] = got
                    return None
                return Tracer(got.atom, is_scalar=got.ndim == 0)
        template, inputs, dummies = [], [], {}
        for key, v in [(None, a) for a in args] + list(kwargs.items()):
            if contains_tracer(v) or isinstance(v, np.ndarray):
                v = to_tracer(v)
                if None in v.shape:
                    raise unsupported(f"rng.{name} with an argument of a size known only at "
                                      f"run time, from a seeded Generator with draws the "
                                      f"data decide")
                template.append((key, ("in", len(inputs))))
                dummies[len(inputs)] = v
                inputs.append(v)
            else:
                template.append((key, ("py", _frozen(v))))
        sample = _sample(name, template, dummies)
        value = np.asarray(sample)
        state = self.gen
        view = buffer_of(state)
        new_state, values, ok = emit("generator_draw", [state, *inputs], {
            "method": name, "args": tuple(template), "shape": value.shape,
            "dtype": value.dtype})
        set_buffer(view.buffer, new_state.atom)
        values = emit("check", [values, ok], {
            "error": "ValueError",
            "message": f"NumPy's Generator.{name} raised ValueError for these arguments "
                       f"(at {user_location()})"})
        if isinstance(sample, (bool, int, float, complex)):
            return emit("convert", [values], {"dtype": value.dtype, "weak": True},
                        scalar=True)
        return Tracer(values.atom, is_scalar=isinstance(sample, np.generic))

    def _permutation_of(self, n):
        """``rng.permutation(n)`` of a count ``n`` known only at run time, NumPy's own."""
        n = to_tracer(n)
        if n.dtype.kind not in "iub":
            raise unsupported("rng.permutation of a count that is not an integer, from a "
                              "seeded Generator with draws the data decide")
        state = self.gen
        view = buffer_of(state)
        new_state, values, ok = emit("generator_draw", [state, api.astype(n, np.int64)], {
            "method": "permutation", "args": ((None, ("count", 0)),), "shape": (None,),
            "dtype": np.dtype(np.int64)})
        set_buffer(view.buffer, new_state.atom)
        return emit("check", [values, ok], {
            "error": "ValueError",
            "message": f"NumPy's Generator.permutation raised ValueError for this count "
                       f"(at {user_location()})"})

    @classmethod
    def argument(cls, state):
        """A Generator passed in as an argument: ``state``, its PCG64 state, is a graph
        input that every draw threads (NumPy's own draws, called from the graph), and the
        runtime leaves the caller's Generator in the state after them."""
        self = cls.__new__(cls)
        buffer_of(state)
        self.gen, self.replay, self.seeded = state, None, True
        Stream.__init__(self, None, python_ints=False, holder=self)
        return self

    def __init__(self, seed=None):
        if seed is None:
            parent = _state().global_stream()
            key = Tracer(emit("rng_split", [parent])[1].atom)
            new_parent = emit("rng_split", [parent])[0]
            set_buffer(buffer_of(parent).buffer, new_parent.atom)
        else:
            key = Tracer(_key_of_seed(seed))
        buffer_of(key)
        self.gen = _generator_stream(seed) if seed is not None else None
        self.replay = None if self.gen is not None else _replay_of(_numpy_default_rng, seed)
        self.seeded = seed is not None
        super().__init__(key, python_ints=False, holder=self)


def _in_graph(name):
    """``Stream.<name>``, or NumPy's own where the Generator's stream is in the graph."""
    def method(self, *args, **kwargs):
        if self.gen is not None:
            return self._generator_draw(name, args, kwargs)
        return getattr(Stream, name)(self, *args, **kwargs)
    method.__name__ = name
    return method


for _name in ("random", "uniform", "normal", "standard_normal", "exponential", "integers",
              "binomial", "poisson", "permutation", "shuffle", "choice"):
    setattr(TracedGenerator, _name, _in_graph(_name))


def _frozen(v):
    """A Python argument of a draw as an op's parameter holds it (lists as tuples)."""
    return tuple(_frozen(x) for x in v) if isinstance(v, (list, tuple)) else v


def _sample(name, template, arrays):
    """A draw ``name`` on a copy of a Generator, with stand-ins for the traced arrays
    (ones; zeros, or probabilities, where NumPy refuses ones): its Python type, dtype
    and shape are the graph's draw's."""
    def call(fill):
        args, kwargs = [], {}
        for key, (where, v) in template:
            if where == "in":
                t = arrays[v]
                v = np.full(t.shape, 1.0 / t.shape[0]) if key == "p" and t.ndim == 1 else \
                    fill(t.shape, t.dtype)
            if key is None:
                args.append(v)
            else:
                kwargs[key] = v
        return getattr(_numpy_default_rng(0), name)(*args, **kwargs)
    try:
        sample = call(np.ones)
    except ValueError:
        try:
            sample = call(np.zeros)
        except ValueError:
            raise unsupported(f"rng.{name} with these traced arguments, from a seeded "
                              f"Generator with draws the data decide") from None
    try:
        other = call(lambda shape, dtype: np.full(shape, 2, dtype))
    except ValueError:
        return sample
    if np.shape(other) != np.shape(sample):
        raise unsupported(f"rng.{name} of a size known only at run time, from a seeded "
                          f"Generator with draws the data decide",
                          fix="Draw a size known when tracing, and select from it.")
    return sample


def default_rng(seed=None):
    return TracedGenerator(seed)


class TracedRandomState(Stream):
    """``np.random.RandomState(seed)`` while tracing: the legacy methods (``rand``,
    ``randn``, ``randint``, ``random_sample``, ...) on a stream of its own: with a seed,
    NumPy's numbers (replayed while tracing, or its Mersenne Twister in the graph); without
    one, a key stream like ``default_rng()``'s."""

    def __init__(self, seed=None):
        super().__init__(TracedGenerator(seed).key, python_ints=True, holder=self)
        self.mt = _mt_stream(seed) if seed is not None else None
        self.replay = None if self.mt is not None else _replay_of(_NUMPY_RANDOM_STATE, seed)
        self.seeded = seed is not None

    def seed(self, seed=None):
        fresh = TracedGenerator(seed).key
        set_buffer(buffer_of(self.key).buffer, fresh.atom)
        if seed is None:
            _unseeded(self)
        else:
            _reseeded(self, seed)
        self.replay = None if self.mt is not None else _replay_of(_NUMPY_RANDOM_STATE, seed)
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
class GeneratorSpec:
    """The leaf spec of a ``np.random.Generator`` argument on a PCG64 bit generator: a
    graph input of its state (``GENERATOR_STATE``), a ``TracedGenerator`` to the function."""
    type = GENERATOR_STATE

    def __eq__(self, other):
        return type(other) is GeneratorSpec

    def __hash__(self):
        return hash(GeneratorSpec)


__all__ = ["LEGACY", "UNCOUNTED", "GeneratorSpec", "TracedGenerator", "TracedRandomState",
           "counted_loop", "current_builder", "end_trace", "outside_generator_call",
           "start_trace", "streams_in_graph"]
