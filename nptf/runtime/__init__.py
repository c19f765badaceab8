"""Calling compiled functions: signatures, caching, dispatch, conversion."""
from .compiled import CacheInfo, Compiled, compile
from .explain import Explanation, explain

__all__ = ["compile", "Compiled", "CacheInfo", "explain", "Explanation"]
