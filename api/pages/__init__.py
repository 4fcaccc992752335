"""Pages for people: the tablet, the printable pages, /docs; templates, files."""
