"""The auditor's side: queries, the export, checkpoints, the Merkle log, receipts."""
