# Strategy runtime inside the sandbox: import guard, the `tradedesk` helper module and the drivers that
# the trusted engine calls. Loaded once per sandbox process, before any strategy code.
import sys
import types
import importlib.abc
import traceback

BLOCKED = {
    "js", "pyodide", "pyodide_js", "_pyodide", "_pyodide_core", "micropip", "ctypes", "_ctypes",
    "socket", "_socket", "ssl", "_ssl", "select", "selectors", "subprocess", "_posixsubprocess",
    "multiprocessing", "_multiprocessing", "urllib.request", "http.client", "ftplib",
    "smtplib", "webbrowser", "pyodide_http",
}


class _Guard(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name in BLOCKED or name.split(".")[0] in BLOCKED:
            raise ImportError(f"module '{name}' is not available in the strategy sandbox")
        return None


for _name in list(sys.modules):
    if _name in BLOCKED or _name.split(".")[0] in BLOCKED:
        del sys.modules[_name]
sys.meta_path.insert(0, _Guard())


def _no_process(*args, **kwargs):
    raise PermissionError("starting processes is not available in the strategy sandbox")


import os as _os

for _name in ("system", "popen", "fork", "forkpty", "execv", "execve", "execl", "execle", "execlp", "execvp",
              "execvpe", "spawnl", "spawnle", "spawnv", "spawnve", "posix_spawn", "posix_spawnp", "kill"):
    if hasattr(_os, _name):
        setattr(_os, _name, _no_process)

# ---- tradedesk: helpers for strategies (documented in docs/strategies.md) ----
td = types.ModuleType("tradedesk")


def crossover(a, b):
    """Per-bar flags (bytes of 0/1): 1 at i when a crosses above b (a[i-1] <= b[i-1] and a[i] > b[i];
    0 where either is NaN). Built with map() so the loop runs in C, not bytecode."""
    from itertools import islice
    from operator import and_, gt, le

    if len(a) == 0:
        return b""
    above = map(gt, islice(a, 1, None), islice(b, 1, None))
    was_below = map(le, a, b)
    return b"\x00" + bytes(map(and_, above, was_below))


def crossunder(a, b):
    """Per-bar flags: 1 at i when a crosses below b."""
    return crossover(b, a)


def crossed_above(a, b, i):
    """Per-bar form of crossover at index i."""
    return i > 0 and a[i - 1] <= b[i - 1] and a[i] > b[i]


def crossed_below(a, b, i):
    return i > 0 and a[i - 1] >= b[i - 1] and a[i] < b[i]


def rolling(values, window, fn):
    """fn over each trailing window of `window` values; None until the window is full."""
    n = len(values)
    out = [None] * n
    for i in range(window - 1, n):
        out[i] = fn(values[i - window + 1 : i + 1])
    return out


def _extreme(values, window, better):
    # Monotonic deque: O(n) rolling max/min.
    from collections import deque

    n = len(values)
    out = [None] * n
    q = deque()
    for i in range(n):
        v = values[i]
        while q and not better(values[q[-1]], v):
            q.pop()
        q.append(i)
        if q[0] <= i - window:
            q.popleft()
        if i >= window - 1:
            out[i] = values[q[0]]
    return out


def highest(values, window):
    """Rolling highest of the last `window` values (including the current one)."""
    return _extreme(values, window, lambda kept, new: kept > new)


def lowest(values, window):
    """Rolling lowest of the last `window` values (including the current one)."""
    return _extreme(values, window, lambda kept, new: kept < new)


td.crossover = crossover
td.crossunder = crossunder
td.crossed_above = crossed_above
td.crossed_below = crossed_below
td.rolling = rolling
td.highest = highest
td.lowest = lowest
sys.modules["tradedesk"] = td


class _NotCopied:
    """A bar column the engine did not copy: the strategy's text never names it (see columns.ts)."""

    def __init__(self, name):
        self._name = name

    def _fail(self, *args, **kwargs):
        raise AttributeError(f"the bar column '{self._name}' was not copied into the sandbox: name it in the strategy")

    __getitem__ = __len__ = __iter__ = _fail


class Data:
    """Bars as read-only sequences (memoryviews over the engine's Float64Arrays) plus indicators."""

    def __init__(self, cols, ind):
        self.time = cols["time"] if "time" in cols else _NotCopied("time")
        self.open = cols["open"] if "open" in cols else _NotCopied("open")
        self.high = cols["high"] if "high" in cols else _NotCopied("high")
        self.low = cols["low"] if "low" in cols else _NotCopied("low")
        self.close = cols["close"]
        self.volume = cols["volume"] if "volume" in cols else _NotCopied("volume")
        self.ind = ind

    def __len__(self):
        return len(self.close)

    def __getattr__(self, name):
        # data.ema(21) -> the indicator requested as "ema(21)".
        def get(*args):
            key = f"{name}({','.join(str(a) for a in args)})"
            if key not in self.ind:
                raise KeyError(f"indicator {key} was not requested: add it to INDICATORS or indicators(params)")
            return self.ind[key]

        return get


def _bar_class(data):
    """The bar handed to on_bar: its index, with its fields read on access (most strategies index series)."""
    t, o, h, l, c, v, ind = data.time, data.open, data.high, data.low, data.close, data.volume, data.ind

    class Bar:
        __slots__ = ("i",)
        time = property(lambda self: t[self.i])
        open = property(lambda self: o[self.i])
        high = property(lambda self: h[self.i])
        low = property(lambda self: l[self.i])
        close = property(lambda self: c[self.i])
        volume = property(lambda self: v[self.i])

        def ind(self, key):
            return ind[key][self.i]

    return Bar


_state = {}


def _user_error():
    """The strategy's own traceback lines (frames of <strategy>), ending with the exception."""
    etype, value, tb = sys.exc_info()
    frames = [f for f in traceback.extract_tb(tb) if f.filename == "<strategy>"]
    lines = [f'  File "<strategy>", line {f.lineno}, in {f.name}\n    {f.line}' for f in frames]
    return "\n".join(["Traceback (most recent call last):", *lines, f"{etype.__name__}: {value}"])


def load(code, params_json):
    import json

    params = json.loads(params_json)
    mod = types.ModuleType("strategy")
    mod.__dict__["__builtins__"] = __builtins__
    import linecache

    linecache.cache["<strategy>"] = (len(code), None, code.splitlines(True), "<strategy>")
    try:
        exec(compile(code, "<strategy>", "exec"), mod.__dict__)
        style = "signals" if callable(mod.__dict__.get("signals")) else "on_bar" if callable(mod.__dict__.get("on_bar")) else None
        if style is None:
            return "ERR:A strategy must define signals(data, params) or on_bar(ctx, bar)."
        want = mod.__dict__.get("indicators")
        specs = list(want(params)) if callable(want) else list(mod.__dict__.get("INDICATORS", []))
    except BaseException:
        return "ERR:" + _user_error()
    _state.update(mod=mod, params=params, style=style)
    return style + ":" + json.dumps([str(s) for s in specs])


def new_column(n):
    """A column of n doubles that the engine fills in place (through the buffer protocol) before
    set_columns: the bars are written once, straight into the interpreter's memory."""
    from array import array

    return array("d", [0.0]) * n


def set_columns(names_json, specs_json, *columns):
    """The bars (columns named by names_json) and the requested series (specs_json), in that order."""
    import json

    names, specs = json.loads(names_json), json.loads(specs_json)
    views = [memoryview(c).toreadonly() for c in columns]
    ind = dict(zip(specs, views[len(names):]))
    _state["data"] = Data(dict(zip(names, views)), ind)
    # A signals() entry that is one of these series is handed back by name, not copied.
    _state["series_ids"] = {id(v): k for k, v in ind.items()}


def _dense(values, n, name, as_bool):
    """Packs one signals() entry as [kind, a, b]. Flags: a sequence of n truthy values. Prices and R:
    a sequence of n numbers or None, one number for every bar, or a dict {bar index: value} for a few
    bars. A requested series returned as it is ("ref") and one number or a dict ("const", "sparse")
    cross back without a per-bar copy; the engine expands them."""
    from array import array

    if values is None:
        return None
    nan = float("nan")
    ref = _state.get("series_ids", {}).get(id(values))
    if ref is not None:
        return ["ref", ref, None]
    if not as_bool and isinstance(values, (int, float)):
        return ["const", float(values), None]
    if not as_bool and isinstance(values, dict):
        index, value = array("d"), array("d")
        for i, v in values.items():
            if not isinstance(i, int):
                raise TypeError(f"signals()['{name}'] has bar index {i!r}: bar indices must be integers")
            if not 0 <= i < n:
                raise IndexError(f"signals()['{name}'] has bar index {i}, outside 0..{n - 1}")
            index.append(i)
            value.append(nan if v is None else float(v))
        return ["sparse", index.tobytes(), value.tobytes()]
    if len(values) != n:
        raise ValueError(f"signals()['{name}'] has {len(values)} values, expected {n} (one per bar)")
    if as_bool:
        if isinstance(values, bytes):
            return ["flags", values, None]
        if isinstance(values, memoryview) and values.format == "d":
            return ["dense", values.tobytes(), None]  # a series of doubles: non-zero = True
        return ["flags", bytes(map(bool, values)), None]
    try:
        return ["dense", array("d", values).tobytes(), None]
    except TypeError:
        return ["dense", array("d", [nan if v is None else float(v) for v in values]).tobytes(), None]


def run_signals():
    """Vectorised style: returns [[key, kind, a, b], ...] (see _dense; "targets" as _signal_targets
    packs them), or 'ERR:<traceback>'."""
    mod, data = _state["mod"], _state["data"]
    try:
        out = mod.signals(data, _state["params"])
        if not isinstance(out, dict):
            raise TypeError("signals() must return a dict of per-bar lists")
        n = len(data)
        keys = {"entries": True, "exits": True, "short_entries": True, "short_exits": True,
                "sl": False, "tp": False, "tp_r": False}
        unknown = set(out) - set(keys) - {"targets"}
        if unknown:
            raise KeyError(f"signals() returned unknown keys: {sorted(unknown)}")
        packed = [[k, *_dense(out.get(k), n, k, b)] for k, b in keys.items() if out.get(k) is not None]
        if out.get("targets") is not None:
            packed.append(["targets", "targets", *_signal_targets(out["targets"], n)])
        return packed
    except BaseException:
        return "ERR:" + _user_error()


def start_bars():
    mod = _state["mod"]
    ctx = Context(_state["params"], _state["data"])
    _state["ctx"] = ctx
    _state["bar"] = _bar_class(_state["data"])()
    init = mod.__dict__.get("init")
    try:
        if callable(init):
            init(ctx, _state["params"])
    except BaseException:
        return "ERR:" + _user_error()
    return ""


def set_position(side, entry_price, volume, sl, tp, entry_index, balance):
    ctx = _state["ctx"]
    ctx.balance = balance
    ctx.position = None if side == 0 else Position("buy" if side > 0 else "sell", entry_price, volume, sl, tp, entry_index)


def make_runner():
    """Returns run(i, j): calls on_bar for bars i..j-1 and stops after the first bar that placed orders.
    Returns that bar's index, j when none did, or -1 on a strategy error (see last_error)."""
    ctx, bar, on_bar = _state["ctx"], _state["bar"], _state["mod"].on_bar
    orders = ctx.orders

    def run(i, j):
        try:
            for k in range(i, j):
                bar.i = k
                on_bar(ctx, bar)
                if orders:
                    return k
        except BaseException:
            _state["error"] = _user_error()
            return -1
        return j

    return run


def last_error():
    return _state.pop("error", "")

