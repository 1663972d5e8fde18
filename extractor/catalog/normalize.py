"""Normalization of grounded claims into comparable rows: pure functions, no I/O.

Benchmarks and metrics go through the registry (unknown names pass through, flagged). Units are
spelled one way (``×``/``times`` -> ``x``), but a value is never rescaled in place: the number
as written stays in ``value``/``unit``, and a derived ``comparable``/``comparable_unit`` pair is
added only when the conversion is certain (83% and 0.83 accuracy are both 83 %; 1.2 s is
1200 ms; 512 MiB is 0.5 GiB). Methods and models get one identity across papers through
:func:`~extractor.text.name_keys.name_key`, and model sizes are read in billions. Two numbers are
comparable only when benchmark, metric, comparable unit, setting and model size all agree.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

from extractor.catalog.measures import scored_measure
from extractor.catalog.registry import (
    benchmark_entry,
    canonical_benchmark,
    exact_benchmark,
    fold_key,
    metric_entry,
    propose_benchmark,
)
from extractor.text.name_keys import name_key
from extractor.schema import Claim, Model
from extractor.text.arxiv import find_arxiv_id
from extractor.text.languages import language_pairs, only_pair

_UNIT_SPELLINGS = {
    "%": "%", "percent": "%", "pct": "%", "per cent": "%",
    "x": "x", "\u00d7": "x", "times": "x", "fold": "x", "-fold": "x",
    "points": "points", "point": "points", "pts": "points", "pp": "points", "p.p.": "points",
    "percentage points": "points", "percentage point": "points", "pt": "points",
    "tokens/s": "tokens/s", "tok/s": "tokens/s", "tokens/sec": "tokens/s", "token/s": "tokens/s",
    "tokens per second": "tokens/s", "db": "dB",
}
# Units that convert exactly into one comparable unit: unit -> (comparable unit, factor).
_EXACT = {
    "ms": ("ms", 1.0), "s": ("ms", 1e3), "sec": ("ms", 1e3), "seconds": ("ms", 1e3),
    "us": ("ms", 1e-3), "\u00b5s": ("ms", 1e-3), "\u03bcs": ("ms", 1e-3), "min": ("ms", 6e4),
    "kib": ("GiB", 1 / 2**20), "mib": ("GiB", 1 / 2**10), "gib": ("GiB", 1.0), "tib": ("GiB", 2**10),
    "kb": ("GB", 1e-6), "mb": ("GB", 1e-3), "gb": ("GB", 1.0), "tb": ("GB", 1e3),
    "x": ("x", 1.0), "points": ("points", 1.0), "tokens/s": ("tokens/s", 1.0), "db": ("dB", 1.0),
}

# Comparable units no proportion (accuracy, mAP, F1...) is measured in.
_NOT_A_PROPORTION = frozenset({"ms", "GiB", "GB", "x", "tokens/s", "dB"})

_SIZE = re.compile(
    r"(?<![\w.])(?P<prefix>[Aa])?(?P<num>\d+(?:\.\d+)?)\s?(?P<scale>[BbMmTt])(?![a-zA-Z])"
)
_MOE = re.compile(r"\d+\s?[x\u00d7]\s?\d+(?:\.\d+)?\s?[BbMm]\b")
_SIZE_SCALE = {"b": 1.0, "m": 1e-3, "t": 1e3}

_SHOTS = re.compile(r"\b(?P<n>\d+|zero|one|few)[\s-]?shots?\b", re.IGNORECASE)
_BITS = re.compile(
    r"\b(?:(?P<n>\d+(?:\.\d+)?)[\s-]?bits?\b|(?P<format>w\d+a\d+|(?:int|fp|bf|nvfp|mxfp)\d+))\b",
    re.IGNORECASE,
)
_CONTEXT = re.compile(
    r"\b(?P<n>\d+(?:\.\d+)?)\s?(?P<scale>[kKmM])?(?:[\s-]?tokens?)?[\s-]?(?:context|ctx|context[\s-]length)\b"
    r"|\b(?:context(?:[\s-]length)?\s(?:of\s)?)(?P<n2>\d+(?:\.\d+)?)\s?(?P<scale2>[kKmM])?\b",
    re.IGNORECASE,
)
_SPLIT = re.compile(r"\b(test|dev|validation|val|held-out|train)(?:[\s-]?(?:set|split))?\b", re.IGNORECASE)
# The method's own cost written as a setting ('at 34ms', '30 FPS', '1.2 GFLOPs', '12 GB of memory'):
# a property of the entry, shown beside its score, not a condition the score was measured under.
# Seconds only with a cost noun or 'per image' ('10 s clips' is an input's length); a budget, a
# window or a chunk ('a 100 ms budget', '640 ms chunks', 'within 2 s') is a condition and stays.
_COST_NOUN = r"(?:(?:inference|decoding|end-to-end)[\s-]+)?(?:latency|runtime|run[\s-]?time|inference[\s-]time|speed|throughput)"
_PER = r"(?:per|/|an?)\s+(?:image|frame|token|sample|query|request|step)"
_BARE = (
    r"(?<![\w.])\d+(?:\.\d+)?\s*(?:ms|milliseconds?|\u00b5s|\u03bcs|fps|frames?\s*(?:/\s*s|per\s+second)"
    r"|(?:tokens?|images?|imgs?|samples?|queries|requests)\s*(?:/\s*s(?:ec)?|per\s+second)|[kmgtp]?flops?|[kmgt]?macs)"
)
_SECONDS = r"(?<![\w.])\d+(?:\.\d+)?\s*(?:s|secs?|seconds?)"
_MEMORY = r"(?<![\w.])\d+(?:\.\d+)?\s*[kmgt]i?b"
_CONDITION = rf"(?!\s*(?:-\s*)?(?:{_COST_NOUN}\s+)?(?:budgets?|constraints?|limits?|windows?|chunks?|lookahead|look-ahead|frames?|segments?|clips?|audio|delay|hop|shift)\b)"
_COST = re.compile(
    rf"(?<!within )(?<!under )(?<!budget of )(?:(?:\bat|\bwith|\bin|\busing|@)\s*)?(?:(?:a|an)\s+)?(?P<shown>"
    rf"(?:{_COST_NOUN}\s+(?:of\s+)?)?(?:{_BARE})(?![\w/]){_CONDITION}(?:\s+{_PER})?(?:\s+{_COST_NOUN})?"
    rf"|{_COST_NOUN}\s+(?:of\s+)?{_SECONDS}\b(?:\s+{_PER})?|{_SECONDS}\s+{_PER}"
    rf"|(?:gpu\s+)?memory\s+(?:of\s+)?{_MEMORY}\b|{_MEMORY}\s+(?:of\s+)?(?:gpu\s+)?(?:memory|vram)\b)",
    re.IGNORECASE,
)
_WORDS = {"zero": "0", "one": "1", "few": "few"}
_SPLITS = {"val": "validation", "held-out": "test"}


def normalize_unit(unit: str | None) -> str | None:
    """One spelling per unit ('×', 'times' -> 'x'; 'pp' -> 'points'); others kept as written."""
    if unit is None or not unit.strip():
        return None
    text = unit.strip()
    return _UNIT_SPELLINGS.get(text.lower(), text)


def known_unit(unit: str | None) -> bool:
    """Whether ``unit`` is one of the units above in any of its spellings (blank counts: a plain
    number). The review sheet refuses a unit a reviewer types that is not known."""
    spelled = normalize_unit(unit)
    return spelled is None or spelled in _UNIT_SPELLINGS.values() or spelled.lower() in _EXACT


@lru_cache(maxsize=4096)
def parse_size_b(name: str | None) -> float | None:
    """Total parameters in billions written in a model name: 'Llama-3.2-3B' -> 3.0,
    'SmolLM2-135M' -> 0.135, 'OLMoE-1B-7B' -> 7.0 (the larger is the total),
    'Gemma-4-26B-A4B' -> 26.0 (A4B is the active count). Mixture forms like '8x7B' are not
    multiplied out (their total is not the product), so they give None."""
    if not name or _MOE.search(name):
        return None
    sizes = [
        float(m.group("num")) * _SIZE_SCALE[m.group("scale").lower()]
        for m in _SIZE.finditer(name)
        if not m.group("prefix")
    ]
    return max(sizes) if sizes else None


# Words that, all together, name no method or model: 'the state of the art', 'SoTA',
# 'competing approaches', 'previous best', 'baseline models', 'the best models from the literature'.
_NO_ENTITY_WORDS = frozenset(
    """
    the a an of from in to and or other others state art sota competing competitor competitors approach approaches
    method methods technique techniques system systems model models baseline baselines previous prior best work works
    existing current strong published reported result results literature alternative alternatives counterpart
    counterparts
    """.split()
)
_LOWER_WORDS = re.compile(r"[a-z0-9]+")


def names_an_entity(name: str | None) -> bool:
    """Whether a subject phrase names a method or model, rather than standing for others' work
    in general ('state - of - the - art ( SoTA )', 'competing approaches'): only a name ranks."""
    words = _LOWER_WORDS.findall((name or "").lower())
    return bool(words) and not all(word in _NO_ENTITY_WORDS for word in words)


@lru_cache(maxsize=4096)
def entity_key(name: str | None) -> str:
    """One identity for a method or model across papers: 'Llama 3.2-3B' = 'Llama-3.2-3B'; none
    for a phrase that names no method or model (:func:`names_an_entity`)."""
    return name_key(name) if name and names_an_entity(name) else ""


def arxiv_id(paper_id: str, metadata: dict | None = None) -> str | None:
    """The arXiv id of a paper ('2401.01234'), from its id or its metadata, when one is known."""
    return find_arxiv_id([paper_id, *(metadata or {}).values()])


@dataclass(frozen=True)
class Setting:
    """The conditions a number was measured under, parsed from a claim's ``setting``."""

    shots: str | None = None
    bits: str | None = None
    context: str | None = None
    split: str | None = None
    other: str = ""
    languages: str | None = None  # a translation's source and target: 'en-de'
    cost: str = ""  # the method's own latency, speed, FLOPs or memory ('34ms'): never a condition

    @cached_property  # parse_setting is cached, so each distinct setting computes it once
    def key(self) -> str:
        """What must match for two numbers to be compared (unparsed words included; the cost
        left out: two detectors' AP at 34 ms and at 39 ms are one leaderboard)."""
        # A split left unstated is the test split: 'F1' and 'test F1' are one number's names.
        return "|".join([
            self.shots or "", self.bits or "", self.context or "", self.split or "test", self.other, self.languages or "",
        ])

    @property
    def identity(self) -> str:
        """The key with the cost: one method at two speeds is two configurations, not a conflict."""
        return f"{self.key}|{self.cost}"

    @property
    def label(self) -> str:
        """The conditions, as a block's title shows them (the cost is the row's: :attr:`shown`)."""
        parts = [p for p in (self.languages, self.shots, self.bits, self.context, self.split) if p]
        return ", ".join(parts + ([self.other] if self.other else []))

    @property
    def shown(self) -> str:
        """The conditions and the cost, as a row shows them ('test, 34ms')."""
        return ", ".join(p for p in (self.label, self.cost) if p)


