"""Loop kernels several test files compile (recurrences, window writes read back)."""
import numpy as np


def recurrence(b):
    a = np.empty_like(b)
    a[0] = b[0]
    for i in range(1, b.shape[0]):
        a[i] = a[i - 1] * 0.5 + b[i]
    return a


def two_recurrences(x):
    """Two recurrences fed by one read of the previous state."""
    a = np.zeros_like(x)
    b = np.zeros_like(x)
    for i in range(1, x.shape[0]):
        t = a[i - 1]
        a[i] = t + x[i]
        b[i] = 0.5 * (b[i - 1] + t)
    return a, b


def spread(x):
    """Each element added into a window of four that the next step reads back."""
    out = np.zeros(x.shape[0] + 4, dtype=x.dtype)
    for i in range(x.shape[0]):
        out[i:i + 4] += x[i]
    return out
