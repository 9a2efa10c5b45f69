"""One way to print a figure, for the console, the Markdown tables and the HTML report alike, so
the same value never reads differently in two places (values are rounded once, from full
precision: summary.csv keeps every digit)."""

from __future__ import annotations

import math
from typing import Any

#: what a missing or undefined value prints as
NA = "NA"
#: decimals of a metric, a lift or an interval end
DIGITS = 4


def _float(v: Any) -> float | None:
    """The value as a float, or None when it is missing (None, NaN, "NA", text that is no number)."""
    if v is None or isinstance(v, bool):
        return None if v is None else float(v)
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(f) else f


def plain(v: Any, digits: int = DIGITS) -> str:
    """A metric: 0.6650."""
    f = _float(v)
    return NA if f is None else f"{f:.{digits}f}"


def _signed(f: float, digits: int) -> str:
    if f != 0 and abs(f) < 0.5 * 10**-digits:  # -0.0000 would hide a real, tiny difference
        return f"{f:+.2e}"
    return f"{f:+.{digits}f}"


def signed(v: Any, digits: int = DIGITS) -> str:
    """A difference (delta, lift, mean lift): +0.0174, with its sign always shown; one too small
    for the decimals keeps its digits (-6.51e-06, on a million-agent board)."""
    f = _float(v)
    return NA if f is None else _signed(f, digits)


def interval(low: Any, high: Any, digits: int = DIGITS) -> str:
    """A confidence interval: [+0.0063, +0.3438]; NA when either end is missing."""
    a, b = _float(low), _float(high)
    return NA if a is None or b is None else f"[{_signed(a, digits)}, {_signed(b, digits)}]"


def p_value(v: Any) -> str:
    """A p value, four significant digits (small ones stay readable: 3.052e-05)."""
    f = _float(v)
    return NA if f is None else f"{f:.4g}"