def _context_label(number: str, scale: str | None) -> str:
    """'32K', '32k', '32768' and '32000' tokens are all a 32K context ('128000' is 128K)."""
    if scale:
        return f"{float(number):g}{scale.upper()} context"
    value = float(number)
    for step, name in ((1e6, "M"), (2**20, "M"), (1e3, "K"), (2**10, "K")):
        if value >= step and value % step == 0:
            return f"{value / step:g}{name} context"
    return f"{value:g} context"


def with_written(
    setting: Setting, split: str | None, section: str | None, languages: str | None = None
) -> Setting:
    """A claim's setting with the split, section and language pair its names wrote ('test F1',
    'PTB § 23', 'WMT14 En-De'); the setting's own split and pair win over those a name implies."""
    other = setting.other
    if section and section not in other:
        other = f"{other} {section}".strip()
    return replace(setting, split=setting.split or split, other=other, languages=setting.languages or languages)


@lru_cache(maxsize=16384)
def parse_setting(text: str | None) -> Setting:
    """'5-shot, 4-bit, 32K context, test' -> Setting(shots='5-shot', bits='4-bit',
    context='32K context', split='test'); the method's own cost ('at 34ms') goes to ``cost``;
    words it does not recognize stay in ``other``."""
    if not text or not text.strip():
        return Setting()
    rest = text
    shots = bits = context = split = languages = None
    costs = [" ".join(m.group("shown").split()) for m in _COST.finditer(rest)]
    rest = _COST.sub(" ", rest)
    if pairs := language_pairs(rest):
        languages = pairs[0].pair
        rest = rest[: pairs[0].start] + " " + rest[pairs[0].end :]
    if m := _SHOTS.search(rest):
        shots = f"{_WORDS.get(m.group('n').lower(), m.group('n'))}-shot"
        rest = rest[: m.start()] + " " + rest[m.end() :]
    if m := _BITS.search(rest):
        # A number format (INT4, NVFP4, W4A16) is kept as named: same width, different numbers.
        bits = f"{m.group('n')}-bit" if m.group("n") else m.group("format").upper()
        rest = rest[: m.start()] + " " + rest[m.end() :]
    if m := _CONTEXT.search(rest):
        context = _context_label(m.group("n") or m.group("n2"), m.group("scale") or m.group("scale2"))
        rest = rest[: m.start()] + " " + rest[m.end() :]
    if m := _SPLIT.search(rest):
        word = m.group(1).lower()
        split = _SPLITS.get(word, word)
        rest = rest[: m.start()] + " " + rest[m.end() :]
    other = " ".join(re.sub(r"[,;()]+", " ", rest).split()).lower()
    return Setting(shots, bits, context, split, other, languages, ", ".join(costs))


