"""Money per token, from a price table kept as data (``extractor/data/prices.json``).

A model missing from the table (a local server, a new model) is priced at 0: runs and
estimates then report tokens only, and say that the price is unknown. Requests sent through the
Batch API cost the table's ``batch_factor`` (one half) of the standard price.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files

PRICES_FILE = files("extractor") / "data" / "prices.json"
PER_TOKENS = 1_000_000


@dataclass(frozen=True)
class Price:
    """USD per million input (prompt) and output (completion) tokens."""

    input: float
    output: float


@lru_cache(maxsize=1)
def _table() -> dict:
    return json.loads(PRICES_FILE.read_text(encoding="utf-8"))


def load_prices() -> dict[str, Price]:
    return {name: Price(**entry) for name, entry in _table()["models"].items()}


def batch_factor() -> float:
    """The fraction of the standard price that the Batch API bills."""
    return float(_table()["batch_factor"])


def price_for(model: str | None, batch: bool = False) -> Price | None:
    """The model's price: its own entry, else the longest listed name it is a dated snapshot
    of (``gpt-4o-mini-2024-07-18`` -> ``gpt-4o-mini``); a ``provider/`` prefix is ignored.
    ``batch``: the Batch API's price."""
    if not model:
        return None
    name = model.rsplit("/", 1)[-1].lower()
    prices = load_prices()
    bases = [base for base in prices if name.startswith(base + "-")]
    price = prices[name] if name in prices else prices[max(bases, key=len)] if bases else None
    if price is None or not batch:
        return price
    return Price(input=price.input * batch_factor(), output=price.output * batch_factor())


def cost_usd(model: str | None, prompt_tokens: int, completion_tokens: int, batch: bool = False) -> float:
    price = price_for(model, batch)
    if price is None:
        return 0.0
    return (prompt_tokens * price.input + completion_tokens * price.output) / PER_TOKENS
