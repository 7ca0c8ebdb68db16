"""Store a shipped learned evaluation's weights in another format, without training.

    python tools/train/requantize.py classic --format i8 [--check data.npz ...] [--out PATH]

Reads ``py/briscola/ai/learn/models/<name>.bin`` as the package loads it, writes the same
network in ``--format`` (``i8``: the first layer's rows as bytes with a scale a row, about
half the bytes of ``f16``) and keeps the rest of its metadata. With ``--check``, the
positions of those self-play files (``selfplay.py``) are evaluated by both and the change is
printed: its root mean square and largest value in points, and each one's error against the
files' labels. numpy is needed, as for training.
"""
from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from train import load_data, model_path, quantize, shipped_weights, write_model  # noqa: E402


def predict(params, x, scale: float):
    import numpy as np
    w1, b1, w2, b2 = (np.asarray(p, dtype=np.float64) for p in params)
    h = np.maximum(x @ w1 + b1, 0.0)
    return (h @ w2 + float(np.ravel(b2)[0])) * scale


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Store a shipped network's weights in another format.")
    ap.add_argument("name")
    ap.add_argument("--format", choices=("f16", "i8"), required=True)
    ap.add_argument("--check", nargs="*", default=[], metavar="DATA",
                    help="self-play files whose positions both versions evaluate")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    try:
        params, meta = shipped_weights(args.name)
    except ValueError as e:
        print(f"requantize: {e}", file=sys.stderr)
        return 2
    old = meta.get("format", "f16")
    meta = dict(meta)
    if args.format == "f16":
        meta.pop("format", None)
    else:
        meta["format"] = args.format
    new_params, raw = quantize(params, args.format)
    if args.check:
        import numpy as np
        x, y = load_data(args.check)
        scale = float(meta["scale"])
        a = predict(params, x.astype(np.float64), scale)
        b = predict(new_params, x.astype(np.float64), scale)
        d = b - a
        print(f"{len(y)} positions: change rms {np.sqrt(np.mean(d * d)):.4f}, largest "
              f"{np.abs(d).max():.4f} points; error against the labels {old} "
              f"{np.sqrt(np.mean((a - y) ** 2)):.4f}, {args.format} "
              f"{np.sqrt(np.mean((b - y) ** 2)):.4f} points")
    out = args.out or model_path(args.name)
    size = write_model(out, params, meta)
    print(f"{out}: {size} bytes of weights ({old} -> {args.format})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