def block_key(name: str | None, known: bool) -> str | None:
    """What two names must share to be one block: the canonical name, or for a name the
    registry does not know, its folded spelling ('Market - 1501' = 'Market-1501')."""
    if name is None:
        return None
    return name if known else fold_key(name)


@dataclass(frozen=True)
class MetricInfo:
    name: str | None
    direction: str | None
    known: bool
    scale: str
    split: str | None = None  # a split written into the name ('test F1' -> 'test')

    @property
    def key(self) -> str | None:
        return block_key(self.name, self.known)


def _head_direction(name: str) -> str | None:
    """The direction of the registry metric an unknown name ends with ('KV cache memory' is a
    memory: lower is better; 'cache hit rate' a hit rate: higher), else None. The longest
    ending that names one wins; the name itself stays as written."""
    words = name.split()
    for start in range(1, len(words)):
        found = metric_entry(" ".join(words[start:]))
        if found is not None:
            return found[0].direction
    return None


_SPLIT_WORD = r"(?P<split>test|dev|development|validation|val|held-out|heldout)(?:[\s_-]*(?:set|split))?"
# A split at either end of a metric name ('test F1', 'Test_perplexity', 'NLL_Test', 'F1 (dev)').
_METRIC_SPLIT = re.compile(
    rf"^{_SPLIT_WORD}[\s_-]+(?P<rest>.+)$|^(?P<rest2>.+?)[\s_-]+\(?(?:on\s+(?:the\s+)?)?{_SPLIT_WORD.replace('split>', 'split2>')}\)?$",
    re.IGNORECASE,
)
_METRIC_SPLITS = {"development": "dev", "val": "validation", "held-out": "test", "heldout": "test"}
# Word level is how perplexity is meant unless said otherwise; a character-level measure is
# another metric (bits per character) and keeps its words, so it never folds into perplexity.
_WORD_LEVEL = re.compile(r"\bword[\s_-]*level\b|\bper[\s_-]*word\b", re.IGNORECASE)
_ACRONYM = re.compile(r"^(?P<long>.+?)[\s_]*\((?P<short>[^()]+)\)[\s_]*$")
_SCORE = re.compile(r"[\s_-]+(?:score|scores|value|values|metric|points?)$", re.IGNORECASE)
# SciREX writes parentheses as underscores: 'Bit_per_Character__BPC_' is 'Bit per Character (BPC)'.
_SCIREX_ACRONYM = re.compile(r"__(?P<short>[A-Za-z0-9]+)_$")


