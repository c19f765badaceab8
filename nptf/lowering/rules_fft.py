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
    # The mask is built in the graph: a Python list as long as the signal took 0.86 s to
    # lower at 2^21 values.
    index = tf.range(tf.shape(x)[-1])
    keep = tf.equal(index, 0)
    if length % 2 == 0:
        keep = tf.logical_or(keep, tf.equal(index, length // 2))
    real_only = tf.complex(tf.math.real(x), tf.where(keep, tf.zeros_like(tf.math.imag(x)),
                                                      tf.math.imag(x)))
    return tf.signal.irfft(real_only, fft_length=[length])
