"""The views a client reads: a session, a deal, a statement, a page of the log."""

from __future__ import annotations

from marshmallow import fields, validate

from api.schemas.base import PHASES, Open, RulesSchema, Variants, players_to
from api.schemas.events import ExpectedSchema
from api.schemas.records import (
    BreachDetectedSchema,
    PenaltyRecordSchema,
    PostingSchema,
    RecordedEventSchema,
    SettlementSchema,
    VoidedEntrySchema,
    record_schema,
)
from ledger.domain import records
from ledger.domain.declaring import DECLARATIONS
from ledger.domain.ending import END_METHODS
from ledger.domain.vocabulary import Status


class DealSummarySchema(Open):
    deal_no = fields.Integer(required=True)
    phase = fields.String(required=True, validate=validate.OneOf(PHASES))
    dealer = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["single", "hand"]))
    trump_card = fields.String(required=True)


class WarningSchema(Open):
    """A game the rules allow but the sources advise against (docs/rules.md §11.42)."""

    rule = fields.String(required=True, validate=validate.OneOf(["five-card-players",
                                                                 "short-stock"]),
                         metadata={"description": "five-card-players: more than six hands at "
                                                  "five-card loo; short-stock: the pack left "
                                                  "for the exchanges holds less than a hand"})
    detail = fields.String(required=True)
    players = fields.Integer(metadata={"description": "five-card-players: the hands dealt"})
    stock_left = fields.Integer(metadata={"description": "short-stock: the cards left"})


class LooOwedSchema(Open):
    player = fields.String(required=True)
    amount_units = fields.Integer(required=True)
    deal_no = fields.Integer(allow_none=True)
    reason = fields.String()


class AsOfSchema(Open):
    """The earlier point a read shows (`?as_of=`): not the present (docs/explain.md)."""

    version = fields.Integer(required=True)
    recorded_at = fields.String(required=True, allow_none=True,
                                metadata={"description": "When the event at that version "
                                                         "was recorded (UTC)"})


def as_of_member() -> fields.Nested:
    return fields.Nested(AsOfSchema, metadata={
        "description": "Only on a read as of an earlier point (?as_of=): the version and time "
                       "it shows; the session may have moved on since"})


class LastRoundSchema(Open):
    deals_left = fields.Integer(required=True, metadata={
        "description": "Deals of the last round still to be dealt"})
    over = fields.Boolean(required=True, metadata={
        "description": "Its last deal is settled: the table ends the session (the ledger "
                       "does not end it by itself)"})


class SessionViewSchema(Open):
    session_id = fields.String(required=True)
    name = fields.String(required=True)
    version = fields.Integer(required=True,
                             metadata={"description": "Events recorded so far; the ETag"})
    status = fields.String(required=True, validate=validate.OneOf([s.value for s in Status]))
    ended_method = fields.String(required=True, allow_none=True,
                                 validate=validate.OneOf(list(END_METHODS)),
                                 metadata={"description": "How the session ended; null while "
                                                          "it is open"})
    rules = fields.Nested(RulesSchema, required=True)
    unit = fields.String(required=True)
    money_per_unit_minor = fields.Integer(required=True, allow_none=True)
    currency = fields.String(required=True, allow_none=True)
    seats = fields.List(fields.String(), required=True,
                        metadata={"description": "Every player ever seated, in seat order"})
    members = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                          metadata={"description": "Each seated player's member id"})
    active = fields.List(fields.String(), required=True,
                         metadata={"description": "The players still in the game"})
    deal_no = fields.Integer(required=True, metadata={"description": "The last deal dealt"})
    next_dealer = fields.String(required=True, allow_none=True)
    deals_dealt = players_to(fields.Integer(), required=True,
                              metadata={"description": "How many deals each player dealt"})
    withdrawing = fields.String(required=True, allow_none=True, metadata={
        "description": "Who withdraws at his deal (docs/rules.md §11.26): he deals without "
                       "being dealt in and leaves after that deal; null when nobody does"})
    withdrawn = fields.List(fields.String(), required=True, metadata={
        "description": "The players who have withdrawn, in seat order"})
    last_round = fields.Nested(LastRoundSchema, required=True, allow_none=True, metadata={
        "description": "The last round, from the moment it is called until a deal is dealt "
                       "after it (docs/rules.md §8.5); null otherwise"})
    pool_units = fields.Integer(required=True)
    next_pool_units = fields.Integer(required=True)
    loos_owed = fields.List(fields.Nested(LooOwedSchema), required=True)
    balances = players_to(fields.Integer(), required=True)
    expected = fields.Nested(ExpectedSchema, required=True)
    deal = fields.Nested(DealSummarySchema, required=True, allow_none=True,
                         metadata={"description": "The current (or last) deal; null before "
                                                  "the first"})
    as_of = as_of_member()
    warnings = fields.List(fields.Nested(WarningSchema), metadata={
        "description": "Only when the rules allow the table but the sources advise against it "
                       "(docs/rules.md §11.42); shown on opening the session"})


