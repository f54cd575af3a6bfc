# The strategy's orders: ctx.position, ctx.buy / sell / close / set_stop / set_target, their checks
# and how they are packed for the engine. Run after runtime.py in the same globals (its _state).
import math


class Position:
    __slots__ = ("side", "entry_price", "volume", "sl", "tp", "entry_index")

    def __init__(self, side, entry_price, volume, sl, tp, entry_index):
        self.side, self.entry_price, self.volume = side, entry_price, volume
        self.sl, self.tp, self.entry_index = sl, tp, entry_index


# At most this many targets an order (MAX_ORDER_TARGETS in the engine's types.ts), and how far the
# shares may sum above 1 (SHARE_TOLERANCE in the domain's targets.ts).
_MAX_TARGETS = 10
_SHARE_TOLERANCE = 1e-6


def _number(value, where, what):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{where}: {what} must be a number, got {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{where}: {what} must be a finite number, got {value}")
    return value


def _targets(targets, where, side=0):
    """Checks a target list and returns it as [(kind, value, share), ...]: kind 0 for an R multiple,
    1 for a price (TARGET_KIND in the engine). Each target is an (r, share) pair, {"r": r, "share": s}
    or {"price": p, "share": s}; shares are parts of the initial volume, > 0, summing to at most 1."""
    if isinstance(targets, (str, bytes, dict)) or not isinstance(targets, (list, tuple)):
        raise TypeError(f"{where}: targets must be a list of (r, share) pairs or dicts, got {type(targets).__name__}")
    if not 0 < len(targets) <= _MAX_TARGETS:
        raise ValueError(f"{where}: targets takes 1 to {_MAX_TARGETS} targets, got {len(targets)}")
    out = []
    for k, t in enumerate(targets, 1):
        if isinstance(t, dict):
            if set(t) == {"r", "share"}:
                kind, value = 0, t["r"]
            elif set(t) == {"price", "share"}:
                kind, value = 1, t["price"]
            else:
                raise ValueError(f'{where}: target {k} must be {{"r": R, "share": S}} or {{"price": P, "share": S}}, '
                                 f"got the keys {sorted(map(str, t))}")
            share = t["share"]
        elif isinstance(t, (tuple, list)) and len(t) == 2:
            kind, (value, share) = 0, t
        else:
            raise TypeError(f"{where}: target {k} must be an (r, share) pair or a dict, got {t!r}")
        value = _number(value, where, f"target {k}'s {'r' if kind == 0 else 'price'}")
        share = _number(share, where, f"target {k}'s share")
        if not value > 0:
            raise ValueError(f"{where}: target {k}'s {'r' if kind == 0 else 'price'} must be positive, got {value:g}")
        if not 0 < share <= 1:
            raise ValueError(f"{where}: target {k}'s share must be greater than 0 and at most 1, got {share:g}")
        # Targets are closed in the order given: each must lie beyond the one before. R multiples grow;
        # prices grow for a buy and fall for a sell (unknown in signals(): the engine checks at the fill).
        before = out[-1] if out else None
        if before and before[0] == kind and (kind == 0 or side):
            if (value - before[1]) * (1 if kind == 0 else side) <= 0:
                raise ValueError(f"{where}: target {k} is not beyond target {k - 1}: give targets nearest first")
        out.append((kind, value, share))
    total = math.fsum(s for _, _, s in out)
    if total > 1 + _SHARE_TOLERANCE:
        raise ValueError(f"{where}: the target shares sum to {total:g}, more than the whole position (1)")
    return out


def _pack_targets(lists):
    """The orders' targets side list: per order its count, then kind, value, share each."""
    from array import array

    packed = array("d")
    for t in lists:
        if t:
            packed.append(len(t))
            for x in t:
                packed.extend(x)
        else:
            packed.append(0)
    return packed.tobytes()


class Context:
    def __init__(self, params, data):
        self.params = params
        self.data = data
        self.position = None
        self.balance = 0.0
        self.orders = []
        # One tag (or None) per order: live runs write it as the journal's reason.
        self.tags = []
        # One target list (or None) per order; private, as strategies set their own attributes on ctx.
        self._targets = []
        self.state = {}

    def buy(self, sl=None, tp=None, tp_r=None, sl_distance=None, limit=None, stop=None, risk=None, tag=None,
            targets=None):
        self._order(1, sl, tp, tp_r, sl_distance, limit, stop, risk, tag, targets)

    def sell(self, sl=None, tp=None, tp_r=None, sl_distance=None, limit=None, stop=None, risk=None, tag=None,
             targets=None):
        self._order(-1, sl, tp, tp_r, sl_distance, limit, stop, risk, tag, targets)

    def close(self):
        self._put((0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0), None, None)

    def set_stop(self, sl):
        """Moves the stop of the open positions (from the next bar)."""
        self._put((2, 0, 0.0, float(sl), 0.0, 0.0, 0.0, 0.0), None, None)
        if self.position is not None:
            self.position.sl = float(sl)

    def set_target(self, tp):
        """Sets the take profit of what is left of the open positions (from the next bar)."""
        self._put((3, 0, 0.0, 0.0, float(tp), 0.0, 0.0, 0.0), None, None)
        if self.position is not None:
            self.position.tp = float(tp)

    def _put(self, order, tag, targets):
        self.orders.append(order)
        self.tags.append(tag)
        self._targets.append(targets)

    def _order(self, side, sl, tp, tp_r, sl_distance, limit, stop, risk, tag=None, targets=None):
        if targets is not None:
            where = "ctx.buy()" if side > 0 else "ctx.sell()"
            if tp is not None or tp_r is not None:
                raise ValueError(f"{where}: give targets or tp / tp_r, not both")
            targets = _targets(targets, where, side)
        nan = float("nan")
        kind, price = (1, float(limit)) if limit is not None else (2, float(stop)) if stop is not None else (0, nan)
        self._put((side, kind, price,
                   nan if sl is None else float(sl), nan if tp is None else float(tp),
                   nan if tp_r is None else float(tp_r),
                   nan if sl_distance is None else float(sl_distance),
                   nan if risk is None else float(risk)),
                  None if tag is None else str(tag)[:200], targets)


def _signal_targets(values, n):
    """signals()'s "targets": one list for every entry, or {bar index: list or None}. Returns
    [bar indices (None: every entry), packed lists] (see SignalTargets in the engine)."""
    from array import array

    where = "signals()['targets']"
    if not isinstance(values, dict):
        return [None, _pack_targets([_targets(values, where)])]
    index, lists = array("d"), []
    for i, t in values.items():
        if not isinstance(i, int):
            raise TypeError(f"{where} has bar index {i!r}: bar indices must be integers")
        if not 0 <= i < n:
            raise IndexError(f"{where} has bar index {i}, outside 0..{n - 1}")
        if t is not None:
            index.append(i)
            lists.append(_targets(t, f"{where}[{i}]"))
    return [index.tobytes(), _pack_targets(lists)]


def take_orders():
    """Packs and clears the pending orders: 8 floats each. When an order carries targets, returns
    [orders, targets side list] instead, so that orders without targets cost nothing more."""
    from array import array

    ctx = _state["ctx"]
    flat = array("d", [x for o in ctx.orders for x in o]).tobytes()
    targets = ctx._targets
    out = [flat, _pack_targets(targets)] if any(targets) else flat
    ctx.orders.clear()
    ctx.tags.clear()
    targets.clear()
    return out
