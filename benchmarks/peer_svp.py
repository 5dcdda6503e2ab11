"""The peer's side of `bench_family_decisions.py`: setvaluedprediction (Mortier et al., module `svp`) deciding on
given probability rows, run under the peer's own interpreter (it needs PyTorch and compiles a C++ extension, so
it lives in a virtual environment of its own, never in ours):

    PEER_PYTHON benchmarks/peer_svp.py ROWS.npy TASK OUT.json

The peer predicts from a network's outputs, so each row is handed to it as that network would: its search module
`svp_cpp.SVP` is built with identity weights and zero biases, and the input is the logarithm of the probabilities
(softmax(log p) = p). Over a hierarchy the input is the logarithm of each node's conditional probabilities, and
each node's linear layer selects its own slice. The peer computes in float32 from there, as it always does.

TASK is a JSON object: {"kind": "size", "size": k} (its size-capped prediction: the likeliest set of at most k
classes), or {"kind": "tree", "nodes": [[leaves of a node], ...]} (its u65 prediction over single nodes of the
hierarchy: delta 1.6, gamma 0.6, c = 1; nodes listed root first, each parent before its children, leaves too).
OUT gets the predicted sets (0-based classes) and the seconds spent in the peer's prediction call alone (its
imports, JIT compilation and the building of the module are not counted).
"""

from __future__ import annotations

import json
import sys
import time
import warnings

import numpy as np


def load_peer():
    """The peer's compiled search module. Its package imports `svp_cpp` by a name that recent PyTorch no longer
    registers after JIT compilation, so the compiled module is registered under that name first."""
    warnings.filterwarnings("ignore")
    import svp._utils as compiled

    sys.modules.setdefault("svp_cpp", compiled._C)
    return compiled._C.SVP


def log(values: np.ndarray) -> np.ndarray:
    """log, with -10^4 for 0: the identity layer multiplies every input by 0 somewhere, and 0 * -inf is NaN; in
    float32 exp(-10^4) is 0, so softmax still gives the row."""
    with np.errstate(divide="ignore"):
        return np.maximum(np.log(values), -1e4)


def flat(SVP, P: np.ndarray, size: int):
    import torch

    K = P.shape[1]
    module = SVP(K, K)
    with torch.no_grad():
        for name, tensor in module.named_parameters():
            tensor.copy_(torch.eye(K) if name.endswith("weight") else torch.zeros(K))
    x = torch.from_numpy(log(P)).float()
    start = time.perf_counter()
    sets = module.predict_set_size(x, size, K)
    return sets, time.perf_counter() - start


def tree(SVP, P: np.ndarray, nodes: list[list[int]]):
    import torch

    K = P.shape[1]
    parent = {}
    for i, node in enumerate(nodes[1:], start=1):  # the smallest earlier node containing it
        parent[i] = min((j for j in range(i) if set(node) < set(nodes[j])), key=lambda j: len(nodes[j]))
    children = {j: [i for i in parent if parent[i] == j] for j in range(len(nodes))}
    inner = [j for j in range(len(nodes)) if children[j]]
    offset, width = {}, 0
    for j in inner:
        offset[j], width = width, width + len(children[j])
    module = SVP(width, K, [sorted(node) for node in nodes])
    mass = np.stack([P[:, node].sum(axis=1) for node in nodes], axis=1)
    x = np.zeros((P.shape[0], width))
    with np.errstate(divide="ignore", invalid="ignore"):
        for j in inner:
            share = mass[:, children[j]] / mass[:, [j]]
            share[~np.isfinite(share).all(axis=1)] = 1 / len(children[j])  # a node of mass 0: any split
            x[:, offset[j]:offset[j] + len(children[j])] = log(share)
    with torch.no_grad():
        for name, tensor in module.named_parameters():
            # the layer is named after the node's last child: its leaves, then that child's index in `nodes`
            j = parent[int(name.rsplit(".", 1)[0].split()[-1])]
            if name.endswith("weight"):
                tensor.zero_()
                for r in range(len(children[j])):
                    tensor[r, offset[j] + r] = 1.0
            else:
                tensor.zero_()
    x = torch.from_numpy(x).float()
    start = time.perf_counter()
    sets = module.predict_set_dg(x, 1.6, 0.6, 1)
    return sets, time.perf_counter() - start


def main() -> None:
    rows, task, out = sys.argv[1:4]
    P = np.load(rows)
    spec = json.loads(task)
    SVP = load_peer()
    sets, seconds = flat(SVP, P, spec["size"]) if spec["kind"] == "size" else tree(SVP, P, spec["nodes"])
    with open(out, "w", encoding="utf-8") as handle:
        json.dump({"sets": [sorted(int(c) for c in s) for s in sets], "seconds": seconds}, handle)


if __name__ == "__main__":
    main()
