"""RSI mean reversion (vectorised style).

Buys when RSI falls below `oversold`, sells short above `overbought`; leaves when RSI returns to 50.
The stop is `atr_mult` ATRs beyond the close; there is no fixed target (the exit is the RSI signal).
"""


def indicators(params):
    return [f"rsi({params['rsi']})", f"atr({params['atr']})"]


def signals(data, params):
    rsi = data.rsi(params["rsi"])
    atr = data.atr(params["atr"])
    close = data.close
    k = params["atr_mult"]
    n = len(close)
    entries, exits = [False] * n, [False] * n
    shorts, short_exits = [False] * n, [False] * n
    sl = [None] * n
    for i in range(1, n):
        r, a = rsi[i], atr[i]
        if r != r or a != a:  # NaN until RSI and ATR are defined
            continue
        if r < params["oversold"] <= rsi[i - 1]:
            entries[i] = True
            sl[i] = close[i] - k * a
        elif r > params["overbought"] >= rsi[i - 1]:
            shorts[i] = True
            sl[i] = close[i] + k * a
        exits[i] = r >= 50
        short_exits[i] = r <= 50
    return {"entries": entries, "exits": exits, "short_entries": shorts, "short_exits": short_exits, "sl": sl}
