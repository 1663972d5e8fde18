"""Which comparability keys are one leaderboard block: pure functions over the keys of a board.

A claim's key (:attr:`~extractor.catalog.normalize.NormalizedClaim.comparability_key`) is its
benchmark, metric, comparable unit and evaluation conditions. A reviewer can say two blocks that
differ only in a condition are one (the review sheet's ``block_same_as``, kept in the correction
store like the name aliases): the board joins their keys, and the block says so.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from extractor.catalog.conditions import names
from extractor.catalog.normalize import Aliases, normalize_claim, parse_setting
from extractor.schema import Claim

Key = tuple  # (benchmark key, metric key, comparable unit, the conditions' values)


@dataclass(frozen=True)
class Joined:
    """Where a key went: its block's key, and the conditions a reviewer's merge replaced."""

    key: Key
    merged: tuple[str, ...] = ()


def block_of_claim(
    benchmark: str | None, metric: str | None, setting: str | None, aliases: Aliases | None = None, title: str | None = None
) -> Key:
    """The key (unit aside) of the block a claim with these names and setting, in a paper of this
    title, is in."""
    claim = Claim(id="block", value=1.0, evidence="-", span=(0, 1), value_span=(0, 1), benchmark=benchmark, metric=metric, setting=setting)
    benchmark_key, metric_key, _, condition_key = normalize_claim(claim, aliases=aliases, title=title).comparability_key
    return (benchmark_key, metric_key, condition_key)


def block_written(claim: Mapping, title: str | None = None) -> dict:
    """The block as a claim has it, as a reviewer's merge keeps it: its benchmark, metric and
    setting, and its paper's title where that says what the metric measures ('AP' in a pose
    estimation paper), so the merge finds the claim's block again."""
    block = {field: claim.get(field) for field in ("benchmark", "metric", "setting")}
    if title and block_of_claim(**block, title=title) != block_of_claim(**block):
        block["title"] = title
    return block


def reviewer_merges(aliases: Aliases | None) -> dict[Key, tuple]:
    """{(benchmark key, metric key, conditions): the conditions of the block reviewers said it is
    one with}, from the ``block`` table of the reviewers' words (each entry: the block as a claim
    had it, :func:`block_written`, as JSON -> the other block's conditions as written, 'none' for
    no condition)."""
    merges: dict[Key, tuple] = {}
    for written, target in (aliases or {}).get("block", {}).items():
        block = json.loads(written)
        source = block_of_claim(block.get("benchmark"), block.get("metric"), block.get("setting"), aliases, block.get("title"))
        merges[source] = parse_setting(target).key
    return merges


def join_keys(keys: Iterable[Key], merges: Mapping[Key, tuple] | None = None) -> dict[Key, Joined]:
    """Each key of a board's scores -> where a reviewer's merges put it (a chain of merges is
    followed; a cycle ends it)."""
    merges = merges or {}
    placed: dict[Key, Joined] = {}
    for key in dict.fromkeys(keys):
        benchmark, metric, unit, values = key
        seen = {values}
        while (target := merges.get((benchmark, metric, values))) is not None and target not in seen:
            seen.add(target)  # a chain of merges is followed; a cycle ends it
            values = target
        merged = tuple(name for name, old, new in zip(names(), key[3], values) if old != new)
        placed[key] = Joined((benchmark, metric, unit, values), merged=merged)
    return placed