def _singular(word: str) -> str:
    """'perplexities' -> 'perplexity', 'losses' -> 'loss', 'scores' -> 'score'; others as given."""
    lower = word.lower()
    if lower.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if lower.endswith("sses"):
        return word[:-2]
    if lower.endswith("s") and not lower.endswith(("ss", "us", "is")) and len(word) > 3:
        return word[:-1]
    return word


def _metric_forms(name: str) -> list[str]:
    """The spellings a metric name is tried in, most literal first: as written, without 'word
    level', an acronym in parentheses and its long form apart, without a trailing 'score', and
    each of those with its words made singular."""
    forms = [name]
    unleveled = " ".join(_WORD_LEVEL.sub(" ", name).split())
    if unleveled and unleveled != name:
        forms.append(unleveled)
    for form in list(forms):
        if m := _ACRONYM.match(form):
            forms += [m.group("long"), m.group("short")]
    for form in list(forms):
        if (bare := _SCORE.sub("", form)) != form and bare:
            forms.append(bare)
    forms += [" ".join(map(_singular, re.split(r"[\s_]+", f))) for f in list(forms)]
    return list(dict.fromkeys(f.strip() for f in forms if f.strip()))


def _split_of_metric(name: str) -> tuple[str, str | None]:
    """A metric name without the split written into it, and that split ('dev F1' -> ('F1', 'dev'))."""
    m = _METRIC_SPLIT.match(name)
    if m is None:
        return name, None
    word = (m.group("split") or m.group("split2")).lower()
    return (m.group("rest") or m.group("rest2")).strip(), _METRIC_SPLITS.get(word, word)


