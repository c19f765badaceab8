"""nptf quickstart: compile plain NumPy functions, check them against NumPy, time them.

Run:  python examples/quickstart.py
"""
import timeit

import numpy as np

import nptf


# The sigmoid benchmark from TensorFlow's "NumPy API on TensorFlow" guide, as plain NumPy.
def sigmoid(y):
    return 1.0 / (1.0 + np.exp(-y))


# The guide's small model: a linear layer, relu, and a linear projection.
def predict(inputs, w1, bias, w2):
    y = np.matmul(inputs, w1) + bias
    y = np.maximum(y, 0)  # relu
    return np.matmul(y, w2)


def check(name, fn, *args):
    expected = fn(*args)
    got = nptf.compile(fn)(*args)
    assert got.dtype == expected.dtype and got.shape == expected.shape, name
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    print(f"{name:8s} matches NumPy: dtype {got.dtype}, shape {got.shape}")


def best_of(fn, *args, repeat=5):
    number = max(1, int(0.05 / max(timeit.timeit(lambda: fn(*args), number=1), 1e-7)))
    return min(timeit.repeat(lambda: fn(*args), number=number, repeat=repeat)) / number


def main():
    rng = np.random.default_rng(0)
    size = 32
    w1 = (rng.standard_normal((size, 64)) / np.sqrt(size)).astype(np.float32)
    bias = rng.standard_normal(64).astype(np.float32)
    w2 = (rng.standard_normal((64, 2)) / 8).astype(np.float32)
    inputs = np.ones((2, size), dtype=np.float32)

    check("sigmoid", sigmoid, rng.standard_normal(1000).astype(np.float32))
    check("model", predict, inputs, w1, bias, w2)

    # adaptive=False runs the graph on every call; the default also times the graph
    # against NumPy at each size and keeps the faster: below some 10^5 elements a
    # TensorFlow call costs more than NumPy's work.
    fast_sigmoid = nptf.compile(sigmoid, adaptive=False)
    print("\nThe traced program (one equation a line):")
    print(fast_sigmoid.trace(np.ones(4, np.float32)))

    adaptive_sigmoid = nptf.compile(sigmoid)
    print("\nsigmoid, float32: NumPy vs nptf (microseconds per call)")
    print(f"{'size':>9} {'NumPy':>10} {'graph':>10} {'speed-up':>9}"
          f" {'default':>10} {'speed-up':>9}")
    for exponent in range(0, 21, 4):
        n = 2 ** exponent
        x = rng.standard_normal(n).astype(np.float32)
        # Trace and compile; the first calls also time the ways to run the graph.
        for _ in range(150):
            fast_sigmoid(x)
            adaptive_sigmoid(x)
        t_np = best_of(sigmoid, x)
        t_tf, t_ad = best_of(fast_sigmoid, x), best_of(adaptive_sigmoid, x)
        print(f"{n:>9} {t_np * 1e6:>10.1f} {t_tf * 1e6:>10.1f} {t_np / t_tf:>8.2f}x"
              f" {t_ad * 1e6:>10.1f} {t_np / t_ad:>8.2f}x")
    print("\ncache:", fast_sigmoid.cache_info())


if __name__ == "__main__":
    main()
