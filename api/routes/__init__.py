"""One blueprint per resource: it asks api.http, api.schemas and the ledger."""
