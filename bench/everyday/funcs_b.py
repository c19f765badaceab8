"""Everyday NumPy functions, batch B: images, simulations, PDEs, signals."""
import numpy as np


# 16. naive 2-D convolution with nested loops
def conv2d_naive(image, kernel):
    kh, kw = kernel.shape
    h, w = image.shape
    out = np.zeros((h - kh + 1, w - kw + 1))
    for i in range(h - kh + 1):
        for j in range(w - kw + 1):
            out[i, j] = np.sum(image[i:i + kh, j:j + kw] * kernel)
    return out


# 17. box blur with padding
def box_blur(img, k=3):
    pad = k // 2
    padded = np.pad(img, pad, mode="edge")
    out = np.empty_like(img, dtype=float)
    for i in range(img.shape[0]):
        for j in range(img.shape[1]):
            out[i, j] = padded[i:i + k, j:j + k].mean()
    return out


# 18. sobel edge magnitude, vectorised slices
def sobel(img):
    gx = (img[:-2, 2:] + 2 * img[1:-1, 2:] + img[2:, 2:]
          - img[:-2, :-2] - 2 * img[1:-1, :-2] - img[2:, :-2])
    gy = (img[2:, :-2] + 2 * img[2:, 1:-1] + img[2:, 2:]
          - img[:-2, :-2] - 2 * img[:-2, 1:-1] - img[:-2, 2:])
    mag = np.hypot(gx, gy)
    return (mag / mag.max() * 255).astype(np.uint8)


# 19. grayscale + threshold on uint8 image
def to_gray_threshold(rgb, thresh=128):
    gray = 0.299 * rgb[..., 0] + 0.587 * rgb[..., 1] + 0.114 * rgb[..., 2]
    gray = gray.astype(np.uint8)
    binary = np.where(gray > thresh, 255, 0).astype(np.uint8)
    return gray, binary


# 20. Game of Life step (100 numpy exercises #88 style)
def life_iterate(Z):
    N = (Z[0:-2, 0:-2] + Z[0:-2, 1:-1] + Z[0:-2, 2:] +
         Z[1:-1, 0:-2] + Z[1:-1, 2:] +
         Z[2:, 0:-2] + Z[2:, 1:-1] + Z[2:, 2:])
    birth = (N == 3) & (Z[1:-1, 1:-1] == 0)
    survive = ((N == 2) | (N == 3)) & (Z[1:-1, 1:-1] == 1)
    Z[...] = 0
    Z[1:-1, 1:-1][birth | survive] = 1
    return Z


def life_run(Z, steps=5):
    for _ in range(steps):
        Z = life_iterate(Z)
    return Z


# 21. Game of Life with np.roll (periodic)
def life_roll(grid, steps=4):
    for s in range(steps):
        nbrs = sum(np.roll(np.roll(grid, i, 0), j, 1)
                   for i in (-1, 0, 1) for j in (-1, 0, 1) if (i != 0 or j != 0))
        grid = ((nbrs == 3) | ((grid == 1) & (nbrs == 2))).astype(int)
    return grid


# 22. Mandelbrot escape iterations (vectorised)
def mandelbrot(xmin, xmax, ymin, ymax, w, h, maxit=20):
    x = np.linspace(xmin, xmax, w)
    y = np.linspace(ymin, ymax, h)
    c = x[None, :] + 1j * y[:, None]
    z = np.zeros_like(c)
    div = np.full(c.shape, maxit, dtype=int)
    for i in range(maxit):
        z = z ** 2 + c
        diverge = np.abs(z) > 2
        div_now = diverge & (div == maxit)
        div[div_now] = i
        z[diverge] = 2
    return div


# 23. Mandelbrot per-point while loop
def mandel_point(c_re, c_im, maxit=50):
    counts = np.zeros(c_re.shape, dtype=np.int32)
    for k in range(len(c_re)):
        zr, zi = 0.0, 0.0
        n = 0
        while zr * zr + zi * zi <= 4.0 and n < maxit:
            zr, zi = zr * zr - zi * zi + c_re[k], 2 * zr * zi + c_im[k]
            n += 1
        counts[k] = n
    return counts


# 24. random walk (seeded) - shapes only
def random_walk(n_steps=100, seed=0):
    rng = np.random.default_rng(seed)
    steps = rng.choice([-1, 1], size=n_steps)
    walk = np.cumsum(steps)
    return walk, walk.max(), np.abs(walk).argmax()


# 25. Monte Carlo pi (legacy seed) - shapes only
def mc_pi(n=1000):
    np.random.seed(42)
    x = np.random.rand(n)
    y = np.random.rand(n)
    inside = np.sum(x ** 2 + y ** 2 <= 1.0)
    return 4.0 * inside / n


