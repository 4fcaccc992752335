"""The `lanterloo` command line: the operator's, the auditor's, the books', the host's."""