@lru_cache(maxsize=4096)
def normalize_metric(name: str | None) -> MetricInfo:
    """The canonical metric of a name, with its direction and the split written into it.

    Case, hyphens, spaces and underscores never matter; a name matches the registry as written,
    or without its split ('test F1' is F1 on the test split), without 'word level' ('word-level
    perplexities' is perplexity), by an acronym in parentheses ('bits-per-character (BPC)'), or in
    the singular. An unknown name passes through (its split taken out), with the direction of
    the registry metric it ends with, if any."""
    if not name or not name.strip():
        return MetricInfo(None, None, False, "none")
    written = _SCIREX_ACRONYM.sub(r" (\g<short>)", name.strip())
    text, split = _split_of_metric(written)
    found = next(filter(None, map(metric_entry, _metric_forms(text))), None)
    if found is None and split:  # a name that only looks split ('test' alone)
        text, split = written, None
        found = next(filter(None, map(metric_entry, _metric_forms(text))), None)
    if found is None:
        return MetricInfo(text, _head_direction(text), False, "none", split)
    entry, canonical = found
    return MetricInfo(canonical, entry.direction, True, entry.scale, split)


@dataclass(frozen=True)
class BenchmarkInfo:
    """The canonical benchmark of a name and the setting written into it."""

    name: str | None
    known: bool
    split: str | None = None  # 'PTB test set' -> 'test'
    section: str | None = None  # 'PTB § 23' -> 'section 23'; 'character level', a subset
    languages: str | None = None  # 'WMT 2014 English-to-German' -> 'en-de'
    proposed: str | None = None  # for an unknown name, the registry entry it most resembles

    @property
    def key(self) -> str | None:
        return block_key(self.name, self.known)


