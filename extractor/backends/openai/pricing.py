"""Money per token, from a price table kept as data (``extractor/data/prices.json``).

A model missing from the table (a local server, a new model) is priced at 0: runs and
estimates then report tokens only, and say that the price is unknown.
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
def load_prices() -> dict[str, Price]:
    table = json.loads(PRICES_FILE.read_text(encoding="utf-8"))
    return {name: Price(**entry) for name, entry in table["models"].items()}


def price_for(model: str | None) -> Price | None:
    """The model's price: its own entry, else the longest listed name it is a dated snapshot
    of (``gpt-4o-mini-2024-07-18`` -> ``gpt-4o-mini``); a ``provider/`` prefix is ignored."""
    if not model:
        return None
    name = model.rsplit("/", 1)[-1].lower()
    prices = load_prices()
    if name in prices:
        return prices[name]
    bases = [base for base in prices if name.startswith(base + "-")]
    return prices[max(bases, key=len)] if bases else None


def cost_usd(model: str | None, prompt_tokens: int, completion_tokens: int) -> float:
    price = price_for(model)
    if price is None:
        return 0.0
    return (prompt_tokens * price.input + completion_tokens * price.output) / PER_TOKENS
