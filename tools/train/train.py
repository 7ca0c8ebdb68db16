"""Train the learned evaluation and write its weights into the package.

    python tools/train/train.py data.npz [more.npz ...] --name classic --seed 1 \\
        [--hidden 64] [--epochs 6] [--out py/briscola/ai/learn/models/classic.bin]

A network of one hidden layer of rectified units, fitted by Adam on the mean squared error
of the points predicted (over the deck's total), with numpy (a development dependency: the
package itself evaluates the weights in plain Python). A tenth of the positions, chosen by
the seed, is held out and its error reported: a tenth of the deals, with every position of
each, where the data says which deal each position comes from (selfplay.py's ``deals``; a
deal's positions are alike, so holding out positions of deals trained on flatters the error),
else a tenth of the positions (older data files). The weights are written as half-precision
floats (or, with ``--format i8``, the first layer as scaled bytes) into the package's model
file ``py/briscola/ai/learn/models/<name>.bin``, data that :func:`briscola.ai.learn.load`
reads (:func:`briscola.ai.learn.pack_model` says its layout). The same data and seed give the
same bytes.
"""
from __future__ import annotations

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if os.path.join(ROOT, "py") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "py"))


def load_data(paths):
    import numpy as np
    fs, ss, ys = [], [], []
    for p in paths:
        d = np.load(p)
        fs.append(d["flags"])
        ss.append(d["scalars"])
        ys.append(d["labels"])
    x = np.concatenate([np.concatenate(fs).astype(np.float32), np.concatenate(ss)], axis=1)
    return x, np.concatenate(ys)


def load_deals(paths):
    """Each position's deal, numbered across the files in order; None when a file does not
    say (data written before selfplay.py kept it)."""
    import numpy as np
    out, base = [], 0
    for p in paths:
        d = np.load(p)
        if "deals" not in d.files:
            return None
        ids = d["deals"].astype(np.int64)
        out.append(ids + base)
        base += int(ids.max()) + 1 if len(ids) else 0
    return np.concatenate(out)


