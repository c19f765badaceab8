import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import pytest  # noqa: E402


@pytest.fixture(params=[False, True], ids=["graph", "xla"])
def jit(request):
    return request.param


@pytest.fixture
def rng():
    return np.random.default_rng(0)


def pytest_collection_modifyitems(config, items):
    # The op-record batches take seconds to minutes each: they run first, so that the
    # two workers of `pytest -n 2` end together on short tests instead of one of them
    # waiting on a long batch collected late.
    items.sort(key=lambda item: 0 if "test_op_records.py" in item.nodeid else 1)
