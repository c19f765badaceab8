"""Everyday NumPy functions, fourth collection: machine learning from scratch as
repositories, course assignments (cs231n style layers, losses and updates) and
notebooks write it: regression and classification by gradient descent, clustering,
neighbours, Bayes, trees, kernels, networks with hand-written backprop, recurrent
steps, reinforcement learning on small tables, optimizers, metrics and
preprocessing. Each entry of CASES is (name, function, make_args, opts); opts
{"rand": True} marks a function that draws random numbers inside (compared by
type, dtype and shape only)."""
import numpy as np


# ----------------------------------------------------------------------------
# Regression
# ----------------------------------------------------------------------------

def linear_regression_epochs(X, y, lr=0.05, epochs=60):
    n_samples, n_features = X.shape
    weights = np.zeros(n_features)
    bias = 0
    losses = []
    for _ in range(epochs):
        y_pred = np.dot(X, weights) + bias
        dw = (1 / n_samples) * np.dot(X.T, (y_pred - y))
        db = (1 / n_samples) * np.sum(y_pred - y)
        weights -= lr * dw
        bias -= lr * db
        losses.append(np.mean((y_pred - y) ** 2))
    return weights, bias, losses


def sgd_regression_per_sample(X, y, lr=0.01, epochs=5):
    w = np.zeros(X.shape[1])
    b = 0.0
    for epoch in range(epochs):
        for i in range(X.shape[0]):
            xi = X[i]
            err = np.dot(xi, w) + b - y[i]
            w = w - lr * err * xi
            b = b - lr * err
    return w, b


def normal_equation_bias(X, y):
    Xb = np.c_[np.ones((X.shape[0], 1)), X]
    theta = np.linalg.inv(Xb.T.dot(Xb)).dot(Xb.T).dot(y)
    return theta


def polynomial_regression(x, y, degree=3):
    X = np.ones((len(x), 1))
    for d in range(1, degree + 1):
        X = np.hstack((X, (x ** d).reshape(-1, 1)))
    theta = np.linalg.pinv(X) @ y
    preds = X @ theta
    rmse = np.sqrt(np.mean((preds - y) ** 2))
    return theta, float(rmse)


def lasso_coordinate_descent(X, y, alpha=0.1, n_iter=30):
    n, p = X.shape
    w = np.zeros(p)
    for it in range(n_iter):
        for j in range(p):
            r_j = y - X @ w + X[:, j] * w[j]
            rho = X[:, j] @ r_j / n
            z = (X[:, j] ** 2).sum() / n
            if rho < -alpha:
                w[j] = (rho + alpha) / z
            elif rho > alpha:
                w[j] = (rho - alpha) / z
            else:
                w[j] = 0.0
    return w


def ridge_gd_with_history(X, y, lam=0.1, lr=0.1, n_iters=50):
    m = len(y)
    theta = np.zeros((X.shape[1], 1))
    y = y.reshape(-1, 1)
    J_history = np.zeros(n_iters)
    for i in range(n_iters):
        h = X.dot(theta)
        grad = (1 / m) * X.T.dot(h - y) + (lam / m) * theta
        theta = theta - lr * grad
        J_history[i] = (1 / (2 * m)) * np.sum(np.square(h - y)) + (lam / (2 * m)) * np.sum(np.square(theta))
    return theta, J_history


def locally_weighted_regression(X, y, x_query, tau=0.5):
    m = X.shape[0]
    Xb = np.hstack([np.ones((m, 1)), X])
    xq = np.r_[1, x_query]
    W = np.eye(m)
    for i in range(m):
        diff = X[i] - x_query
        W[i, i] = np.exp(-diff.dot(diff) / (2 * tau ** 2))
    theta = np.linalg.solve(Xb.T @ W @ Xb, Xb.T @ W @ y)
    return xq @ theta


def regression_metrics(y_true, y_pred):
    mse = np.mean((y_true - y_pred) ** 2)
    mae = np.mean(np.abs(y_true - y_pred))
    rmse = np.sqrt(mse)
    ss_res = ((y_true - y_pred) ** 2).sum()
    ss_tot = ((y_true - y_true.mean()) ** 2).sum()
    r2 = 1 - ss_res / ss_tot
    mape = np.mean(np.abs((y_true - y_pred) / y_true)) * 100
    return {"mse": mse, "mae": mae, "rmse": rmse, "r2": r2, "mape": mape}


# ----------------------------------------------------------------------------
# Logistic regression, perceptrons, SVMs
# ----------------------------------------------------------------------------

def sigmoid(z):
    return 1 / (1 + np.exp(-z))


def logistic_l2_class(X, y, lr=0.1, epochs=100, lam=0.01):
    model = {"w": np.zeros(X.shape[1]), "b": 0.0}
    for epoch in range(epochs):
        z = X @ model["w"] + model["b"]
        p = sigmoid(z)
        grad_w = X.T @ (p - y) / len(y) + lam * model["w"]
        grad_b = np.mean(p - y)
        model["w"] -= lr * grad_w
        model["b"] -= lr * grad_b
    preds = (sigmoid(X @ model["w"] + model["b"]) >= 0.5).astype(int)
    acc = np.sum(preds == y) / len(y)
    return model, acc


def logistic_loss_clipped(y, p):
    eps = 1e-15
    p = np.clip(p, eps, 1 - eps)
    return -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))


def logistic_newton(X, y, n_iter=8):
    Xb = np.insert(X, 0, 1, axis=1)
    w = np.zeros(Xb.shape[1])
    for _ in range(n_iter):
        p = 1.0 / (1.0 + np.exp(-Xb @ w))
        g = Xb.T @ (p - y)
        H = Xb.T @ np.diag(p * (1 - p)) @ Xb
        w -= np.linalg.solve(H + 1e-6 * np.eye(len(w)), g)
    return w


def perceptron_errors_per_epoch(X, y, eta=0.1, n_iter=10):
    w_ = np.zeros(1 + X.shape[1])
    errors_ = []
    for _ in range(n_iter):
        errors = 0
        for xi, target in zip(X, y):
            update = eta * (target - np.where(np.dot(xi, w_[1:]) + w_[0] >= 0.0, 1, -1))
            w_[1:] += update * xi
            w_[0] += update
            errors += int(update != 0.0)
        errors_.append(errors)
    return w_, errors_


def adaline_gd(X, y, eta=0.01, n_iter=20):
    w = np.zeros(1 + X.shape[1])
    cost = []
    for i in range(n_iter):
        net_input = np.dot(X, w[1:]) + w[0]
        output = net_input
        errors = y - output
        w[1:] += eta * X.T.dot(errors)
        w[0] += eta * errors.sum()
        cost.append((errors ** 2).sum() / 2.0)
    return w, cost


def pocket_perceptron(X, y, max_iter=30):
    w = np.zeros(X.shape[1])
    best_w = w.copy()
    best_err = len(y)
    for it in range(max_iter):
        mis = np.where(np.sign(X @ w) != y)[0]
        if len(mis) == 0:
            return w, 0
        i = mis[0]
        w = w + y[i] * X[i]
        err = np.sum(np.sign(X @ w) != y)
        if err < best_err:
            best_err = err
            best_w = w.copy()
    return best_w, int(best_err)


def svm_hinge_gd(X, y, lr=0.001, lam=0.01, n_iters=40):
    n_samples, n_features = X.shape
    y_ = np.where(y <= 0, -1, 1)
    w = np.zeros(n_features)
    b = 0
    for _ in range(n_iters):
        for idx, x_i in enumerate(X):
            condition = y_[idx] * (np.dot(x_i, w) - b) >= 1
            if condition:
                w -= lr * (2 * lam * w)
            else:
                w -= lr * (2 * lam * w - np.dot(x_i, y_[idx]))
                b -= lr * y_[idx]
    return w, b


