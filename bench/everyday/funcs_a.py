"""Everyday NumPy functions, batch A: ML-from-scratch style."""
import numpy as np


# 1. linear regression with gradient descent loop
def linreg_gd(X, y, lr=0.1, epochs=50):
    n, d = X.shape
    w = np.zeros(d)
    b = 0.0
    for epoch in range(epochs):
        y_pred = X.dot(w) + b
        error = y_pred - y
        dw = (1 / n) * X.T.dot(error)
        db = (1 / n) * np.sum(error)
        w -= lr * dw
        b -= lr * db
    return w, b


# 2. logistic regression with sigmoid helper, loss history list
def sigmoid(z):
    return 1 / (1 + np.exp(-z))


def logreg_train(X, y, lr=0.5, n_iter=30):
    m = X.shape[0]
    theta = np.zeros(X.shape[1])
    losses = []
    for i in range(n_iter):
        h = sigmoid(X @ theta)
        grad = X.T @ (h - y) / m
        theta = theta - lr * grad
        loss = -np.mean(y * np.log(h + 1e-12) + (1 - y) * np.log(1 - h + 1e-12))
        losses.append(loss)
    return theta, np.array(losses)


# 3. kNN prediction with argsort and bincount majority vote
def knn_predict(X_train, y_train, X_test, k=3):
    preds = []
    for x in X_test:
        dists = np.sqrt(np.sum((X_train - x) ** 2, axis=1))
        idx = np.argsort(dists)[:k]
        votes = y_train[idx]
        preds.append(np.bincount(votes).argmax())
    return np.array(preds)


# 4. PCA via eigh
def pca_eigh(X, n_components=2):
    X_centered = X - X.mean(axis=0)
    cov = np.cov(X_centered, rowvar=False)
    eigvals, eigvecs = np.linalg.eigh(cov)
    order = np.argsort(eigvals)[::-1]
    eigvals = eigvals[order]
    eigvecs = eigvecs[:, order]
    comps = eigvecs[:, :n_components]
    # fix sign ambiguity deterministically
    signs = np.sign(comps[np.argmax(np.abs(comps), axis=0), range(n_components)])
    comps = comps * signs
    explained = eigvals[:n_components] / eigvals.sum()
    return X_centered @ comps, explained


# 5. PCA via svd
def pca_svd(X, k=2):
    Xc = X - np.mean(X, axis=0)
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    var_ratio = S ** 2 / np.sum(S ** 2)
    return S[:k], var_ratio[:k]


# 6. k-means iterations with while loop and tolerance
def kmeans(X, centroids, max_iter=20, tol=1e-6):
    centroids = centroids.copy()
    k = centroids.shape[0]
    it = 0
    shift = np.inf
    while it < max_iter and shift > tol:
        d = ((X[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
        labels = np.argmin(d, axis=1)
        new_c = np.array([X[labels == j].mean(axis=0) for j in range(k)])
        shift = np.linalg.norm(new_c - centroids)
        centroids = new_c
        it += 1
    return centroids, labels, it


# 7. softmax + cross entropy with one-hot labels
def softmax(z):
    z = z - np.max(z, axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def cross_entropy(logits, labels):
    n = logits.shape[0]
    n_classes = logits.shape[1]
    one_hot = np.zeros((n, n_classes))
    one_hot[np.arange(n), labels] = 1
    p = softmax(logits)
    loss = -np.sum(one_hot * np.log(p)) / n
    grad = (p - one_hot) / n
    return loss, grad


# 8. one-hot via np.eye indexing, accuracy
def accuracy_onehot(probs, y):
    Y = np.eye(probs.shape[1])[y]
    pred = np.argmax(probs, axis=1)
    acc = np.mean(pred == y)
    return Y, acc


# 9. 2-layer MLP forward/backward, one SGD step with dict of params
def mlp_step(X, y, params, lr=0.1):
    W1, b1, W2, b2 = params["W1"], params["b1"], params["W2"], params["b2"]
    z1 = X @ W1 + b1
    a1 = np.maximum(0, z1)
    z2 = a1 @ W2 + b2
    probs = softmax(z2)
    n = X.shape[0]
    loss = -np.log(probs[range(n), y]).mean()
    d2 = probs.copy()
    d2[range(n), y] -= 1
    d2 /= n
    dW2 = a1.T @ d2
    db2 = d2.sum(axis=0)
    da1 = d2 @ W2.T
    da1[z1 <= 0] = 0
    dW1 = X.T @ da1
    db1 = da1.sum(axis=0)
    new = {"W1": W1 - lr * dW1, "b1": b1 - lr * db1,
           "W2": W2 - lr * dW2, "b2": b2 - lr * db2}
    return new, loss


# 10. perceptron with early-stop (break) when no errors
def perceptron(X, y, epochs=20):
    w = np.zeros(X.shape[1] + 1)
    for ep in range(epochs):
        errors = 0
        for i in range(len(X)):
            xi = np.insert(X[i], 0, 1.0)
            pred = 1 if np.dot(w, xi) >= 0 else -1
            if pred != y[i]:
                w += y[i] * xi
                errors += 1
        if errors == 0:
            break
    return w, ep


# 11. ridge regression closed form
def ridge(X, y, alpha=1.0):
    n_features = X.shape[1]
    A = X.T @ X + alpha * np.identity(n_features)
    return np.linalg.solve(A, X.T @ y)


# 12. mini-batch SGD with index slicing by range step
def minibatch_sgd(X, y, batch_size=4, lr=0.05, epochs=3):
    w = np.zeros(X.shape[1])
    for epoch in range(epochs):
        for start in range(0, len(X), batch_size):
            xb = X[start:start + batch_size]
            yb = y[start:start + batch_size]
            grad = 2 * xb.T @ (xb @ w - yb) / len(xb)
            w = w - lr * grad
    return w


# 13. naive bayes gaussian: per-class mean/var, log-likelihood
def gaussian_nb(X, y, X_test):
    classes = np.unique(y)
    means = np.array([X[y == c].mean(axis=0) for c in classes])
    vars_ = np.array([X[y == c].var(axis=0) for c in classes]) + 1e-9
    priors = np.array([np.mean(y == c) for c in classes])
    log_lik = -0.5 * np.sum(np.log(2 * np.pi * vars_)[None, :, :]
                            + (X_test[:, None, :] - means[None]) ** 2 / vars_[None], axis=2)
    post = log_lik + np.log(priors)
    return classes[np.argmax(post, axis=1)]


# 14. confusion matrix with nested loops / np.add.at
def confusion_matrix(y_true, y_pred, n_classes):
    cm = np.zeros((n_classes, n_classes), dtype=int)
    for t, p in zip(y_true, y_pred):
        cm[t, p] += 1
    precision = np.diag(cm) / np.maximum(cm.sum(axis=0), 1)
    return cm, precision


# 15. normalize features in-place (z-score, std of zero guarded)
def standardize_inplace(X):
    mu = X.mean(axis=0)
    sd = X.std(axis=0)
    sd[sd == 0] = 1.0
    X -= mu
    X /= sd
    return mu, sd
