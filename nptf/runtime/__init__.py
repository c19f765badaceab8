"""Calling compiled functions: signatures, caching, dispatch, conversion."""
from .compiled import CacheInfo, Compiled
from .autodiff import grad, hessian, jacobian, value_and_grad
from .batching import vmap
from .entry import compile, compiled_of
from .explain import Explanation, explain

__all__ = ["compile", "Compiled", "compiled_of", "CacheInfo", "explain", "Explanation", "grad",
           "value_and_grad", "jacobian", "hessian", "vmap"]