class AppendResultSchema(Open):
    """What an append (or opening a session) returns.

    In full (the default): every event appended, with its payload, and the session view.
    With `Prefer: return=minimal` on an append: the session id, the version, and the position,
    version and type of each event appended; no payloads and no `session`.
    """

    session_id = fields.String(required=True)
    version = fields.Integer(required=True,
                             metadata={"description": "The session version after the append"})
    appended = fields.List(Variants("RecordedEvent", dump=RecordedEventSchema), required=True)
    session = fields.Nested(SessionViewSchema,
                            metadata={"description": "The session after the append (absent "
                                                     "with Prefer: return=minimal)"})


class StandingSchema(Open):
    player = fields.String(required=True)
    hand = fields.String(required=True, validate=validate.OneOf(["own", "miss",
                                                                  "miss-for-pool"]))


class TrickSchema(Open):
    trick = fields.Integer(required=True)
    winner = fields.String(required=True)
    cards = fields.List(fields.List(fields.String()), required=True,
                        metadata={"description": "[player, card] in the order played; empty "
                                                 "on quick entry"})


class DealViewSchema(Open):
    deal_no = fields.Integer(required=True)
    dealer = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["single", "hand"]),
                         metadata={"description": "single (the turn-up single) or hand"})
    trump_card = fields.String(required=True)
    phase = fields.String(required=True, validate=validate.OneOf(PHASES))
    dealt = fields.List(fields.String(), required=True,
                        metadata={"description": "Dealt to, from the dealer's left"})
    fresh = fields.Boolean(required=True)
    forced = fields.String(required=True, allow_none=True)
    miss = fields.Boolean(required=True)
    face_up = players_to(fields.String(), required=True)
    redeals = fields.Integer(required=True)
    declarations = players_to(fields.String(validate=validate.OneOf(list(DECLARATIONS))),
                               required=True)
    standing = fields.List(fields.Nested(StandingSchema), required=True)
    entry = fields.String(required=True, allow_none=True,
                          validate=validate.OneOf(["cards", "quick"]))
    tricks = fields.List(fields.Nested(TrickSchema), required=True)
    current_trick = fields.List(fields.List(fields.String()), required=True)
    first_play = fields.List(fields.Nested(TrickSchema), required=True, allow_none=True,
                             metadata={"description": "The tricks as first played, kept when "
                                                      "the hand is replayed"})
    hands = players_to(fields.List(fields.String()), required=True)
    replay = fields.String(required=True, allow_none=True)
    replay_asked_by = fields.String(required=True, allow_none=True)
    pool_at_play_units = fields.Integer(required=True, allow_none=True)
    penalties = fields.List(fields.Nested(PenaltyRecordSchema), required=True)
    breaches = fields.List(fields.Nested(BreachDetectedSchema), required=True)
    postings = fields.List(fields.Nested(PostingSchema), required=True)
    contributions = fields.List(fields.Nested(PostingSchema), required=True,
                                metadata={"description": "The postings into the pool"})
    settlement = fields.Nested(SettlementSchema, required=True, allow_none=True,
                               metadata={"description": "Null until the deal is settled"})
    pool_units = fields.Integer(required=True)
    abandoned = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True,
                            metadata={"description": "Players who threw up after the lead: "
                                                     "the first trick each plays no card to"})
    corrections = fields.List(fields.Nested(lambda: CorrectionSchema()), required=True,
                              metadata={"description": "Corrections of this deal's entries"})
    # Irish and five-card loo only (docs/rules.md §9.2, §9.3): left out of other deals
    exchanges = players_to(fields.Nested(record_schema(records.Exchange)), metadata={
        "description": "Irish and five-card loo: each standing player's exchange"})
    flush = fields.Nested(record_schema(records.FlushRecord), metadata={
        "description": "Five-card loo: the flushes shown, the winner and who pays"})
    civil = fields.List(fields.Integer(), metadata={
        "description": "Five-card loo: the tricks led by the ace of trumps with \"Pam be "
                       "civil\""})
    pam = fields.String(metadata={"description": "Five-card loo: the card that is Pam this "
                                                 "deal, the highest trump"})
    as_of = as_of_member()