_SECTION = re.compile(
    r"[\s,_-]*\(?(?:(?:wsj|the)\s+)?(?:§+|sections?|sec\.?|wsj)\s*(?P<n>\d+(?:\s*[-\u2013]\s*\d+)?)\)?$",
    re.IGNORECASE,
)
_BENCHMARK_SPLIT = re.compile(rf"[\s,_-]*\(?(?:the\s+)?{_SPLIT_WORD}\)?$", re.IGNORECASE)
_LEVEL = re.compile(
    r"[\s,_-]*\(?(?:(?P<level>word|character|char)[\s_-]*level|(?P<bare>character|char))\)?[\s_]*$", re.IGNORECASE
)


@lru_cache(maxsize=4096)
def normalize_benchmark(name: str | None) -> BenchmarkInfo:
    """The canonical benchmark of a name and the setting written into it: a split ('PTB test
    set') or a section ('Penn Treebank § 23') goes to the setting, 'word level' is the default
    and dropped, 'character level' a subset of its own. Only the registry's exact aliases merge;
    an unknown name keeps its own, with the registry entry it most resembles as a proposal."""
    if not name or not name.strip():
        return BenchmarkInfo(None, False)
    if exact_benchmark(name):  # 'Story Cloze Test' is a name, not StoryCloze's test split
        return BenchmarkInfo(canonical_benchmark(name)[0], True)
    text = " ".join(name.replace("_", " ").split())
    split = section = languages = None
    if pairs := language_pairs(text):  # before or after the name: 'English-German WMT14'
        languages = pairs[0].pair
        text = " ".join((text[: pairs[0].start] + " " + text[pairs[0].end :]).split())
    while True:
        if m := _SECTION.search(text):
            section, text = f"section {''.join(m.group('n').split())}", text[: m.start()]
        elif m := _BENCHMARK_SPLIT.search(text):
            word = m.group("split").lower()
            split, text = _METRIC_SPLITS.get(word, word), text[: m.start()]
        elif m := _LEVEL.search(text):
            level = (m.group("level") or m.group("bare")).lower()
            section, text = (None if level == "word" else "character level"), text[: m.start()]
        else:
            break
    text = text.strip(" ,;:-(")
    if not text:  # nothing but a split ('test'): a name of its own
        text, split, section, languages = name.strip(), None, None, None
    canonical, known = canonical_benchmark(text)
    proposed = None if known else propose_benchmark(canonical)
    return BenchmarkInfo(canonical, known, split, section, proposed=proposed, languages=languages)


def comparable(value: float, unit: str | None, scale: str) -> tuple[float, str] | None:
    """The value in the unit numbers of its kind are compared in, when that is certain.

    For a proportion (scale 'percent'): '83%' -> 83 %, a bare 0.83 -> 83 %, a bare 83.6 -> 83.6 %
    (a proportion above 1 can only be a percentage); a bare 1 or 0 is ambiguous and gives None.
    Times go to ms, binary sizes to GiB, decimal sizes to GB; other units compare as written.
    A proportion is never a time, a size or a speed ('39 ms' under mAP): the claim's metric and
    unit disagree, so neither can be trusted to rank it.
    """
    unit = normalize_unit(unit)
    if scale == "percent" and unit is not None and _EXACT.get(unit.lower(), ("",))[0] in _NOT_A_PROPORTION:
        return None
    if scale == "percent" and unit in (None, "%"):
        if unit == "%":
            return value, "%"
        if 0 < value < 1:
            return value * 100, "%"
        if 1 < value <= 100:
            return value, "%"
        return None
    if unit is None:
        return (value, "") if scale != "percent" else None
    exact = _EXACT.get(unit.lower())
    if exact is None:
        return value, unit
    target, factor = exact
    return value * factor, target


