"""Export a plain NumPy function as a TensorFlow SavedModel and serve it without nptf.

Run:  python examples/export_savedmodel.py [OUTPUT_DIR]

The model is written to OUTPUT_DIR (a temporary directory by default), then a
separate Python process that imports only TensorFlow loads it and answers one
request through its ``serving_default`` signature, as a model server would.
The same export from the shell:

    nptf export examples/export_savedmodel.py:predict \\
        --spec 'x=float32[None,4]' --spec 'w=float32[4,3]' --spec 'bias=float32[3]' -o model
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

import nptf


# A small classifier head, in plain NumPy: linear layer, then a stable softmax.
def predict(x, w, bias):
    logits = x @ w + bias
    shifted = logits - logits.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    return {"probabilities": e / e.sum(axis=-1, keepdims=True),
            "label": np.argmax(logits, axis=-1)}


# What a model server does: load the SavedModel, call the signature. No nptf here.
SERVER = """
import json, sys
import tensorflow as tf

model = tf.saved_model.load(sys.argv[1])
serve = model.signatures["serving_default"]
request = json.loads(sys.stdin.read())
inputs = {name: tf.constant(value, dtype=serve.structured_input_signature[1][name].dtype)
          for name, value in request.items()}
outputs = serve(**inputs)
print(json.dumps({name: tensor.numpy().tolist() for name, tensor in outputs.items()}))
"""


def main():
    output_dir = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.join(tempfile.mkdtemp(prefix="nptf-export-"), "predict")
    exported = nptf.export(predict, output_dir,
                           nptf.Spec((None, 4), np.float32),     # any batch size
                           nptf.Spec((4, 3), np.float32),
                           nptf.Spec((3,), np.float32),
                           force=True)
    print(exported)

    rng = np.random.default_rng(0)
    request = {"x": rng.standard_normal((2, 4)).astype(np.float32),
               "w": rng.standard_normal((4, 3)).astype(np.float32),
               "bias": np.zeros(3, np.float32)}
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    served = subprocess.run([sys.executable, "-c", SERVER, exported.path], env=env, check=True,
                            input=json.dumps({k: v.tolist() for k, v in request.items()}),
                            capture_output=True, text=True)
    from_saved_model = json.loads(served.stdout)
    from_numpy = predict(**request)

    np.set_printoptions(precision=4, suppress=True)
    print("\nserved by the SavedModel (a process without nptf):")
    for name, value in sorted(from_saved_model.items()):
        print(f"  {name}: {np.asarray(value)}")
    print("NumPy, calling the function directly:")
    for name, value in sorted(from_numpy.items()):
        print(f"  {name}: {value}")
    np.testing.assert_allclose(from_saved_model["probabilities"], from_numpy["probabilities"],
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(from_saved_model["label"], from_numpy["label"])
    print("the two agree")


if __name__ == "__main__":
    main()
