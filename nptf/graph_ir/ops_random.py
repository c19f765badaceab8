"""Random numbers: ``rng_split`` advances a key, ``random`` draws with one;
``mt_draw`` draws from NumPy's legacy stream itself.

A key is an int64[2] value. The tracer threads one key through the program
like a mutable array (so loops and branches carry it), splitting it for every
draw; the graph's key comes from a fresh seed on every call. The streams are
not NumPy's: only shapes, dtypes and distributions match.

``mt_draw(state)`` takes the state of a Mersenne Twister stream seeded inside the
function (``np.random.seed(s)``, ``RandomState(s)``), int64[627] as ``get_state()``
gives it (the words, the position, ``has_gauss`` and the cached normal's bits), and
gives the state after the draw and NumPy's own numbers: ``RandomState`` itself is the
eval rule.

``generator_draw(state, *arrays)`` draws from a ``Generator`` on a PCG64 stream seeded
inside the function (``np.random.default_rng(s)``) where the data decide the draws:
``Generator.<method>`` itself, called with the state int64[6] gives (``GENERATOR_STATE``)
and the arrays and Python values of ``params["args"]``; it gives the state after the
draw, NumPy's numbers and whether NumPy accepted the parameters.
"""
from __future__ import annotations

import numpy as np

from .evaluate import EVAL_RULES
from .ops import declare, register
from .types import ArrayType

_KEY = np.dtype(np.int64)


@register("rng_split", kind="random")
def _rng_split(ts, params):
    if ts[0].shape != (2,) or ts[0].dtype != _KEY:
        raise TypeError("a random key is int64[2]")
    return [ArrayType((2,), _KEY), ArrayType((2,), _KEY)]


# Standard draws, transformed into a distribution's parameters by the tracer.
DISTRIBUTIONS = ("uniform", "normal", "integers", "binomial", "poisson")


@register("random", lambda ts, p: [_KEY] + [t.dtype for t in ts[1:]], kind="random")
def _random(ts, params):
    """``random(key, *args, *sizes)``: ``params["sizes"]`` inputs at the end give the sizes
    of the shape's None dims, in order."""
    if params["dist"] not in DISTRIBUTIONS:
        raise ValueError(f"unknown distribution {params['dist']!r}")
    return [ArrayType(params["shape"], params["dtype"], bool(params.get("weak")))]


def _generator(key):
    return np.random.default_rng(np.asarray(key, np.int64).view(np.uint64))


def _eval_split(p, key):
    a, b = _generator(key).integers(0, 2 ** 62, size=(2, 2), dtype=np.int64)
    return a, b


def _eval_random(p, key, *args):
    g, shape, dtype, dist = _generator(key), p["shape"], np.dtype(p["dtype"]), p["dist"]
    if p.get("sizes"):
        sizes = iter(int(n) for n in args[len(args) - p["sizes"]:])
        shape, args = tuple(next(sizes) if d is None else d for d in shape), args[:-p["sizes"]]
    if dist == "uniform":
        return g.random(shape).astype(dtype)
    if dist == "normal":
        return g.standard_normal(shape).astype(dtype)
    if dist == "integers":
        return g.integers(args[0], args[1], size=shape).astype(dtype)
    if dist == "binomial":
        return g.binomial(args[0], args[1], size=shape).astype(dtype)
    return g.poisson(args[0], size=shape).astype(dtype)


MT_STATE = ArrayType((627,), _KEY)
# What mt_draw draws, as RandomState draws it: random_sample, standard_normal,
# randint(low, low + rng + 1) and permutation(n) (params["shape"] == (n,)).
MT_DISTRIBUTIONS = {"double": np.float64, "gauss": np.float64, "bounded": np.int64,
                    "permutation": np.int64}


@register("mt_draw", kind="random")
def _mt_draw(ts, params):
    """``mt_draw(state, *sizes)``: ``params["sizes"]`` inputs give the sizes of the
    shape's None dims, in order."""
    if ts[0] != MT_STATE:
        raise TypeError("a Mersenne Twister state is int64[627]")
    dtype = MT_DISTRIBUTIONS[params["dist"]]
    return [MT_STATE, ArrayType(tuple(params["shape"]), dtype)]


