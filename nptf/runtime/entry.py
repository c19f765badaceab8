"""What ``nptf.compile`` returns: a plain function in front of a ``Compiled``.

Why a function and not the Compiled instance itself: calling an instance goes
through its type's ``__call__`` slot, about 0.1 us more than calling a function,
and adaptive dispatch hands small inputs to NumPy, whose own call can take under
2 us. Where the function's parameters allow, the entry point is generated with
the same parameters (as the ``decorator`` library does), so a call builds no
``*args`` tuple and checks each array against the shapes sent to NumPy in a
single expression. A function is also a descriptor already, so compiled methods
bind like any other.
"""
from __future__ import annotations

import builtins
import functools
import keyword

import numpy as np

from ..budget import DEFAULT_BUDGET
from .adaptive import DYNAMIC_SLOT
from .compiled import Compiled

# What the entry point exposes of its Compiled (read-only copies of the options).
ENTRY_ATTRIBUTES = ("jit_compile", "fallback", "output", "max_cache_size", "relax",
                    "retrace_warning", "adaptive", "unroll", "compile_budget", "static_argnames",
                    "input_signature", "trace", "interpret", "entry_for", "way_for",
                    "adaptive_choice",
                    "cache_info", "clear_cache")

_MAX_EXACT_PARAMETERS = 8
_NOTHING = object()     # no positional argument


def entry_point(compiled: Compiled):
    """A plain Python function that calls ``compiled``, carrying its methods."""
    names = _plain_parameters(compiled._signature)
    call = _exact_entry(compiled, names) if names else _generic_entry(compiled)
    # First in the function's __dict__, which cloudpickle pickles in order: the Compiled
    # names what cannot be pickled in the function before __wrapped__ and fn reach it.
    call.compiled = compiled
    functools.update_wrapper(call, compiled.fn)
    call.fn = compiled.fn
    # Called inside a tf.function (a distribution strategy's step), AutoGraph would try to
    # convert it and warn that it has no source; nptf converts the user's code itself.
    # AutoGraph calls what carries this mark as it is.
    call.autograph_info__ = {}
    for name in ENTRY_ATTRIBUTES:
        setattr(call, name, getattr(compiled, name))
    return call


def compiled_of(f):
    """The Compiled behind ``f`` (an ``nptf.compile`` result or a Compiled), else None."""
    if isinstance(f, Compiled):
        return f
    if getattr(f, "nptf_transform", None) is not None:    # nptf.grad(f), nptf.vmap(f)
        return None
    inner = getattr(f, "compiled", None)
    return inner if isinstance(inner, Compiled) else None


def numpy_function_of(fn, static_argnames, transform):
    """``(the NumPy function, static argument names)`` of ``fn`` for ``nptf.<transform>``:
    ``fn`` itself, or the function an ``nptf.compile`` result compiles (its static
    arguments too)."""
    compiled = compiled_of(fn)
    if compiled is not None:
        static_argnames = tuple(compiled.static_argnames) + tuple(static_argnames)
        fn = compiled.fn
    if not callable(fn):
        raise TypeError(f"nptf.{transform} takes a function, got {type(fn).__name__}")
    return fn, static_argnames


def _plain_parameters(signature):
    """Parameter names when every parameter is positional-or-keyword without a default
    (the generated entry point then binds exactly like the function), else None."""
    params = list(signature.parameters.values())
    if not 0 < len(params) <= _MAX_EXACT_PARAMETERS:
        return None
    for p in params:
        if p.kind is not p.POSITIONAL_OR_KEYWORD or p.default is not p.empty or \
                not p.name.isidentifier() or keyword.iskeyword(p.name) or \
                p.name.startswith("_nptf_"):
            return None
    return [p.name for p in params]


def _hot_check(name, i):
    """The entry point's test that argument ``name`` matches slot ``i`` of the hot tuple
    (``Compiled._hot_layout``): an array of its shape and dtype (and strides, unless None),
    or a scalar of its type (of its value too, unless the slot takes any value)."""
    shape, dtype, strides = (f"_nptf_hot[{3 * i + k}]" for k in range(3))
    return (f"({name}.__class__ is _nptf_ndarray and {name}.dtype is {dtype} and "
            f"{name}.shape == {shape} and ({strides} is None or {name}.strides == {strides}) or "
            f"{name}.__class__ is {dtype} and ({shape} is _nptf_any or {name} == {strides}))")


def _exact_entry(compiled, names):
    checks = " and ".join(_hot_check(n, i) for i, n in enumerate(names))
    args = ", ".join(names)
    # Closure cells, not globals: a cell is read faster than a namespace dict. Every
    # name the body uses is one of them (a parameter may be called ``len``). The hot
    # tuple (per argument three items, then the function that runs them) needs no
    # length check: it is only ever set from a call of every parameter passed
    # positionally, and this function always passes all of them.
    source = (
        f"def _nptf_make(_nptf_compiled, _nptf_ndarray, _nptf_any):\n"
        f"    def _nptf_entry({args}):\n"
        f"        _nptf_hot = _nptf_compiled._numpy_hot\n"
        f"        if _nptf_hot is not None and {checks}:\n"
        f"            # adaptive dispatch measured NumPy faster\n"
        f"            return _nptf_hot[{3 * len(names)}]({args})\n"
        f"        return _nptf_compiled({args})\n"
        f"    return _nptf_entry\n")
    namespace = {}
    name = getattr(compiled.fn, "__qualname__", type(compiled.fn).__qualname__)
    exec(builtins.compile(source, f"<nptf entry point of {name}>", "exec"), namespace)
    return namespace["_nptf_make"](compiled, np.ndarray, DYNAMIC_SLOT)


def _generic_entry(compiled):
    ndarray = np.ndarray

    def call(first=_NOTHING, /, *args, **kwargs):
        # The first argument is named so that a one-array call builds no tuple.
        hot = compiled._numpy_hot
        if hot is not None and not args and not kwargs and len(hot) == 4 and \
                first.__class__ is ndarray and first.dtype is hot[1] and \
                first.shape == hot[0] and (hot[2] is None or first.strides == hot[2]):
            return hot[3](first)    # adaptive dispatch measured NumPy faster for these
        if first is _NOTHING:
            return compiled(*args, **kwargs)
        return compiled(first, *args, **kwargs)
    return call


def compile(fn=None, *, jit_compile=None, static_argnames=(), static_argnums=(), fallback="numpy",
            max_cache_size=64, output="numpy", input_signature=None, relax=None,
            retrace_warning=8, adaptive=None, unroll=8, compile_budget=DEFAULT_BUDGET):
    """Compile a plain NumPy function to TensorFlow graphs.

    Use as ``@nptf.compile`` or ``@nptf.compile(jit_compile=True, static_argnames=["n"])``.
    Returns a plain function (see ``entry_point``). docs/compiling.md describes every option.
    """
    options = dict(jit_compile=jit_compile, static_argnames=static_argnames,
                   static_argnums=static_argnums, fallback=fallback,
                   max_cache_size=max_cache_size, output=output, input_signature=input_signature,
                   relax=relax, retrace_warning=retrace_warning, adaptive=adaptive, unroll=unroll,
                   compile_budget=compile_budget)
    if fn is None:
        return lambda f: entry_point(Compiled(f, **options))
    return entry_point(Compiled(fn, **options))


__all__ = ["compile", "entry_point", "compiled_of", "ENTRY_ATTRIBUTES"]