class StatementPlayerSchema(Open):
    player = fields.String(required=True)
    active = fields.Boolean(required=True)
    deals_dealt = fields.Integer(required=True)
    paid_units = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    received_units = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    paid_total_units = fields.Integer(required=True)
    received_total_units = fields.Integer(required=True)
    net_units = fields.Integer(required=True)
    net_money_minor = fields.Integer(required=True, allow_none=True)
    member_id = fields.String(required=True, allow_none=True,
                              metadata={"description": "The club member in this seat"})


class CheckpointSchema(Open):
    """A chain's head signed with the service's checkpoint key (Ed25519; docs/operations.md,
    "How an auditor keeps heads")."""

    format = fields.String(required=True, metadata={"example": "lanterloo-checkpoint/1"})
    stream = fields.String(required=True, metadata={"description": "The chain: a session's id"})
    version = fields.Integer(required=True)
    head = fields.String(required=True, metadata={"description": "The hash at that version"})
    signed_at = fields.String(required=True, metadata={"format": "date-time"})
    key = fields.String(required=True, metadata={"description": "The public key, hex"})
    signature = fields.String(required=True, metadata={"description": "Ed25519, hex"})


class LeafSchema(Open):
    """A session's end: its head at a version."""

    stream = fields.String(required=True, metadata={"description": "The session's id"})
    version = fields.Integer(required=True)
    head = fields.String(required=True)


class TreeHeadSchema(CheckpointSchema):
    """The club's log of session ends signed: `stream` is `tree:<club id>`, `version` its
    size, `head` its Merkle root (hex); `appended` the leaf it added."""

    appended = fields.Nested(LeafSchema)


class ReceiptSchema(Open):
    """A session's end as a leaf of its club's Merkle log (RFC 6962; docs/audit.md,
    "Receipts"), checked by `lanterloo verify-receipt`."""

    format = fields.String(required=True, metadata={"example": "lanterloo-receipt/1"})
    club_id = fields.String(required=True)
    leaf = fields.Nested(LeafSchema, required=True)
    leaf_index = fields.Integer(required=True)
    tree_head = fields.Nested(TreeHeadSchema, required=True)
    inclusion = fields.List(fields.String(), required=True, metadata={
        "description": "The inclusion proof: the hashes (hex) from the leaf up to the root"})


class LogPinSchema(Open):
    version = fields.Integer(required=True)
    chain_head = fields.String(required=True, allow_none=True)
    chain_format = fields.String(required=True)
    checkpoint = fields.Nested(CheckpointSchema, allow_none=True, metadata={
        "description": "The latest head of the session signed and kept in the checkpoint "
                       "log (read, never signed by the read): the head of its end once it has "
                       "ended; absent when none is kept or as of an earlier point"})
    receipt = fields.Nested(ReceiptSchema, allow_none=True, metadata={
        "description": "Its latest end in the club's signed log of session ends; absent "
                       "while it has none"})


class VerifySchema(Open):
    session_id = fields.String(required=True)
    ok = fields.Boolean(required=True)
    version = fields.Integer(required=True)
    chain_head = fields.String(required=True, allow_none=True)
    chain_format = fields.String(required=True)
    problems = fields.List(fields.String(), required=True, metadata={
        "description": "What is wrong: the first broken link of the chain, a gap in the "
                       "versions, a projection that differs from the log"})


class CorrectionSchema(Open):
    """A correction: the entries it voided and put in their place, why, by whom, and what it
    changed (account -> signed units)."""

    version = fields.Integer(required=True, metadata={"description": "The correction's own "
                                                                     "version in the log"})
    voids = fields.List(fields.Nested(VoidedEntrySchema), required=True)
    replacements = fields.List(Variants("EventIn"), required=True)
    reason = fields.String(required=True)
    authorised_by = fields.String(required=True)
    deal_no = fields.Integer(required=True, allow_none=True)
    changes = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)


class OutcomeSchema(Open):
    outcome = fields.String(required=True)
    deals = fields.Integer(required=True)
    meaning = fields.String(required=True)


