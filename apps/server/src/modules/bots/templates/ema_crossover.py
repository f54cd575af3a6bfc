"""EMA crossover (per-bar style).

Buys when the fast EMA crosses above the slow EMA and sells short when it crosses below.
The stop sits `atr_mult` ATRs away from the close; the target is `target_r` times that risk.
Positions are sized by the backtest config's risk per trade (the Place a Trade lot-size rule).
"""


def indicators(params):
    # Computed once by the server before the run; read them with ctx.data.ema(n) / ctx.data.atr(n).
    return [f"ema({params['fast']})", f"ema({params['slow']})", f"atr({params['atr']})"]


def init(ctx, params):
    # Keep the series in ctx so on_bar does plain list indexing (fast).
    ctx.fast = ctx.data.ema(params["fast"])
    ctx.slow = ctx.data.ema(params["slow"])
    ctx.atr = ctx.data.atr(params["atr"])


def on_bar(ctx, bar):
    i = bar.i
    if i == 0:
        return
    fast, slow = ctx.fast, ctx.slow
    up = fast[i - 1] <= slow[i - 1] and fast[i] > slow[i]
    down = fast[i - 1] >= slow[i - 1] and fast[i] < slow[i]
    if not (up or down):
        return
    risk = ctx.atr[i] * ctx.params["atr_mult"]
    if risk != risk:  # ATR not defined yet (NaN)
        return
    if ctx.position is not None:
        ctx.close()  # reverse: close the open position first
    if up:
        ctx.buy(sl_distance=risk, tp_r=ctx.params["target_r"])
    else:
        ctx.sell(sl_distance=risk, tp_r=ctx.params["target_r"])
