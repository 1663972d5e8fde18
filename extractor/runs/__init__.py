"""The run directory: its files, journal, names table and the reviewers' correction store."""
