"""NumPy's legacy random stream (``np.random.seed``, ``RandomState``) in TensorFlow ops.

The Mersenne Twister MT19937 and the samplers of NumPy's ``RandomState`` on it, word
for word: a graph that draws from a stream seeded inside the function takes the same
32-bit words, in the same order, as NumPy's generator, so it draws NumPy's numbers
wherever the data decide how many are drawn (a draw under a traced ``if``, in a
``while``). The stream's state is one int64[627] tensor (``STATE``): the 624 words,
the position of the next word, and the second normal of the last polar pair
(``has_gauss``, the float64's bits), as ``RandomState.get_state()`` gives them.

Samplers that reject draws (bounded integers, the polar method's normals) take words
in batches and keep the tries NumPy keeps; the state then moves past exactly the words
those tries used.
"""
from __future__ import annotations

import math

import tensorflow as tf

N, M = 624, 397
STATE = N + 3
_UPPER, _LOWER, _MATRIX_A = 0x80000000, 0x7FFFFFFF, 0x9908B0DF


def _u32(v):
    return tf.constant(v, tf.uint32)


def unpack(state):
    """(words uint32[624], position int64, has_gauss int64, gauss float64)."""
    return (tf.cast(state[:N], tf.uint32), state[N], state[N + 1],
            tf.bitcast(state[N + 2], tf.float64))


def pack(mt, pos, has_gauss, gauss):
    return tf.concat([tf.cast(mt, tf.int64), tf.stack([pos, has_gauss, tf.bitcast(gauss, tf.int64)])], 0)


def _twisted(cur, nxt, far):
    y = tf.bitwise.bitwise_or(tf.bitwise.bitwise_and(cur, _u32(_UPPER)),
                              tf.bitwise.bitwise_and(nxt, _u32(_LOWER)))
    odd = tf.equal(tf.bitwise.bitwise_and(y, _u32(1)), _u32(1))
    return tf.bitwise.bitwise_xor(
        tf.bitwise.bitwise_xor(far, tf.bitwise.right_shift(y, _u32(1))),
        tf.where(odd, _u32(_MATRIX_A), _u32(0)))


def twist(mt):
    """The next 624 words (``mt19937_gen``), in four vectors: word i reads words i + 1
    and i + 397 of the old block, or i - 227 of the new one once that exists."""
    a = _twisted(mt[0:N - M], mt[1:N - M + 1], mt[M:N])                 # 0..226
    b = _twisted(mt[N - M:2 * (N - M)], mt[N - M + 1:2 * (N - M) + 1], a)   # 227..453
    c = _twisted(mt[2 * (N - M):N - 1], mt[2 * (N - M) + 1:N], b[:N - 1 - 2 * (N - M)])
    d = _twisted(mt[N - 1:N], a[0:1], b[M - 1 - (N - M):M - (N - M)])  # 623
    return tf.concat([a, b, c, d], 0)


def temper(y):
    y = tf.bitwise.bitwise_xor(y, tf.bitwise.right_shift(y, _u32(11)))
    y = tf.bitwise.bitwise_xor(y, tf.bitwise.bitwise_and(tf.bitwise.left_shift(y, _u32(7)),
                                                         _u32(0x9D2C5680)))
    y = tf.bitwise.bitwise_xor(y, tf.bitwise.bitwise_and(tf.bitwise.left_shift(y, _u32(15)),
                                                         _u32(0xEFC60000)))
    return tf.bitwise.bitwise_xor(y, tf.bitwise.right_shift(y, _u32(18)))


