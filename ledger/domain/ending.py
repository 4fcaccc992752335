"""The end of a session (docs/rules.md §8.6, §11.28): between deals only, by one of
three methods, dividing what is left on the table."""

from __future__ import annotations

from . import commands as cmd
from . import events as ev
from .dealing import next_deal_past_amount_limit
from .errors import InvalidInput, OutOfTurn
from .events import NEXT_POOL, posting
from .guards import between_deals
from .money import equal_division
from .records import Posting
from .seating import from_left_of
from .state import SessionState
from .vocabulary import EndMethod, Reason

END_METHODS = tuple(EndMethod)


def end_session(s: SessionState, c: cmd.EndSession) -> list[ev.Event]:
    between_deals(s, "the session ends")
    if c.method not in END_METHODS:
        raise InvalidInput(f"method must be one of {', '.join(END_METHODS)}", rule="end-method",
                           field="method")
    method = EndMethod(c.method)
    # docs/rules.md §11.43: a session at the amount limit ends though a player waits to
    # withdraw at his deal (the deal cannot be dealt)
    if s.withdrawing and next_deal_past_amount_limit(s) is None:
        raise OutOfTurn(f"{s.withdrawing} withdraws at his deal; deal it first",
                        rule="between-deals")
    postings: list[Posting] = []
    left = s.next_pool_units()
    if method == EndMethod.SINGLE and s.loos_owed:
        # Britannica: "if there is a loo in the last deal of a round, the game continues till
        # there is a hand without a loo".
        raise OutOfTurn("a loo is owed to the next pool: play on until a hand without a loo, "
                        "divide the pool, or release the last loos", rule="end-after-single")
    if method == EndMethod.RELEASE_LAST_LOOS:
        # Baxter-Wray p. 17: "releasing those who failed to win a trick in the previous deal";
        # a loo owed for an offence is not released and goes to the last pool (docs/rules.md §8).
        for loo in s.loos_owed:
            if loo["reason"] != Reason.LOO:
                continue
            postings.append(posting(NEXT_POOL, loo["player"], loo["amount_units"],
                                    Reason.LOO_RELEASED, released=loo["reason"]))
            left -= loo["amount_units"]
    if left > 0:
        order = from_left_of(s.seats, s.last_dealer or s.seats[0], s.active)
        for p, share in equal_division(left, order):
            if share:
                postings.append(posting(NEXT_POOL, p, share, Reason.END_DIVISION))
    return [ev.SessionEnded(method=method, postings=postings)]
