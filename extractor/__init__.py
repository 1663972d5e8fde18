"""extractor: turn ML paper abstracts into grounded, comparable results tables.

The front door for Python users::

    from extractor import extract, run, RunConfig
    result = extract("We propose GANQ ... up to 2.57x speedup over FP16.")
    result.extraction.claims[0].value  # 2.57

The names are imported on first use (PEP 562), so ``extractor --help`` and the light
commands do not pay for the pipeline's libraries.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from extractor.version import __version__

if TYPE_CHECKING:
    from extractor.api import run
    from extractor.config import RunConfig, make_config
    from extractor.errors import ExtractorError
    from extractor.halves import paper_request, paper_result
    from extractor.pipeline.runner import export_batch, extract, write_results
    from extractor.schema import Claim, Extraction, ExtractionDraft, PaperResult

_HOMES = {
    "Claim": "extractor.schema",
    "Extraction": "extractor.schema",
    "ExtractionDraft": "extractor.schema",
    "ExtractorError": "extractor.errors",
    "PaperResult": "extractor.schema",
    "RunConfig": "extractor.config",
    "extract": "extractor.pipeline.runner",
    "make_config": "extractor.config",
    "run": "extractor.api",
    "export_batch": "extractor.pipeline.runner",
    "paper_request": "extractor.halves",
    "paper_result": "extractor.halves",
    "write_results": "extractor.pipeline.runner",
}

__all__ = [
    "Claim",
    "Extraction",
    "ExtractionDraft",
    "ExtractorError",
    "PaperResult",
    "RunConfig",
    "__version__",
    "export_batch",
    "extract",
    "make_config",
    "paper_request",
    "paper_result",
    "run",
    "write_results",
]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'extractor' has no attribute {name!r}")
    return getattr(import_module(home), name)