def peek(mt, pos, m):
    """The next ``m`` (a Python int, or an int64 tensor) words after ``pos`` of block
    ``mt``, tempered, and the blocks they span ([T + 1, 624], the first ``mt``) for
    ``advance``."""
    twists = -(-m // N)
    if not isinstance(m, int):
        out = tf.TensorArray(tf.uint32, size=tf.cast(twists, tf.int32) + 1,
                             element_shape=[N]).write(0, mt)
        _, _, out = tf.while_loop(lambda i, c, o: i < twists,
                                  lambda i, c, o: (i + 1, twist(c),
                                                   o.write(tf.cast(i, tf.int32) + 1, twist(c))),
                                  (tf.constant(0, tf.int64), mt, out))
        blocks = out.stack()
    elif twists == 1:
        blocks = tf.stack([mt, tf.cond(pos + m > N, lambda: twist(mt), lambda: mt)])
    elif twists <= 4:
        blocks = [mt]
        for _ in range(twists):
            blocks.append(twist(blocks[-1]))
        blocks = tf.stack(blocks)
    else:
        out = tf.TensorArray(tf.uint32, size=twists + 1, element_shape=[N]).write(0, mt)
        _, _, out = tf.while_loop(lambda i, c, o: i < twists,
                                  lambda i, c, o: (i + 1, twist(c), o.write(i + 1, twist(c))),
                                  (tf.constant(0), mt, out))
        blocks = out.stack()
    raw = tf.slice(tf.reshape(blocks, [-1]), tf.reshape(pos, [1]),
                   tf.reshape(tf.cast(m, tf.int64), [1]))
    return temper(raw), blocks


def advance(blocks, pos, used):
    """The block and position after ``used`` (int64, at most what ``peek`` gave) words."""
    used = tf.cast(used, tf.int64)
    last = tf.maximum(pos + used - 1, 0) // N
    last = tf.where(used > 0, last, tf.zeros_like(last))
    return tf.gather(blocks, last), tf.where(used > 0, pos + used - N * last, pos)


def next_word(mt, pos):
    """One word: (word, block, position)."""
    mt = tf.cond(pos >= N, lambda: twist(mt), lambda: mt)
    pos = tf.where(pos >= N, tf.zeros_like(pos), pos)
    return temper(tf.gather(mt, pos)), mt, pos + 1


def _doubles(words):
    """``legacy_double``/``random_sample``: 53 bits from two words each."""
    w = tf.reshape(words, [-1, 2])
    a = tf.cast(tf.bitwise.right_shift(w[:, 0], _u32(5)), tf.float64)
    b = tf.cast(tf.bitwise.right_shift(w[:, 1], _u32(6)), tf.float64)
    return (a * 67108864.0 + b) / 9007199254740992.0


def doubles(state, n):
    """``n`` (a Python int, or an int64 tensor) uniform doubles: (values float64[n],
    state)."""
    mt, pos, has, g = unpack(state)
    if isinstance(n, int) and n == 0:
        return tf.zeros([0], tf.float64), state
    words, blocks = peek(mt, pos, 2 * n)
    mt, pos = advance(blocks, pos, 2 * n)
    return _doubles(words), pack(mt, pos, has, g)


def _tries(mt, pos, needed, most, width, batch, attempt, k, dtype):
    """Tries of ``width`` words each, ``batch`` at a time, until ``needed`` (int64, at most
    the Python int ``most``) pass: ``attempt(words [batch, width]) -> (passed bool[batch],
    values [batch, k] of ``dtype``)``. Returns (the passing tries' values in order [most, k], block,
    position): the state moves past the last try used."""
    def body(filled, mt, pos, out):
        words, blocks = peek(mt, pos, batch * width)
        passed, values = attempt(tf.reshape(words, [batch, width]))
        count = tf.cumsum(tf.cast(passed, tf.int64))
        want = needed - filled
        used = tf.logical_and(passed, count <= want)
        done = count[-1] >= want
        tries = tf.where(done, tf.argmax(tf.cast(count >= want, tf.int32),
                                         output_type=tf.int64) + 1, batch)
        slot = tf.where(used, filled + count - 1, most)   # row ``most``: the tries not kept
        out = tf.tensor_scatter_nd_update(out, slot[:, None], values)
        mt, pos = advance(blocks, pos, tries * width)
        return filled + tf.minimum(count[-1], want), mt, pos, out

    out = tf.zeros([most + 1, k], dtype)
    _, mt, pos, out = tf.while_loop(lambda filled, *_: filled < needed, body,
                                    (tf.constant(0, tf.int64), mt, pos, out))
    return out[:most], mt, pos


def gauss(state, n):
    """``n`` normals by the polar method with NumPy's cached second value (``legacy_gauss``):
    (values float64[n], state)."""
    if not isinstance(n, int):      # a run-time size, perhaps none
        return tf.cond(n > 0, lambda: _gauss(state, n),
                       lambda: (tf.zeros([0], tf.float64), state))
    if n == 0:
        return tf.zeros([0], tf.float64), state
    return _gauss(state, n)


def _gauss(state, n):
    mt, pos, has, cached = unpack(state)
    rest = n - has                                  # normals after the cached one
    pairs = -(-n // 2)

    def attempt(words):
        d = tf.reshape(_doubles(tf.reshape(words, [-1])), [-1, 2])
        x1, x2 = 2.0 * d[:, 0] - 1.0, 2.0 * d[:, 1] - 1.0
        r2 = x1 * x1 + x2 * x2
        passed = tf.logical_and(r2 < 1.0, r2 > 0.0)
        safe = tf.where(passed, r2, tf.ones_like(r2) * 0.5)
        f = tf.sqrt(-2.0 * tf.math.log(safe) / safe)
        return passed, tf.stack([f * x2, f * x1], 1)

    batch = int(math.ceil(pairs / 0.785 * 1.1)) + 4 if isinstance(pairs, int) else \
        tf.cast(tf.math.ceil(tf.cast(pairs, tf.float64) / 0.785 * 1.1), tf.int64) + 4
    out, mt, pos = _tries(mt, pos, (rest + 1) // 2, pairs, 4, batch, attempt, 2, tf.float64)
    flat = tf.reshape(out, [-1])                     # f*x2, f*x1 of each pair, in order
    values = tf.where(has > 0, tf.concat([tf.reshape(cached, [1]), flat[:n - 1]], 0), flat[:n])
    odd = tf.equal(rest % 2, 1)
    # f*x1 of the last pair when rest is odd (then rest < 2 * pairs)
    last = tf.gather(flat, tf.minimum(rest, 2 * pairs - 1))
    has = tf.where(odd, tf.ones_like(has), tf.zeros_like(has))
    cached = tf.where(odd, last, tf.zeros_like(cached))
    return values, pack(mt, pos, has, cached)


def _mask(rng):
    mask = rng
    for shift in (1, 2, 4, 8, 16, 32):
        mask |= mask >> shift
    return mask


def bounded(state, n, low, rng):
    """``n`` integers ``low + [0, rng]`` (Python ints, rng < 2**32) by NumPy's masked
    rejection (``randint``): (values int64[n], state)."""
    mt, pos, has, g = unpack(state)
    if (isinstance(n, int) and n == 0) or rng == 0:
        return tf.fill(tf.reshape(tf.cast(n, tf.int64), [1]), tf.constant(low, tf.int64)), state
    mask = _u32(_mask(rng))

    def attempt(words):
        v = tf.bitwise.bitwise_and(words[:, 0], mask)
        return v <= _u32(rng), tf.cast(v, tf.int64)[:, None]

    share = (rng + 1) / (_mask(rng) + 1)
    batch = int(math.ceil(n / share * 1.1)) + 4 if isinstance(n, int) else \
        tf.cast(tf.math.ceil(tf.cast(n, tf.float64) / share * 1.1), tf.int64) + 4
    out, mt, pos = _tries(mt, pos, tf.cast(n, tf.int64), n, 1, batch, attempt, 1,
                          tf.int64)
    return low + out[:, 0], pack(mt, pos, has, g)


def permutation(state, n):
    """The order ``shuffle`` gives ``arange(n)`` (Fisher-Yates from the end, each place by
    ``random_interval``): (order int64[n], state)."""
    mt, pos, has, g = unpack(state)
    order = tf.range(n, dtype=tf.int64)
    if isinstance(n, int) and n < 2:
        return order, state

    def body(i, mt, pos, order):
        word, mt, pos = next_word(mt, pos)
        mask = tf.cast(i, tf.uint32)
        for shift in (1, 2, 4, 8, 16):
            mask = tf.bitwise.bitwise_or(mask, tf.bitwise.right_shift(mask, _u32(shift)))
        j = tf.bitwise.bitwise_and(word, mask)
        keep = j <= tf.cast(i, tf.uint32)
        j = tf.minimum(tf.cast(j, tf.int64), i)
        swapped = tf.tensor_scatter_nd_update(
            order, tf.reshape(tf.stack([i, j]), [2, 1]),
            tf.stack([tf.gather(order, j), tf.gather(order, i)]))
        return (tf.where(keep, i - 1, i), mt, pos, tf.where(keep, swapped, order))

    if not isinstance(n, int):      # no words for n < 2
        n_ = tf.cast(n, tf.int64)
        out = tf.while_loop(lambda i, *_: i > 0, body, (n_ - 1, mt, pos, order))
        return out[3], pack(out[1], out[2], has, g)

    _, mt, pos, order = tf.while_loop(lambda i, *_: i > 0, body,
                                      (tf.cast(n, tf.int64) - 1, mt, pos, order))
    return order, pack(mt, pos, has, g)
