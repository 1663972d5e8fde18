"""The extraction cache: validated drafts keyed by everything that could change them.

The cache is an optimisation, never a point of failure. When it cannot be opened, read or
written (a full disk, a truncated or overwritten file, a path that is not a directory) the run
warns once, naming the cache and ``--no-cache``, and goes on without it: every answer is kept
in the run and its cost counted; only the resume of a later run is lost.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import diskcache
from diskcache.core import MODE_PICKLE

from extractor.backends.base import BackendResult
from extractor.schema import ExtractionDraft, Usage
from extractor.text.hashing import content_hash, normalize_text

log = logging.getLogger(__name__)


#: Bumped when the stored value changes form: 2 = JSON text (1 was a pickled dict), so no
#: version reads the other's entries.
CACHE_FORMAT = 2


def cache_key(identity: dict, abstract: str, title: str | None) -> str:
    return content_hash(
        {"cache": CACHE_FORMAT, "identity": identity, "abstract": normalize_text(abstract), "title": title}
    )


def names_key(identity: dict, kind: str, name: str, candidates: tuple[str, ...]) -> str:
    """The key of a name request's answer (:mod:`extractor.backends.openai.name_mapping`): never an
    extraction's, whose content has an abstract where this has a name."""
    return content_hash(
        {"cache": CACHE_FORMAT, "names": identity, "kind": kind, "name": normalize_text(name), "candidates": list(candidates)}
    )


class _JsonOnlyDisk(diskcache.Disk):
    """diskcache's storage, refusing to unpickle: anyone who can write to a shared --cache-dir
    could plant a pickle that runs code on the next read. Values are stored as JSON text."""

    def fetch(self, mode: int, filename: str, value: object, read: bool) -> object:
        if mode == MODE_PICKLE:
            raise ValueError("a pickled entry is refused (the cache holds JSON text only)")
        return super().fetch(mode, filename, value, read)


def _reason(error: Exception) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return f"{type(error).__name__}: {error}".splitlines()[0]


class ExtractionCache:
    """A thin typed layer over diskcache; each ``put`` is durable once it returns. It never
    raises: a failure turns the cache off for the rest of the run and is kept in ``problem``."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.problem: str | None = None
        self._cache: diskcache.Cache | None = None
        try:
            self._cache = diskcache.Cache(str(directory), disk=_JsonOnlyDisk)
        except Exception as exc:  # sqlite3, OS and pickle errors alike: run on without it
            self._give_up("cannot be opened", exc)

    def _give_up(self, what: str, error: Exception) -> None:
        self.problem = (
            f"the cache {self.directory} {what} ({_reason(error)}); this run goes on without it and "
            "keeps every answer, but a rerun will send them again. Free space or remove that "
            "directory, or run with --no-cache (or --cache-dir elsewhere)."
        )
        log.warning("warning: %s", self.problem)
        self.close()

    def get_value(self, key: str) -> dict | None:
        """The JSON object stored under ``key``; None on a miss or a damaged entry."""
        if self._cache is None:
            return None
        try:
            stored = self._cache.get(key)
            return None if stored is None else json.loads(stored)
        except Exception as exc:  # a damaged entry or file is a miss
            self._give_up("cannot be read", exc)
            return None

    def put_value(self, key: str, value: dict) -> None:
        if self._cache is None:
            return
        try:
            self._cache.set(key, json.dumps(value))
        except Exception as exc:  # the answer is kept in the run whatever happens here
            self._give_up("cannot be written", exc)

    def get(self, key: str) -> BackendResult | None:
        stored = self.get_value(key)
        if stored is None:
            return None
        try:
            draft = ExtractionDraft.model_validate(stored["draft"])
        except Exception as exc:  # a damaged entry is a miss
            self._give_up("cannot be read", exc)
            return None
        return BackendResult(draft=draft, usage=Usage(cached=True))

    def put(self, key: str, result: BackendResult) -> None:
        self.put_value(key, {"draft": result.draft.model_dump(mode="json"), "usage": result.usage.model_dump()})

    def close(self) -> None:
        cache, self._cache = self._cache, None
        if cache is not None:
            try:
                cache.close()
            except Exception:  # closing a broken cache has nothing left to save
                pass