def svm_loss_naive(W, X, y, reg):
    dW = np.zeros(W.shape)
    num_classes = W.shape[1]
    num_train = X.shape[0]
    loss = 0.0
    for i in range(num_train):
        scores = X[i].dot(W)
        correct_class_score = scores[y[i]]
        for j in range(num_classes):
            if j == y[i]:
                continue
            margin = scores[j] - correct_class_score + 1
            if margin > 0:
                loss += margin
                dW[:, j] += X[i]
                dW[:, y[i]] -= X[i]
    loss /= num_train
    dW /= num_train
    loss += reg * np.sum(W * W)
    dW += 2 * reg * W
    return loss, dW


def svm_loss_vectorized(W, X, y, reg):
    num_train = X.shape[0]
    scores = X.dot(W)
    correct = scores[np.arange(num_train), y].reshape(-1, 1)
    margins = np.maximum(0, scores - correct + 1)
    margins[np.arange(num_train), y] = 0
    loss = np.sum(margins) / num_train + reg * np.sum(W * W)
    binary = margins
    binary[margins > 0] = 1
    row_sum = np.sum(binary, axis=1)
    binary[np.arange(num_train), y] = -row_sum
    dW = X.T.dot(binary) / num_train + 2 * reg * W
    return loss, dW


def softmax_loss_naive(W, X, y, reg):
    loss = 0.0
    dW = np.zeros_like(W)
    num_train = X.shape[0]
    num_classes = W.shape[1]
    for i in range(num_train):
        scores = X[i].dot(W)
        scores -= np.max(scores)
        exp_scores = np.exp(scores)
        probs = exp_scores / np.sum(exp_scores)
        loss += -np.log(probs[y[i]])
        for j in range(num_classes):
            dW[:, j] += (probs[j] - (j == y[i])) * X[i]
    loss = loss / num_train + reg * np.sum(W * W)
    dW = dW / num_train + 2 * reg * W
    return loss, dW


def softmax_loss_vectorized(W, X, y, reg):
    N = X.shape[0]
    scores = X @ W
    scores -= scores.max(axis=1, keepdims=True)
    probs = np.exp(scores)
    probs /= probs.sum(axis=1, keepdims=True)
    loss = -np.log(probs[range(N), y]).sum() / N + reg * np.sum(W ** 2)
    dscores = probs.copy()
    dscores[range(N), y] -= 1
    dW = X.T @ dscores / N + 2 * reg * W
    return loss, dW


def kernel_perceptron_rbf(X, y, gamma=0.5, epochs=5):
    n = X.shape[0]
    K = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            K[i, j] = np.exp(-gamma * np.linalg.norm(X[i] - X[j]) ** 2)
    alpha = np.zeros(n)
    for t in range(epochs):
        for i in range(n):
            if np.sign(np.sum(K[:, i] * alpha * y)) != y[i]:
                alpha[i] += 1.0
    return alpha


# ----------------------------------------------------------------------------
# Clustering, neighbours, Bayes
# ----------------------------------------------------------------------------

def kmeans_loop_assign(X, k=2, max_iters=10):
    centroids = X[:k].copy()
    for it in range(max_iters):
        clusters = [[] for _ in range(k)]
        for idx, sample in enumerate(X):
            distances = [np.sqrt(np.sum((sample - c) ** 2)) for c in centroids]
            closest = np.argmin(distances)
            clusters[closest].append(idx)
        old = centroids.copy()
        for ci, cluster in enumerate(clusters):
            centroids[ci] = np.mean(X[cluster], axis=0)
        if np.allclose(old, centroids):
            break
    labels = np.zeros(len(X))
    for ci, cluster in enumerate(clusters):
        for i in cluster:
            labels[i] = ci
    return centroids, labels


