"""The web's plumbing: inputs, the write protocol at the edge, errors, auth, formats."""
