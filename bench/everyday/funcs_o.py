"""Everyday NumPy functions, eleventh collection: teaching notebooks and course
solutions in image processing and computer vision, audio DSP and numerical linear
algebra done by hand, each in its author's own style. Images are uint8 arrays:
brightness/contrast with clipping and casts, gamma lookup tables, histogram
equalisation, Otsu's threshold, RGB<->HSV and YCbCr, alpha blending, nearest and
bilinear resizing, rotation by inverse index maps, 2-D convolution by pixel loops and
by ``sliding_window_view``, Sobel and Laplacian, separable Gaussian blur, a median
filter, erosion/dilation/opening/closing of bool masks, connected components by BFS
and by union-find, flood fill with a stack, integral images, template matching by
SSD and NCC, Harris corners, Hough votes with ``np.add.at``, in-place inversion with
``where=`` and Floyd-Steinberg dithering. Audio: biquads and one-pole filters as
difference-equation loops, windowed-sinc FIR design, direct convolution, envelope
followers and a compressor, zero crossings, autocorrelation pitch, STFT by frames
and ``rfft`` with overlap-add inversion, spectral centroid, resampling in a while
loop, mu-law companding through int16/uint8, seeded TPDF dither, Goertzel DTMF
detection, pre-emphasis written into the argument, feedback echo with ``out=``, a
noise gate with ``copyto(where=)`` and peak normalisation under
``np.errstate(all="raise")``. Linear algebra: Gaussian elimination with partial
pivoting, Doolittle and packed in-place LU, Cholesky by loops, Householder and
Givens QR, classical vs modified Gram-Schmidt, power, inverse and Rayleigh quotient
iteration, Jacobi eigenvalue sweeps, conjugate gradient, Jacobi/Gauss-Seidel/SOR to
a tolerance, a Thomas solver inside a natural cubic spline, least squares by normal
equations and by QR, condition number estimates, a matrix exponential by scaling and
squaring, Gauss-Jordan inversion that traps ``FloatingPointError``, deflated power
iteration on a complex Hermitian matrix and Hutchinson's trace estimator. Each entry
of CASES is (name, function, make_args, opts); make_args() returns the arguments;
opts {"rand": True} marks a function that draws random numbers inside (compared by
type, dtype and shape only)."""
import math
from collections import deque

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


# ----------------------------------------------------------------------------
# Image processing: point operations and colour
# ----------------------------------------------------------------------------

def brightness_contrast(img, alpha=1.25, beta=-18):
    out = img.astype(np.float32) * alpha + beta
    np.clip(out, 0, 255, out=out)
    return np.rint(out).astype(np.uint8)


def gamma_correct_lut(img, gamma=2.2):
    inv = 1.0 / gamma
    lut = np.array([((i / 255.0) ** inv) * 255 for i in np.arange(0, 256)]).astype("uint8")
    return lut[img], lut


def histogram_equalize(img):
    hist = np.zeros(256, dtype=np.int64)
    for v in img.ravel():
        hist[v] += 1
    cdf = hist.cumsum()
    cdf_min = cdf[cdf > 0][0]
    total = img.size
    if total == cdf_min:
        return img.copy(), hist
    lut = np.round((cdf - cdf_min) / (total - cdf_min) * 255)
    lut = np.clip(lut, 0, 255).astype(np.uint8)
    return lut[img], hist


def otsu_threshold(img):
    hist = np.bincount(img.ravel(), minlength=256).astype(np.float64)
    prob = hist / hist.sum()
    levels = np.arange(256)
    best_t, best_var = 0, -1.0
    for t in range(1, 256):
        w0 = prob[:t].sum()
        w1 = 1.0 - w0
        if w0 == 0 or w1 <= 0:
            continue
        mu0 = (levels[:t] * prob[:t]).sum() / w0
        mu1 = (levels[t:] * prob[t:]).sum() / w1
        var_between = w0 * w1 * (mu0 - mu1) ** 2
        if var_between > best_var:
            best_var = var_between
            best_t = t
    return best_t, float(best_var), img >= best_t


def rgb_to_hsv_loop(img):
    h, w, _ = img.shape
    out = np.zeros((h, w, 3), dtype=np.float64)
    for i in range(h):
        for j in range(w):
            r, g, b = img[i, j] / 255.0
            mx = max(r, g, b)
            mn = min(r, g, b)
            d = mx - mn
            if d == 0:
                hue = 0.0
            elif mx == r:
                hue = (60 * ((g - b) / d) + 360) % 360
            elif mx == g:
                hue = 60 * ((b - r) / d) + 120
            else:
                hue = 60 * ((r - g) / d) + 240
            s = 0.0 if mx == 0 else d / mx
            out[i, j] = hue, s, mx
    return out


def hsv_to_rgb_vec(hsv):
    h = hsv[..., 0] / 60.0
    s = hsv[..., 1]
    v = hsv[..., 2]
    i = np.floor(h).astype(int) % 6
    f = h - np.floor(h)
    p = v * (1 - s)
    q = v * (1 - s * f)
    t = v * (1 - s * (1 - f))
    conds = [i == k for k in range(6)]
    r = np.select(conds, [v, q, p, p, t, v])
    g = np.select(conds, [t, v, v, q, p, p])
    b = np.select(conds, [p, p, t, v, v, q])
    rgb = np.stack([r, g, b], axis=-1)
    return (rgb * 255).round().clip(0, 255).astype(np.uint8)


_YCC = np.array([[0.299, 0.587, 0.114],
                 [-0.168736, -0.331264, 0.5],
                 [0.5, -0.418688, -0.081312]])


def ycbcr_roundtrip(img):
    x = img.astype(np.float64)
    ycc = x @ _YCC.T
    ycc[..., 1:] += 128
    ycc8 = np.clip(np.round(ycc), 0, 255).astype(np.uint8)
    back = ycc8.astype(np.float64)
    back[..., 1:] -= 128
    rgb = back @ np.linalg.inv(_YCC).T
    rgb8 = np.clip(rgb.round(), 0, 255).astype(np.uint8)
    err = np.abs(rgb8.astype(np.int16) - img.astype(np.int16))
    return ycc8, int(err.max()), float(err.mean())


def alpha_blend(fg, bg, alpha):
    a = alpha.astype(np.float32)[..., None]
    out = np.empty(fg.shape, dtype=np.float32)
    np.multiply(fg, a, out=out)
    out += bg * (1.0 - a)
    np.clip(out, 0, 255, out=out)
    return out.astype(np.uint8)


def invert_inplace(img, mask):
    np.subtract(255, img, out=img, where=mask)
    return img


# ----------------------------------------------------------------------------
# Image processing: geometry
# ----------------------------------------------------------------------------

def resize_nearest(img, new_h, new_w):
    h, w = img.shape[:2]
    rows = (np.arange(new_h) * h / new_h).astype(int)
    cols = (np.arange(new_w) * w / new_w).astype(int)
    return img[rows[:, None], cols]


def resize_bilinear(img, new_h, new_w):
    h, w = img.shape
    out = np.zeros((new_h, new_w), dtype=np.uint8)
    sy = (h - 1) / max(new_h - 1, 1)
    sx = (w - 1) / max(new_w - 1, 1)
    for i in range(new_h):
        y = i * sy
        y0 = int(y)
        y1 = min(y0 + 1, h - 1)
        dy = y - y0
        for j in range(new_w):
            x = j * sx
            x0 = int(x)
            x1 = min(x0 + 1, w - 1)
            dx = x - x0
            top = img[y0, x0] * (1 - dx) + img[y0, x1] * dx
            bot = img[y1, x0] * (1 - dx) + img[y1, x1] * dx
            out[i, j] = int(round(top * (1 - dy) + bot * dy))
    return out


