"""extractor: turn ML paper abstracts into grounded, comparable results tables.

The front door for Python users::

    from extractor import extract, run, RunConfig
    result = extract("We propose GANQ ... up to 2.57x speedup over FP16.")
    result.extraction.claims[0].value  # 2.57
"""

__version__ = "0.1.0"

from .config import RunConfig, make_config  # noqa: E402
from .errors import ExtractorError  # noqa: E402
from .runner import extract, run  # noqa: E402
from .schema import Claim, Extraction, ExtractionDraft, PaperResult  # noqa: E402

__all__ = [
    "Claim",
    "Extraction",
    "ExtractionDraft",
    "ExtractorError",
    "PaperResult",
    "RunConfig",
    "extract",
    "make_config",
    "run",
]
