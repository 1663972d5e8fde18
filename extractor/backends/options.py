"""A backend's own options: a pydantic model per backend (bounded, unknown names refused), built
from the values a caller gives with one error path that names the option.

As ``llm``'s model options do, each backend declares the options it takes (:mod:`extractor.
backends.by_name` knows which class is whose); a run's options common to every backend are
:class:`extractor.config.RunConfig`'s.
"""

from __future__ import annotations

from typing import ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from extractor.errors import ConfigError

OptionsT = TypeVar("OptionsT", bound="BackendOptions")


class BackendOptions(BaseModel):
    """The base of every backend's options: frozen, and an unknown option is an error."""

    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=True)
    backend: ClassVar[str]  # the name of the backend these are the options of

    @classmethod
    def resolve(cls: type[OptionsT], given: dict[str, object]) -> OptionsT:
        """The options from the values given (None: not given), else the defaults."""
        return build_options(cls, {k: v for k, v in given.items() if v is not None})


def _problem(error: dict) -> str:
    """A validation error in words that name the bound, not pydantic's phrasing."""
    context, given = error.get("ctx") or {}, error.get("input")
    kind = error["type"]
    if kind == "greater_than_equal":
        return f"must be {context['ge']:g} or more, not {given}"
    if kind == "greater_than":
        return f"must be more than {context['gt']:g}, not {given}"
    if kind in ("less_than_equal", "less_than"):
        return f"must be {context.get('le', context.get('lt')):g} or less, not {given}"
    if kind == "literal_error":
        return f"must be one of {context['expected']}, not {given!r}"
    return f"{error['msg'][0].lower()}{error['msg'][1:]} (got {given!r})"


def build_options(cls: type[OptionsT], given: dict[str, object]) -> OptionsT:
    """``cls`` from the values given; a value no run can use, or an option the backend does not
    take, is refused in one line naming the option (:class:`~extractor.errors.ConfigError`)."""
    unknown = sorted(set(given) - set(cls.model_fields))
    if unknown:
        names = ", ".join("{%s}" % name for name in unknown)
        takes = ", ".join("{%s}" % name for name in cls.model_fields) or "no options"
        raise ConfigError(f"backend {cls.backend} has no option {names} (it takes {takes})", (*unknown, *cls.model_fields))
    try:
        return cls(**given)
    except ValidationError as exc:
        error = exc.errors()[0]  # checks across options raise ConfigError themselves
        name = str(error["loc"][0])
        raise ConfigError("{%s} %s" % (name, _problem(error)), (name,)) from None
