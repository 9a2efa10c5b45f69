"""One formatter: a tiny non-zero difference never prints as a signed zero."""

from __future__ import annotations

from mam_bench.numbers import NA, interval, signed


def test_a_difference_too_small_for_four_decimals_keeps_its_digits() -> None:
    assert signed(-6.5061412082290104e-06) == "-6.51e-06"
    assert signed(4e-5) == "+4.00e-05"
    assert signed(5e-5) == "+0.0001"  # rounds to a visible decimal: the usual form
    assert signed(0.0) == "+0.0000" and signed(0.017444) == "+0.0174"
    assert interval(-2e-6, 0.34375) == "[-2.00e-06, +0.3438]"
    assert signed(None) == NA and interval(None, 1) == NA
