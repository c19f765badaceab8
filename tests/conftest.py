import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
# A loaded CI machine compiles the suite's large combined graphs slowly: the budget
# stays as a guard against runaway compiles, not a timing target.
os.environ.setdefault("NPTF_COMPILE_BUDGET", "300")

import numpy as np  # noqa: E402
import pytest  # noqa: E402


@pytest.fixture(params=[False, True], ids=["graph", "xla"])
def jit(request):
    return request.param


@pytest.fixture
def rng():
    return np.random.default_rng(0)
