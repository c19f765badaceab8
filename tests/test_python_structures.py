"""Python structure around NumPy code, as other people write it: classes defined and
used inside the function (private ``__methods`` too), closures, recursion, generators,
``try``/``except`` around NumPy calls. Each compiled and checked against NumPy."""
from __future__ import annotations

import numpy as np
import pytest

from harness import check_against_numpy


# ------------------------------------------------ classes inside the function
def portfolio(r, w):
    class Portfolio:
        def __init__(self, r, w):
            self.r, self.w = r, w

        def ret(self):
            out = self.r @ self.w
            if out.mean() > 0:          # a traced condition inside a method
                out = out * 2
            return out

        def __risk(self):               # a private name: Python mangles it in the class
            return np.std(self.ret())

        def risk(self):
            return self.__risk()

    p = Portfolio(r, w)
    return p.ret(), p.risk()


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_a_class_defined_in_the_function_with_private_methods(sign, jit):
    r = np.random.default_rng(0).normal(size=(6, 3))
    check_against_numpy(portfolio, r * sign, np.array([0.2, 0.3, 0.5]), jit=jit)