def rotate_nearest(img, angle_deg, fill=0):
    h, w = img.shape
    th = np.deg2rad(angle_deg)
    cy, cx = (h - 1) / 2, (w - 1) / 2
    yy, xx = np.indices((h, w))
    ys = np.cos(th) * (yy - cy) + np.sin(th) * (xx - cx) + cy
    xs = -np.sin(th) * (yy - cy) + np.cos(th) * (xx - cx) + cx
    yi = np.rint(ys).astype(np.intp)
    xi = np.rint(xs).astype(np.intp)
    valid = (yi >= 0) & (yi < h) & (xi >= 0) & (xi < w)
    out = np.full_like(img, fill)
    out[valid] = img[yi[valid], xi[valid]]
    return out, int(valid.sum())


# ----------------------------------------------------------------------------
# Image processing: filtering
# ----------------------------------------------------------------------------

def conv2d_loops(img, kernel):
    kh, kw = kernel.shape
    ph, pw = kh // 2, kw // 2
    H, W = img.shape
    padded = np.zeros((H + 2 * ph, W + 2 * pw), dtype=np.float64)
    padded[ph:ph + H, pw:pw + W] = img
    k = kernel[::-1, ::-1]
    out = np.zeros((H, W), dtype=np.float64)
    for i in range(H):
        for j in range(W):
            out[i, j] = np.sum(padded[i:i + kh, j:j + kw] * k)
    return out


