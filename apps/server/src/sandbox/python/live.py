# Live mode of the strategy runtime (bot live runs): run after runtime.py and orders.py in the same
# globals, so it uses their Data, Context, Position, _state, _bar_class, _user_error and take_orders.
# ---- live runs: one Context per symbol, kept across bars; the bars are updated in place ----
_live = {}


def live_set_data(key, cols, ind):
    """The window of closed bars for `key` (a symbol). The first call builds its Data; later calls
    overwrite the same arrays in place, so series a strategy kept in init() (ctx.fast = ...) follow."""
    from array import array

    new_cols = {k: array("d", v.to_py()) for k, v in cols.to_py(depth=1).items()}
    new_ind = {k: array("d", v.to_py()) for k, v in ind.to_py(depth=1).items()}
    st = _live.get(key)
    if st is None:
        _live[key] = {"data": Data(new_cols, new_ind), "ctx": None}
        return
    d = st["data"]
    for k, v in new_cols.items():
        getattr(d, k)[:] = v
    for k, v in new_ind.items():
        d.ind[k][:] = v


def live_step(key, side, entry_price, volume, sl, tp, entry_index, balance):
    """Runs the strategy on the last bar of `key`'s window: on_bar at its index, or signals() read at
    its index. Returns "" (orders are taken with live_take) or 'ERR:<traceback>'."""
    st = _live[key]
    mod, data = _state["mod"], st["data"]
    try:
        if st["ctx"] is None:
            ctx = Context(_state["params"], data)
            ctx.symbol = key
            st["ctx"] = ctx
            st["bar"] = _bar_class(data)()
            init = mod.__dict__.get("init")
            if callable(init):
                init(ctx, _state["params"])
        ctx = st["ctx"]
        ctx.balance = balance
        ctx.position = None if side == 0 else Position("buy" if side > 0 else "sell", entry_price, volume, sl, tp, entry_index)
        i = len(data) - 1
        if _state["style"] == "on_bar":
            st["bar"].i = i
            mod.on_bar(ctx, st["bar"])
        else:
            _live_signals(ctx, data, i, side)
    except BaseException:
        return "ERR:" + _user_error()
    return ""


def _live_signals(ctx, data, i, side):
    out = _state["mod"].signals(data, _state["params"])
    if not isinstance(out, dict):
        raise TypeError("signals() must return a dict of per-bar lists")

    def at(name):
        v = out.get(name)
        if v is None:
            return None
        if isinstance(v, (int, float)):
            return v
        if isinstance(v, dict):
            return v.get(i)
        return v[i]

    if (at("exits") and side > 0) or (at("short_exits") and side < 0):
        ctx.close()
    sl, tp, tp_r = at("sl"), at("tp"), at("tp_r")
    # "targets" is one list for every entry, or {bar index: list}.
    targets = out.get("targets")
    if isinstance(targets, dict):
        targets = targets.get(i)
    if at("entries"):
        ctx.buy(sl=sl, tp=tp, tp_r=tp_r, targets=targets)
    elif at("short_entries"):
        ctx.sell(sl=sl, tp=tp, tp_r=tp_r, targets=targets)


def live_take(key):
    """[packed orders (8 floats each), JSON list of their tags, their targets side list]; clears them."""
    import json

    ctx = _live[key]["ctx"]
    tags = json.dumps(ctx.tags)
    targets = _pack_targets(ctx._targets)
    _state["ctx"] = ctx
    taken = take_orders()
    return [taken[0] if isinstance(taken, list) else taken, tags, targets]
