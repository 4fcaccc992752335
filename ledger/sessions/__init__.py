"""A session's writes and reads, as it stood at a point, a member's view."""
