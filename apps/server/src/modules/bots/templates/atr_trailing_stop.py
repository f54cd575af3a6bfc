"""ATR trailing-stop trend follower (per-bar style).

Trades in the direction of the slow EMA: buys when the close crosses above it, sells short when it
crosses below. The stop starts `atr_mult` ATRs away and trails the close every bar, never loosening.
There is no target: the trailing stop ends every trade.
"""
from tradedesk import crossed_above, crossed_below


def indicators(params):
    return [f"ema({params['trend']})", f"atr({params['atr']})"]


def init(ctx, params):
    ctx.trend = ctx.data.ema(params["trend"])
    ctx.atr = ctx.data.atr(params["atr"])
    ctx.close_ = ctx.data.close


def on_bar(ctx, bar):
    i = bar.i
    a = ctx.atr[i]
    if a != a:
        return
    distance = a * ctx.params["atr_mult"]
    pos = ctx.position
    if pos is not None:
        # Trail: move the stop only in the trade's favour.
        if pos.side == "buy":
            new_sl = bar.close - distance
            if new_sl > pos.sl:
                ctx.set_stop(new_sl)
        else:
            new_sl = bar.close + distance
            if new_sl < pos.sl:
                ctx.set_stop(new_sl)
        return
    if crossed_above(ctx.close_, ctx.trend, i):
        ctx.buy(sl_distance=distance)
    elif crossed_below(ctx.close_, ctx.trend, i):
        ctx.sell(sl_distance=distance)