def mt_state_of(rs):
    """A NumPy RandomState's state as mt_draw takes it."""
    _, key, pos, has_gauss, gauss = rs.get_state()
    return np.concatenate([np.asarray(key, np.int64), [pos, has_gauss],
                           np.array([gauss], np.float64).view(np.int64)])


def _eval_mt_draw(p, state, *sizes):
    state = np.asarray(state, np.int64)
    rs = np.random.RandomState(0)
    rs.set_state(("MT19937", state[:624].astype(np.uint32), int(state[624]), int(state[625]),
                  float(state[626:].view(np.float64)[0])))
    sizes = iter(int(n) for n in sizes)
    shape = tuple(next(sizes) if d is None else d for d in p["shape"])
    dist = p["dist"]
    if dist == "double":
        out = rs.random_sample(shape)
    elif dist == "gauss":
        out = rs.standard_normal(shape)
    elif dist == "bounded":
        out = rs.randint(p["low"], p["low"] + p["rng"] + 1, size=shape, dtype=np.int64)
    else:
        out = rs.permutation(shape[0]).astype(np.int64)
    return mt_state_of(rs), np.asarray(out, MT_DISTRIBUTIONS[dist])


GENERATOR_STATE = ArrayType((6,), _KEY)
_MASK64 = (1 << 64) - 1


def generator_state_of(g):
    """A PCG64 Generator's state as generator_draw takes it: the 128-bit state and
    increment in 64-bit halves, ``has_uint32`` and the buffered 32 bits."""
    s = g.bit_generator.state
    words = [s["state"]["state"] >> 64, s["state"]["state"] & _MASK64,
             s["state"]["inc"] >> 64, s["state"]["inc"] & _MASK64, s["has_uint32"],
             s["uinteger"]]
    return np.array(words, np.uint64).view(np.int64)


def set_generator_state(g, state):
    """Put the PCG64 Generator ``g`` in ``state`` (``generator_state_of``'s words)."""
    w = [int(x) for x in np.asarray(state, np.int64).view(np.uint64)]
    g.bit_generator.state = {"bit_generator": "PCG64",
                             "state": {"state": (w[0] << 64) | w[1], "inc": (w[2] << 64) | w[3]},
                             "has_uint32": w[4], "uinteger": w[5]}
    return g


def _generator_of(state):
    return set_generator_state(np.random.Generator(np.random.PCG64(0)), state)


@register("generator_draw", kind="random")
def _generator_draw(ts, params):
    """``generator_draw(state, *arrays)``: the arrays stand in ``params["args"]`` (pairs
    ``(keyword or None, ("in", k) or ("py", value))``) for their ``("in", k)``."""
    if ts[0] != GENERATOR_STATE:
        raise TypeError("a Generator's state is int64[6]")
    return [GENERATOR_STATE, ArrayType(tuple(params["shape"]), np.dtype(params["dtype"])),
            ArrayType((), np.dtype(bool))]


def generator_call(p, state, *arrays):
    """NumPy's draw ``generator_draw`` stands for: (state after, values, accepted)."""
    g = _generator_of(state)
    args, kwargs = [], {}
    for name, (where, v) in p["args"]:
        # "count": a number of items known only at run time (a 0-d array to NumPy
        # would be an array to permute).
        v = arrays[v] if where == "in" else int(arrays[v]) if where == "count" else v
        if name is None:
            args.append(v)
        else:
            kwargs[name] = v
    try:
        out = getattr(g, p["method"])(*args, **kwargs)
    except ValueError:
        return state, np.zeros(tuple(d or 0 for d in p["shape"]), p["dtype"]), np.False_
    shape = tuple(-1 if d is None else d for d in p["shape"])
    return generator_state_of(g), np.asarray(out, p["dtype"]).reshape(shape), np.True_


EVAL_RULES["rng_split"] = _eval_split
EVAL_RULES["random"] = _eval_random
EVAL_RULES["mt_draw"] = _eval_mt_draw
EVAL_RULES["generator_draw"] = generator_call


# No XLA kernels for these samplers; nor a shape known only at run time.
declare("random", xla_obstacle=lambda in_types, params: params["dist"] in ("binomial", "poisson")
        or None in params["shape"])
declare("mt_draw", xla_obstacle=lambda in_types, params: None in params["shape"])
declare("generator_draw", xla_obstacle=lambda in_types, params: "XLA cannot call Python "
        "(NumPy's Generator draws where the data decide them)")
