"""ISO 4217: the currencies a club may keep, with the decimal places of each one's minor unit.

A fixed list in the code (the ISO 4217 list of active codes, amendment 179, 2025), never
fetched: codes for funds, metals, testing and "no currency" (XAU, XDR, XTS, XXX, ...) are left
out, as no one pays a loo in them. `units` is not a currency: it is what sessions played for
counters count in, and every club keeps it.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from .errors import InvalidInput

UNITS = "units"  # the currency of a session played for counters

_ZERO = "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF"
_THREE = "BHD IQD JOD KWD LYD OMR TND"
_FOUR = "CLF UYW"
_TWO = """AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN
BWP BYN BZD CAD CDF CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD
FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT
LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO
NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD
SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG
YER ZAR ZMW ZWG"""

# code -> the decimal places of its minor unit (GBP 2: 1250 is 12.50)
ISO_4217: dict[str, int] = {
    **{code: 2 for code in _TWO.split()}, **{code: 0 for code in _ZERO.split()},
    **{code: 3 for code in _THREE.split()}, **{code: 4 for code in _FOUR.split()}}


def decimals(currency: str) -> int:
    """The decimal places of the currency's minor unit (0 for units, 2 if unknown)."""
    return 0 if currency == UNITS else ISO_4217.get(currency.upper(), 2)


def in_money(minor: int | None, currency: str | None) -> str | None:
    """An amount in minor units written in the currency's own units, as an accountant's sheet
    reads it: 1250 GBP -> "12.50", -58 GBP -> "-0.58", 7 JPY -> "7"; units stay units; None
    (no amount) stays None."""
    if minor is None:
        return None
    places = decimals(currency or UNITS)
    if not places:
        return str(minor)
    whole, part = divmod(abs(minor), 10 ** places)
    return f"{'-' if minor < 0 else ''}{whole}.{part:0{places}d}"


def money_cell(minor: int | None, currency: str | None) -> Decimal | None:
    """`in_money` as a number for a sheet's cell: a spreadsheet reads it as one, and a
    negative amount is a number, never text a formula guard would quote."""
    text = in_money(minor, currency)
    return None if text is None else Decimal(text)


def check_iso(value: Any, field: str = "currency") -> str:
    """An ISO 4217 code a club may keep (GBP), refused naming the field otherwise."""
    if not isinstance(value, str) or value not in ISO_4217:
        raise InvalidInput(f"{field} must be an ISO 4217 currency code such as GBP or EUR; "
                           f"got {value!r}", rule="currency", field=field)
    return str(value)


def check_kept(value: Any, kept: Iterable[str], field: str = "currency") -> str:
    """A currency the club keeps (its own or one it accepts), or units; refused otherwise."""
    if value == UNITS:
        return UNITS
    code = check_iso(value, field)
    kept = tuple(kept)
    if code not in kept:
        raise InvalidInput(f"the club keeps its books in {', '.join(kept)}, not {code}: "
                           "a treasurer may accept it (PUT /club/currencies)",
                           rule="club-currency", field=field)
    return code
