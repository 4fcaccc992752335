"""Lanterloo: an event-sourced ledger for clubs that play Loo."""