@dataclass(frozen=True)
class NormalizedClaim:
    """A claim with its canonical names, parsed setting, model size and comparable value."""

    claim: Claim
    benchmark: str | None
    benchmark_known: bool
    benchmark_key: str | None  # the canonical name, or an unknown name's folded spelling
    metric: str | None
    metric_known: bool
    direction: str | None  # 'higher' | 'lower' | None: which way is better
    unit: str | None
    comparable: float | None
    comparable_unit: str | None
    setting: Setting
    method_key: str
    model_key: str
    size_b: float | None

    @property
    def comparability_key(self) -> tuple:
        """Numbers with different keys are never ranked against each other (the leaderboard's
        blocks)."""
        return (self.benchmark_key, self.metric_key, self.comparable_unit, self.setting.key, self.size_b)

    @property
    def metric_key(self) -> str | None:
        return block_key(self.metric, self.metric_known)

    @property
    def identity_key(self) -> tuple:
        """Two rows with the same identity and different values are a conflict (the model
        names the size)."""
        return (self.method_key, self.model_key, self.benchmark_key, self.metric_key, self.comparable_unit, self.setting.identity)


def model_size(name: str | None, models: list[Model]) -> float | None:
    """The size the paper gives for a model (its Model entry), else the one its name writes."""
    if not name:
        return None
    key = entity_key(name)
    for model in models:
        if entity_key(model.name) == key and model.params_b is not None:
            return model.params_b
    return parse_size_b(name)


#: Names reviewers merged: {'benchmark' | 'metric': {folded name: the name it is another name of}}.
Aliases = Mapping[str, Mapping[str, str]]


def aliased(name: str | None, kind: str, aliases: Aliases | None) -> str | None:
    """The name a reviewer said ``name`` is another name of, else ``name`` itself."""
    if not name or not aliases:
        return name
    return aliases.get(kind, {}).get(fold_key(name), name)


def _names_the_metric(unit: str | None, metric: MetricInfo) -> bool:
    """Whether a unit is the claim's metric itself ('1.27 BPC', '28.4 BLEU'): then the number
    is a plain one, comparable with the same metric written without a unit."""
    return metric.known and not known_unit(unit) and normalize_metric(unit).name == metric.name


def _translated(benchmark: BenchmarkInfo, evidence: str) -> str | None:
    """The language pair of a translation benchmark's result, from the claim's own words when
    they write one pair ('On the WMT 2014 English-to-French task, ...')."""
    entry = benchmark_entry(benchmark.name) if benchmark.known and benchmark.name else None
    return only_pair(evidence) if entry is not None and entry.task == "machine translation" else None


def normalize_claim(claim: Claim, models: list[Model] | None = None, aliases: Aliases | None = None) -> NormalizedClaim:
    """A grounded claim, normalized. ``models`` are its paper's models (for sizes); ``aliases``
    the names reviewers merged, applied before the registry."""
    benchmark = normalize_benchmark(aliased(claim.benchmark, "benchmark", aliases))
    metric = normalize_metric(aliased(claim.metric, "metric", aliases))
    if metric.known and (measure := scored_measure(benchmark.name if benchmark.known else None, metric.name, claim.evidence)):
        metric = replace(normalize_metric(measure), split=metric.split)  # 'bpc / perplexity ... on text8'
    unit = normalize_unit(claim.unit)
    converted = comparable(claim.value, None if _names_the_metric(unit, metric) else unit, metric.scale)
    setting = with_written(
        parse_setting(claim.setting), benchmark.split or metric.split, benchmark.section,
        benchmark.languages or _translated(benchmark, claim.evidence),
    )
    return NormalizedClaim(
        claim=claim,
        benchmark=benchmark.name,
        benchmark_known=benchmark.known,
        benchmark_key=benchmark.key,
        metric=metric.name,
        metric_known=metric.known,
        direction=metric.direction,
        unit=unit,
        comparable=converted[0] if converted else None,
        comparable_unit=converted[1] if converted else None,
        setting=setting,
        method_key=entity_key(claim.method),
        model_key=entity_key(claim.model),
        size_b=model_size(claim.model, models or []),
    )
