"""lambda-labels: G_t = (1-lam) s_t + lam (r_t + G_{t+1}), per deal and side, where s_t is
the searched value at position t (the outcome label where NaN), r_t the side's points
between position t and the side's next one; the last position's G is its outcome label."""
import sys, numpy as np
lam = float(sys.argv[1]); out = sys.argv[2]; paths = sys.argv[3:]
F, S, Y, D = [], [], [], []
base = 0
for p in paths:
    d = np.load(p)
    y = d["labels"].astype(np.float64); s = d["searched"].astype(np.float64)
    side = d["side"].astype(int); then = d["then"].astype(np.float64); deal = d["deals"]
    g = y.copy()
    s = np.where(np.isnan(s), y, s)
    idx_by = {}
    for i in range(len(y)):
        idx_by.setdefault((int(deal[i]), side[i]), []).append(i)
    for key, idx in idx_by.items():
        nxt = None
        for i in reversed(idx):
            if nxt is None:
                g[i] = (1 - lam) * s[i] + lam * y[i]
            else:
                r = then[nxt] - then[i]
                g[i] = (1 - lam) * s[i] + lam * (r + g[nxt])
            nxt = i
    F.append(d["flags"]); S.append(d["scalars"]); Y.append(g.astype(np.float32)); D.append(deal + base)
    base += int(deal.max()) + 1
y = np.concatenate(Y)
np.savez_compressed(out, flags=np.concatenate(F), scalars=np.concatenate(S), labels=y, deals=np.concatenate(D))
print(out, len(y), "mean", y.mean())
