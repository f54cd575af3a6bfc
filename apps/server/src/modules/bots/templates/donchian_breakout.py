"""Donchian breakout (vectorised style).

Enters long when the close breaks above the highest high of the previous `period` bars, short when it
breaks below the lowest low. The stop is the opposite side of a channel half as long. Half the position
is taken off half-way to the target, the other half at `target_r` R. An opposite breakout closes what
is left.
"""
from tradedesk import highest, lowest


def signals(data, params):
    n = params["period"]
    high, low, close = data.high, data.low, data.close
    upper = highest(high, n)            # upper[i] = max(high[i-n+1 .. i])
    lower = lowest(low, n)
    stop_hi = highest(high, n // 2)
    stop_lo = lowest(low, n // 2)
    count = len(close)
    entries = [False] * count
    shorts = [False] * count
    sl = [None] * count
    for i in range(n, count):
        # Compare with the channel of the bars BEFORE this one, so the bar cannot break its own high.
        if close[i] > upper[i - 1]:
            entries[i] = True
            sl[i] = stop_lo[i]
        elif close[i] < lower[i - 1]:
            shorts[i] = True
            sl[i] = stop_hi[i]
    return {
        "entries": entries,
        "exits": shorts,          # a downside breakout ends a long
        "short_entries": shorts,
        "short_exits": entries,   # an upside breakout ends a short
        "sl": sl,
        # (R multiple, share of the position): one list for every entry.
        "targets": [(params["target_r"] / 2, 0.5), (params["target_r"], 0.5)],
    }