def conv2d_sliding(img, kernel, mode="reflect"):
    kh, kw = kernel.shape
    padded = np.pad(img.astype(np.float32), ((kh // 2, kh // 2), (kw // 2, kw // 2)), mode=mode)
    win = sliding_window_view(padded, (kh, kw))
    return np.einsum("ijkl,kl->ij", win, kernel[::-1, ::-1].astype(np.float32))


SOBEL_X = np.array([[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]])


def sobel_edges(img, thresh=80.0):
    f = img.astype(np.int32)
    p = np.pad(f, 1, mode="edge")
    gx = np.zeros_like(f)
    gy = np.zeros_like(f)
    for di in range(3):
        for dj in range(3):
            win = p[di:di + f.shape[0], dj:dj + f.shape[1]]
            gx += SOBEL_X[di, dj] * win
            gy += SOBEL_X[dj, di] * win
    mag = np.hypot(gx, gy)
    with np.errstate(divide="ignore", invalid="ignore"):
        ang = np.degrees(np.arctan(gy / gx))
    ang[gx == 0] = 90.0
    return mag.astype(np.float32), ang, mag > thresh


def laplacian_sharpen(img, strength=1):
    x = img.astype(np.int16)
    lap = np.zeros_like(x)
    lap[1:-1, 1:-1] = (x[:-2, 1:-1] + x[2:, 1:-1] + x[1:-1, :-2] + x[1:-1, 2:]
                       - 4 * x[1:-1, 1:-1])
    sharp = x - strength * lap
    return np.clip(sharp, 0, 255).astype(np.uint8), int(np.abs(lap).max())


def gaussian_kernel1d(sigma, radius=None):
    if radius is None:
        radius = int(math.ceil(3 * sigma))
    x = np.arange(-radius, radius + 1, dtype=np.float32)
    k = np.exp(-(x * x) / np.float32(2 * sigma * sigma))
    return k / k.sum()


def gaussian_blur_separable(img, sigma=1.2):
    k = gaussian_kernel1d(sigma)
    r = len(k) // 2
    a = np.pad(img.astype(np.float32), r, mode="edge")
    tmp = np.zeros((a.shape[0], img.shape[1]), dtype=np.float32)
    for i, wgt in enumerate(k):
        tmp += wgt * a[:, i:i + img.shape[1]]
    out = np.zeros(img.shape, dtype=np.float32)
    for i, wgt in enumerate(k):
        out += wgt * tmp[i:i + img.shape[0], :]
    return out.round().astype(np.uint8)


def median_filter(img, size=3):
    r = size // 2
    p = np.pad(img, r, mode="edge")
    out = np.empty_like(img)
    h, w = img.shape
    for i in range(h):
        for j in range(w):
            out[i, j] = np.median(p[i:i + size, j:j + size])
    return out


def floyd_steinberg(img, levels=2):
    f = img.astype(np.float32) / 255.0
    h, w = f.shape
    q = levels - 1
    for y in range(h):
        for x in range(w):
            old = f[y, x]
            new = np.round(old * q) / q
            f[y, x] = new
            err = old - new
            if x + 1 < w:
                f[y, x + 1] += err * 7 / 16
            if y + 1 < h:
                if x > 0:
                    f[y + 1, x - 1] += err * 3 / 16
                f[y + 1, x] += err * 5 / 16
                if x + 1 < w:
                    f[y + 1, x + 1] += err * 1 / 16
    return (np.clip(f, 0, 1) * 255).astype(np.uint8)


# ----------------------------------------------------------------------------
# Image processing: binary images and regions
# ----------------------------------------------------------------------------

def morphology_ops(mask, se=None):
    if se is None:
        se = np.ones((3, 3), dtype=bool)
    r0, r1 = se.shape[0] // 2, se.shape[1] // 2
    offsets = [(di - r0, dj - r1) for di in range(se.shape[0])
               for dj in range(se.shape[1]) if se[di, dj]]

    def shift(m, di, dj, fill):
        p = np.pad(m, ((r0, r0), (r1, r1)), constant_values=fill)
        return p[r0 + di:r0 + di + m.shape[0], r1 + dj:r1 + dj + m.shape[1]]

    def erode(m):
        out = np.ones_like(m)
        for di, dj in offsets:
            out &= shift(m, di, dj, True)
        return out

    def dilate(m):
        out = np.zeros_like(m)
        for di, dj in offsets:
            out |= shift(m, di, dj, False)
        return out

    er, di_ = erode(mask), dilate(mask)
    return {
        "erode": er,
        "dilate": di_,
        "open": dilate(er),
        "close": erode(di_),
        "gradient": di_ & ~er,
        "area": int(mask.sum()),
    }


def label_bfs(mask, connectivity=4):
    h, w = mask.shape
    labels = np.zeros((h, w), dtype=np.int32)
    if connectivity == 4:
        nbrs = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    else:
        nbrs = [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if a or b]
    cur = 0
    sizes = []
    for i in range(h):
        for j in range(w):
            if mask[i, j] and labels[i, j] == 0:
                cur += 1
                q = deque([(i, j)])
                labels[i, j] = cur
                n = 0
                while q:
                    y, x = q.popleft()
                    n += 1
                    for dy, dx in nbrs:
                        yy, xx = y + dy, x + dx
                        if 0 <= yy < h and 0 <= xx < w and mask[yy, xx] and labels[yy, xx] == 0:
                            labels[yy, xx] = cur
                            q.append((yy, xx))
                sizes.append(n)
    return labels, cur, sizes


def label_union_find(mask):
    h, w = mask.shape
    labels = np.zeros(mask.shape, dtype=np.int64)
    parent = [0]

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    def union(a, b):
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    nxt = 1
    for i in range(h):
        for j in range(w):
            if not mask[i, j]:
                continue
            up = labels[i - 1, j] if i > 0 else 0
            left = labels[i, j - 1] if j > 0 else 0
            if up == 0 and left == 0:
                parent.append(nxt)
                labels[i, j] = nxt
                nxt += 1
            elif up and left:
                labels[i, j] = min(up, left)
                union(up, left)
            else:
                labels[i, j] = up or left
    roots = np.array([find(k) for k in range(len(parent))])
    labels = roots[labels]
    uniq, inv = np.unique(labels, return_inverse=True)
    n_comp = len(uniq) - 1 if uniq[0] == 0 else len(uniq)
    return inv.reshape(h, w), n_comp


def flood_fill_stack(img, seed, new_value, tol=0):
    out = img.copy()
    h, w = out.shape
    sy, sx = seed
    target = int(out[sy, sx])
    if target == new_value and tol == 0:
        return out, 0
    stack = [(sy, sx)]
    seen = np.zeros(out.shape, dtype=bool)
    filled = 0
    while stack:
        y, x = stack.pop()
        if y < 0 or y >= h or x < 0 or x >= w or seen[y, x]:
            continue
        if abs(int(img[y, x]) - target) > tol:
            continue
        seen[y, x] = True
        out[y, x] = new_value
        filled += 1
        stack.extend([(y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)])
    return out, filled


def integral_box_filter(img, r=2):
    h, w = img.shape
    ii = np.zeros((h + 1, w + 1), dtype=np.int64)
    np.cumsum(np.cumsum(img, axis=0, dtype=np.int64), axis=1, out=ii[1:, 1:])
    y0 = np.clip(np.arange(h) - r, 0, h)
    y1 = np.clip(np.arange(h) + r + 1, 0, h)
    x0 = np.clip(np.arange(w) - r, 0, w)
    x1 = np.clip(np.arange(w) + r + 1, 0, w)
    s = ii[y1[:, None], x1] - ii[y0[:, None], x1] - ii[y1[:, None], x0] + ii[y0[:, None], x0]
    area = (y1 - y0)[:, None] * (x1 - x0)
    return (s // area).astype(np.uint8), ii[-1, -1].item()


# ----------------------------------------------------------------------------
# Image processing: matching and features
# ----------------------------------------------------------------------------

def template_match_ssd(img, tmpl):
    H, W = img.shape
    h, w = tmpl.shape
    I = img.astype(np.int32)
    T = tmpl.astype(np.int32)
    ssd = np.empty((H - h + 1, W - w + 1), dtype=np.int64)
    for y in range(H - h + 1):
        for x in range(W - w + 1):
            d = I[y:y + h, x:x + w] - T
            ssd[y, x] = (d * d).sum()
    y, x = np.unravel_index(np.argmin(ssd), ssd.shape)
    return (int(y), int(x)), ssd


def template_match_ncc(img, tmpl):
    win = sliding_window_view(img.astype(np.float64), tmpl.shape)
    t = tmpl - tmpl.mean()
    wm = win - win.mean(axis=(-2, -1), keepdims=True)
    num = (wm * t).sum(axis=(-2, -1))
    den = np.sqrt((wm ** 2).sum(axis=(-2, -1)) * (t ** 2).sum())
    with np.errstate(divide="ignore", invalid="ignore"):
        ncc = np.where(den > 1e-9, num / den, 0.0)
    best = np.unravel_index(np.nanargmax(ncc), ncc.shape)
    return tuple(int(b) for b in best), ncc.astype(np.float32)


def harris_corners(img, k=0.04, sigma=1.0, n_best=5):
    f = img.astype(np.float64)
    Iy, Ix = np.gradient(f)
    g = gaussian_kernel1d(sigma).astype(np.float64)

    def smooth(a):
        a = np.apply_along_axis(lambda r: np.convolve(r, g, mode="same"), 0, a)
        return np.apply_along_axis(lambda r: np.convolve(r, g, mode="same"), 1, a)

    Sxx = smooth(Ix * Ix)
    Syy = smooth(Iy * Iy)
    Sxy = smooth(Ix * Iy)
    R = Sxx * Syy - Sxy ** 2 - k * (Sxx + Syy) ** 2
    pad = np.pad(R, 1, constant_values=-np.inf)
    local_max = np.ones(R.shape, dtype=bool)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dy == 0 and dx == 0:
                continue
            local_max &= R >= pad[1 + dy:1 + dy + R.shape[0], 1 + dx:1 + dx + R.shape[1]]
    cand = np.argwhere(local_max & (R > 0.01 * R.max()))
    order = np.argsort(-R[cand[:, 0], cand[:, 1]], kind="stable")
    return [(int(y), int(x), float(R[y, x])) for y, x in cand[order[:n_best]]]


def hough_lines(edges, n_theta=90, top=3):
    h, w = edges.shape
    diag = int(np.ceil(np.hypot(h, w)))
    thetas = np.deg2rad(np.arange(-90, 90, 180 / n_theta))
    acc = np.zeros((2 * diag + 1, len(thetas)), dtype=np.int32)
    ys, xs = np.nonzero(edges)
    cos_t, sin_t = np.cos(thetas), np.sin(thetas)
    cols = np.arange(len(thetas))
    for y, x in zip(ys, xs):
        r = np.round(x * cos_t + y * sin_t).astype(int) + diag
        np.add.at(acc, (r, cols), 1)
    flat = np.argsort(acc, axis=None, kind="stable")[::-1][:top]
    peaks = []
    for idx in flat:
        ri, ti = divmod(int(idx), acc.shape[1])
        peaks.append((ri - diag, float(np.rad2deg(thetas[ti])), int(acc[ri, ti])))
    return peaks, acc.max()


# ----------------------------------------------------------------------------
# Audio DSP
# ----------------------------------------------------------------------------

def biquad_lowpass(x, fs=8000.0, f0=800.0, q=0.7071):
    w0 = 2 * math.pi * f0 / fs
    alpha = math.sin(w0) / (2 * q)
    c = math.cos(w0)
    b0 = (1 - c) / 2
    b1 = 1 - c
    b2 = (1 - c) / 2
    a0 = 1 + alpha
    a1 = -2 * c
    a2 = 1 - alpha
    b = np.array([b0, b1, b2]) / a0
    a = np.array([1.0, a1 / a0, a2 / a0])
    y = np.zeros_like(x, dtype=np.float64)
    x1 = x2 = y1 = y2 = 0.0
    for n in range(len(x)):
        xn = x[n]
        yn = b[0] * xn + b[1] * x1 + b[2] * x2 - a[1] * y1 - a[2] * y2
        y[n] = yn
        x2, x1 = x1, xn
        y2, y1 = y1, yn
    return y, b, a


def peaking_eq_df2t(x, fs, f0, gain_db, q=1.0):
    A = 10 ** (gain_db / 40)
    w0 = 2 * np.pi * f0 / fs
    alpha = np.sin(w0) / (2 * q)
    cw = np.cos(w0)
    a0 = 1 + alpha / A
    b0 = (1 + alpha * A) / a0
    b1 = -2 * cw / a0
    b2 = (1 - alpha * A) / a0
    a1 = -2 * cw / a0
    a2 = (1 - alpha / A) / a0
    z1 = z2 = 0.0
    y = np.empty(len(x), dtype=np.float32)
    for i, xi in enumerate(x):
        yi = b0 * xi + z1
        z1 = b1 * xi - a1 * yi + z2
        z2 = b2 * xi - a2 * yi
        y[i] = yi
    return y


def one_pole_lowpass(x, cutoff, fs=8000.0):
    a = math.exp(-2 * math.pi * cutoff / fs)
    y = np.empty_like(x)
    state = 0.0
    for i in range(x.shape[0]):
        state = (1 - a) * x[i] + a * state
        y[i] = state
    return y


def fir_windowed_sinc(numtaps, cutoff, fs, window="hamming"):
    fc = cutoff / fs
    m = np.arange(numtaps) - (numtaps - 1) / 2
    h = 2 * fc * np.sinc(2 * fc * m)
    win = {"hamming": np.hamming, "hann": np.hanning, "blackman": np.blackman}[window](numtaps)
    h *= win
    h /= h.sum()
    return h


def fir_lowpass_apply(x, numtaps=31, cutoff=1000.0, fs=8000.0, window="blackman"):
    h = fir_windowed_sinc(numtaps, cutoff, fs, window)
    y = np.convolve(x, h, mode="same")
    H = np.fft.rfft(h, 512)
    resp_db = 20 * np.log10(np.abs(H) + 1e-12)
    return y, resp_db, float(resp_db[int(512 * 2000 / fs)])


def convolve_direct(x, h):
    n, m = len(x), len(h)
    y = np.zeros(n + m - 1, dtype=np.result_type(x, h, np.float64))
    for i in range(n):
        y[i:i + m] += x[i] * h
    return y, float(np.max(np.abs(y - np.convolve(x, h))))


def envelope_follower(x, fs=8000.0, attack_ms=5.0, release_ms=50.0):
    ga = math.exp(-1.0 / (fs * attack_ms * 1e-3))
    gr = math.exp(-1.0 / (fs * release_ms * 1e-3))
    env = np.zeros(len(x))
    e = 0.0
    for i, v in enumerate(np.abs(x)):
        g = ga if v > e else gr
        e = g * e + (1 - g) * v
        env[i] = e
    return env


def simple_compressor(x, threshold_db=-12.0, ratio=4.0, fs=8000.0):
    env = envelope_follower(x, fs)
    with np.errstate(divide="ignore"):
        level_db = 20 * np.log10(env)
    over = np.maximum(level_db - threshold_db, 0.0)
    gain_db = -over * (1 - 1 / ratio)
    y = x * 10 ** (gain_db / 20)
    return y.astype(np.float32), float(gain_db.min())


def zero_crossing_rate(x, frame=64, hop=32):
    n = 1 + (len(x) - frame) // hop
    zcr = np.empty(n)
    for k in range(n):
        f = x[k * hop:k * hop + frame]
        s = np.signbit(f)
        zcr[k] = np.count_nonzero(s[1:] != s[:-1]) / (frame - 1)
    return zcr


def pitch_autocorr(x, fs=8000.0, fmin=80.0, fmax=500.0):
    x = x - np.mean(x)
    r = np.correlate(x, x, mode="full")[len(x) - 1:]
    if r[0] <= 0:
        return 0.0, 0.0
    r = r / r[0]
    lo = int(fs / fmax)
    hi = min(int(fs / fmin), len(r) - 2)
    lag = lo + int(np.argmax(r[lo:hi + 1]))
    a, b, c = r[lag - 1], r[lag], r[lag + 1]
    denom = a - 2 * b + c
    shift = 0.5 * (a - c) / denom if denom != 0 else 0.0
    return fs / (lag + shift), float(b)


def stft_magnitude(x, n_fft=64, hop=16, window="hann"):
    win = np.hanning(n_fft) if window == "hann" else np.ones(n_fft)
    pad = n_fft // 2
    xp = np.pad(x, pad, mode="reflect")
    n_frames = 1 + (len(xp) - n_fft) // hop
    idx = np.arange(n_fft)[None, :] + hop * np.arange(n_frames)[:, None]
    frames = xp[idx] * win
    spec = np.fft.rfft(frames, axis=1)
    return spec, np.abs(spec).astype(np.float32)


def stft_istft_roundtrip(x, n_fft=64, hop=16):
    win = np.hanning(n_fft + 1)[:-1]
    pad = n_fft // 2
    xp = np.pad(x, pad, mode="reflect")
    n_frames = 1 + (len(xp) - n_fft) // hop
    spec = np.stack([np.fft.rfft(xp[k * hop:k * hop + n_fft] * win) for k in range(n_frames)])
    y = np.zeros(len(xp))
    wsum = np.zeros(len(xp))
    for k in range(n_frames):
        seg = np.fft.irfft(spec[k], n=n_fft)
        y[k * hop:k * hop + n_fft] += seg * win
        wsum[k * hop:k * hop + n_fft] += win ** 2
    nz = wsum > 1e-8
    y[nz] /= wsum[nz]
    y = y[pad:pad + len(x)]
    return y, float(np.max(np.abs(y - x)))


def spectral_centroid(x, fs=8000.0, n_fft=128, hop=64):
    win = np.hanning(n_fft)
    frames = np.array([x[i:i + n_fft] * win for i in range(0, len(x) - n_fft + 1, hop)])
    mags = np.abs(np.fft.rfft(frames, axis=-1))
    freqs = np.fft.rfftfreq(n_fft, 1 / fs)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = (mags @ freqs) / mags.sum(axis=1)
    return np.nan_to_num(c)


def resample_loop(x, ratio):
    out = []
    pos = 0.0
    step = 1.0 / ratio
    while pos < len(x) - 1:
        i = int(pos)
        frac = pos - i
        out.append(x[i] * (1 - frac) + x[i + 1] * frac)
        pos += step
    return np.array(out, dtype=np.float32)


def mu_law_roundtrip(x16, mu=255):
    x = x16.astype(np.float64) / 32768.0
    y = np.sign(x) * np.log1p(mu * np.abs(x)) / np.log1p(mu)
    q = ((y + 1) / 2 * mu + 0.5).astype(np.uint8)
    y2 = 2 * (q.astype(np.float64) / mu) - 1
    x2 = np.sign(y2) * (np.power(1 + mu, np.abs(y2)) - 1) / mu
    back = np.clip(np.round(x2 * 32768), -32768, 32767).astype(np.int16)
    xf = x16.astype(np.float64)
    snr = 10 * np.log10(np.sum(xf ** 2) / np.sum((xf - back) ** 2))
    return q, back, float(snr)


def tpdf_dither_quantize(x, bits=8, seed=1234):
    rng = np.random.default_rng(seed)
    scale = 2 ** (bits - 1) - 1
    d = rng.random(len(x)) - rng.random(len(x))
    q = np.round(x * scale + d)
    q = np.clip(q, -scale - 1, scale).astype(np.int16)
    err = q / scale - x
    return q, float(np.sqrt(np.mean(err ** 2)))


DTMF_LOW = (697, 770, 852, 941)
DTMF_HIGH = (1209, 1336, 1477, 1633)
DTMF_KEYS = ["123A", "456B", "789C", "*0#D"]


def dtmf_goertzel(x, fs=8000.0):
    N = len(x)
    power = {}
    for f in DTMF_LOW + DTMF_HIGH:
        k = int(0.5 + N * f / fs)
        w = 2 * math.pi * k / N
        coeff = 2 * math.cos(w)
        s1 = s2 = 0.0
        for v in x:
            s0 = v + coeff * s1 - s2
            s2, s1 = s1, s0
        power[f] = s1 * s1 + s2 * s2 - coeff * s1 * s2
    lo = max(DTMF_LOW, key=lambda f: power[f])
    hi = max(DTMF_HIGH, key=lambda f: power[f])
    key = DTMF_KEYS[DTMF_LOW.index(lo)][DTMF_HIGH.index(hi)]
    return key, power


def pre_emphasis_inplace(x, coef=0.97):
    x[1:] -= coef * x[:-1]
    return x


def feedback_echo(x, delay=50, feedback=0.5, mix=0.4):
    buf = np.zeros(len(x) + delay, dtype=np.float64)
    for n in range(len(x)):
        buf[n + delay] = x[n] + feedback * buf[n]
    wet = buf[delay:]
    y = np.empty_like(wet)
    np.multiply(wet, mix, out=y)
    np.add(y, (1 - mix) * x, out=y)
    return y


def noise_gate(x, threshold=0.05, floor=0.0):
    y = np.full_like(x, floor)
    np.copyto(y, x, where=np.abs(x) >= threshold)
    gain = np.zeros_like(x)
    np.divide(y, x, out=gain, where=x != 0)
    return y, gain


def peak_normalize(x, target=0.9):
    try:
        with np.errstate(all="raise"):
            peak = np.max(np.abs(x))
            scale = target / peak
            return x * scale, float(scale)
    except FloatingPointError:
        return x.copy(), 1.0


def add_noise_snr(x, snr_db=10.0):
    p = np.mean(x ** 2)
    noise = np.random.normal(0, np.sqrt(p / 10 ** (snr_db / 10)), size=x.shape)
    return x + noise


# ----------------------------------------------------------------------------
# Numerical linear algebra by hand
# ----------------------------------------------------------------------------

def back_substitution(U, b):
    n = U.shape[0]
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = (b[i] - U[i, i + 1:] @ x[i + 1:]) / U[i, i]
    return x


def forward_substitution(L, b):
    n = L.shape[0]
    y = np.zeros(n)
    for i in range(n):
        y[i] = (b[i] - np.dot(L[i, :i], y[:i])) / L[i, i]
    return y


def gauss_solve_pivot(A, b):
    A = A.astype(float)
    b = b.astype(float)
    n = len(b)
    swaps = 0
    for k in range(n - 1):
        p = k + np.argmax(np.abs(A[k:, k]))
        if A[p, k] == 0:
            raise np.linalg.LinAlgError("matrix is singular")
        if p != k:
            A[[k, p]] = A[[p, k]]
            b[[k, p]] = b[[p, k]]
            swaps += 1
        for i in range(k + 1, n):
            m = A[i, k] / A[k, k]
            A[i, k:] -= m * A[k, k:]
            b[i] -= m * b[k]
    x = back_substitution(A, b)
    return x, swaps


def lu_doolittle(A):
    n = A.shape[0]
    L = np.eye(n)
    U = np.zeros((n, n))
    for i in range(n):
        for k in range(i, n):
            U[i, k] = A[i, k] - sum(L[i, j] * U[j, k] for j in range(i))
        for k in range(i + 1, n):
            L[k, i] = (A[k, i] - sum(L[k, j] * U[j, i] for j in range(i))) / U[i, i]
    return L, U, float(np.prod(np.diag(U)))


def lu_packed_inplace(A):
    n = A.shape[0]
    perm = np.arange(n)
    sign = 1
    for k in range(n):
        p = int(np.argmax(np.abs(A[k:, k]))) + k
        if p != k:
            A[[k, p], :] = A[[p, k], :]
            perm[[k, p]] = perm[[p, k]]
            sign = -sign
        A[k + 1:, k] /= A[k, k]
        A[k + 1:, k + 1:] -= np.outer(A[k + 1:, k], A[k, k + 1:])
    det = sign * np.prod(np.diag(A))
    return perm, det, A


def cholesky_banachiewicz(A):
    n = len(A)
    L = np.zeros_like(A, dtype=float)
    for i in range(n):
        for j in range(i + 1):
            s = np.dot(L[i, :j], L[j, :j])
            if i == j:
                val = A[i, i] - s
                if val <= 0:
                    raise ValueError("matrix is not positive definite")
                L[i, j] = math.sqrt(val)
            else:
                L[i, j] = (A[i, j] - s) / L[j, j]
    return L


def is_positive_definite(A):
    if not np.allclose(A, A.T):
        return False, None
    try:
        L = cholesky_banachiewicz(A)
    except ValueError:
        return False, None
    return True, float(np.prod(np.diag(L)) ** 2)


def householder_qr(A):
    m, n = A.shape
    R = A.astype(np.float64).copy()
    Q = np.eye(m)
    for k in range(min(m - 1, n)):
        x = R[k:, k]
        v = x.copy()
        alpha = -np.copysign(np.linalg.norm(x), x[0])
        v[0] -= alpha
        vn = np.linalg.norm(v)
        if vn < 1e-15:
            continue
        v /= vn
        R[k:, :] -= 2.0 * np.outer(v, v @ R[k:, :])
        Q[:, k:] -= 2.0 * np.outer(Q[:, k:] @ v, v)
    return Q, np.triu(R)


def givens_qr(A):
    m, n = A.shape
    R = A.astype(float)
    Q = np.eye(m)
    for j in range(n):
        for i in range(m - 1, j, -1):
            a, b = R[i - 1, j], R[i, j]
            if b == 0:
                continue
            r = math.hypot(a, b)
            c, s = a / r, -b / r
            G = np.array([[c, -s], [s, c]])
            R[[i - 1, i], j:] = G @ R[[i - 1, i], j:]
            Q[:, [i - 1, i]] = Q[:, [i - 1, i]] @ G.T
    return Q, R, float(np.abs(Q @ R - A).max())


def gram_schmidt_compare(A):
    def classical(A):
        m, n = A.shape
        Q = np.zeros((m, n))
        R = np.zeros((n, n))
        for j in range(n):
            v = A[:, j].copy()
            for i in range(j):
                R[i, j] = Q[:, i] @ A[:, j]
                v -= R[i, j] * Q[:, i]
            R[j, j] = np.linalg.norm(v)
            Q[:, j] = v / R[j, j]
        return Q, R

    def modified(A):
        m, n = A.shape
        V = A.astype(float).copy()
        Q = np.zeros((m, n))
        R = np.zeros((n, n))
        for i in range(n):
            R[i, i] = np.linalg.norm(V[:, i])
            Q[:, i] = V[:, i] / R[i, i]
            for j in range(i + 1, n):
                R[i, j] = Q[:, i] @ V[:, j]
                V[:, j] -= R[i, j] * Q[:, i]
        return Q, R

    loss = lambda Q: float(np.linalg.norm(np.eye(Q.shape[1]) - Q.T @ Q))
    Qc, Rc = classical(A)
    Qm, Rm = modified(A)
    return {"classical": loss(Qc), "modified": loss(Qm),
            "recon": float(np.abs(Qm @ Rm - A).max()), "R": Rm}


def power_iteration(A, tol=1e-10, max_iter=500):
    x = np.ones(A.shape[0])
    x /= np.linalg.norm(x)
    lam = 0.0
    it = 0
    while it < max_iter:
        y = A @ x
        lam_new = float(x @ y)
        x = y / np.linalg.norm(y)
        it += 1
        if abs(lam_new - lam) < tol * max(1.0, abs(lam_new)):
            lam = lam_new
            break
        lam = lam_new
    return lam, x, it


def power_iteration_random(A, iters=100):
    x = np.random.rand(A.shape[0])
    for _ in range(iters):
        x = A @ x
        x /= np.linalg.norm(x)
    return float(x @ A @ x), x


def rayleigh_quotient_iteration(A, mu0, tol=1e-12, max_iter=50):
    n = A.shape[0]
    x = np.ones(n) / math.sqrt(n)
    mu = mu0
    history = []
    for _ in range(max_iter):
        try:
            y = np.linalg.solve(A - mu * np.eye(n), x)
        except np.linalg.LinAlgError:
            break
        x = y / np.linalg.norm(y)
        mu_new = x @ A @ x
        history.append(float(mu_new))
        if abs(mu_new - mu) < tol:
            mu = mu_new
            break
        mu = mu_new
    return float(mu), x, history


def jacobi_eigen(A, tol=1e-10, max_sweeps=50):
    A = np.array(A, dtype=float)
    n = len(A)
    V = np.eye(n)
    sweep = 0
    for sweep in range(max_sweeps):
        off = np.sqrt(np.sum(np.tril(A, -1) ** 2))
        if off < tol:
            break
        for p in range(n - 1):
            for q in range(p + 1, n):
                if abs(A[p, q]) < 1e-300:
                    continue
                theta = (A[q, q] - A[p, p]) / (2 * A[p, q])
                if theta != 0:
                    t = np.sign(theta) / (abs(theta) + math.sqrt(theta ** 2 + 1))
                else:
                    t = 1.0
                c = 1 / math.sqrt(t * t + 1)
                s = t * c
                J = np.eye(n)
                J[p, p] = c
                J[q, q] = c
                J[p, q] = s
                J[q, p] = -s
                A = J.T @ A @ J
                V = V @ J
    w = np.diag(A).copy()
    order = np.argsort(w)
    return w[order], V[:, order], sweep


def conjugate_gradient(A, b, x0=None, tol=1e-10, max_iter=None):
    n = len(b)
    x = np.zeros(n) if x0 is None else x0.astype(float).copy()
    r = b - A @ x
    p = r.copy()
    rs = r @ r
    residuals = [math.sqrt(rs)]
    for _ in range(max_iter or 10 * n):
        Ap = A @ p
        alpha = rs / (p @ Ap)
        x += alpha * p
        r -= alpha * Ap
        rs_new = r @ r
        residuals.append(math.sqrt(rs_new))
        if math.sqrt(rs_new) < tol:
            break
        p = r + (rs_new / rs) * p
        rs = rs_new
    return x, residuals


def jacobi_iterative(A, b, tol=1e-8, max_iter=500):
    D = np.diag(A)
    R = A - np.diagflat(D)
    x = np.zeros_like(b, dtype=float)
    it = 0
    while True:
        x_new = (b - R @ x) / D
        it += 1
        if np.linalg.norm(x_new - x, ord=np.inf) < tol or it >= max_iter:
            return x_new, it
        x = x_new


def gauss_seidel(A, b, tol=1e-9, max_iter=300):
    n = len(b)
    x = np.zeros(n)
    it = 0
    for it in range(1, max_iter + 1):
        x_old = x.copy()
        for i in range(n):
            s1 = A[i, :i] @ x[:i]
            s2 = A[i, i + 1:] @ x_old[i + 1:]
            x[i] = (b[i] - s1 - s2) / A[i, i]
        if np.max(np.abs(x - x_old)) < tol:
            break
    return x, it


def sor_sweep_search(A, b, omegas=(1.0, 1.2, 1.4, 1.5, 1.7), tol=1e-8):
    results = {}
    n = len(b)
    for w in omegas:
        x = np.zeros(n)
        k = 0
        diff = np.inf
        while diff > tol and k < 300:
            diffmax = 0.0
            for i in range(n):
                sigma = A[i] @ x - A[i, i] * x[i]
                new = (1 - w) * x[i] + w * (b[i] - sigma) / A[i, i]
                diffmax = max(diffmax, abs(new - x[i]))
                x[i] = new
            diff = diffmax
            k += 1
        results[w] = k
    best = min(results, key=results.get)
    return best, results


def thomas_solve(a, b, c, d):
    n = len(d)
    cp = np.zeros(max(n - 1, 1))
    dp = np.zeros(n)
    cp[0] = c[0] / b[0] if n > 1 else 0.0
    dp[0] = d[0] / b[0]
    for i in range(1, n):
        denom = b[i] - a[i - 1] * cp[i - 1]
        if i < n - 1:
            cp[i] = c[i] / denom
        dp[i] = (d[i] - a[i - 1] * dp[i - 1]) / denom
    x = np.zeros(n)
    x[-1] = dp[-1]
    for i in range(n - 2, -1, -1):
        x[i] = dp[i] - cp[i] * x[i + 1]
    return x


def natural_spline_thomas(x, y, xq):
    n = len(x) - 1
    h = np.diff(x)
    sub = h[1:-1]
    diag = 2 * (h[:-1] + h[1:])
    sup = h[1:-1]
    rhs = 6 * ((y[2:] - y[1:-1]) / h[1:] - (y[1:-1] - y[:-2]) / h[:-1])
    M = np.zeros(n + 1)
    M[1:-1] = thomas_solve(sub, diag, sup, rhs)
    idx = np.clip(np.searchsorted(x, xq) - 1, 0, n - 1)
    xi, xi1, hi = x[idx], x[idx + 1], h[idx]
    s = ((M[idx] * (xi1 - xq) ** 3 + M[idx + 1] * (xq - xi) ** 3) / (6 * hi)
         + (y[idx] / hi - M[idx] * hi / 6) * (xi1 - xq)
         + (y[idx + 1] / hi - M[idx + 1] * hi / 6) * (xq - xi))
    return s, M


def lstsq_normal_vs_qr(x, y, degree=3):
    V = np.vander(x, degree + 1, increasing=True)
    AtA = V.T @ V
    Atb = V.T @ y
    L = cholesky_banachiewicz(AtA)
    z = forward_substitution(L, Atb)
    c_ne = back_substitution(L.T, z)
    Q, R = householder_qr(V)
    c_qr = back_substitution(R[:degree + 1], (Q.T @ y)[:degree + 1])
    res = y - V @ c_qr
    return c_ne, c_qr, float(res @ res), float(np.linalg.cond(AtA))


def condition_estimate(A, iters=50):
    n = A.shape[1]
    AtA = A.T @ A
    v = np.ones(n) / math.sqrt(n)
    for _ in range(iters):
        w = AtA @ v
        v = w / np.linalg.norm(w)
    smax = math.sqrt(v @ AtA @ v)
    u = np.ones(n) / math.sqrt(n)
    for _ in range(iters):
        w = np.linalg.solve(AtA, u)
        u = w / np.linalg.norm(w)
    smin = math.sqrt(u @ AtA @ u)
    one_norm_est = np.abs(A).sum(axis=0).max() * np.abs(np.linalg.inv(A)).sum(axis=0).max()
    return smax / smin, float(one_norm_est), float(np.linalg.cond(A))


def expm_taylor(A, terms=20):
    norm = np.linalg.norm(A, 1)
    s = max(0, int(math.ceil(math.log2(norm))) + 1) if norm > 0 else 0
    As = A / (2 ** s)
    E = np.eye(A.shape[0], dtype=np.result_type(A, float))
    term = E.copy()
    for k in range(1, terms):
        term = term @ As / k
        E = E + term
        if np.abs(term).max() < 1e-16:
            break
    for _ in range(s):
        E = E @ E
    unitary_err = float(np.abs(E.conj().T @ E - np.eye(A.shape[0])).max())
    return E, s, unitary_err


def gauss_jordan_inverse(A):
    n = A.shape[0]
    M = np.hstack([A.astype(float), np.eye(n)])
    try:
        with np.errstate(all="raise"):
            for c in range(n):
                p = c + int(np.argmax(np.abs(M[c:, c])))
                M[[c, p]] = M[[p, c]]
                M[c] = M[c] / M[c, c]
                for r in range(n):
                    if r != c:
                        M[r] -= M[r, c] * M[c]
    except FloatingPointError:
        return None, False
    return M[:, n:], True


def hermitian_power_deflation(H, k=2, iters=200):
    n = H.shape[0]
    vals = []
    vecs = []
    B = H.astype(np.complex128).copy()
    for _ in range(k):
        x = np.ones(n, dtype=complex) + 1j * np.arange(n)
        x /= np.linalg.norm(x)
        for _ in range(iters):
            y = B @ x
            x = y / np.linalg.norm(y)
        lam = np.vdot(x, B @ x).real
        vals.append(lam)
        vecs.append(x)
        B -= lam * np.outer(x, x.conj())
    return np.array(vals), np.array(vecs).T


def hutchinson_trace(A, n_samples=40):
    n = A.shape[0]
    est = 0.0
    for _ in range(n_samples):
        z = np.random.choice([-1.0, 1.0], size=n)
        est += z @ A @ z
    return est / n_samples, float(np.trace(A))


# ----------------------------------------------------------------------------
# Inputs
# ----------------------------------------------------------------------------

def _rng(k):
    return np.random.default_rng(k)


def _gray(k, h=24, w=24):
    r = _rng(k)
    yy, xx = np.mgrid[0:h, 0:w]
    base = 120 + 70 * np.sin(xx / 3.5) * np.cos(yy / 4.5) + r.normal(0, 10, (h, w))
    return np.clip(base, 0, 255).astype(np.uint8)


def _rgb(k, h=16, w=16):
    r = _rng(k)
    yy, xx = np.mgrid[0:h, 0:w]
    img = np.stack([xx * 255.0 / (w - 1), yy * 255.0 / (h - 1),
                    255.0 - (xx + yy) * 255.0 / (h + w - 2)], axis=-1)
    img = np.clip(img + r.normal(0, 20, img.shape), 0, 255).astype(np.uint8)
    img[:3, :3] = 128
    img[-2:, -2:] = 0
    return img


def _hsv(k, h=12, w=12):
    r = _rng(k)
    return np.stack([r.uniform(0, 360, (h, w)), r.uniform(0, 1, (h, w)),
                     r.uniform(0, 1, (h, w))], axis=-1)


def _blobs(k, h=20, w=20):
    r = _rng(k)
    m = r.random((h, w)) < 0.45
    p = np.pad(m.astype(np.int32), 1)
    votes = sum(p[1 + a:1 + a + h, 1 + b:1 + b + w] for a in (-1, 0, 1) for b in (-1, 0, 1))
    return votes >= 5


def _noisy(k, h=20, w=20):
    img = _gray(k, h, w)
    r = _rng(k + 100)
    idx = r.random(img.shape) < 0.08
    img[idx] = r.choice(np.array([0, 255], dtype=np.uint8), size=int(idx.sum()))
    return img


def _corners_img(k):
    img = np.full((24, 24), 40, dtype=np.uint8)
    img[5:12, 4:14] = 200
    img[14:21, 12:20] = 150
    return np.clip(img + _rng(k).integers(0, 6, img.shape), 0, 255).astype(np.uint8)


def _lines_edges(k):
    e = np.zeros((24, 24), dtype=bool)
    i = np.arange(24)
    e[i, i] = True
    e[8, 2:22] = True
    r = _rng(k)
    e[r.integers(0, 24, 6), r.integers(0, 24, 6)] = True
    return e


def _ncc_pair(k):
    img = _gray(k)
    img[:8, :8] = 100
    tmpl = img[10:16, 12:18].astype(np.float32) + _rng(k + 1).normal(0, 2, (6, 6)).astype(np.float32)
    return img, tmpl


def _tone(k, n=400, fs=8000.0, f0=220.0):
    r = _rng(k)
    t = np.arange(n) / fs
    return (0.6 * np.sin(2 * np.pi * f0 * t) + 0.25 * np.sin(2 * np.pi * 2 * f0 * t + 0.3)
            + 0.1 * np.sin(2 * np.pi * 3 * f0 * t) + 0.02 * r.normal(size=n))


def _bursty(k, n=512):
    x = _tone(k, n, f0=330.0)
    x[128:256] = 0.0
    x[400:] *= 0.03
    return x


def _int16(k, n=400):
    return np.round(_tone(k, n) * 20000).astype(np.int16)


def _dtmf(key, n=205, fs=8000.0):
    row = next(i for i, s in enumerate(DTMF_KEYS) if key in s)
    col = DTMF_KEYS[row].index(key)
    t = np.arange(n) / fs
    return (np.sin(2 * np.pi * DTMF_LOW[row] * t) + np.sin(2 * np.pi * DTMF_HIGH[col] * t)
            + 0.1 * _rng(n).normal(size=n))


def _spd(k, n):
    M = _rng(k).normal(size=(n, n))
    return M @ M.T + n * np.eye(n)


def _diag_dom(k, n):
    M = _rng(k).uniform(-1, 1, (n, n))
    M[np.diag_indices(n)] = np.abs(M).sum(axis=1) + 1.0
    return M


def _sym_int(k, n):
    M = _rng(k).integers(-5, 6, (n, n)).astype(np.int32)
    return M + M.T + np.diag(np.arange(n, dtype=np.int32) * 3)


def _poisson(n):
    return (2 * np.eye(n, dtype=np.int64) - np.eye(n, k=1, dtype=np.int64)
            - np.eye(n, k=-1, dtype=np.int64))


def _herm(k, n):
    r = _rng(k)
    Z = r.normal(size=(n, n)) + 1j * r.normal(size=(n, n))
    Q, _ = np.linalg.qr(Z)
    d = np.array([6.0, -3.5, 2.0, 1.0, 0.5, 0.25][:n])
    return (Q * d) @ Q.conj().T


def _skew_herm(k, n):
    r = _rng(k)
    Z = r.normal(size=(n, n)) + 1j * r.normal(size=(n, n))
    return 1j * (Z + Z.conj().T) / 2


CASES = [
    # images: point operations and colour
    ("brightness_contrast", brightness_contrast, lambda: (_gray(1),), {}),
    ("brightness_contrast_kw", brightness_contrast, lambda: (_gray(2, 16, 16), 0.6, 90), {}),
    ("gamma_correct_lut", gamma_correct_lut, lambda: (_gray(3), 1.8), {}),
    ("histogram_equalize", histogram_equalize, lambda: ((_gray(4) // 3 + 60).astype(np.uint8),), {}),
    ("otsu_threshold", otsu_threshold, lambda: (_gray(5),), {}),
    ("rgb_to_hsv_loop", rgb_to_hsv_loop, lambda: (_rgb(6),), {}),
    ("hsv_to_rgb_vec", hsv_to_rgb_vec, lambda: (_hsv(7),), {}),
    ("ycbcr_roundtrip", ycbcr_roundtrip, lambda: (_rgb(8),), {}),
    ("alpha_blend", alpha_blend,
     lambda: (_rgb(9), _rgb(10)[::-1].copy(), _rng(11).random((16, 16)).astype(np.float32)), {}),
    ("invert_inplace", invert_inplace, lambda: (_gray(12), _blobs(13, 24, 24)), {}),
    # images: geometry
    ("resize_nearest_rgb", resize_nearest, lambda: (_rgb(14), 25, 11), {}),
    ("resize_bilinear", resize_bilinear, lambda: (_gray(15, 16, 16), 27, 21), {}),
    ("rotate_nearest", rotate_nearest, lambda: (_gray(16), 30.0), {}),
    # images: filtering
    ("conv2d_loops", conv2d_loops,
     lambda: (_gray(17, 20, 20), np.array([[1, 2, 1], [2, 4, 2], [1, 2, 1]]) / 16.0), {}),
    ("conv2d_sliding", conv2d_sliding,
     lambda: (_gray(18), np.array([[0, -1, 0], [-1, 5, -1], [0, -1, 0]], dtype=np.int16)), {}),
    ("sobel_edges", sobel_edges, lambda: (_corners_img(19),), {}),
    ("laplacian_sharpen", laplacian_sharpen, lambda: (_gray(20), 2), {}),
    ("gaussian_blur_separable", gaussian_blur_separable, lambda: (_noisy(21), 1.5), {}),
    ("median_filter", median_filter, lambda: (_noisy(22),), {}),
    ("floyd_steinberg", floyd_steinberg, lambda: (_gray(23), 3), {}),
    # images: binary and regions
    ("morphology_ops", morphology_ops, lambda: (_blobs(24),), {}),
    ("morphology_cross", morphology_ops,
     lambda: (_blobs(25), np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool)), {}),
    ("label_bfs", label_bfs, lambda: (_blobs(26),), {}),
    ("label_bfs_8conn", label_bfs, lambda: (_blobs(27), 8), {}),
    ("label_union_find", label_union_find, lambda: (_blobs(28),), {}),
    ("flood_fill_stack", flood_fill_stack,
     lambda: ((_gray(29) // 64).astype(np.int32), (5, 5), 9), {}),
    ("flood_fill_tol", flood_fill_stack, lambda: (_gray(30).astype(np.int16), (12, 12), 0, 40), {}),
    ("integral_box_filter", integral_box_filter, lambda: (_gray(31), 3), {}),
    # images: matching and features
    ("template_match_ssd", template_match_ssd,
     lambda: (lambda im: (im, im[7:13, 9:15].copy()))(_gray(32)), {}),
    ("template_match_ncc", template_match_ncc, lambda: _ncc_pair(33), {}),
    ("harris_corners", harris_corners, lambda: (_corners_img(34),), {}),
    ("hough_lines", hough_lines, lambda: (_lines_edges(35),), {}),
    # audio
    ("biquad_lowpass", biquad_lowpass, lambda: (_tone(40).astype(np.float32),), {}),
    ("peaking_eq_df2t", peaking_eq_df2t, lambda: (_int16(41), 8000.0, 440, 6.0), {}),
    ("one_pole_lowpass", one_pole_lowpass, lambda: (_tone(42).astype(np.float32), 300.0), {}),
    ("fir_lowpass_apply", fir_lowpass_apply, lambda: (_tone(43, f0=440.0),), {}),
    ("fir_lowpass_hann", fir_lowpass_apply, lambda: (_tone(44), 21, 600.0, 8000.0, "hann"), {}),
    ("convolve_direct_complex", convolve_direct,
     lambda: (_tone(45, 64) * np.exp(1j * np.linspace(0, 3, 64)), np.hamming(9)), {}),
    ("envelope_follower", envelope_follower, lambda: (_bursty(46),), {}),
    ("simple_compressor", simple_compressor, lambda: (_bursty(47), -10.0, 3.0), {}),
    ("zero_crossing_rate", zero_crossing_rate, lambda: (_int16(48),), {}),
    ("pitch_autocorr", pitch_autocorr, lambda: (_tone(49),), {}),
    ("stft_magnitude", stft_magnitude, lambda: (_tone(50, 256),), {}),
    ("stft_istft_roundtrip", stft_istft_roundtrip, lambda: (_tone(51, 256),), {}),
    ("spectral_centroid", spectral_centroid, lambda: (_bursty(52),), {}),
    ("resample_loop", resample_loop, lambda: (_tone(53, 200).astype(np.float32), 1.5), {}),
    ("mu_law_roundtrip", mu_law_roundtrip, lambda: (_int16(54),), {}),
    ("tpdf_dither_quantize", tpdf_dither_quantize, lambda: (_tone(55) * 0.8, 6), {}),
    ("dtmf_goertzel", dtmf_goertzel, lambda: (_dtmf("8"),), {}),
    ("pre_emphasis_inplace", pre_emphasis_inplace, lambda: (_tone(56).astype(np.float32),), {}),
    ("feedback_echo", feedback_echo, lambda: (_tone(57, 300),), {}),
    ("noise_gate", noise_gate, lambda: (_bursty(58).astype(np.float32), 0.1), {}),
    ("peak_normalize", peak_normalize, lambda: (_tone(59).astype(np.float32),), {}),
    ("peak_normalize_silent", peak_normalize, lambda: (np.zeros(128, dtype=np.float32),), {}),
    ("add_noise_snr", add_noise_snr, lambda: (_tone(60),), {"rand": True}),
    # linear algebra
    ("gauss_solve_pivot", gauss_solve_pivot,
     lambda: (_rng(70).integers(-9, 10, (7, 7)), _rng(71).integers(-5, 6, 7)), {}),
    ("lu_doolittle", lu_doolittle, lambda: (_diag_dom(72, 6).astype(np.float32),), {}),
    ("lu_packed_inplace", lu_packed_inplace, lambda: (_rng(73).normal(size=(8, 8)),), {}),
    ("cholesky_banachiewicz", cholesky_banachiewicz, lambda: (_spd(74, 8),), {}),
    ("is_positive_definite", is_positive_definite, lambda: (_spd(75, 6),), {}),
    ("is_positive_definite_no", is_positive_definite, lambda: (_sym_int(76, 6) - 20,), {}),
    ("householder_qr", householder_qr, lambda: (_rng(77).normal(size=(8, 5)),), {}),
    ("givens_qr", givens_qr, lambda: (_rng(78).normal(size=(6, 4)).astype(np.float32),), {}),
    ("gram_schmidt_compare", gram_schmidt_compare,
     lambda: (np.vander(np.linspace(0, 1, 10), 7) + 1e-6 * _rng(79).normal(size=(10, 7)),), {}),
    ("power_iteration", power_iteration, lambda: (_sym_int(80, 6),), {}),
    ("power_iteration_random", power_iteration_random, lambda: (_spd(81, 6),), {"rand": True}),
    ("rayleigh_quotient_iteration", rayleigh_quotient_iteration, lambda: (_spd(82, 6), 5.0), {}),
    ("jacobi_eigen", jacobi_eigen, lambda: (_sym_int(83, 6),), {}),
    ("conjugate_gradient", conjugate_gradient, lambda: (_spd(84, 10), _rng(85).normal(size=10)), {}),
    ("jacobi_iterative", jacobi_iterative, lambda: (_diag_dom(86, 8), _rng(87).normal(size=8)), {}),
    ("gauss_seidel", gauss_seidel,
     lambda: (_diag_dom(88, 8).astype(np.float32), _rng(89).normal(size=8)), {}),
    ("sor_sweep_search", sor_sweep_search, lambda: (_poisson(8), np.ones(8)), {}),
    ("natural_spline_thomas", natural_spline_thomas,
     lambda: (np.linspace(0, 2 * np.pi, 10), np.sin(np.linspace(0, 2 * np.pi, 10)),
              np.linspace(0, 2 * np.pi, 40)), {}),
    ("lstsq_normal_vs_qr", lstsq_normal_vs_qr,
     lambda: (np.linspace(-1, 1, 20, dtype=np.float32),
              1 - 2 * np.linspace(-1, 1, 20) ** 3 + 0.05 * _rng(90).normal(size=20)), {}),
    ("condition_estimate", condition_estimate, lambda: (_rng(91).normal(size=(6, 6)),), {}),
    ("expm_taylor_skew_hermitian", expm_taylor, lambda: (_skew_herm(92, 4) * 2.0,), {}),
    ("expm_taylor_real", expm_taylor, lambda: (_rng(93).normal(size=(5, 5)),), {}),
    ("gauss_jordan_inverse", gauss_jordan_inverse,
     lambda: (_diag_dom(94, 5).round(2),), {}),
    ("gauss_jordan_singular", gauss_jordan_inverse,
     lambda: (np.array([[1, 2, 3], [2, 4, 6], [1, 0, 1]], dtype=np.int32),), {}),
    ("hermitian_power_deflation", hermitian_power_deflation, lambda: (_herm(95, 5),), {}),
    ("hutchinson_trace", hutchinson_trace, lambda: (_spd(96, 8),), {"rand": True}),
]