def split(rng, n: int, deals=None):
    """(held out, training) row indices: a tenth of the rows, or with ``deals`` (each row's
    deal) every row of a tenth of the deals."""
    import numpy as np
    if deals is None:
        perm = rng.permutation(n)
        n_val = max(1, n // 10)
        return perm[:n_val], perm[n_val:]
    ids = np.unique(deals)
    held = ids[rng.permutation(len(ids))[:max(1, len(ids) // 10)]]
    out = np.isin(deals, held)
    return np.flatnonzero(out), np.flatnonzero(~out)


def fit(x, y, scale: float, hidden: int, epochs: int, seed: int, lr: float = 2e-3,
        batch: int = 512, log=print, init=None, deals=None):
    """Weights (w1, b1, w2, b2) and the held-out root mean squared error in points. With
    ``init`` (w1, b1, w2, b2), training starts from those weights instead of random ones
    (fine-tuning a shipped model on new positions). With ``deals`` (each row's deal), whole
    deals are held out (:func:`split`)."""
    import numpy as np
    rng = np.random.default_rng(seed)
    n, d = x.shape
    val, tr = split(rng, n, deals)
    t = (y / scale).astype(np.float32)
    w1 = (rng.standard_normal((d, hidden)) * np.sqrt(2.0 / d)).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    w2 = (rng.standard_normal(hidden) * np.sqrt(1.0 / hidden)).astype(np.float32)
    b2 = np.float32(t[tr].mean())
    params = [w1, b1, w2, np.array([b2], np.float32)]
    if init is not None:
        params = [np.array(p, np.float32).reshape(q.shape) for p, q in zip(init, params)]
        log(f"from the given weights: held-out error {rmse_of(params, x, t, val, scale):.3f} "
            "points")
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    step = 0

    def predict(xb):
        h = np.maximum(xb @ params[0] + params[1], 0.0)
        return h @ params[2] + params[3][0], h

    def rmse(idx):
        err = 0.0
        for i in range(0, len(idx), 65536):
            j = idx[i:i + 65536]
            p, _ = predict(x[j])
            err += float(((p - t[j]) ** 2).sum())
        return (err / len(idx)) ** 0.5 * scale

    for ep in range(epochs):
        order = tr[rng.permutation(len(tr))]
        rate = lr * (0.5 ** max(0, ep - epochs // 2))
        for i in range(0, len(order), batch):
            j = order[i:i + batch]
            xb, tb = x[j], t[j]
            p, h = predict(xb)
            g = 2.0 * (p - tb) / len(j)
            gw2 = h.T @ g
            gb2 = np.array([g.sum()], np.float32)
            gh = np.outer(g, params[2]) * (h > 0)
            gw1 = xb.T @ gh
            gb1 = gh.sum(axis=0)
            step += 1
            for k, gr in enumerate((gw1, gb1, gw2, gb2)):
                m[k] = beta1 * m[k] + (1 - beta1) * gr
                v[k] = beta2 * v[k] + (1 - beta2) * gr * gr
                mh = m[k] / (1 - beta1 ** step)
                vh = v[k] / (1 - beta2 ** step)
                params[k] -= (rate * mh / (np.sqrt(vh) + eps)).astype(np.float32)
        log(f"epoch {ep + 1}/{epochs}: held-out error {rmse(val):.3f} points "
            f"(training {rmse(tr[:len(val)]):.3f})")
    return params, rmse(val), len(tr)


def rmse_of(params, x, t, idx, scale: float) -> float:
    """Root mean squared error in points of ``params`` on the rows ``idx``."""
    import numpy as np
    err = 0.0
    for i in range(0, len(idx), 65536):
        j = idx[i:i + 65536]
        h = np.maximum(x[j] @ params[0] + params[1], 0.0)
        err += float(((h @ params[2] + params[3][0] - t[j]) ** 2).sum())
    return (err / len(idx)) ** 0.5 * scale


def shipped_weights(name: str, inputs: int | None = None):
    """A shipped model's weights as (w1, b1, w2, b2) arrays, and its metadata."""
    import numpy as np
    from briscola.ai.learn import N_INPUTS, load
    m = load(name, inputs or N_INPUTS)
    if m is None:
        raise ValueError(f"no shipped model named {name!r}")
    return (np.array(m.w1, np.float32), np.array(m.b1, np.float32),
            np.array(m.w2, np.float32), np.array([m.b2], np.float32)), m.meta


def quantize(params, fmt: str):
    """The weights as the loader will see them, and their bytes: ``f16`` every weight a
    half-precision float; ``i8`` the first layer's rows as bytes with one scale a row."""
    import numpy as np
    w1, b1, w2, b2 = (np.asarray(p, dtype=np.float32) for p in params)
    tail = np.concatenate([b1, w2, np.ravel(b2)]).astype("<f2")
    if fmt == "f16":
        h1 = w1.astype("<f2")
        raw = h1.tobytes() + tail.tobytes()
        w1q = h1.astype(np.float64)
    elif fmt == "i8":
        sc = (np.abs(w1).max(axis=1) / 127.0).astype("<f2")
        sc = np.where(sc.astype(np.float32) > 0, sc, np.float16(1.0)).astype("<f2")
        q = np.clip(np.rint(w1 / sc.astype(np.float32)[:, None]), -127, 127).astype("<i1")
        raw = q.tobytes() + sc.tobytes() + tail.tobytes()
        w1q = q.astype(np.float64) * sc.astype(np.float64)[:, None]
    else:
        raise ValueError(f"unknown weight format {fmt!r}")
    t = tail.astype(np.float64)
    h = len(b1)
    return (w1q, t[:h], t[h:2 * h], t[2 * h:]), raw


def model_path(name: str) -> str:
    """Where the package keeps model ``name``'s file."""
    return os.path.join(ROOT, "py", "briscola", "ai", "learn", "models", f"{name}.bin")


def write_model(path: str, params, meta: dict) -> int:
    """Write the model file (briscola.ai.learn's layout) of these weights, stored in
    ``meta``'s format; the weights' size in bytes."""
    from briscola.ai.learn import pack_model
    _, raw = quantize(params, meta.get("format", "f16"))
    data = pack_model(meta, raw)
    with open(path, "wb") as f:
        f.write(data)
    return len(raw)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Train the learned evaluation.")
    ap.add_argument("data", nargs="+")
    ap.add_argument("--name", default="classic")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--scale", type=float, default=120.0)
    ap.add_argument("--format", choices=("f16", "i8"), default="f16",
                    help="how the weights are stored (i8: the first layer in bytes)")
    ap.add_argument("--init", default=None, metavar="NAME",
                    help="start from the shipped model NAME's weights (fine-tuning)")
    ap.add_argument("--encoder", choices=("classic", "chiamata"), default=None,
                    help="the inputs the data holds: the classic and four-player encoder, or "
                    "the Chiamata one (chiamata_selfplay.py); by default chiamata for a "
                    "--name starting with chiamata")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    from briscola.ai.learn import N_INPUTS
    from briscola.ai.learn.chiamata import N_CH_INPUTS
    encoder = args.encoder or ("chiamata" if args.name.startswith("chiamata") else "classic")
    n_inputs = N_CH_INPUTS if encoder == "chiamata" else N_INPUTS
    init = None
    if args.init:
        try:
            init, init_meta = shipped_weights(args.init, n_inputs)
        except ValueError as e:
            print(f"train: {e}", file=sys.stderr)
            return 2
        if int(init_meta["hidden"]) != args.hidden or float(init_meta["scale"]) != args.scale:
            print(f"train: {args.init!r} has {init_meta['hidden']} hidden units and scale "
                  f"{init_meta['scale']}; asked for {args.hidden} and {args.scale}",
                  file=sys.stderr)
            return 2
    x, y = load_data(args.data)
    if x.shape[1] != n_inputs:
        print(f"train: the data has {x.shape[1]} inputs, the {encoder} encoder {n_inputs}",
              file=sys.stderr)
        return 2
    deals = load_deals(args.data)
    if deals is None:
        print("train: the data does not say each position's deal (older files): a tenth of the"
              " positions is held out, and their deals are trained on, so the error flatters",
              file=sys.stderr)
    params, err, n_train = fit(x, y, args.scale, args.hidden, args.epochs, args.seed, args.lr,
                               init=init, deals=deals)
    out = args.out or model_path(args.name)
    meta = {"name": args.name, "inputs": n_inputs, "hidden": args.hidden,
            "scale": args.scale, "positions": int(n_train), "seed": args.seed,
            "held_out_error": round(err, 3),
            "held_out": "positions" if deals is None else "deals"}
    if args.init:
        meta["init"] = args.init
    if args.format != "f16":
        meta["format"] = args.format
    size = write_model(out, params, meta)
    print(f"{out}: {size} bytes of weights, held-out error {err:.3f} points")
    return 0


if __name__ == "__main__":
    sys.exit(main())
