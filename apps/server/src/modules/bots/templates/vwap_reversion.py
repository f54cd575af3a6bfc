"""VWAP reversion (vectorised style).

When the close stretches more than `band` ATRs below the session VWAP (anchored at each UTC day),
buy and target the VWAP; more than `band` ATRs above, sell short. The stop is `atr_mult` ATRs beyond
the entry close.
"""


def indicators(params):
    return ["vwap()", f"atr({params['atr']})"]


def signals(data, params):
    vwap = data.vwap()
    atr = data.atr(params["atr"])
    close = data.close
    n = len(close)
    band, k = params["band"], params["atr_mult"]
    entries, shorts = [False] * n, [False] * n
    sl, tp = [None] * n, [None] * n
    for i in range(n):
        v, a = vwap[i], atr[i]
        if v != v or a != a:
            continue
        if close[i] < v - band * a:
            entries[i], sl[i], tp[i] = True, close[i] - k * a, v
        elif close[i] > v + band * a:
            shorts[i], sl[i], tp[i] = True, close[i] + k * a, v
    return {"entries": entries, "short_entries": shorts, "sl": sl, "tp": tp}