def kmeans_inertia(X, centers):
    labels = np.argmin(((X[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2), axis=1)
    inertia = 0.0
    for k in range(centers.shape[0]):
        pts = X[labels == k]
        inertia += ((pts - centers[k]) ** 2).sum()
    return labels, inertia


def kmeans_plus_plus_init(X, k=3, seed=0):
    np.random.seed(seed)
    centers = [X[np.random.randint(X.shape[0])]]
    for _ in range(1, k):
        d2 = np.array([min([np.inner(c - x, c - x) for c in centers]) for x in X])
        probs = d2 / d2.sum()
        cumprobs = probs.cumsum()
        r = np.random.rand()
        for j, p in enumerate(cumprobs):
            if r < p:
                i = j
                break
        centers.append(X[i])
    return np.array(centers)


def knn_two_loops(X_train, X_test):
    num_test = X_test.shape[0]
    num_train = X_train.shape[0]
    dists = np.zeros((num_test, num_train))
    for i in range(num_test):
        for j in range(num_train):
            dists[i, j] = np.sqrt(np.sum(np.square(X_test[i, :] - X_train[j, :])))
    return dists


def knn_no_loops(X_train, X_test):
    test_sq = np.sum(X_test ** 2, axis=1).reshape(-1, 1)
    train_sq = np.sum(X_train ** 2, axis=1)
    cross = X_test.dot(X_train.T)
    dists = np.sqrt(np.maximum(test_sq + train_sq - 2 * cross, 0))
    return dists


def knn_predict_labels(dists, y_train, k=3):
    num_test = dists.shape[0]
    y_pred = np.zeros(num_test)
    for i in range(num_test):
        closest_y = y_train[np.argsort(dists[i])[:k]]
        y_pred[i] = np.argmax(np.bincount(closest_y))
    return y_pred


def knn_majority_vote_dict(X_train, y_train, x, k=5):
    distances = []
    for i in range(len(X_train)):
        d = np.sqrt(np.sum((X_train[i] - x) ** 2))
        distances.append((d, y_train[i]))
    distances.sort(key=lambda t: t[0])
    votes = {}
    for d, label in distances[:k]:
        votes[label] = votes.get(label, 0) + 1
    best = max(votes, key=votes.get)
    return best


def gaussian_nb_fit_predict(X, y, X_test):
    classes = np.unique(y)
    n_classes = len(classes)
    mean = np.zeros((n_classes, X.shape[1]))
    var = np.zeros((n_classes, X.shape[1]))
    priors = np.zeros(n_classes)
    for idx, c in enumerate(classes):
        X_c = X[y == c]
        mean[idx, :] = X_c.mean(axis=0)
        var[idx, :] = X_c.var(axis=0)
        priors[idx] = X_c.shape[0] / float(X.shape[0])
    preds = []
    for x in X_test:
        posteriors = []
        for idx, c in enumerate(classes):
            prior = np.log(priors[idx])
            num = np.exp(-((x - mean[idx]) ** 2) / (2 * var[idx]))
            den = np.sqrt(2 * np.pi * var[idx])
            posterior = np.sum(np.log(num / den)) + prior
            posteriors.append(posterior)
        preds.append(classes[np.argmax(posteriors)])
    return np.array(preds)


def multinomial_nb(counts, y, test_counts, alpha=1.0):
    classes = np.unique(y)
    log_prior = np.array([np.log(len(y[y == c]) / len(y)) for c in classes])
    feature_count = np.array([counts[y == c].sum(axis=0) for c in classes])
    smoothed = feature_count + alpha
    log_prob = np.log(smoothed / smoothed.sum(axis=1, keepdims=True))
    jll = test_counts @ log_prob.T + log_prior
    return classes[np.argmax(jll, axis=1)], jll


def bernoulli_nb(X, y, X_test):
    classes = np.unique(y)
    probs = {}
    priors = {}
    for c in classes:
        Xc = X[y == c]
        probs[c] = (Xc.sum(axis=0) + 1) / (Xc.shape[0] + 2)
        priors[c] = Xc.shape[0] / X.shape[0]
    out = []
    for x in X_test:
        best, best_score = None, -np.inf
        for c in classes:
            p = probs[c]
            score = np.log(priors[c]) + np.sum(x * np.log(p) + (1 - x) * np.log(1 - p))
            if score > best_score:
                best_score = score
                best = c
        out.append(best)
    return np.array(out)


def lda_two_class(X, y):
    X0 = X[y == 0]
    X1 = X[y == 1]
    m0 = X0.mean(axis=0)
    m1 = X1.mean(axis=0)
    S0 = (X0 - m0).T @ (X0 - m0)
    S1 = (X1 - m1).T @ (X1 - m1)
    Sw = S0 + S1
    w = np.linalg.inv(Sw).dot(m1 - m0)
    w = w / np.linalg.norm(w)
    threshold = 0.5 * (w @ m0 + w @ m1)
    preds = (X @ w > threshold).astype(int)
    return w, preds


# ----------------------------------------------------------------------------
# Trees
# ----------------------------------------------------------------------------

def entropy_counts(y):
    hist = np.bincount(y)
    ps = hist / len(y)
    return -np.sum([p * np.log2(p) for p in ps if p > 0])


def gini_split_search(X, y):
    best_gini, best_feat, best_thr = 1.0, None, None
    n = len(y)
    for feat in range(X.shape[1]):
        thresholds = np.unique(X[:, feat])
        for thr in thresholds:
            left = y[X[:, feat] <= thr]
            right = y[X[:, feat] > thr]
            if len(left) == 0 or len(right) == 0:
                continue
            g = 0.0
            for part in (left, right):
                score = 0.0
                for c in np.unique(y):
                    p = len(part[part == c]) / len(part)
                    score += p * p
                g += (1.0 - score) * (len(part) / n)
            if g < best_gini:
                best_gini, best_feat, best_thr = g, feat, thr
    return best_gini, best_feat, best_thr


def build_tree(X, y, depth=0, max_depth=2):
    if len(np.unique(y)) == 1 or depth == max_depth:
        return {"leaf": True, "value": int(np.bincount(y).argmax())}
    best = None
    best_score = np.inf
    for f in range(X.shape[1]):
        for t in np.unique(X[:, f]):
            mask = X[:, f] <= t
            if mask.sum() == 0 or mask.sum() == len(y):
                continue
            score = mask.sum() * np.var(y[mask]) + (~mask).sum() * np.var(y[~mask])
            if score < best_score:
                best_score = score
                best = (f, t)
    if best is None:
        return {"leaf": True, "value": int(np.bincount(y).argmax())}
    f, t = best
    mask = X[:, f] <= t
    return {"leaf": False, "feature": f, "threshold": float(t),
            "left": build_tree(X[mask], y[mask], depth + 1, max_depth),
            "right": build_tree(X[~mask], y[~mask], depth + 1, max_depth)}


def regression_stump(x, y):
    order = np.argsort(x)
    xs, ys = x[order], y[order]
    best = (np.inf, None)
    for i in range(1, len(xs)):
        left, right = ys[:i], ys[i:]
        sse = ((left - left.mean()) ** 2).sum() + ((right - right.mean()) ** 2).sum()
        if sse < best[0]:
            best = (sse, (xs[i - 1] + xs[i]) / 2)
    return best


def adaboost_stumps(X, y, n_rounds=3):
    n = X.shape[0]
    w = np.full(n, 1 / n)
    stumps = []
    for r in range(n_rounds):
        best_err, best = np.inf, None
        for j in range(X.shape[1]):
            for thr in X[:, j]:
                for pol in [1, -1]:
                    pred = np.ones(n)
                    pred[pol * X[:, j] < pol * thr] = -1
                    err = np.sum(w[pred != y])
                    if err < best_err:
                        best_err, best = err, (j, thr, pol, pred.copy())
        j, thr, pol, pred = best
        alpha = 0.5 * np.log((1 - best_err) / (best_err + 1e-10))
        w *= np.exp(-alpha * y * pred)
        w /= np.sum(w)
        stumps.append((j, thr, pol, alpha))
    return stumps


# ----------------------------------------------------------------------------
# Dimensionality reduction, kernels
# ----------------------------------------------------------------------------

def pca_explained_variance(X, n_components=2):
    X_meaned = X - np.mean(X, axis=0)
    cov_mat = np.cov(X_meaned, rowvar=False)
    eigen_values, eigen_vectors = np.linalg.eigh(cov_mat)
    sorted_index = np.argsort(eigen_values)[::-1]
    sorted_eigenvalue = eigen_values[sorted_index]
    sorted_eigenvectors = eigen_vectors[:, sorted_index]
    eigenvector_subset = sorted_eigenvectors[:, 0:n_components]
    X_reduced = np.dot(eigenvector_subset.transpose(), X_meaned.transpose()).transpose()
    ratio = sorted_eigenvalue / np.sum(sorted_eigenvalue)
    return np.abs(X_reduced), ratio, np.cumsum(ratio)


def pca_reconstruction_error(X, k=2):
    mu = X.mean(0)
    U, S, Vt = np.linalg.svd(X - mu, full_matrices=False)
    Z = (X - mu) @ Vt[:k].T
    X_rec = Z @ Vt[:k] + mu
    return np.mean(np.sum((X - X_rec) ** 2, axis=1)), S ** 2 / (len(X) - 1)


def rbf_kernel_matrix(X, gamma=0.5):
    sq = np.sum(X ** 2, 1).reshape(-1, 1) + np.sum(X ** 2, 1) - 2 * np.dot(X, X.T)
    return np.exp(-gamma * sq)


def kernel_ridge_predict(X, y, X_test, lam=0.1, gamma=1.0):
    K = np.exp(-gamma * ((X[:, None] - X[None]) ** 2).sum(-1))
    alpha = np.linalg.solve(K + lam * np.eye(len(X)), y)
    Ks = np.exp(-gamma * ((X_test[:, None] - X[None]) ** 2).sum(-1))
    return Ks @ alpha


# ----------------------------------------------------------------------------
# Neural networks with hand-written backprop
# ----------------------------------------------------------------------------

def xor_mlp_train(epochs=200, lr=0.5):
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    y = np.array([[0], [1], [1], [0]])
    np.random.seed(1)
    W1 = np.random.uniform(size=(2, 3))
    b1 = np.random.uniform(size=(1, 3))
    W2 = np.random.uniform(size=(3, 1))
    b2 = np.random.uniform(size=(1, 1))
    for _ in range(epochs):
        hidden = sigmoid(np.dot(X, W1) + b1)
        out = sigmoid(np.dot(hidden, W2) + b2)
        error = y - out
        d_out = error * out * (1 - out)
        d_hidden = d_out.dot(W2.T) * hidden * (1 - hidden)
        W2 += hidden.T.dot(d_out) * lr
        b2 += np.sum(d_out, axis=0, keepdims=True) * lr
        W1 += X.T.dot(d_hidden) * lr
        b1 += np.sum(d_hidden, axis=0, keepdims=True) * lr
    return out


def two_layer_net_loss(X, y, params, reg=0.05):
    W1, b1 = params["W1"], params["b1"]
    W2, b2 = params["W2"], params["b2"]
    N, D = X.shape
    h1 = np.maximum(0, X.dot(W1) + b1)
    scores = h1.dot(W2) + b2
    scores = scores - np.max(scores, axis=1, keepdims=True)
    exp_scores = np.exp(scores)
    probs = exp_scores / np.sum(exp_scores, axis=1, keepdims=True)
    loss = np.sum(-np.log(probs[np.arange(N), y])) / N
    loss += reg * (np.sum(W1 * W1) + np.sum(W2 * W2))
    grads = {}
    dscores = probs
    dscores[np.arange(N), y] -= 1
    dscores /= N
    grads["W2"] = h1.T.dot(dscores) + 2 * reg * W2
    grads["b2"] = np.sum(dscores, axis=0)
    dh1 = dscores.dot(W2.T)
    dh1[h1 <= 0] = 0
    grads["W1"] = X.T.dot(dh1) + 2 * reg * W1
    grads["b1"] = np.sum(dh1, axis=0)
    return loss, grads


def mlp_train_dict_params(X, y, hidden=6, epochs=30, lr=0.2):
    np.random.seed(0)
    n_classes = int(y.max()) + 1
    p = {"W1": 0.1 * np.random.randn(X.shape[1], hidden), "b1": np.zeros(hidden),
         "W2": 0.1 * np.random.randn(hidden, n_classes), "b2": np.zeros(n_classes)}
    Y = np.eye(n_classes)[y]
    history = []
    for epoch in range(epochs):
        z1 = X @ p["W1"] + p["b1"]
        a1 = np.tanh(z1)
        z2 = a1 @ p["W2"] + p["b2"]
        e = np.exp(z2 - z2.max(axis=1, keepdims=True))
        out = e / e.sum(axis=1, keepdims=True)
        loss = -np.mean(np.sum(Y * np.log(out + 1e-12), axis=1))
        history.append(loss)
        d2 = (out - Y) / X.shape[0]
        dW2 = a1.T @ d2
        db2 = d2.sum(axis=0)
        d1 = d2 @ p["W2"].T * (1 - a1 ** 2)
        dW1 = X.T @ d1
        db1 = d1.sum(axis=0)
        for name, g in zip(["W1", "b1", "W2", "b2"], [dW1, db1, dW2, db2]):
            p[name] -= lr * g
    acc = np.mean(np.argmax(out, axis=1) == y)
    return history, acc


def affine_relu_forward_backward(x, w, b, dout):
    N = x.shape[0]
    x_row = x.reshape(N, -1)
    a = x_row.dot(w) + b
    out = np.maximum(0, a)
    cache = (x, w, b, a)
    da = dout.copy()
    da[a <= 0] = 0
    dx = da.dot(w.T).reshape(x.shape)
    dw = x_row.T.dot(da)
    db = np.sum(da, axis=0)
    return out, dx, dw, db


def batchnorm_backward(x, gamma, beta, dout, eps=1e-5):
    N, D = x.shape
    mu = 1.0 / N * np.sum(x, axis=0)
    xmu = x - mu
    sq = xmu ** 2
    var = 1.0 / N * np.sum(sq, axis=0)
    sqrtvar = np.sqrt(var + eps)
    ivar = 1.0 / sqrtvar
    xhat = xmu * ivar
    out = gamma * xhat + beta
    dbeta = np.sum(dout, axis=0)
    dgammax = dout
    dgamma = np.sum(dgammax * xhat, axis=0)
    dxhat = dgammax * gamma
    divar = np.sum(dxhat * xmu, axis=0)
    dxmu1 = dxhat * ivar
    dsqrtvar = -1.0 / (sqrtvar ** 2) * divar
    dvar = 0.5 * 1.0 / np.sqrt(var + eps) * dsqrtvar
    dsq = 1.0 / N * np.ones((N, D)) * dvar
    dxmu2 = 2 * xmu * dsq
    dx1 = dxmu1 + dxmu2
    dmu = -1 * np.sum(dxmu1 + dxmu2, axis=0)
    dx2 = 1.0 / N * np.ones((N, D)) * dmu
    dx = dx1 + dx2
    return out, dx, dgamma, dbeta


def batchnorm_running_stats(batches, gamma, beta, momentum=0.9, eps=1e-5):
    bn_param = {"mode": "train", "running_mean": np.zeros(gamma.shape[0]),
                "running_var": np.zeros(gamma.shape[0])}
    outs = []
    for x in batches:
        sample_mean = x.mean(axis=0)
        sample_var = x.var(axis=0)
        x_hat = (x - sample_mean) / np.sqrt(sample_var + eps)
        outs.append(gamma * x_hat + beta)
        bn_param["running_mean"] = momentum * bn_param["running_mean"] + (1 - momentum) * sample_mean
        bn_param["running_var"] = momentum * bn_param["running_var"] + (1 - momentum) * sample_var
    x = batches[0]
    test_out = gamma * (x - bn_param["running_mean"]) / np.sqrt(bn_param["running_var"] + eps) + beta
    return outs, test_out, bn_param


def layernorm_forward(x, gamma, beta, eps=1e-5):
    mu = x.mean(axis=1, keepdims=True)
    var = x.var(axis=1, keepdims=True)
    xhat = (x - mu) / np.sqrt(var + eps)
    out = xhat * gamma + beta
    cache = (xhat, gamma, var, eps)
    return out, cache[0]


def dropout_inverted(x, p=0.5, mode="train", seed=123):
    np.random.seed(seed)
    if mode == "train":
        mask = (np.random.rand(*x.shape) < p) / p
        out = x * mask
    else:
        mask = None
        out = x
    out = out.astype(x.dtype, copy=False)
    return out, mask


def im2col_conv_forward(x, w, b, stride=1, pad=1):
    N, C, H, W = x.shape
    F, _, HH, WW = w.shape
    H_out = 1 + (H + 2 * pad - HH) // stride
    W_out = 1 + (W + 2 * pad - WW) // stride
    x_pad = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)), mode="constant")
    cols = np.zeros((C * HH * WW, N * H_out * W_out))
    col = 0
    for n in range(N):
        for i in range(H_out):
            for j in range(W_out):
                patch = x_pad[n, :, i * stride:i * stride + HH, j * stride:j * stride + WW]
                cols[:, col] = patch.reshape(-1)
                col += 1
    out = w.reshape(F, -1).dot(cols) + b.reshape(-1, 1)
    out = out.reshape(F, N, H_out, W_out).transpose(1, 0, 2, 3)
    return out


