"""The analyses of bench/analysis.bench.ts written in pandas/numpy, as a data analyst would: the same
bars (raw float64 columns time, open, high, low, close, volume), the same steps (resample M1 -> M15,
ATR(14) Wilder, daily VWAP of hlc3, then each analysis as docs/analysis.md defines it), timed the same
way (wall clock and process CPU time). Prints JSON: timings in ms (medians and best) and the count figures the TypeScript run checks.

Usage: python3 bench/analysis_pandas.py <m1.f64> <runs> <warm-ups>
"""
import json
import sys
import time

import numpy as np
import pandas as pd

MIN = 60_000
HOUR = 3_600_000
DAY = 86_400_000
SESSIONS = [("Asia", 0, 7), ("London", 7, 14), ("New York", 14, 23)]
TARGETS = [0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4]
STOPS = [0.5, 1, 1.5, 2, 2.5, 3]
HORIZON = 500


def load(path):
    raw = np.fromfile(path, dtype="<f8")
    n = raw.size // 6
    c = raw.reshape(6, n)
    return pd.DataFrame({"time": c[0], "open": c[1], "high": c[2], "low": c[3], "close": c[4], "volume": c[5]})


def resample(df, minutes):
    ms = minutes * MIN
    g = df.groupby((df["time"] // ms) * ms, sort=True)
    out = pd.DataFrame(
        {
            "open": g["open"].first(),
            "high": g["high"].max(),
            "low": g["low"].min(),
            "close": g["close"].last(),
            "volume": g["volume"].sum(),
        }
    )
    out.index.name = "time"
    return out.reset_index()


def atr(b, period=14):
    prev = b["close"].shift(1)
    tr = pd.concat([b["high"], prev], axis=1).max(axis=1) - pd.concat([b["low"], prev], axis=1).min(axis=1)
    x = tr.copy()
    x.iloc[: period - 1] = np.nan
    x.iloc[period - 1] = tr.iloc[:period].mean()
    return x.iloc[period - 1 :].ewm(alpha=1 / period, adjust=False).mean().reindex(tr.index).to_numpy()


def vwap(b):
    day = b["time"] // DAY
    tp = (b["high"] + b["low"] + b["close"]) / 3
    pv = (tp * b["volume"]).groupby(day).cumsum()
    v = b["volume"].groupby(day).cumsum()
    return (pv / v.where(v > 0)).to_numpy()


def instances(b):
    tod = b["time"] % DAY
    sess = np.full(len(b), -1)
    for i, (_, s, e) in enumerate(SESSIONS):
        sess[(tod >= s * HOUR) & (tod < e * HOUR)] = i
    x = b.assign(day=b["time"] // DAY, s=sess, idx=np.arange(len(b)))
    x = x[x["s"] >= 0]
    inst = (
        x.groupby(["day", "s"], sort=True)
        .agg(
            open=("open", "first"),
            close=("close", "last"),
            high=("high", "max"),
            low=("low", "min"),
            first=("idx", "first"),
            last=("idx", "last"),
        )
        .reset_index()
    )
    inst["dir"] = np.sign(inst["close"] - inst["open"])
    return inst


def pairs(inst, frm):
    nxt = inst.shift(-1)
    ok = (inst["s"] == frm) & (nxt["s"] == (frm + 1) % 3) & (nxt["day"] - inst["day"] <= 4)
    return inst[ok], nxt[ok]


def trend(b, a):
    inst = instances(b)
    out = []
    for frm in range(3):
        prev, nxt = pairs(inst, frm)
        comp = prev["dir"] != 0
        prev, nxt = prev[comp], nxt[comp]
        cont = (nxt["dir"].to_numpy() == prev["dir"].to_numpy())
        r = ((prev["high"] - prev["low"]).to_numpy() / a[prev["last"].to_numpy()])
        fin = np.isfinite(r)
        rv = r[fin]
        if rv.size == 0:
            edges = []
        else:
            qs = [0.5] if rv.size < 10 else [0.2, 0.4, 0.6, 0.8]
            edges = []
            for e in np.round(np.quantile(rv, qs) * 100) / 100:
                if not edges or e > edges[-1]:
                    edges.append(float(e))
        bucket = np.searchsorted(np.array(edges), rv, side="right")
        hits = pd.Series(cont[fin]).groupby(bucket).sum().reindex(range(len(edges) + 1), fill_value=0)
        weekday = (prev["day"].to_numpy() + 4) % 7
        pd.Series(cont).groupby(weekday).agg(["sum", "count"])
        out.append([int(comp.sum()), int(cont.sum()), [int(h) for h in hits]])
    return out


def vwap_conditional(b, a, v):
    inst = instances(b)
    out = []
    for frm in range(3):
        prev, nxt = pairs(inst, frm)
        vv = v[prev["last"].to_numpy()]
        keep = np.isfinite(vv)
        close = prev["close"].to_numpy()[keep]
        vv = vv[keep]
        nd = nxt["dir"].to_numpy()[keep]
        diff = close - vv
        pos = np.where(np.abs(diff) <= 1e-9 * np.abs(close), "at", np.where(diff > 0, "above", "below"))
        table = pd.crosstab(pos, nd).reindex(index=["above", "below", "at"], columns=[1.0, -1.0, 0.0], fill_value=0)
        aa = a[prev["last"].to_numpy()][keep]
        d = diff / aa
        ok = (pos != "at") & np.isfinite(d) & (aa > 0)
        m = np.searchsorted(np.array([0.5, 1, 2]), np.abs(d[ok]), side="right")
        bucket = np.where(d[ok] < 0, 3 - m, 4 + m)
        pd.crosstab(bucket, nd[ok])
        out.append([[int(x) for x in row] for row in table.to_numpy()])
    return out


def atr_scenario(b, a):
    o_all, h_all, l_all = b["open"].to_numpy(), b["high"].to_numpy(), b["low"].to_numpy()
    n = len(o_all)
    prev_atr = np.concatenate([[np.nan], a[:-1]])
    idx = np.nonzero(prev_atr > 0)[0]
    idx = idx[idx >= 1]
    o, A = o_all[idx], prev_atr[idx]
    levels = sorted(set(TARGETS) | set(STOPS))
    L = len(levels)
    up = np.full((L, idx.size), np.inf)
    down = np.full((L, idx.size), np.inf)
    active = np.arange(idx.size)
    lv = np.array(levels)[:, None]
    for j in range(HORIZON):
        if active.size == 0:
            break
        k = idx[active] + j
        valid = k < n
        active = active[valid]
        k = k[valid]
        hu = (h_all[k] - o[active]) / A[active]
        ld = (o[active] - l_all[k]) / A[active]
        u = up[:, active]
        dn = down[:, active]
        u[(hu >= lv) & np.isinf(u)] = j
        dn[(ld >= lv) & np.isinf(dn)] = j
        up[:, active] = u
        down[:, active] = dn
        if j % 25 == 24:
            active = active[~(np.isfinite(up[:, active]).all(axis=0) & np.isfinite(down[:, active]).all(axis=0))]
    cells = []
    for direction in ("long", "short"):
        for k in TARGETS:
            for m in STOPS:
                ki, mi = levels.index(k), levels.index(m)
                hit, stop = (up[ki], down[mi]) if direction == "long" else (down[ki], up[mi])
                unresolved = np.isinf(hit) & np.isinf(stop)
                wins = (hit < stop) & ~unresolved
                w, u_ = int(wins.sum()), int(unresolved.sum())
                cells.append([direction, k, m, w, int(idx.size - w - u_), u_])
    # session ranges in ATR of the bar before each session
    inst = instances(b)
    first = inst["first"].to_numpy()
    aa = np.where(first >= 1, a[np.maximum(first - 1, 0)], np.nan)
    r = (inst["high"] - inst["low"]).to_numpy() / aa
    pd.Series(r[aa > 0]).groupby(inst["s"].to_numpy()[aa > 0]).describe(percentiles=[0.5, 0.75, 0.9])
    picked = [[c[0], c[1], c[3], c[4], c[5]] for c in cells if c[2] == 1 and c[1] in (1, 2)]
    return [int(idx.size), picked]


def run(df, kind):
    c0 = time.process_time()
    t0 = time.perf_counter()
    b = resample(df, 15)
    t1 = time.perf_counter()
    a = atr(b)
    v = vwap(b) if kind == "VWAP_CONDITIONAL" else None
    t2 = time.perf_counter()
    if kind == "TREND_CONTINUATION":
        fig = trend(b, a)
    elif kind == "VWAP_CONDITIONAL":
        fig = vwap_conditional(b, a, v)
    else:
        fig = atr_scenario(b, a)
    t3 = time.perf_counter()
    cpu = time.process_time() - c0
    ms = lambda x: x * 1000
    return {
        "resample": ms(t1 - t0),
        "indicators": ms(t2 - t1),
        "analysis": ms(t3 - t2),
        "total": ms(t3 - t0),
        "cpu": ms(cpu),
    }, fig


def main():
    df = load(sys.argv[1])
    runs, warm = int(sys.argv[2]), int(sys.argv[3])
    timings, figures = {}, {}
    kinds = ("TREND_CONTINUATION", "VWAP_CONDITIONAL", "ATR_SCENARIO")
    for _ in range(warm):
        for kind in kinds:
            run(df, kind)
    for kind in kinds:
        results = [run(df, kind) for _ in range(runs)]
        med = lambda key: float(np.median([r[0][key] for r in results]))
        timings[kind] = {k: med(k) for k in ("resample", "indicators", "analysis", "total", "cpu")}
        timings[kind]["best"] = min(r[0]["total"] for r in results)
        figures[kind] = results[0][1]
    print(json.dumps({"timings": timings, "figures": figures}))


if __name__ == "__main__":
    main()
