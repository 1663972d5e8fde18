"""The extraction cache: validated drafts keyed by everything that could change them."""

from __future__ import annotations

from pathlib import Path

import diskcache

from extractor.backends.base import BackendResult
from extractor.schema import ExtractionDraft, Usage
from extractor.text.hashing import content_hash, normalize_text


def cache_key(identity: dict, abstract: str, title: str | None) -> str:
    return content_hash({"identity": identity, "abstract": normalize_text(abstract), "title": title})


class ExtractionCache:
    """A thin typed layer over diskcache; each ``put`` is durable once it returns."""

    def __init__(self, directory: Path) -> None:
        self._cache = diskcache.Cache(str(directory))

    def get(self, key: str) -> BackendResult | None:
        stored = self._cache.get(key)
        if stored is None:
            return None
        return BackendResult(
            draft=ExtractionDraft.model_validate_json(stored["draft"]),
            usage=Usage(cached=True),
        )

    def put(self, key: str, result: BackendResult) -> None:
        self._cache.set(key, {"draft": result.draft.model_dump_json(), "usage": result.usage.model_dump()})

    def close(self) -> None:
        self._cache.close()