class StatementPoolSchema(Open):
    current_pool_units = fields.Integer(required=True)
    next_pool_units = fields.Integer(required=True)
    loos_owed = fields.List(fields.Nested(LooOwedSchema), required=True)
    flows_units = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    what_became_of_it = fields.String(required=True)


class StatementCheckSchema(Open):
    nets_plus_pools_units = fields.Integer(required=True)
    zero_sum = fields.Boolean(required=True)


class TransferSchema(Open):
    from_ = fields.String(data_key="from", attribute="from", required=True)
    to = fields.String(required=True)
    amount_units = fields.Integer(required=True)
    amount_money_minor = fields.Integer(required=True, allow_none=True)


class StatementSettlementSchema(Open):
    final = fields.Boolean(required=True)
    provisional = fields.Boolean(required=True, metadata={
        "description": "true until the session ends; the pool is then a party owed what it "
                       "holds"})
    transfers = fields.List(fields.Nested(TransferSchema), required=True)


class CashCheckSchema(Open):
    """The cash counted on the session's table against what should be there (the last count
    stands): expected = pools + cash paid to the club against the session - cash paid out."""

    currency = fields.String(required=True)
    counted_minor = fields.Integer(required=True)
    expected_minor = fields.Integer(required=True)
    difference_minor = fields.Integer(required=True,
                                      metadata={"description": "counted - expected"})
    pools_minor = fields.Integer(required=True)
    cash_paid_in_minor = fields.Integer(required=True)
    cash_paid_out_minor = fields.Integer(required=True)
    float_minor = fields.Integer(required=True, metadata={
        "description": "The float the tin started with"})
    booked_minor = fields.Integer(required=True, metadata={
        "description": "Shortages (negative) and surpluses booked to an account"})
    unbooked_minor = fields.Integer(required=True, metadata={
        "description": "The difference not yet booked to any account"})
    counted_at = fields.String(required=True, metadata={"format": "date-time"})
    counts = fields.Integer(required=True, metadata={"description": "How often it was "
                                                                    "counted"})
    note = fields.String(required=True, allow_none=True)
    float_minor = fields.Integer(metadata={"description": "The float the tin started with"})
    booked_minor = fields.Integer(metadata={"description": "Differences booked against it"})
    unbooked_minor = fields.Integer(metadata={"description": "What is left to book"})


class StatementSchema(Open):
    session_id = fields.String(required=True)
    name = fields.String(required=True)
    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf([s.value for s in Status]))
    ended_method = fields.String(required=True, allow_none=True,
                                 validate=validate.OneOf(list(END_METHODS)))
    preset = fields.String(required=True)
    unit = fields.String(required=True)
    money_per_unit_minor = fields.Integer(required=True, allow_none=True)
    currency = fields.String(required=True, allow_none=True)
    deals = fields.Integer(required=True)
    players = fields.List(fields.Nested(StatementPlayerSchema), required=True)
    pool = fields.Nested(StatementPoolSchema, required=True)
    check = fields.Nested(StatementCheckSchema, required=True)
    settlement = fields.Nested(StatementSettlementSchema, required=True)
    corrections = fields.List(fields.Nested(CorrectionSchema), required=True)
    log = fields.Nested(LogPinSchema, required=True, allow_none=True, metadata={
        "description": "The log the statement was drawn from: its version and the head of "
                       "its hash chain"})
    outcomes = fields.List(fields.Nested(OutcomeSchema), required=True,
                           metadata={"description": "How many deals ended each way"})
    cash = fields.Nested(CashCheckSchema, required=True, allow_none=True, metadata={
        "description": "The cash counted at the close against what is expected (pools + cash "
                       "paid to the club against the session - cash it paid out); null when "
                       "nothing was counted (docs/books.md)"})
    evening = fields.String(required=True, allow_none=True, metadata={
        "format": "date", "description": "The evening whose tin holds this session's cash "
                                         "when it joined one: its cash is counted there "
                                         "(GET /evenings/<date>), and `cash` is null; null "
                                         "as of a point"})
    as_of = as_of_member()


class EventsPageSchema(Open):
    events = fields.List(Variants("RecordedEvent", dump=RecordedEventSchema), required=True)
    next_after = fields.Integer(required=True, allow_none=True,
                                metadata={"description": "Pass as ?after= for the next page"})
    next = fields.String(required=True, allow_none=True,
                         metadata={"description": "URL of the next page"})

