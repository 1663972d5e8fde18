"""The Jinja2 environment of every HTML page the tool makes (the report, the review page).

Autoescape is on for every template, and every value printed goes through :func:`visible`
first, so text from a run (abstracts, names, notes: untrusted) is escaped and its control
characters shown, never interpreted. Markup built in Python (an abstract with its highlights)
is made of escaped pieces only (:func:`escaped`).
"""

from __future__ import annotations

from functools import lru_cache

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup, escape

from extractor.text.safe import visible

def _shown(value: object) -> object:
    if value is None:
        return ""
    if isinstance(value, str) and not isinstance(value, Markup):
        return visible(value)
    return value


def escaped(text: str) -> Markup:
    """Run text as HTML: escaped, control characters shown."""
    return escape(visible(text))


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("extractor", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        finalize=_shown,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["num"] = lambda value: "" if value is None else f"{value:g}"
    return env


def render(template: str, **context: object) -> str:
    return environment().get_template(template).render(**context)