def conv_forward_naive(x, w, b, stride=1, pad=0):
    N, C, H, W = x.shape
    F, C, HH, WW = w.shape
    xp = np.pad(x, [(0, 0), (0, 0), (pad, pad), (pad, pad)])
    Ho = int(1 + (H + 2 * pad - HH) / stride)
    Wo = int(1 + (W + 2 * pad - WW) / stride)
    out = np.zeros((N, F, Ho, Wo))
    for n in range(N):
        for f in range(F):
            for i in range(Ho):
                for j in range(Wo):
                    hs, ws = i * stride, j * stride
                    out[n, f, i, j] = np.sum(xp[n, :, hs:hs + HH, ws:ws + WW] * w[f]) + b[f]
    return out


def max_pool_forward_backward(x, dout, pool=2, stride=2):
    N, C, H, W = x.shape
    H_out = (H - pool) // stride + 1
    W_out = (W - pool) // stride + 1
    out = np.zeros((N, C, H_out, W_out))
    dx = np.zeros_like(x)
    for n in range(N):
        for c in range(C):
            for i in range(H_out):
                for j in range(W_out):
                    window = x[n, c, i * stride:i * stride + pool, j * stride:j * stride + pool]
                    out[n, c, i, j] = np.max(window)
                    idx = np.unravel_index(np.argmax(window), window.shape)
                    dx[n, c, i * stride + idx[0], j * stride + idx[1]] += dout[n, c, i, j]
    return out, dx


