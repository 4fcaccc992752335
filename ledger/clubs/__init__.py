"""Clubs, their members and tokens, and the tablets paired with them."""
