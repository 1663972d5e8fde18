"""extractor: turn ML paper abstracts into grounded, comparable results tables.

The front door for Python users::

    from extractor import extract, run, RunConfig
    result = extract("We propose GANQ ... up to 2.57x speedup over FP16.")
    result.extraction.claims[0].value  # 2.57
"""

from extractor.config import RunConfig, make_config
from extractor.errors import ExtractorError
from extractor.pipeline.runner import extract, run
from extractor.schema import Claim, Extraction, ExtractionDraft, PaperResult
from extractor.version import __version__

__all__ = [
    "Claim",
    "Extraction",
    "ExtractionDraft",
    "ExtractorError",
    "PaperResult",
    "RunConfig",
    "__version__",
    "extract",
    "make_config",
    "run",
]
