"""TF_RULE for the ``fft`` op (last axis, TensorFlow's scaling convention)."""
from __future__ import annotations

import tensorflow as tf

from .rules import rule

_KERNELS = {"fft": tf.signal.fft, "ifft": tf.signal.ifft}


@rule("fft")
def _fft(ctx, x, kind, length):
    if kind in _KERNELS:
        return _KERNELS[kind](x)
    if kind == "rfft":
        return tf.signal.rfft(x, fft_length=[length])
    # NumPy ignores the imaginary parts of the zero- and Nyquist-frequency terms.
    n_in = x.shape[-1]
    keep = [True] + [False] * (n_in - 1)
    if length % 2 == 0 and length // 2 < n_in:
        keep[length // 2] = True
    real_only = tf.complex(tf.math.real(x), tf.where(keep, tf.zeros_like(tf.math.imag(x)),
                                                      tf.math.imag(x)))
    return tf.signal.irfft(real_only, fft_length=[length])