# 26. 1-D heat equation explicit FTCS
def heat_1d(u0, alpha=0.1, dx=0.1, dt=0.01, steps=100):
    u = u0.copy()
    r = alpha * dt / dx ** 2
    for n in range(steps):
        u[1:-1] = u[1:-1] + r * (u[2:] - 2 * u[1:-1] + u[:-2])
        u[0] = 0.0
        u[-1] = 0.0
    return u


# 27. 2-D heat equation with in-place += and loop over steps
def heat_2d(U, steps=20, D=0.2):
    for t in range(steps):
        lap = U[:-2, 1:-1] + U[2:, 1:-1] + U[1:-1, :-2] + U[1:-1, 2:] - 4 * U[1:-1, 1:-1]
        U[1:-1, 1:-1] += D * lap
    return U.sum()


# 28. 1-D wave equation leapfrog with three time levels
def wave_1d(u0, c=1.0, dx=0.1, dt=0.05, steps=30):
    C2 = (c * dt / dx) ** 2
    u_prev = u0.copy()
    u = u0.copy()
    u[1:-1] = u0[1:-1] + 0.5 * C2 * (u0[2:] - 2 * u0[1:-1] + u0[:-2])
    for n in range(steps):
        u_next = np.zeros_like(u)
        u_next[1:-1] = 2 * u[1:-1] - u_prev[1:-1] + C2 * (u[2:] - 2 * u[1:-1] + u[:-2])
        u_prev, u = u, u_next
    return u


# 29. Jacobi iteration for Laplace with while/tolerance
def jacobi_laplace(grid, tol=1e-4, max_iter=500):
    g = grid.copy()
    diff = 1.0
    it = 0
    while diff > tol and it < max_iter:
        new = g.copy()
        new[1:-1, 1:-1] = 0.25 * (g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:])
        diff = np.max(np.abs(new - g))
        g = new
        it += 1
    return g, it


# 30. moving average with np.convolve
def moving_average(x, w=3):
    return np.convolve(x, np.ones(w), "valid") / w


# 31. moving average with cumsum trick (100 numpy exercises #61)
def moving_average_cumsum(a, n=3):
    ret = np.cumsum(a, dtype=float)
    ret[n:] = ret[n:] - ret[:-n]
    return ret[n - 1:] / n


# 32. FFT low-pass filter
def fft_lowpass(signal, dt, cutoff):
    freqs = np.fft.rfftfreq(len(signal), d=dt)
    spec = np.fft.rfft(signal)
    spec[freqs > cutoff] = 0
    return np.fft.irfft(spec, n=len(signal))


# 33. dominant frequency via FFT
def dominant_freq(signal, fs):
    n = len(signal)
    spectrum = np.abs(np.fft.fft(signal))[: n // 2]
    freqs = np.fft.fftfreq(n, 1 / fs)[: n // 2]
    k = int(np.argmax(spectrum[1:])) + 1
    return freqs[k], spectrum[k]


# 34. exponential moving average with python loop
def ema(x, alpha=0.3):
    out = np.empty(len(x))
    out[0] = x[0]
    for i in range(1, len(x)):
        out[i] = alpha * x[i] + (1 - alpha) * out[i - 1]
    return out


# 35. Euler integration of a damped oscillator, trajectory list
def damped_oscillator(x0, v0, k=1.0, c=0.1, dt=0.05, steps=40):
    x, v = float(x0), float(v0)
    traj = []
    for _ in range(steps):
        a = -k * x - c * v
        v = v + a * dt
        x = x + v * dt
        traj.append((x, v))
    return np.array(traj)


# 36. n-body style pairwise gravitational accelerations
def accelerations(pos, mass, G=1.0, soft=0.1):
    dx = pos[None, :, 0] - pos[:, None, 0]
    dy = pos[None, :, 1] - pos[:, None, 1]
    inv_r3 = (dx ** 2 + dy ** 2 + soft ** 2) ** (-1.5)
    ax = G * (dx * inv_r3) @ mass
    ay = G * (dy * inv_r3) @ mass
    return np.column_stack([ax, ay])


# 37. Newton's method root finding with early return
def newton_sqrt(a, tol=1e-12, max_iter=50):
    x = a / 2.0
    for i in range(max_iter):
        x_new = 0.5 * (x + a / x)
        if np.all(np.abs(x_new - x) < tol):
            return x_new, i
        x = x_new
    return x, max_iter


# 38. trapezoid integration by hand vs np.trapezoid
def integrate(y, x):
    manual = 0.0
    for i in range(len(x) - 1):
        manual += (x[i + 1] - x[i]) * (y[i] + y[i + 1]) / 2
    return manual, np.trapezoid(y, x)
