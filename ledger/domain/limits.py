"""The limits the domain enforces, in one place (the API imports them for its schemas).

Changing one changes what a session accepts; each is checked where a command is decided.
"""

from __future__ import annotations

import re

# Players at a table: at least two are dealt in; a larger table may outgrow the pack
# (cards.check_capacity counts the hands dealt, docs/rules.md §11.8).
MIN_PLAYERS = 2
MAX_PLAYERS = 16

# A player's name: 1 to 64 characters, not starting with a space or '@', no line breaks or
# tabs, never an account's name (`pool`, `next_pool`, in any case).
PLAYER_NAME_MAX = 64
PLAYER_NAME_PATTERN = re.compile(rf"^[^\s@][^\n\r\t]{{0,{PLAYER_NAME_MAX - 1}}}$")

SESSION_NAME_MAX = 200  # printable characters
UNIT_NAME_MAX = 32  # the name of a unit ("counter", "penny"), 1 to 32 printable characters
CURRENCY_PATTERN = re.compile(r"[A-Z]{3}")  # ISO 4217

# Amounts of units (rule parameters) and money per unit are whole numbers up to this.
MAX_UNITS = 10**9

# What any account of a session (a player, the pool, the next pool) may hold, in units and,
# played for money, in minor units of money (docs/rules.md §11.43, rule `amount-limit`). An
# unlimited loo doubles the pool or more at every loo, so without a bound a session would soon
# hold amounts that JSON readers (exact only below 2**53), orjson (64 bits) and the databases'
# BIGINT columns (2**63) cannot carry. 10**15 is exact in a double, and a club's totals summed
# over thousands of sessions still fit a BIGINT.
MAX_AMOUNT_UNITS = 10**15

# The packs (docs/rules.md §3.3) and the cards dealt to each hand at the three-card variant.
PACK_52 = 52
PACK_32 = 32
PACKS = (PACK_52, PACK_32)
CARDS_PER_HAND = 3
TRICKS_PER_HAND = 3
FIVE_CARDS = 5  # five-card loo: five cards each, five tricks (docs/rules.md §9.3)

# Ids: a session's (its stream's), a club's or a member's, a token's public part. The store
# sizes its columns from these; the API refuses a longer id before it asks.
STREAM_ID_LENGTH = 64
ID_LENGTH = 64  # clubs and members
TOKEN_ID_LENGTH = 32

# The events one request may append together (the API's default for LOO_MAX_BATCH_EVENTS).
MAX_BATCH_EVENTS = 500
