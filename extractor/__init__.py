"""extractor: turn ML paper abstracts into grounded, comparable results tables."""

__version__ = "0.1.0"