def avg_pool_reshape(x):
    N, C, H, W = x.shape
    return x.reshape(N, C, H // 2, 2, W // 2, 2).mean(axis=(3, 5))


def relu_leaky_backward(x, dout, alpha=0.01):
    dx = np.ones_like(x)
    dx[x < 0] = alpha
    return dout * dx, np.where(x > 0, x, alpha * x)


# ----------------------------------------------------------------------------
# Recurrent networks
# ----------------------------------------------------------------------------

def rnn_forward_cache(x, h0, Wx, Wh, b):
    N, T, D = x.shape
    H = h0.shape[1]
    h = np.zeros((N, T, H))
    prev_h = h0
    for t in range(T):
        next_h = np.tanh(prev_h.dot(Wh) + x[:, t, :].dot(Wx) + b)
        h[:, t, :] = next_h
        prev_h = next_h
    return h


def lstm_step(x, prev_h, prev_c, Wx, Wh, b):
    H = prev_h.shape[1]
    a = x.dot(Wx) + prev_h.dot(Wh) + b
    i = sigmoid(a[:, :H])
    f = sigmoid(a[:, H:2 * H])
    o = sigmoid(a[:, 2 * H:3 * H])
    g = np.tanh(a[:, 3 * H:])
    next_c = f * prev_c + i * g
    next_h = o * np.tanh(next_c)
    return next_h, next_c


def word_embedding_backward(x, W, dout):
    out = W[x]
    dW = np.zeros_like(W)
    np.add.at(dW, x, dout)
    return out, dW


def temporal_softmax_loss(x, y, mask):
    N, T, V = x.shape
    x_flat = x.reshape(N * T, V)
    y_flat = y.reshape(N * T)
    mask_flat = mask.reshape(N * T)
    probs = np.exp(x_flat - np.max(x_flat, axis=1, keepdims=True))
    probs /= np.sum(probs, axis=1, keepdims=True)
    loss = -np.sum(mask_flat * np.log(probs[np.arange(N * T), y_flat])) / N
    dx_flat = probs.copy()
    dx_flat[np.arange(N * T), y_flat] -= 1
    dx_flat /= N
    dx_flat *= mask_flat[:, None]
    return loss, dx_flat.reshape(N, T, V)


# ----------------------------------------------------------------------------
# Optimizers
# ----------------------------------------------------------------------------

def sgd_momentum_config(w, dw, config=None):
    if config is None:
        config = {}
    config.setdefault("learning_rate", 1e-2)
    config.setdefault("momentum", 0.9)
    v = config.get("velocity", np.zeros_like(w))
    for step in range(5):
        v = config["momentum"] * v - config["learning_rate"] * dw
        w = w + v
    config["velocity"] = v
    return w, config


def adam_config_update(w, grads):
    config = {"learning_rate": 1e-3, "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8,
              "m": np.zeros_like(w), "v": np.zeros_like(w), "t": 0}
    for dw in grads:
        config["t"] += 1
        config["m"] = config["beta1"] * config["m"] + (1 - config["beta1"]) * dw
        config["v"] = config["beta2"] * config["v"] + (1 - config["beta2"]) * (dw ** 2)
        mb = config["m"] / (1 - config["beta1"] ** config["t"])
        vb = config["v"] / (1 - config["beta2"] ** config["t"])
        w = w - config["learning_rate"] * mb / (np.sqrt(vb) + config["epsilon"])
    return w, config["t"]


def adagrad_quadratic(A, b, lr=0.5, steps=40):
    x = np.zeros(len(b))
    cache = np.zeros_like(x)
    path = [x.copy()]
    for s in range(steps):
        grad = A @ x - b
        cache += grad ** 2
        x -= lr * grad / (np.sqrt(cache) + 1e-8)
        path.append(x.copy())
    return x, np.array(path)


def nesterov_logistic(X, y, lr=0.5, mu=0.9, epochs=30):
    w = np.zeros(X.shape[1])
    v = np.zeros_like(w)
    for ep in range(epochs):
        w_ahead = w + mu * v
        p = 1 / (1 + np.exp(-X @ w_ahead))
        g = X.T @ (p - y) / len(y)
        v = mu * v - lr * g
        w += v
    return w


def lr_schedule_step_decay(lr0=0.1, epochs=20, drop=0.5, every=5):
    lrs = []
    for epoch in range(epochs):
        lr = lr0 * drop ** np.floor((1 + epoch) / every)
        lrs.append(lr)
    return np.array(lrs)


def gradient_check(W, X, y):
    def loss_fn(W_):
        s = X @ W_
        s = s - s.max(axis=1, keepdims=True)
        p = np.exp(s) / np.exp(s).sum(axis=1, keepdims=True)
        return -np.log(p[np.arange(len(y)), y]).mean()
    h = 1e-5
    grad = np.zeros_like(W)
    for i in range(W.shape[0]):
        for j in range(W.shape[1]):
            old = W[i, j]
            W[i, j] = old + h
            fxph = loss_fn(W)
            W[i, j] = old - h
            fxmh = loss_fn(W)
            W[i, j] = old
            grad[i, j] = (fxph - fxmh) / (2 * h)
    return grad


# ----------------------------------------------------------------------------
# Reinforcement learning
# ----------------------------------------------------------------------------

def q_learning_chain(n_states=6, episodes=30, alpha=0.5, gamma=0.9, eps=0.2):
    np.random.seed(42)
    Q = np.zeros((n_states, 2))
    rewards = []
    for ep in range(episodes):
        s = 0
        total = 0
        for step in range(20):
            if np.random.rand() < eps:
                a = np.random.randint(2)
            else:
                a = int(np.argmax(Q[s]))
            s_next = min(s + 1, n_states - 1) if a == 1 else max(s - 1, 0)
            r = 1.0 if s_next == n_states - 1 else 0.0
            Q[s, a] += alpha * (r + gamma * np.max(Q[s_next]) - Q[s, a])
            total += r
            s = s_next
            if s == n_states - 1:
                break
        rewards.append(total)
    return Q, rewards


def epsilon_greedy_bandit(true_means, steps=200, eps=0.1):
    np.random.seed(0)
    k = len(true_means)
    Q = np.zeros(k)
    N = np.zeros(k)
    rewards = np.zeros(steps)
    for t in range(steps):
        if np.random.random() < eps:
            a = np.random.choice(k)
        else:
            a = np.argmax(Q)
        r = np.random.normal(true_means[a], 1)
        N[a] += 1
        Q[a] = Q[a] + (r - Q[a]) / N[a]
        rewards[t] = r
    return Q, N, rewards.mean()


def ucb_bandit(true_means, steps=100, c=2.0):
    rng = np.random.RandomState(1)
    k = len(true_means)
    counts = np.zeros(k)
    values = np.zeros(k)
    for t in range(1, steps + 1):
        if 0 in counts:
            a = int(np.where(counts == 0)[0][0])
        else:
            ucb = values + c * np.sqrt(np.log(t) / counts)
            a = int(np.argmax(ucb))
        reward = rng.randn() + true_means[a]
        counts[a] += 1
        values[a] += (reward - values[a]) / counts[a]
    return counts, values


def value_iteration_grid(P, R, gamma=0.9, theta=1e-6):
    n_states, n_actions = R.shape
    V = np.zeros(n_states)
    iterations = 0
    while True:
        delta = 0
        for s in range(n_states):
            v = V[s]
            q = [R[s, a] + gamma * np.dot(P[s, a], V) for a in range(n_actions)]
            V[s] = max(q)
            delta = max(delta, abs(v - V[s]))
        iterations += 1
        if delta < theta:
            break
    policy = np.array([np.argmax([R[s, a] + gamma * P[s, a] @ V for a in range(n_actions)])
                       for s in range(n_states)])
    return V, policy, iterations


def policy_evaluation_matrix(P_pi, R_pi, gamma=0.95):
    n = len(R_pi)
    V = np.linalg.solve(np.eye(n) - gamma * P_pi, R_pi)
    return V


def discounted_returns(rewards, gamma=0.99):
    G = np.zeros_like(rewards, dtype=float)
    running = 0.0
    for t in reversed(range(len(rewards))):
        running = rewards[t] + gamma * running
        G[t] = running
    G = (G - G.mean()) / (G.std() + 1e-8)
    return G


def softmax_policy_gradient(theta, rewards_per_action, steps=50, lr=0.1):
    np.random.seed(3)
    for step in range(steps):
        probs = np.exp(theta) / np.sum(np.exp(theta))
        a = np.random.choice(len(theta), p=probs)
        r = rewards_per_action[a]
        grad = -probs
        grad[a] += 1
        theta = theta + lr * r * grad
    return theta


# ----------------------------------------------------------------------------
# Metrics
# ----------------------------------------------------------------------------

def confusion_matrix_loops(y_true, y_pred):
    classes = np.unique(np.concatenate((y_true, y_pred)))
    n = len(classes)
    cm = np.zeros((n, n), dtype=int)
    for i in range(len(y_true)):
        t = int(np.where(classes == y_true[i])[0][0])
        p = int(np.where(classes == y_pred[i])[0][0])
        cm[t][p] += 1
    return cm


def per_class_report(y_true, y_pred, n_classes):
    report = {}
    for c in range(n_classes):
        tp = np.sum((y_pred == c) & (y_true == c))
        fp = np.sum((y_pred == c) & (y_true != c))
        fn = np.sum((y_pred != c) & (y_true == c))
        precision = tp / (tp + fp) if tp + fp > 0 else 0.0
        recall = tp / (tp + fn) if tp + fn > 0 else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
        report[c] = {"precision": precision, "recall": recall, "f1": f1, "support": int(np.sum(y_true == c))}
    macro_f1 = np.mean([report[c]["f1"] for c in range(n_classes)])
    return report, macro_f1


def roc_thresholds_loop(y_true, scores):
    thresholds = np.sort(np.unique(scores))[::-1]
    tpr, fpr = [0.0], [0.0]
    P = np.sum(y_true == 1)
    N = np.sum(y_true == 0)
    for thr in thresholds:
        pred = scores >= thr
        tpr.append(np.sum(pred & (y_true == 1)) / P)
        fpr.append(np.sum(pred & (y_true == 0)) / N)
    tpr, fpr = np.array(tpr), np.array(fpr)
    auc = 0.0
    for i in range(1, len(fpr)):
        auc += (fpr[i] - fpr[i - 1]) * (tpr[i] + tpr[i - 1]) / 2
    return fpr, tpr, auc


def auc_rank(y_true, scores):
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    n_pos = (y_true == 1).sum()
    n_neg = len(y_true) - n_pos
    return (ranks[y_true == 1].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def precision_at_k(relevance, scores, k=3):
    results = []
    for rel, sc in zip(relevance, scores):
        top = np.argsort(-sc)[:k]
        results.append(np.sum(rel[top]) / k)
    return np.mean(results), results


def log_loss_multiclass(y_true, probs):
    n = y_true.shape[0]
    probs = np.clip(probs, 1e-15, 1 - 1e-15)
    probs /= probs.sum(axis=1)[:, np.newaxis]
    return -np.sum(np.log(probs[np.arange(n), y_true])) / n


def matthews_corrcoef(y_true, y_pred):
    tp = float(np.sum((y_true == 1) & (y_pred == 1)))
    tn = float(np.sum((y_true == 0) & (y_pred == 0)))
    fp = float(np.sum((y_true == 0) & (y_pred == 1)))
    fn = float(np.sum((y_true == 1) & (y_pred == 0)))
    denom = np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    if denom == 0:
        return 0.0
    return (tp * tn - fp * fn) / denom


def top_k_accuracy(probs, y, k=2):
    topk = np.argsort(probs, axis=1)[:, -k:]
    hits = 0
    for i in range(len(y)):
        if y[i] in topk[i]:
            hits += 1
    return hits / len(y)


def silhouette_score_loops(X, labels):
    n = X.shape[0]
    D = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    s = np.zeros(n)
    for i in range(n):
        same = labels == labels[i]
        same[i] = False
        a = D[i, same].mean() if same.any() else 0.0
        b = np.inf
        for c in np.unique(labels):
            if c == labels[i]:
                continue
            b = min(b, D[i, labels == c].mean())
        s[i] = (b - a) / max(a, b)
    return s.mean()


# ----------------------------------------------------------------------------
# Preprocessing
# ----------------------------------------------------------------------------

def one_hot_loop(labels, num_classes=None):
    if num_classes is None:
        num_classes = np.max(labels) + 1
    one_hot = np.zeros((len(labels), num_classes))
    for i, lab in enumerate(labels):
        one_hot[i, lab] = 1
    return one_hot


def one_hot_eye(y):
    return np.eye(len(np.unique(y)))[y], np.argmax(np.eye(len(np.unique(y)))[y], axis=1)


def train_test_split_seeded(X, y, test_size=0.25, seed=42):
    np.random.seed(seed)
    indices = np.arange(X.shape[0])
    np.random.shuffle(indices)
    split = int(X.shape[0] * (1 - test_size))
    train_idx, test_idx = indices[:split], indices[split:]
    return X[train_idx], X[test_idx], y[train_idx], y[test_idx]


def stratified_split(y, test_frac=0.3):
    rng = np.random.RandomState(7)
    train, test = [], []
    for c in np.unique(y):
        idx = np.where(y == c)[0]
        rng.shuffle(idx)
        n_test = int(round(len(idx) * test_frac))
        test.extend(idx[:n_test])
        train.extend(idx[n_test:])
    return np.array(sorted(train)), np.array(sorted(test))


def kfold_indices(n, k=4):
    fold_sizes = np.full(k, n // k, dtype=int)
    fold_sizes[:n % k] += 1
    current = 0
    folds = []
    for fs in fold_sizes:
        start, stop = current, current + fs
        test = np.arange(start, stop)
        train = np.concatenate([np.arange(0, start), np.arange(stop, n)])
        folds.append((train, test))
        current = stop
    return folds


def minmax_then_zscore(X):
    X = X.astype(float)
    X_min = X.min(axis=0)
    X_max = X.max(axis=0)
    X_mm = (X - X_min) / (X_max - X_min)
    mu = np.mean(X, axis=0)
    sigma = np.std(X, axis=0)
    sigma[sigma == 0] = 1
    X_z = (X - mu) / sigma
    return X_mm, X_z


def label_encode_dict(values):
    mapping = {}
    encoded = []
    for v in values:
        if v not in mapping:
            mapping[v] = len(mapping)
        encoded.append(mapping[v])
    return np.array(encoded), mapping


def impute_median_and_flag(X):
    X = X.copy()
    flags = np.isnan(X).astype(int)
    for j in range(X.shape[1]):
        col = X[:, j]
        med = np.nanmedian(col)
        col[np.isnan(col)] = med
    return X, flags


def clip_outliers_percentile(X, low=5, high=95):
    lo = np.percentile(X, low, axis=0)
    hi = np.percentile(X, high, axis=0)
    return np.clip(X, lo, hi)


def add_bias_and_poly(X):
    n = X.shape[0]
    feats = [np.ones(n)]
    for i in range(X.shape[1]):
        feats.append(X[:, i])
    for i in range(X.shape[1]):
        for j in range(i, X.shape[1]):
            feats.append(X[:, i] * X[:, j])
    return np.column_stack(feats)


def batch_generator_means(X, batch_size=4):
    n_batches = int(np.ceil(X.shape[0] / batch_size))
    means = []
    for b in range(n_batches):
        batch = X[b * batch_size:(b + 1) * batch_size]
        means.append(batch.mean(axis=0))
    return np.vstack(means), n_batches


def log_transform_skewed(x):
    x = np.asarray(x, dtype=float)
    skew = np.mean((x - x.mean()) ** 3) / x.std() ** 3
    if skew > 1:
        return np.log1p(x), skew
    return x, skew


# ----------------------------------------------------------------------------
# Inputs
# ----------------------------------------------------------------------------

def _rng(seed):
    return np.random.RandomState(seed)


def _reg(n=20, d=3, seed=0):
    r = _rng(seed)
    X = r.randn(n, d)
    y = X @ np.arange(1.0, d + 1) - 0.5 + 0.1 * r.randn(n)
    return X, y


def _bin(n=20, seed=1):
    r = _rng(seed)
    X = r.randn(n, 2)
    y = (X[:, 0] - X[:, 1] + 0.3 * r.randn(n) > 0).astype(int)
    return X, y


def _multi(n=18, d=4, c=3, seed=2):
    r = _rng(seed)
    y = np.arange(n) % c
    X = r.randn(n, d) + y[:, None] * 1.5
    return X, y


def _two_layer():
    r = _rng(5)
    X, y = _multi(8, 4, 3, 5)
    return (X, y, {"W1": 0.3 * r.randn(4, 6), "b1": 0.1 * r.randn(6),
                   "W2": 0.3 * r.randn(6, 3), "b2": 0.1 * r.randn(3)})


def _mdp():
    r = _rng(7)
    P = r.rand(4, 2, 4)
    P /= P.sum(axis=2, keepdims=True)
    R = r.randn(4, 2)
    return P, R


def _nan_X():
    X = _rng(8).randn(7, 3)
    X[1, 0] = X[4, 2] = X[5, 2] = np.nan
    return (X,)


CASES = [
    # regression
    ("linear_regression_epochs", linear_regression_epochs, lambda: _reg(), {}),
    ("sgd_regression_per_sample", sgd_regression_per_sample, lambda: _reg(10), {}),
    ("normal_equation_bias", normal_equation_bias, lambda: _reg(), {}),
    ("polynomial_regression", polynomial_regression,
     lambda: (np.linspace(-1, 1, 12), np.linspace(-1, 1, 12) ** 3 - np.linspace(-1, 1, 12)), {}),
    ("lasso_coordinate_descent", lasso_coordinate_descent, lambda: _reg(15, 4), {}),
    ("ridge_gd_with_history", ridge_gd_with_history, lambda: _reg(), {}),
    ("locally_weighted_regression", locally_weighted_regression,
     lambda: (_reg(12, 1)[0], _reg(12, 1)[1], np.array([0.3])), {}),
    ("regression_metrics", regression_metrics, lambda: (_reg()[1] + 5, _reg()[1] + 5.2), {}),
    # classification
    ("logistic_l2_class", logistic_l2_class, lambda: _bin(), {}),
    ("logistic_loss_clipped", logistic_loss_clipped,
     lambda: (np.array([0, 1, 1, 0, 1]), np.array([0.1, 0.9, 1.0, 0.0, 0.6])), {}),
    ("logistic_newton", logistic_newton, lambda: _bin(), {}),
    ("perceptron_errors_per_epoch", perceptron_errors_per_epoch,
     lambda: (_bin()[0], np.where(_bin()[1] == 1, 1, -1)), {}),
    ("adaline_gd", adaline_gd, lambda: (_bin()[0], np.where(_bin()[1] == 1, 1.0, -1.0)), {}),
    ("pocket_perceptron", pocket_perceptron, lambda: (_bin()[0], np.where(_bin()[1] == 1, 1, -1)), {}),
    ("svm_hinge_gd", svm_hinge_gd, lambda: _bin(12), {}),
    ("svm_loss_naive", svm_loss_naive,
     lambda: (_rng(3).randn(4, 3) * 0.01, _multi(8)[0], _multi(8)[1], 0.1), {}),
    ("svm_loss_vectorized", svm_loss_vectorized,
     lambda: (_rng(3).randn(4, 3) * 0.01, _multi(8)[0], _multi(8)[1], 0.1), {}),
    ("softmax_loss_naive", softmax_loss_naive,
     lambda: (_rng(3).randn(4, 3) * 0.01, _multi(8)[0], _multi(8)[1], 0.1), {}),
    ("softmax_loss_vectorized", softmax_loss_vectorized,
     lambda: (_rng(3).randn(4, 3) * 0.01, _multi(8)[0], _multi(8)[1], 0.1), {}),
    ("kernel_perceptron_rbf", kernel_perceptron_rbf,
     lambda: (_bin(10)[0], np.where(_bin(10)[1] == 1, 1.0, -1.0)), {}),
    # clustering, neighbours, Bayes
    ("kmeans_loop_assign", kmeans_loop_assign,
     lambda: (np.vstack([_rng(4).randn(5, 2), _rng(5).randn(5, 2) + 4]),), {}),
    ("kmeans_inertia", kmeans_inertia, lambda: (_multi()[0], _multi()[0][:3]), {}),
    ("kmeans_plus_plus_init", kmeans_plus_plus_init, lambda: (_multi()[0],), {"rand": True}),
    ("knn_two_loops", knn_two_loops, lambda: (_multi()[0], _multi(5, seed=9)[0]), {}),
    ("knn_no_loops", knn_no_loops, lambda: (_multi()[0], _multi(5, seed=9)[0]), {}),
    ("knn_predict_labels", knn_predict_labels,
     lambda: (knn_no_loops(_multi()[0], _multi(5, seed=9)[0]), _multi()[1]), {}),
    ("knn_majority_vote_dict", knn_majority_vote_dict,
     lambda: (_multi()[0], _multi()[1], _multi(1, seed=9)[0][0]), {}),
    ("gaussian_nb_fit_predict", gaussian_nb_fit_predict,
     lambda: (_multi()[0], _multi()[1], _multi(5, seed=9)[0]), {}),
    ("multinomial_nb", multinomial_nb,
     lambda: (_rng(10).poisson(2, (12, 5)), np.arange(12) % 2, _rng(11).poisson(2, (3, 5))), {}),
    ("bernoulli_nb", bernoulli_nb,
     lambda: ((_rng(12).rand(12, 5) > 0.5).astype(int), np.arange(12) % 3,
              (_rng(13).rand(4, 5) > 0.5).astype(int)), {}),
    ("lda_two_class", lda_two_class, lambda: _bin(), {}),
    # trees
    ("entropy_counts", entropy_counts, lambda: (np.array([0, 1, 1, 2, 2, 2, 0, 1]),), {}),
    ("gini_split_search", gini_split_search, lambda: (_multi(9, 2)[0], _multi(9, 2)[1]), {}),
    ("build_tree", build_tree, lambda: (_multi(9, 2)[0], _multi(9, 2)[1]), {}),
    ("regression_stump", regression_stump, lambda: (_reg(10, 1)[0][:, 0], _reg(10, 1)[1]), {}),
    ("adaboost_stumps", adaboost_stumps,
     lambda: (_bin(10)[0], np.where(_bin(10)[1] == 1, 1.0, -1.0)), {}),
    # reduction, kernels
    ("pca_explained_variance", pca_explained_variance, lambda: (_multi(12, 4)[0],), {}),
    ("pca_reconstruction_error", pca_reconstruction_error, lambda: (_multi(12, 4)[0],), {}),
    ("rbf_kernel_matrix", rbf_kernel_matrix, lambda: (_multi(6, 3)[0],), {}),
    ("kernel_ridge_predict", kernel_ridge_predict,
     lambda: (_reg(10, 2)[0], _reg(10, 2)[1], _reg(3, 2, 5)[0]), {}),
    # networks
    ("xor_mlp_train", xor_mlp_train, lambda: (), {}),
    ("two_layer_net_loss", two_layer_net_loss, _two_layer, {}),
    # W2's draw has a size from the data (int(y.max()) + 1): nptf's stream, not NumPy's
    ("mlp_train_dict_params", mlp_train_dict_params, lambda: _multi(12, 4), {"rand": True}),
    ("affine_relu_forward_backward", affine_relu_forward_backward,
     lambda: (_rng(14).randn(3, 2, 2), _rng(15).randn(4, 5), _rng(16).randn(5), _rng(17).randn(3, 5)), {}),
    ("batchnorm_backward", batchnorm_backward,
     lambda: (_rng(18).randn(6, 4), _rng(19).randn(4), _rng(20).randn(4), _rng(21).randn(6, 4)), {}),
    ("batchnorm_running_stats", batchnorm_running_stats,
     lambda: ([_rng(22 + i).randn(5, 3) for i in range(3)], np.ones(3), np.zeros(3)), {}),
    ("layernorm_forward", layernorm_forward,
     lambda: (_rng(23).randn(4, 5), _rng(24).randn(5), _rng(25).randn(5)), {}),
    ("dropout_inverted", dropout_inverted, lambda: (_rng(26).randn(4, 5),), {"rand": True}),
    ("im2col_conv_forward", im2col_conv_forward,
     lambda: (_rng(27).randn(2, 2, 4, 4), _rng(28).randn(3, 2, 3, 3), _rng(29).randn(3)), {}),
    ("conv_forward_naive", conv_forward_naive,
     lambda: (_rng(27).randn(2, 2, 4, 4), _rng(28).randn(3, 2, 3, 3), _rng(29).randn(3)), {}),
    ("max_pool_forward_backward", max_pool_forward_backward,
     lambda: (_rng(30).randn(2, 2, 4, 4), _rng(31).randn(2, 2, 2, 2)), {}),
    ("avg_pool_reshape", avg_pool_reshape, lambda: (_rng(32).randn(2, 3, 4, 6),), {}),
    ("relu_leaky_backward", relu_leaky_backward, lambda: (_rng(33).randn(4, 3), _rng(34).randn(4, 3)), {}),
    # recurrent
    ("rnn_forward_cache", rnn_forward_cache,
     lambda: (_rng(35).randn(2, 4, 3), _rng(36).randn(2, 5), 0.3 * _rng(37).randn(3, 5),
              0.3 * _rng(38).randn(5, 5), _rng(39).randn(5)), {}),
    ("lstm_step", lstm_step,
     lambda: (_rng(40).randn(2, 3), _rng(41).randn(2, 4), _rng(42).randn(2, 4),
              0.3 * _rng(43).randn(3, 16), 0.3 * _rng(44).randn(4, 16), _rng(45).randn(16)), {}),
    ("word_embedding_backward", word_embedding_backward,
     lambda: (np.array([[0, 3, 1], [3, 3, 2]]), _rng(46).randn(5, 4), _rng(47).randn(2, 3, 4)), {}),
    ("temporal_softmax_loss", temporal_softmax_loss,
     lambda: (_rng(48).randn(2, 3, 4), _rng(49).randint(0, 4, (2, 3)),
              np.array([[True, True, False], [True, False, False]])), {}),
    # optimizers
    ("sgd_momentum_config", sgd_momentum_config, lambda: (_rng(50).randn(3, 2), _rng(51).randn(3, 2)), {}),
    ("adam_config_update", adam_config_update,
     lambda: (_rng(52).randn(4), [_rng(53 + i).randn(4) for i in range(4)]), {}),
    ("adagrad_quadratic", adagrad_quadratic,
     lambda: (np.array([[3.0, 0.5], [0.5, 1.0]]), np.array([1.0, -2.0])), {}),
    ("nesterov_logistic", nesterov_logistic, lambda: _bin(), {}),
    ("lr_schedule_step_decay", lr_schedule_step_decay, lambda: (), {}),
    ("gradient_check", gradient_check, lambda: (0.1 * _rng(57).randn(3, 3), _multi(6, 3)[0], _multi(6, 3)[1]), {}),
    # reinforcement learning
    ("q_learning_chain", q_learning_chain, lambda: (), {"rand": True}),
    ("epsilon_greedy_bandit", epsilon_greedy_bandit, lambda: (np.array([0.2, 0.8, 0.5]),), {"rand": True}),
    ("ucb_bandit", ucb_bandit, lambda: (np.array([0.1, 0.9, 0.4]),), {"rand": True}),
    ("value_iteration_grid", value_iteration_grid, _mdp, {}),
    ("policy_evaluation_matrix", policy_evaluation_matrix, lambda: (_mdp()[0][:, 0, :], _mdp()[1][:, 0]), {}),
    ("discounted_returns", discounted_returns, lambda: (np.array([0, 0, 1, 0, 0, 1, 1]),), {}),
    ("softmax_policy_gradient", softmax_policy_gradient,
     lambda: (np.zeros(3), np.array([0.1, 1.0, 0.3])), {"rand": True}),
    # metrics
    ("confusion_matrix_loops", confusion_matrix_loops,
     lambda: (np.array([2, 0, 2, 2, 0, 1]), np.array([0, 0, 2, 2, 0, 2])), {}),
    ("per_class_report", per_class_report,
     lambda: (np.array([0, 1, 2, 2, 1, 0, 1, 2]), np.array([0, 2, 2, 2, 1, 0, 0, 1]), 3), {}),
    ("roc_thresholds_loop", roc_thresholds_loop,
     lambda: (np.array([0, 0, 1, 1, 0, 1, 1, 0]), np.array([0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.6, 0.55])), {}),
    ("auc_rank", auc_rank,
     lambda: (np.array([0, 0, 1, 1, 0, 1, 1, 0]), np.array([0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.6, 0.55])), {}),
    ("precision_at_k", precision_at_k,
     lambda: ((_rng(58).rand(3, 6) > 0.5).astype(int), _rng(59).rand(3, 6)), {}),
    ("log_loss_multiclass", log_loss_multiclass,
     lambda: (np.array([0, 2, 1]), np.array([[0.7, 0.2, 0.1], [0.1, 0.1, 0.8], [0.3, 0.4, 0.3]])), {}),
    ("matthews_corrcoef", matthews_corrcoef,
     lambda: (np.array([1, 0, 1, 1, 0, 0, 1]), np.array([1, 0, 0, 1, 0, 1, 1])), {}),
    ("top_k_accuracy", top_k_accuracy, lambda: (_rng(60).rand(6, 4), np.array([0, 1, 3, 2, 0, 1])), {}),
    ("silhouette_score_loops", silhouette_score_loops,
     lambda: (_multi(9, 2)[0], _multi(9, 2)[1]), {}),
    # preprocessing
    ("one_hot_loop", one_hot_loop, lambda: (np.array([2, 0, 1, 2, 3]),), {}),
    ("one_hot_eye", one_hot_eye, lambda: (np.array([2, 0, 1, 2, 1]),), {}),
    ("train_test_split_seeded", train_test_split_seeded, lambda: _multi(), {"rand": True}),
    ("stratified_split", stratified_split, lambda: (np.array([0, 1, 0, 1, 1, 0, 2, 2, 2, 0]),), {"rand": True}),
    ("kfold_indices", kfold_indices, lambda: (10,), {}),
    ("minmax_then_zscore", minmax_then_zscore,
     lambda: (np.array([[1, 2, 5], [3, 2, 1], [5, 2, 0], [7, 2, 4]]),), {}),
    ("label_encode_dict", label_encode_dict, lambda: (np.array([3, 7, 3, 1, 7, 7]),), {}),
    ("impute_median_and_flag", impute_median_and_flag, _nan_X, {}),
    ("clip_outliers_percentile", clip_outliers_percentile, lambda: (_rng(61).randn(20, 3),), {}),
    ("add_bias_and_poly", add_bias_and_poly, lambda: (_rng(62).randn(5, 3),), {}),
    ("batch_generator_means", batch_generator_means, lambda: (_rng(63).randn(10, 2),), {}),
    ("log_transform_skewed", log_transform_skewed, lambda: (_rng(64).exponential(3, 30),), {}),
]
