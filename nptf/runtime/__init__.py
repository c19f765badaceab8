"""Calling compiled functions: signatures, caching, dispatch, conversion."""
from .compiled import CacheInfo, Compiled, compile
from .entry import compiled_of
from .explain import Explanation, explain

__all__ = ["compile", "Compiled", "compiled_of", "CacheInfo", "explain", "Explanation"]
