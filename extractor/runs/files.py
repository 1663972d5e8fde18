"""The names of a run directory's files, apart from the code that writes them, so that the
commands that only name them (in ``--help``) import nothing else."""

PAPERS_FILE = "papers.jsonl"
CLAIMS_FILE = "claims.csv"  # the raw extraction, as the backend and grounding left it
REVIEWED_CLAIMS_FILE = "claims.reviewed.csv"  # the same columns, reviewers' corrections applied
RUN_FILE = "run.json"
JOURNAL_FILE = "journal.tsv"  # each paper as it is done (extractor.runs.journal)
STORE_FILE = "corrections.sqlite"  # reviewers' corrections (extractor.runs.corrections)
RUN_LEADERBOARD = "leaderboard.xlsx"  # the run's own board, corrections applied
NAMES_FILE = "names.json"  # benchmark and metric names the model mapped to the registry
REVIEWED_STAMP = "reviewed.json"  # the corrections the reviewed files were last written with
REPORT_FILE = "report.html"  # `extractor report` writes it here by default; corrections applied
