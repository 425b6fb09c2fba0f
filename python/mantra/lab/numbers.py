"""How the report writes a number: with the unit its metric's name gives, and with no more
digits than the data support.

    interval(1372.4, 2.5, 3, unit_of("throughput_kbps"))  ->  "1372 ± 3 kb/s"
    interval(0.18437, 0.0461, 3)                          ->  "0.18 ± 0.05"
    interval(0.14, 0.11, 2)                               ->  "0.14 ± 0.11"
    interval(1372.4, nan, 1, KBPS)                        ->  "1372 kb/s (n=1)"   one seed: no interval
    interval(13702.0, 340.0, 5)                           ->  "13 700 ± 300"
    interval(38.5, 370.0, 2)                              ->  "39 ± 400"
    number(0.0543, unit_of("delivered_share"))            ->  "5.43 %"
    number(-0.000012)                                     ->  "−1.20×10⁻⁵"
    interval(7.54e-5, 5.9e-6, 3)                          ->  "(7.5 ± 0.6)×10⁻⁵"

- An interval's half-width keeps one significant digit, two when that digit is 1 (rounding
  0.14 to 0.1 would move it by a third); the mean is rounded at the half-width's last digit,
  but keeps at least two significant digits (an interval wider than the mean does not round
  the mean away), up to two decimals past the half-width's. Both round half up.
- A value alone (a quartile, a picked run) keeps three significant digits but every digit
  before the point (1372, 38.5, 0.184, 25.0); an integer (a count) is written whole (243).
- Plain positional notation from 10⁻⁴ up to 10¹⁵, a power of ten outside (for an interval,
  one for both: "(7.5 ± 0.6)×10⁻⁵"); a true minus sign (−) and never a negative zero; from
  10 000 on, groups of three digits separated by a narrow no-break space (13 720; four
  digits stay together: 1372).
- A value given rather than measured (an axis value, a claim's bound) keeps exactly its
  digits: label(10.0) is "10", label(0.01) "0.01".
- The unit: the last word of the metric's name (split at `_` and `.`) that names one, else of
  its result path: `kbps` kb/s, `mbps` Mb/s, `bps` b/s, `s`, `ms`, `us` µs, `db` dB, `bytes`
  B, `pct`/`percent` %, `share` a fraction shown in % (×100), `ratio` a plain number. A name
  with none of these words has no unit.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

MINUS = "\u2212"
GROUP = "\u202f"  # narrow no-break space between groups of three digits
SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
POSITIONAL = (1e-4, 1e15)  # magnitudes written without a power of ten


@dataclass(frozen=True)
class Unit:
    symbol: str = ""
    scale: float = 1.0  # shown value = value × scale (a share in %: 100)

    @property
    def suffix(self) -> str:
        return f" {self.symbol}" if self.symbol else ""


PLAIN = Unit()
PERCENT = Unit("%", 100.0)
KBPS = Unit("kb/s")
MS = Unit("ms")
SECONDS = Unit("s")
WORDS = {
    "kbps": KBPS,
    "mbps": Unit("Mb/s"),
    "bps": Unit("b/s"),
    "s": SECONDS,
    "ms": MS,
    "us": Unit("µs"),
    "db": Unit("dB"),
    "bytes": Unit("B"),
    "pct": Unit("%"),
    "percent": Unit("%"),
    "share": PERCENT,
    "ratio": PLAIN,
}


def unit_of(*names: str) -> Unit:
    """The unit told by the first of `names` (a metric's name, then its result path) whose
    words name one, read from the last word back; PLAIN if none does."""
    for name in names:
        for word in reversed(re.split(r"[._\s]+", name.lower())):
            if word in WORDS:
                return WORDS[word]
    return PLAIN


def _exponent(value: float, digits: int = 7) -> int:
    """The power of ten of the first significant digit of the value (≠ 0) rounded to
    `digits` significant digits (0.99996 to three is 1.00: 0)."""
    return int(f"{abs(value):.{digits - 1}e}".split("e")[1])


def _rounded(value: float, decimals: int) -> Decimal:
    """The value rounded half up to `decimals` places (negative: to tens, hundreds, ...)."""
    return Decimal(repr(value)).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


def _written(value: Decimal) -> str:
    text = format(value, "f")
    negative = text.startswith("-")
    whole, point, fraction = text.lstrip("-").partition(".")
    if len(whole) > 4:
        whole = f"{int(whole):,}".replace(",", GROUP)
    sign = MINUS if negative and value != 0 else ""
    return f"{sign}{whole}{point}{fraction}"


def _power(value: float, digits: int) -> str:
    mantissa, exponent = f"{value:.{digits - 1}e}".split("e")
    return f"{mantissa.replace('-', MINUS)}×10{str(int(exponent)).translate(SUPERSCRIPT)}"


def number(value: float | int | None, unit: Unit = PLAIN, digits: int = 3) -> str:
    """A value alone: `digits` significant digits, but every digit before the point; an
    integer (a count) as it is; '-' for a missing value (None or NaN)."""
    if value is None or math.isnan(value):
        return "-"
    v = float(value) * unit.scale
    if math.isinf(v):
        return f"{MINUS if v < 0 else ''}∞{unit.suffix}"
    if v != 0 and not POSITIONAL[0] <= abs(v) < POSITIONAL[1]:
        return _power(v, digits) + unit.suffix
    count = not isinstance(value, float) and v.is_integer()
    decimals = 0 if count or v == 0 else max(0, digits - 1 - _exponent(v, digits))
    return _written(_rounded(v, decimals)) + unit.suffix


def _pair(m: float, h: float) -> str:
    """A mean and a half-width (> 0), each rounded where the half-width's digits end."""
    digits = 2 if f"{h:e}"[0] == "1" else 1
    decimals = digits - 1 - _exponent(h, digits)
    # two significant digits of the mean, but no more than two decimals past the half-width's
    mean_decimals = decimals if m == 0 else max(decimals, min(1 - _exponent(m, 2), decimals + 2))
    return f"{_written(_rounded(m, mean_decimals))} ± {_written(_rounded(h, decimals))}"


def interval(mean: float, half: float, n: int, unit: Unit = PLAIN) -> str:
    """A mean over n seeds with the half-width of its 95 % interval: "1372 ± 3 kb/s"; with
    one seed (no interval) the mean alone, marked "(n=1)"; "no data" with none."""
    if n == 0 or not math.isfinite(mean):
        return "no data"
    if not math.isfinite(half):
        return f"{number(mean, unit)} (n={n})"
    mean, half = float(mean), float(half)  # a NumPy scalar's repr names its type
    m, h = mean * unit.scale, abs(half) * unit.scale
    if h == 0:
        return f"{number(mean, Unit(scale=unit.scale))} ± 0{unit.suffix}"
    largest = max(abs(m), h)
    if POSITIONAL[0] <= largest < POSITIONAL[1]:
        return _pair(m, h) + unit.suffix
    power = _exponent(largest, 2)
    return f"({_pair(m / 10**power, h / 10**power)})×10{str(power).translate(SUPERSCRIPT)}{unit.suffix}"


def label(value: float, unit: Unit = PLAIN) -> str:
    """A value given, not measured (an axis value, a claim's bound): its digits and no more,
    10.0 as "10", 0.01 as "0.01", 0.07 in % as "7 %"."""
    if not math.isfinite(value):
        return "-"
    text = repr(float(f"{value * unit.scale:.12g}"))  # 12 digits: no trace of the scaling
    return (text[:-2] if text.endswith(".0") else text).replace("-", MINUS, 1) + unit.suffix
