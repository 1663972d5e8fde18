"""Normalization of grounded claims into comparable rows: pure functions, no I/O.

Benchmarks and metrics go through the registry (unknown names pass through, flagged). Units are
spelled one way (``×``/``times`` -> ``x``), but a value is never rescaled in place: the number
as written stays in ``value``/``unit``, and a derived ``comparable``/``comparable_unit`` pair is
added only when the conversion is certain (83% and 0.83 accuracy are both 83 %; 1.2 s is
1200 ms; 512 MiB is 0.5 GiB). Methods and models get one identity across papers through
:func:`~extractor.text.name_keys.name_key`, and model sizes are read in billions. Two numbers are
comparable only when benchmark, metric, comparable unit and the evaluation conditions
(:mod:`extractor.catalog.conditions`) agree; the rest of a setting, and a model's size, describe
the entry beside its number, never the block.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

from extractor.catalog.conditions import Read, by_name, conditions, leftover, phrase_key, read_conditions
from extractor.catalog.measures import rank_cut, scored_measure, task_measure, task_reading
from extractor.catalog.registry import (
    BenchmarkEntry,
    benchmark_entry,
    MetricEntry,
    canonical_benchmark,
    edition_of,
    exact_benchmark,
    find_benchmarks,
    fold_key,
    metric_entry,
    propose_benchmark,
    unwrapped,
)
from extractor.text.name_keys import name_key
from extractor.schema import Claim, Model
from extractor.text.arxiv import find_arxiv_id
from extractor.text.languages import only_pair

_UNIT_SPELLINGS = {
    "%": "%", "percent": "%", "pct": "%", "per cent": "%",
    "x": "x", "\u00d7": "x", "times": "x", "fold": "x", "-fold": "x",
    "points": "points", "point": "points", "pts": "points", "pp": "points", "p.p.": "points",
    "percentage points": "points", "percentage point": "points", "pt": "points",
    "tokens/s": "tokens/s", "tok/s": "tokens/s", "tokens/sec": "tokens/s", "token/s": "tokens/s",
    "tokens per second": "tokens/s", "db": "dB", "px": "px", "pixel": "px", "pixels": "px",
}
# Units that convert exactly into one comparable unit: unit -> (comparable unit, factor).
_EXACT = {
    "ms": ("ms", 1.0), "s": ("ms", 1e3), "sec": ("ms", 1e3), "seconds": ("ms", 1e3),
    "us": ("ms", 1e-3), "\u00b5s": ("ms", 1e-3), "\u03bcs": ("ms", 1e-3), "min": ("ms", 6e4),
    "kib": ("GiB", 1 / 2**20), "mib": ("GiB", 1 / 2**10), "gib": ("GiB", 1.0), "tib": ("GiB", 2**10),
    "kb": ("GB", 1e-6), "mb": ("GB", 1e-3), "gb": ("GB", 1.0), "tb": ("GB", 1e3),
    "x": ("x", 1.0), "points": ("points", 1.0), "tokens/s": ("tokens/s", 1.0), "db": ("dB", 1.0),
}

# Physical units with no magnitude prefix in use: a bare number of a measure the registry gives one
# of them is in it ('2.1' EPE is 2.1 px; '32.4' PSNR 32.4 dB), unlike a latency's ms or s, or FLOPs'
# G or T. (A score's 'points', BLEU's, are its own scale: a bare BLEU stays a bare number.)
_BARE_IN_UNIT = frozenset({"px", "dB"})

# Comparable units no proportion (accuracy, mAP, F1...) is measured in.
_NOT_A_PROPORTION = frozenset({"ms", "GiB", "GB", "x", "tokens/s", "dB"})

_SIZE = re.compile(
    r"(?<![\w.])(?P<prefix>[Aa])?(?P<num>\d+(?:\.\d+)?)\s?(?P<scale>[BbMmTt])(?![a-zA-Z])"
)
_MOE = re.compile(r"\d+\s?[x\u00d7]\s?\d+(?:\.\d+)?\s?[BbMm]\b")
_SIZE_SCALE = {"b": 1.0, "m": 1e-3, "t": 1e3}

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


_NUMBER_ONLY = re.compile(r"[\s/:+,.\-–]*\d[\d\s/:+,.\-–]*")  # digits and the marks between numbers


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
    """What a claim's setting says: the evaluation conditions its number was measured under (the
    block's: :mod:`extractor.catalog.conditions`), and the rest, which describes the entry (a
    configuration, a training note: ``other``; the method's own latency, speed or memory: ``cost``)."""

    conditions: tuple[tuple[str, str], ...] = ()  # (condition, canonical value) stated, in the list's order
    other: str = ""  # words not read as conditions: the entry's, shown on its row, never splitting a block
    cost: str = ""  # the method's own latency, speed, FLOPs or memory ('34ms')
    assumed: tuple[str, ...] = ()  # conditions not stated, taken as the benchmark's usual ones (MMLU: 5-shot)

    def get(self, name: str) -> str | None:
        """The value stated for a condition, else None."""
        return dict(self.conditions).get(name)

    @cached_property  # parse_setting is cached, so each distinct setting computes it once
    def key(self) -> tuple[str | None, ...]:
        """What must match for two numbers to be compared: each condition's value, an unstated
        one as its default (a split left unstated is the test split: 'F1' and 'test F1' are one
        number's names). Words not read as conditions and the cost are left out."""
        stated = dict(self.conditions)
        return tuple(stated.get(c.name, c.default) for c in conditions())

    @property
    def identity(self) -> tuple:
        """The key with the entry's own words: one method in two configurations, or at two
        speeds, is two entries, not a conflict."""
        return (self.key, self.other.casefold(), self.cost.casefold())

    @cached_property
    def label(self) -> str:
        """The conditions stated, in the list's order ('en-de, 5-shot, test')."""
        return ", ".join(value for _, value in self.conditions)

    @cached_property
    def entry(self) -> str:
        """What the setting says about the entry: its configuration and its cost ('single model, 34ms')."""
        return ", ".join(p for p in (self.other, self.cost) if p)

    @cached_property
    def shown(self) -> str:
        """All of it, as a row shows it ('5-shot, single model, 34ms')."""
        return ", ".join(p for p in (self.label, self.entry) if p)


def key_label(key: tuple) -> str:
    """A block's conditions as its header shows them (``key`` a comparability key): those that
    are not the default, nor implied by the metric itself (bits per character is at character
    level)."""
    found = metric_entry(key[1]) if key[1] else None
    implied = set(found[0].conditions) if found else set()
    return ", ".join(v for c, v in zip(conditions(), key[3]) if v is not None and v != c.default and (c.name, v) not in implied)


def with_written(setting: Setting, *written: tuple[tuple[str, str], ...]) -> Setting:
    """A claim's setting with the conditions its names wrote ('test F1', 'PTB § 23', 'WMT14
    En-De', '5-shot accuracy'); the setting's own value of a condition wins over a name's, and
    the subsets of all are kept."""
    if not any(written):
        return setting
    found = dict(setting.conditions)
    for values in written:
        for name, value in values:
            if name not in found:
                found[name] = value
            elif by_name()[name].many and value not in found[name].split(" / "):
                found[name] = " / ".join(sorted({*found[name].split(" / "), value}))
    ordered = tuple((c.name, found[c.name]) for c in conditions() if c.name in found)
    return replace(setting, conditions=ordered) if ordered != setting.conditions else setting


@lru_cache(maxsize=16384)
def parse_setting(text: str | None, phrases: frozenset[str] = frozenset()) -> Setting:
    """'5-shot, 4-bit, 32K context, test' -> the conditions 5-shot, 4-bit, 32K context, test;
    the method's own cost ('at 34ms') goes to ``cost``; words no condition reads stay in
    ``other`` ('single model'), unless a reviewer said they are one (``phrases``)."""
    if not text or not text.strip():
        return Setting()
    costs = [" ".join(m.group("shown").split()) for m in _COST.finditer(text)]
    read = read_conditions(_COST.sub(" ", text), phrases)
    return Setting(read.values, leftover(read.rest), ", ".join(costs))


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
    # The conditions written into the name ('test F1', '5-shot accuracy') or implied by the
    # measure (bits per character: character level): they go to the claim's setting.
    conditions: tuple[tuple[str, str], ...] = ()
    written: str | None = None  # the name as written without those conditions ('top-1')
    entry: str = ""  # how the entry was run, written before the measure ('single-model AP'): shown on its row

    @property
    def key(self) -> str | None:
        return block_key(self.name, self.known)

    def get(self, condition: str) -> str | None:
        return dict(self.conditions).get(condition)

    def read_as(self, found: MetricInfo) -> MetricInfo:
        """``found`` in this reading's place ('R1' read as ROUGE-1), keeping what the name wrote:
        its conditions, its spelling, how the entry was run."""
        return replace(found, conditions=_merged(self.conditions, found.conditions), written=self.written, entry=self.entry)


def _head(name: str) -> MetricEntry | None:
    """The registry metric an unknown name ends with ('KV cache memory' is a memory: lower is
    better; 'cache hit rate' a hit rate: higher; '3D tracking accuracy' an accuracy, a
    proportion), else None. The longest ending that names one wins; the name itself stays as
    written."""
    words = name.split()
    for start in range(1, len(words)):
        found = metric_entry(" ".join(words[start:]))
        if found is not None:
            return found[0]
    return None


# The conditions a metric's name may write ('test F1', '5-shot accuracy', 'BLEU (En-De)'): all
# but a subset, which a measure's name rarely writes and a phrase around it often looks like.
_IN_NAMES = frozenset(("languages", "shots", "bits", "context", "horizon", "resolution", "upscaling", "split", "level", "protocol", "attempts", "input", "references"))
# Words a condition leaves dangling at either end of a name ('F1 on the', 'accuracy ( )').
_DANGLING = frozenset({"on", "at", "in", "for", "with", "under", "of", "the", "using", "-", "@"})
# Word level is how perplexity is meant unless said otherwise ('per word' as much as 'word level').
_WORD_LEVEL = re.compile(r"\bword[\s_-]*level\b|\bper[\s_-]*word\b", re.IGNORECASE)
_ACRONYM = re.compile(r"^(?P<long>.+?)[\s_]*\((?P<short>[^()]+)\)[\s_]*$")
# Words before a measure that name no other quantity: 'overall', 'average' or 'final' say the figure
# is the whole benchmark's, as an unqualified one is, and a task's word says what the benchmark is
# ('overall accuracy', 'average F1', 'pair-wise verification accuracy', 'end-to-end task success
# rate' are accuracy, F1 and success rate). A name the registry knows as written ('average
# precision', 'average recall') is matched before these go, and an average of an mAP ('average
# mAP', over IoU thresholds) is a measure of its own.
_QUALIFIERS = re.compile(
    r"^(?:(?:overall|final|end-to-end|task|recognition|verification|classification|pair-?wise"
    r"|(?:average|averaged|mean)(?![\s_-]+mAP))[\s_-]+)+",  # an 'average mAP' is over thresholds: its own
    re.IGNORECASE,
)
_SCORE = re.compile(r"[\s_-]+(?:score|scores|value|values|metric|points?)$", re.IGNORECASE)
# SciREX writes parentheses as underscores: 'Bit_per_Character__BPC_' is 'Bit per Character (BPC)'.
_SCIREX_ACRONYM = re.compile(r"__(?P<short>[A-Za-z0-9]+)_$")
# How an entry is run, written before a measure's name: a configuration, never the measure.
_RUN_AS = r"(?:single|multi)[\s-]*(?:model|scale|crop|view)s?|ensembled?"
_ENTRY_IN_NAME = re.compile(rf"^(?:{_RUN_AS})(?:[\s,/-]+(?:{_RUN_AS}))*\s+", re.IGNORECASE)


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
    level', an acronym in parentheses and its long form apart, without a trailing 'score', without
    the leading words that name no other quantity (``_QUALIFIERS``), and each of those with its
    words made singular."""
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
    forms += [whole for f in list(forms) if (whole := _QUALIFIERS.sub("", f)) != f and whole]
    forms += [" ".join(map(_singular, re.split(r"[\s_]+", f))) for f in list(forms)]
    return list(dict.fromkeys(f.strip() for f in forms if f.strip()))


def _without(read: Read) -> str:
    """What is left of a name once its conditions are read: the words between them, without
    the prepositions and brackets they leave dangling ('F1 (dev)' -> 'F1')."""
    words = re.sub(r"\(\s*\)|\[\s*\]", " ", read.rest).split()
    while words and words[-1].lower().strip(",;:()") in _DANGLING | {""}:
        words.pop()
    while words and words[0].lower().strip(",;:()") in _DANGLING | {""}:
        words.pop(0)
    return " ".join(words).strip(" ,;:")


def _merged(*conditions: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """Conditions from several places, the first place's value of each first."""
    found: dict[str, str] = {}
    for values in conditions:
        for name, value in values:
            found.setdefault(name, value)
    return tuple(found.items())


_CALLED_ACCURACY = re.compile(r"^(?P<measure>.+?)[\s_-]+accurac(?:y|ies)$", re.IGNORECASE)


# A name that is one word saying only that a figure sums up the benchmark ('average', 'overall').
_PLAIN_SCORE = re.compile(r"^(?:the\s+)?(?:average|averaged|mean|overall|performance)$", re.IGNORECASE)


def _plain_score(name: str) -> tuple[MetricEntry, str] | None:
    """'Average' or 'overall' alone is the benchmark's score (its one measure, where the registry
    knows it: ``measures``); as the end of a longer name ('5-task average') it names no measure."""
    return metric_entry("score") if _PLAIN_SCORE.match(name) else None


def _called_accuracy(name: str) -> tuple[MetricEntry, str] | None:
    """A proportion called an accuracy after its own name ('mIoU accuracy', 'exact match
    accuracy'): the registry measure it names, when that one is a proportion, higher better."""
    m = _CALLED_ACCURACY.match(name)
    found = next(filter(None, map(metric_entry, _metric_forms(m.group("measure")))), None) if m else None
    return found if found and found[0].direction == "higher" and found[0].scale == "percent" else None


@lru_cache(maxsize=4096)
def normalize_metric(name: str | None) -> MetricInfo:
    """The canonical metric of a name, with its direction and the conditions written into it.

    Case, hyphens, spaces and underscores never matter; a name matches the registry as written
    ('zero-shot accuracy', 'test perplexity'), else without the conditions it writes ('test F1'
    is F1 on the test split, '5-shot accuracy' is accuracy, 5-shot), without 'word level'
    ('word-level perplexities' is perplexity), by an acronym in parentheses ('bits-per-character
    (BPC)'), or in the singular. The conditions go to the claim's setting either way. An unknown
    name passes through (its conditions taken out), with the direction of the registry metric it
    ends with, if any. How the entry was run, written before a measure ('single-model
    single-scale AP'), is the entry's: the measure is AP."""
    if not name or not name.strip():
        return MetricInfo(None, None, False, "none")
    written = _SCIREX_ACRONYM.sub(r" (\g<short>)", name.strip())
    read = read_conditions(written.replace("_", " "), only=_IN_NAMES)
    text = _without(read) if read.values else written
    if not text:  # nothing but a condition ('test'): a name of its own
        read, text = Read((), written), written
    found = next(filter(None, map(metric_entry, _metric_forms(written))), None) if read.values else None
    found = found or next(filter(None, map(metric_entry, _metric_forms(text))), None) or _called_accuracy(text) or _plain_score(text)
    if found is None and (run_as := _ENTRY_IN_NAME.match(text)) and (measure := normalize_metric(text[run_as.end():])).known:
        return replace(measure, conditions=_merged(read.values, measure.conditions), entry=run_as.group().strip())
    if found is None:  # its direction, and a proportion's form, are those of the measure it ends with
        head = _head(text)
        scale = "percent" if head is not None and head.scale == "percent" else "none"
        return MetricInfo(text, head.direction if head else None, False, scale, read.values, text)
    entry, canonical = found
    return MetricInfo(canonical, entry.direction, True, entry.scale, _merged(read.values, entry.conditions), text)


@dataclass(frozen=True)
class BenchmarkInfo:
    """The canonical benchmark of a name and the conditions written into it."""

    name: str | None
    known: bool
    # 'PTB test set': split test; 'PTB § 23': subset section 23; 'WMT 2014 English-to-German':
    # en-de; 'Penn Treebank (Character Level)': character level; 'five-shot MMLU': 5-shot
    conditions: tuple[tuple[str, str], ...] = ()
    proposed: str | None = None  # for an unknown name, the registry entry it most resembles
    # Words of the benchmark's own task written after its name ('keypoints' in 'COCO Keypoints'):
    # they say which of its measures a generic one is ('AP' there is keypoint AP).
    task: str | None = None

    @property
    def key(self) -> str | None:
        """The canonical name, or an unknown name's folded spelling with its version written one
        way ('Foo v2.0' = 'Foo 2.0') and without the words that wrap it ('the Foo dataset' = 'Foo')."""
        return block_key(self.name if self.known or self.name is None else _VERSION.sub("", unwrapped(self.name)), self.known)

    def get(self, condition: str) -> str | None:
        return dict(self.conditions).get(condition)


# A version written with a 'v' or 'version' ('SQuAD v2.0', 'LongBench version 2') and a
# trailing '.0': 'X v2.0', 'X 2.0', 'X v2' and 'X2.0' are one name.
_VERSION = re.compile(r"(?<![^\W\d_])(?:v|version\s*)(?=\d)|(?<=\d)\.0\b", re.IGNORECASE)
# A bare level at the end of a name: 'Penn Treebank (Character)'.
_BARE_LEVEL = re.compile(r"[\s,_-]*\(?(?:character|char)\)?[\s_]*$", re.IGNORECASE)


def _registry_name(text: str) -> tuple[str, bool]:
    """``canonical_benchmark`` of a name, or of its version written another way ('X v2.0' for
    the registry's 'X 2.0')."""
    canonical, known = canonical_benchmark(text)
    if known:
        return canonical, known
    bare = " ".join(_VERSION.sub(" ", text).split())
    for form in dict.fromkeys((bare, re.sub(r"(\d)$", r"\1.0", bare), re.sub(r"(\d)\.0$", r"\1", bare))):
        found, known = canonical_benchmark(form)
        if known:
            return found, known
    return _one_entry_twice(text) or (canonical, False)


def _one_entry_twice(text: str) -> tuple[str, bool] | None:
    """A name that is two names of one registry entry side by side ('ImageNet ILSVRC2012',
    'ImageNet-1k (ILSVRC-2012)'), or one after the start of the entry's own name, a family's
    ('WMT newstest2014' is WMT14): that entry; nothing else may be written beside them."""
    mentions = find_benchmarks(text)
    if not mentions:
        return None
    entry = max({m.canonical for m in mentions}, key=len)
    head = fold_key(entry)
    rest = text
    for m in reversed(mentions):
        rest = rest[: m.span[0]] + " " + (m.surface if m.canonical != entry else "") + " " + rest[m.span[1] :]
    left = [w for w in re.findall(r"[^\W_]+", rest) if w.lower() not in ("the", "and")]
    named = sum(m.canonical == entry for m in mentions) > 1 or bool(left)
    return (entry, True) if named and all(len(w) >= 3 and head.startswith(fold_key(w)) for w in left) else None


def _ends_the_name(text: str, rest: str) -> bool:
    """Whether what a reading took out of a name all follows the words it leaves ('Foo Bench
    test set'): an unknown name is never cut at its start or in its middle ('Test of Time')."""
    left = rest.strip(" ,;:-()")
    return bool(left) and text.startswith(left)


# Words an acronym's letters skip ('Question Answering in Context' is QAC).
_NO_INITIAL = frozenset({"of", "and", "the", "for", "on", "in"})
# A name spelled out with its acronym after it: 'International Skin Imaging Collaboration (ISIC) 2017'.
_SPELLED_OUT = re.compile(r"^(?:the\s+)?(?P<long>[^()]+?)\s*\((?P<acronym>[A-Za-z][A-Za-z0-9]*)\)\s*(?P<rest>[^()]*)$", re.IGNORECASE)


def _by_acronym(text: str) -> str | None:
    """A name written out in full with its acronym in brackets, as the acronym with what follows
    it ('Massive Multitask Language Understanding (MMLU)' -> 'MMLU'), so that it meets the papers
    that write only the acronym; None where the brackets hold no acronym of the words before them
    ('ImageNet (ILSVRC 2012)')."""
    found = _SPELLED_OUT.match(text)
    if found is None:
        return None
    initials = "".join(word[0] for word in re.findall(r"[^\W_]+", found["long"]) if word.lower() not in _NO_INITIAL)
    letters = "".join(c for c in found["acronym"] if c.isalpha())
    if len(letters) < 2 or letters.lower() != initials.lower():
        return None
    return " ".join(filter(None, (found["acronym"], found["rest"])))


@lru_cache(maxsize=4096)
def normalize_benchmark(name: str | None) -> BenchmarkInfo:
    """The canonical benchmark of a name and the conditions written into it: a split ('PTB test
    set'), a section ('Penn Treebank § 23'), a language pair or the one language ('English-German
    WMT14', 'X (German)'; English is the default), the level ('character level'; word level is
    the default) or a shot count go to the setting. The rest is matched against the registry's
    names and aliases, its version written either way ('X v2.0' = 'X 2.0'); a registry name
    keeps its conditions wherever they are written, an unknown name only those after its words.
    Only the registry's exact aliases merge; an unknown name keeps its own, with the registry
    entry it most resembles as a proposal."""
    if not name or not name.strip():
        return BenchmarkInfo(None, False)
    text = " ".join(name.replace("_", " ").split())
    text = _by_acronym(text) or text
    read = read_conditions(text)
    values = read.values
    if m := _BARE_LEVEL.search(read.rest) if "level" not in dict(values) else None:
        read = Read(_merged(values, (("level", "character level"),)), read.rest[: m.start()])
        values = read.values
    rest = _without(read).strip(" ,;:-(") if values else text
    canonical, known = _registry_name(rest) if values and rest else (None, False)
    # A registry name is whole ('Story Cloze Test' is a name, not StoryCloze's test split), unless
    # it writes a condition that is not the default and names a registry benchmark without it
    # ('LibriSpeech test-other', an alias, is LibriSpeech's test split of the subset other).
    if exact_benchmark(name) and not (known and any(v != by_name()[c].default for c, v in values)):
        return BenchmarkInfo(edition_of(name) or canonical_benchmark(name)[0], True)
    if values and rest and (known or _ends_the_name(text, read.rest)):
        named = (edition_of(rest) or canonical) if known else canonical
        return BenchmarkInfo(named, known, _ordered(values), None if known else propose_benchmark(canonical))
    canonical, known = _registry_name(text)
    if known:
        return BenchmarkInfo(edition_of(text) or canonical, True)
    if named := _name_with_part(rest if values else text):
        benchmark, part = named
        return BenchmarkInfo(benchmark, True, _ordered(_merged(values, (("subset", part),))))
    if tasked := _name_with_task(rest if values else text):
        return BenchmarkInfo(tasked[0], True, _ordered(values), task=tasked[1])
    return BenchmarkInfo(canonical, known, proposed=propose_benchmark(canonical))


def _name_with_task(text: str) -> tuple[str, str] | None:
    """A registry benchmark's name followed by words of its own task and nothing else ('Cityscapes
    semantic segmentation', 'COCO Keypoints', 'ImageNet classification'): that benchmark, and
    the words. Words of another task keep the name apart ('ImageNet localization' is scored
    otherwise than ImageNet's classification)."""
    mentions = find_benchmarks(text)
    if len(mentions) != 1 or mentions[0].span[0] != 0 or (entry := benchmark_entry(mentions[0].canonical)) is None:
        return None
    words = re.findall(r"[\w-]+", text[mentions[0].span[1] :].lower())
    task = {word.removesuffix("s") for word in re.findall(r"[\w-]+", (entry.task or "").lower())}
    if words and all(word.removesuffix("s") in task for word in words):
        return mentions[0].canonical, " ".join(words)
    return None


def _name_with_part(text: str) -> tuple[str, str] | None:
    """A registry benchmark's name followed by the words of one of its parts and nothing else
    ('KITTI moderate', 'CASIA-B NM'): that benchmark (its edition, where the name writes one)
    and the part, which is its subset."""
    mentions = find_benchmarks(text)
    if not mentions or mentions[0].span[0] != 0:
        return None
    mention = mentions[0]
    entry = benchmark_entry(mention.canonical)
    if entry is None or not entry.parts:
        return None
    part, rest = _named_part(entry, text[mention.span[1] :])
    if part is None or leftover(rest):
        return None
    return edition_of(mention.surface) or mention.canonical, part


def _ordered(values: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    found = dict(values)
    return tuple((c.name, found[c.name]) for c in conditions() if c.name in found)


def comparable(value: float, unit: str | None, scale: str) -> tuple[float, str] | None:
    """The value in the unit numbers of its kind are compared in, when that is certain.

    For a proportion (scale 'percent'): '83%' -> 83 %, a bare 0.83 -> 83 %, a bare 83.6 -> 83.6 %
    (a proportion above 1 can only be a percentage); a bare 1 or 0 is ambiguous and gives None.
    Times go to ms, binary sizes to GiB, decimal sizes to GB; other units compare as written.
    A proportion is never a time, a size or a speed ('39 ms' under mAP): the claim's metric and
    unit disagree, so neither can be trusted to rank it. A ratio that may pass 1 (scale
    'fraction': a human-normalized score) is compared in %, a bare number being the fraction
    (1.046 -> 104.6 %, as 104.6% is written); a '%' beside a score on a 0-100 scale (scale
    'points': BLEU, CIDEr) adds nothing ('132.0%' CIDEr is 132.0).
    """
    unit = normalize_unit(unit)
    if scale == "fraction" and unit in (None, "%"):
        return (value, "%") if unit == "%" else (value * 100, "%")
    if scale == "points" and unit == "%":
        unit = None
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
    # Conditions its benchmark is reported under several values of, with no usual one, that the
    # claim states nowhere (LRS3's input): the score is not ranked until a reviewer says which.
    unstated: tuple[str, ...] = ()

    @property
    def comparability_key(self) -> tuple:
        """Numbers with different keys are never ranked against each other (the leaderboard's
        blocks): benchmark, metric, comparable unit and the evaluation conditions. A model's
        size and the rest of a setting are the entry's, shown on its row."""
        return (self.benchmark_key, self.metric_key, self.comparable_unit, self.setting.key)

    @property
    def metric_key(self) -> str | None:
        return block_key(self.metric, self.metric_known)

    @property
    def identity_key(self) -> tuple:
        """Two rows with the same identity and different values are a conflict (the model
        names the size; the setting's own words the configuration)."""
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


#: What reviewers said about the board's words: {'benchmark' | 'metric': {folded name: the name
#: it is another name of}, 'condition': {phrase key: a setting phrase that is a condition},
#: 'block': {a block as a claim had it: the conditions of the block it is one with}}.
Aliases = Mapping[str, Mapping[str, str]]


def condition_phrases(aliases: Aliases | None) -> frozenset[str]:
    """The setting phrases reviewers said are conditions."""
    return frozenset((aliases or {}).get("condition", {}).values())


def aliased(name: str | None, kind: str, aliases: Aliases | None) -> str | None:
    """The name a reviewer said ``name`` is another name of, else ``name`` itself."""
    if not name or not aliases:
        return name
    return aliases.get(kind, {}).get(fold_key(name), name)


def _no_unit(unit: str | None, metric: MetricInfo, kind: str) -> bool:
    """Whether a unit is the claim's metric itself, as read or as written ('1.27 BPC', '28.4
    BLEU', '75.0 AP' of an AP its title reads as keypoint AP), only another number ('/8.2' of
    '4.8/8.2 WER', the second of a pair) or a score's points of a known measure ('16.4
    perplexity points'; a change in points stays one: '+2.1 points' of accuracy are percentage
    points): then the number is a plain one, comparable with the same metric written without a
    unit."""
    if unit is not None and _NUMBER_ONLY.fullmatch(unit):
        return True
    if unit == "points" and kind == "score" and metric.known:
        return True
    return metric.known and not known_unit(unit) and normalize_metric(unit).name in (metric.name, normalize_metric(metric.written).name)


def _measured_in(metric: MetricInfo) -> str | None:
    """The registry unit a bare number of ``metric`` is in, when that unit has no magnitude prefix
    in use (``_BARE_IN_UNIT``); else None."""
    found = metric_entry(metric.name) if metric.known and metric.name else None
    unit = found[0].unit if found else None
    return unit if unit in _BARE_IN_UNIT else None


def _translated(benchmark: BenchmarkInfo, evidence: str) -> str | None:
    """The language pair of a translation benchmark's result, from the claim's own words when
    they write one pair ('On the WMT 2014 English-to-French task, ...')."""
    entry = benchmark_entry(benchmark.name) if benchmark.known and benchmark.name else None
    return only_pair(evidence) if entry is not None and entry.task == "machine translation" else None


def _without_benchmark(metric: MetricInfo, benchmark: BenchmarkInfo) -> MetricInfo:
    """An unknown metric name that writes the claim's own benchmark ('ImageNet-1k accuracy' on
    ImageNet) or only words of its task before a measure ('face verification accuracy' on LFW, a
    face verification benchmark; 'classification error rate' on CIFAR-10) is that measure, when
    the registry knows it: the words say what the benchmark is, not another quantity. A word of
    another task ('identification accuracy' on LFW) keeps the name apart."""
    if metric.known or not metric.written or not benchmark.known:
        return metric
    for mention in find_benchmarks(metric.written):
        if mention.canonical == benchmark.name:
            rest = (metric.written[: mention.span[0]] + " " + metric.written[mention.span[1] :]).strip(" ,;:-")
            found = normalize_metric(" ".join(rest.split()))
            if found.known:
                return metric.read_as(found)
    entry = benchmark_entry(benchmark.name) if benchmark.name else None
    task = set((entry.task or "").lower().split()) if entry is not None else set()
    words = (metric.name or "").split()
    for start in range(1, len(words)):
        if words[start - 1].lower() not in task:
            break
        found = normalize_metric(" ".join(words[start:]))
        if found.known:
            return metric.read_as(found)
    return metric


def _baseline_conditions(baseline: str | None) -> tuple[tuple[str, str], ...]:
    """The conditions of a baseline that is nothing but conditions ('GSM8K from 10.4% to 40.7%'
    over the baseline 'zero-shot'): a score compared with it is measured under them. A baseline
    that names a method ('few-shot GPT-3') says nothing about the claim's own conditions, nor
    does any baseline of a change ('a 2.57x speedup over FP16' compares two precisions)."""
    if not baseline:
        return ()
    read = read_conditions(baseline)
    return read.values if read.values and not leftover(read.rest) else ()


# 'without training on COCO', 'not fine-tuned on X': what follows names the data left unseen.
_UNSEEN = re.compile(
    r"\b(?:without|no)\s+(?:any\s+)?(?:training|fine-?tuning|being\s+trained)\s+on\s+(?P<what>[^,;]+)"
    r"|\bnot\s+(?:trained|fine-?tuned)\s+on\s+(?P<what2>[^,;]+)",
    re.IGNORECASE,
)


# A cross-dataset test: trained on one dataset, scored on another ('generalizability tests').
_CROSS_DATASET = re.compile(r"\bcross[\s-]*dataset\b|\bgenerali[sz](?:ability|ation)\s+(?:tests?|experiments?|evaluations?)\b", re.IGNORECASE)


def _unseen(benchmark: BenchmarkInfo, setting: str | None) -> bool:
    """Whether a setting says the model never trained on the benchmark it is scored on ('FID on
    COCO, without training on COCO'; a 'cross-dataset' or 'generalizability' test): that is a
    zero-shot number, never a fine-tuned one. Only the claim's own benchmark counts ('without
    training on extra data' says nothing of the kind)."""
    if not benchmark.known or not benchmark.name or not setting:
        return False
    if _CROSS_DATASET.search(setting):
        return True
    return any(
        mention.canonical == benchmark.name
        for m in _UNSEEN.finditer(setting)
        for mention in find_benchmarks(m.group("what") or m.group("what2"))
    )


_YEAR = re.compile(r"(?<![\w.])(?:19|20)\d\d(?![\w.])")



def _edition(benchmark: BenchmarkInfo, setting: str | None) -> BenchmarkInfo:
    """A benchmark's edition written in the claim's setting rather than its name ('PASCAL VOC'
    with 'VOC 2007', or with '2012'): that edition (``editions`` of the registry), when the
    setting names exactly one of the benchmark's; editions are datasets of their own. A name
    that is an edition already says which ('VoxCeleb1' with 'trained on VoxCeleb2' is
    VoxCeleb1: the setting names the training data)."""
    if not benchmark.known or not benchmark.name or not setting or edition_of(benchmark.name):
        return benchmark
    written = [m.surface for m in find_benchmarks(setting)] + [f"{benchmark.name} {year}" for year in _YEAR.findall(setting)]
    entry = benchmark_entry(benchmark.name)
    editions = {e for e in map(edition_of, written) if e and e != benchmark.name and benchmark_entry(e) == entry}
    return replace(benchmark, name=editions.pop()) if len(editions) == 1 else benchmark


def _named_by_words(benchmark: BenchmarkInfo, written: str | None, setting: str | None) -> BenchmarkInfo:
    """A benchmark written by a name that also stands for others a setting tells apart in words
    (``by_words``: 'Stanford Sentiment Treebank' with 'fine-grained labels' is SST-5, with none
    SST-2): the one the setting names, when it names exactly one; else the benchmark as it is. A
    name that writes a number ('SST-2', 'Yelp-5') says which it is."""
    if not (benchmark.known and benchmark.name and written and setting) or re.search(r"\d", written):
        return benchmark
    entry = benchmark_entry(benchmark.name)
    named = {other for other, words in entry.by_words if words.search(setting)} if entry else set()
    if len(named) != 1:
        return benchmark
    other = named.pop()
    return replace(benchmark, name=edition_of(other) or canonical_benchmark(other)[0])


# The words that call a subset a part ('the Switchboard subset', 'its CallHome portion').
_PART = re.compile(r"[\s_-]+(?:subsets?|portions?|parts?|partitions?|sets?)$", re.IGNORECASE)


# A split named for a benchmark ('the PCQM4Mv2 split'), as the subset reading gives it.
_OWN_SPLIT = re.compile(r"(?P<name>.+?)[\s_-]+splits?", re.IGNORECASE)


def _part(benchmark: BenchmarkInfo, setting: Setting) -> tuple[BenchmarkInfo, str | None]:
    """A subset that is a benchmark of the registry's own ('Hub5 2000' with 'the Switchboard
    subset'): that benchmark, the block of the scores that name it, and the subset's value that
    named it (taken out of the setting); a split named for the claim's own benchmark ('the
    PCQM4Mv2 split' of PCQM4Mv2) names nothing and is taken out too ('the EgoSchema subset' is a
    part); else the benchmark as it is and None."""
    written = [v for c, v in benchmark.conditions if c == "subset"]
    values = [v for value in [*written, setting.get("subset")] if value for v in value.split(" / ")]
    if len(values) != 1:
        return benchmark, None
    if (split := _OWN_SPLIT.fullmatch(values[0])) and benchmark.name and fold_key(canonical_benchmark(split["name"])[0]) == fold_key(benchmark.name):
        return benchmark, values[0]  # 'the PCQM4Mv2 split' of PCQM4Mv2 names no part of it
    name, known = canonical_benchmark(_PART.sub("", values[0]))
    if not known or name == benchmark.name:
        return benchmark, None
    return BenchmarkInfo(name, True, tuple((c, v) for c, v in benchmark.conditions if c != "subset")), values[0]


def _without_subset(setting: Setting, value: str) -> Setting:
    """A setting without one subset value (the one that named the claim's benchmark)."""
    kept = []
    for name, found in setting.conditions:
        rest = [v for v in found.split(" / ") if v != value] if name == "subset" else [found]
        if rest:
            kept.append((name, " / ".join(rest)))
    return replace(setting, conditions=tuple(kept))


# Numbers written 'a/b' ('2.1%/4.3%'), whose parts or measures are told apart only by their order.
_SLASHED = re.compile(r"\d\s*%?\s*/\s*$|^\s*%?\s*/\s*\d")


def _one_of_slashed(claim: Claim) -> bool:
    """Whether the claim's number is one of several written 'a/b' ('WER of 2.1%/4.3% ... on
    test/testother'): which part or measure each is rests on their order, so a number of them
    that names no metric is not given one."""
    start, end = claim.value_span[0] - claim.span[0], claim.value_span[1] - claim.span[0]
    return bool(_SLASHED.search(claim.evidence[max(0, start - 3) : start]) or _SLASHED.search(claim.evidence[end : end + 3]))


def _only_measure(entry: BenchmarkEntry | None, claim: Claim, unit: str | None, reported: str | None) -> str | None:
    """The measure a score that names none is in: the one its benchmark is scored in, where the
    registry knows exactly one (``scored_in``: '69% on MMLU' is an accuracy, '8.38 on MT-Bench' a
    score), or else the one measure the board's other scores report it in (``reported``, see
    :func:`normalize_claim`), and only for a number written bare or in that measure's unit (a
    latency on MMLU is no accuracy). A benchmark the registry scores in several measures, or in a
    measure and its complement (ImageNet: accuracy and error rate), decides nothing, nor does one
    of several numbers written 'a/b' (:func:`_one_of_slashed`); nor is it asked for a score whose
    setting has words no condition reads and that say nothing of the entry (the caller's part:
    'mathematical MMLU' may be a part of the benchmark, so such a row waits for a reviewer)."""
    scored = entry.scored_in if entry is not None and entry.scored_in else (reported,) if reported else ()
    if claim.kind != "score" or len(scored) != 1 or _one_of_slashed(claim):
        return None
    found = metric_entry(scored[0])
    if found is None:
        return None
    measure = found[0]
    bare = unit is None or (unit == "%" and measure.scale in ("percent", "points", "fraction"))
    return found[1] if bare or unit == measure.unit else None


# Words that say how an entry was built, trained or run, never what it was measured on.
_ENTRY_WORDS = re.compile(
    r"\b(?:(?:pre-?|re-?)?train(?:ed|ing)?|fine-?tun(?:ed|ing)|(?:instruction-)?tuned|SFT|RLHF|RL|DPO|GRPO|distill(?:ed|ation)?"
    r"|backbones?|encoders?|decoders?|models?|variants?|parameters?|params|layers|ensembl(?:e|es|ed|ing)|single"
    r"|samples|sampling|voting|self-consistency|CoT|thinking|tokens|built|based|base|augment(?:ed|ation)?"
    r"|data|extra|external|tools?|verifiers?|post-processing|without|budget|rollouts?|polic(?:y|ies)"
    r"|incorporat(?:ed|ing)|integrat(?:ed|ing)|combined|plugged|equipped|on\s+top\s+of|resolutions?"
    r"|\d+(?:\.\d+)?[BM])\b",  # a model's size: '7B', '1.5B', '10M'
    re.IGNORECASE,
)


# A task's name ('document classification', 'text-to-video retrieval'): what a benchmark is for.
_TASK = re.compile(
    r"\b(?:extraction|classification|answering|recognition|detection|segmentation|captioning|summari[sz]ation"
    r"|translation|generation|understanding|reasoning|estimation|tracking|parsing|retrieval|localization"
    r"|verification|forecasting|completion|denoising|restoration|enhancement|separation|labell?ing)$",
    re.IGNORECASE,
)


def _no_part(words: str) -> bool:
    """Whether words no condition reads say how the entry was built or run ('trained for 4.8T
    tokens', '7B'), or name the task the benchmark is for ('entity relation extraction'), so
    cannot name a part of it ('RE' on FUNSD, 'mathematical MMLU', '3s trials')."""
    return bool(_ENTRY_WORDS.search(words) or _TASK.search(words))


def may_name_a_part(setting: Setting) -> bool:
    """Whether a normalized setting keeps words that may name a part of its benchmark."""
    return not all(_no_part(words) for words in setting.other.split(", ") if words)


def _names_no_part(setting: str | None, phrases: frozenset[str], benchmark: str | None) -> bool:
    """Whether no phrase of a setting as written may name a part of its benchmark."""
    unread = (_own_name_dropped(parse_setting(part, phrases).other, benchmark) for part in re.split(r"[,;]", setting or ""))
    return all(_no_part(words) for words in unread if leftover(words))


# The word for a dataset after a benchmark's name ('the MPII test dataset'), and the words that
# lead up to a name ('evaluated on the').
_LEADING_TO = re.compile(r"(?:\b(?:on|in|of|the|at|for|from|over|across)\s+)+$", re.IGNORECASE)
_DATASET_WORD = re.compile(r"\s*(?:data\s*set|dataset|benchmark|corpus)\b", re.IGNORECASE)


def _own_name_dropped(words: str, benchmark: str | None) -> str:
    """Unread words of a setting without the name of the claim's own benchmark said again, at
    their end or before the word for a dataset ('single model MPII dataset' on MPII -> 'single
    model'): it describes neither the entry nor a part of the benchmark. A name that qualifies
    other words stays ('ImageNet-1K pretraining')."""
    if not benchmark or not words:
        return words
    kept, at = [], 0
    for mention in find_benchmarks(words):
        start, end = mention.span
        dataset = _DATASET_WORD.match(words, end)
        if mention.canonical == benchmark and (dataset or not words[end:].strip(" ,;")) and words[start - 1 : start] != "-":
            kept.append(_LEADING_TO.sub("", words[at:start]))
            at = dataset.end() if dataset else end
    if not kept:
        return words
    joined = "".join((*kept, words[at:]))
    return re.sub(r"\s*,(?:\s*,)+\s*", ", ", " ".join(joined.split())).strip(" ,;")


def _as_usual(setting: Setting, usual: tuple[tuple[str, str], ...], same: dict[str, str]) -> Setting:
    """A setting on a benchmark with its usual conditions where it states none (marked
    ``assumed``), and the values that are another's on it written as that one."""
    named = tuple((c, same.get(v, v)) for c, v in setting.conditions)
    assumed = tuple(c for c, _ in usual if setting.get(c) is None)
    # A stated subset is not joined by the usual one; a usual value that is the list's default
    # (COCO's test split) is marked assumed, not written, so the row shows what its paper said.
    unstated = tuple((c, v) for c, v in usual if c in assumed and v != by_name()[c].default)
    filled = with_written(replace(setting, conditions=named) if named != setting.conditions else setting, unstated)
    return replace(filled, assumed=assumed) if assumed else filled


def _as_the_entrys(setting: Setting, measure: str | None) -> Setting:
    """A setting whose conditions that are the entry's for ``measure`` (a classifier's test
    resolution) are moved to its words: shown on the row, never splitting the board."""
    moved = tuple((c, v) for c, v in setting.conditions if not by_name()[c].splits(measure))
    if not moved:
        return setting
    kept = tuple(cv for cv in setting.conditions if cv not in moved)
    words = ", ".join(p for p in (*(v for _, v in moved), setting.other) if p)
    return replace(setting, conditions=kept, other=words, assumed=tuple(c for c in setting.assumed if c not in dict(moved)))


def _restated(setting: Setting, condition: str, value: str) -> Setting:
    """A setting with a stated condition's value read again as ``value``."""
    return replace(setting, conditions=tuple((c, value if c == condition else v) for c, v in setting.conditions))


_PER_CLASS = re.compile(r"(\d+) labels per class")


def _labels_in_all(setting: Setting, classes: int) -> Setting:
    """A labels budget counted per class, counted in all on a benchmark of ``classes`` classes
    ('four labels per class' on CIFAR-10 is FixMatch's '40 labels')."""
    per = _PER_CLASS.fullmatch(setting.get("labels") or "")
    if per is None:
        return setting
    return _restated(setting, "labels", f"{int(per[1]) * classes} labels")


def _named_part(entry: BenchmarkEntry, text: str) -> tuple[str | None, str]:
    """The one part of a benchmark a text names in the registry's words for it ('bag-carrying
    walking condition' on CASIA-B: BG), and the text without them; None where it names none or
    several ('under bag-carrying and coat-wearing conditions')."""
    found = {part: pattern for part, pattern in entry.parts if pattern.search(text)}
    if len(found) != 1:
        return None, text
    ((part, pattern),) = found.items()
    return part, pattern.sub(" ", text)


def _with_part(entry: BenchmarkEntry, setting: Setting) -> Setting:
    """A setting whose words name a part of the benchmark: that part is its subset, whether no
    condition read the words or the subset read holds them ('matched evaluation track' on
    MultiNLI is its matched part)."""
    if not entry.parts:
        return setting
    if (subset := setting.get("subset")) is not None:
        part = _named_part(entry, subset)[0]
        return _restated(setting, "subset", part) if part else setting
    part, rest = _named_part(entry, setting.other)
    return replace(with_written(setting, (("subset", part),)), other=leftover(rest)) if part else setting


def _split_beside_name(evidence: str, written: str | None, benchmark: str | None) -> str | None:
    """The split a claim's evidence writes with its benchmark's name ('69.7% on the BIRD
    development set', 'on COCO test-dev'), where it writes one: a split named elsewhere in the
    evidence may be another benchmark's ('0.64% and 1.29% EER on VoxCeleb1-O and SITW.Dev').
    A training split is no split a number is measured on."""
    if not _MAY_NAME_A_SPLIT.search(evidence):  # most evidence names none: no name is looked up
        return None
    # The name as the claim writes it, else the benchmark's other names (the registry's search is
    # the costlier, so it is asked only when the evidence spells the name otherwise).
    named = [(m.group(), m.end()) for m in re.finditer(re.escape(written), evidence, re.IGNORECASE)] if written else []
    if not named and benchmark:
        named = [(m.surface, m.span[1]) for m in find_benchmarks(evidence) if m.canonical == benchmark]
    found = set()
    for surface, end in named:
        after = re.split(r"[,;:()]|\band\b", evidence[end:], maxsplit=1)[0].split()[:3]
        beside = " ".join((surface, *after))
        if _MAY_NAME_A_SPLIT.search(beside) and (split := read_conditions(beside, only=_SPLIT).get("split")) not in (None, "train"):
            found.add(split)
    return found.pop() if len(found) == 1 else None


_SPLIT = frozenset({"split"})
# Every word the split condition reads has one of these inside it ('test-dev', 'minival',
# 'held-out', 'evaluation server', "Karpathy's split").
_MAY_NAME_A_SPLIT = re.compile(r"test|dev|val|held|eval|karpathy", re.IGNORECASE)


def _required(entry: BenchmarkEntry, setting: Setting, evidence: str) -> tuple[Setting, tuple[str, ...]]:
    """A benchmark reported under several values of a condition with no usual one (``required``):
    the value a claim does not state in its setting or names, read from its evidence where that
    names exactly one ('12.8% WER for visual speech recognition on LRS3', '98.0% (normal)' on
    CASIA-B); and those still unstated."""
    missing = frozenset(c for c in entry.required if setting.get(c) is None)
    if not missing:
        return setting, ()
    read = read_conditions(evidence, only=missing)
    again = read_conditions(read.rest, only=missing)
    setting = with_written(setting, tuple((c, v) for c, v in read.values if again.get(c) in (None, v)))
    if "subset" in missing and setting.get("subset") is None and (part := _named_part(entry, evidence)[0]):
        setting = with_written(setting, (("subset", part),))
    return setting, tuple(c for c in entry.required if setting.get(c) is None)


def normalize_claim(
    claim: Claim,
    models: list[Model] | None = None,
    aliases: Aliases | None = None,
    title: str | None = None,
    reported_in: Mapping[str, str] | None = None,
) -> NormalizedClaim:
    """A grounded claim, normalized. ``models`` are its paper's models (for sizes); ``aliases``
    what reviewers said about names and conditions, applied before the registry; ``title`` its
    paper's, which may name the task a generic measure is scored for ('AP' in a pose paper);
    ``reported_in`` the one measure the board's ranked scores report a benchmark in, by its key
    (``'FUNSD': 'F1'``), which a score that names none takes where the registry knows no
    measure for it (see :func:`_only_measure`)."""
    phrases = condition_phrases(aliases)
    setting_read = parse_setting(claim.setting, phrases)
    named = _edition(normalize_benchmark(aliased(claim.benchmark, "benchmark", aliases)), claim.setting)
    benchmark, part = _part(_named_by_words(named, claim.benchmark, claim.setting), setting_read)
    own = benchmark.name if benchmark.known else None
    setting_read = replace(setting_read, other=_own_name_dropped(setting_read.other, own))
    metric = _without_benchmark(normalize_metric(aliased(claim.metric, "metric", aliases)), benchmark)
    entry = benchmark_entry(benchmark.name) if benchmark.known and benchmark.name else None
    if entry is not None and (other := entry.stands_for(metric.name)):  # '91.8 F1 on WSJ': the Penn Treebank
        benchmark, entry = replace(benchmark, name=other), benchmark_entry(other)
    if not metric.known and (meant := task_reading(metric.written, entry.task if entry else None)):  # 'R1': ROUGE-1 or rank-1?
        metric = metric.read_as(normalize_metric(meant))
    if metric.known and (measure := scored_measure(benchmark.name if benchmark.known else None, metric.name, claim.evidence)):
        metric = metric.read_as(normalize_metric(measure))  # 'bpc / perplexity ... on text8'
    if (cut := rank_cut(metric.written, claim.evidence, claim.value)) is not None:  # 'top-1' alone: error or accuracy?
        metric = metric.read_as(normalize_metric(cut) if cut else MetricInfo(metric.written, None, False, "none"))
    if meant := task_measure(metric.name, metric.written, claim.setting, title, benchmark.task):  # 'AP' for instance segmentation
        metric = metric.read_as(normalize_metric(meant))
    if entry is not None and (meant := dict(entry.measures).get(metric.name)):  # ImageNet's accuracy is top-1
        metric = metric.read_as(normalize_metric(meant))
    unit = normalize_unit(claim.unit)
    # A metric-less score whose unread words may name a part of the benchmark waits for a reviewer;
    # words that name one of its registry parts ('IF100' on CIFAR-100-LT) are read.
    unread = _named_part(entry, setting_read.other)[1] if entry is not None else setting_read.other
    open_measure = metric.name is None and (not leftover(unread) or _names_no_part(claim.setting, phrases, own))
    reported = reported_in.get(benchmark.key) if reported_in and benchmark.key else None
    assumed = _only_measure(entry, claim, unit, reported) if open_measure else None
    if assumed:  # '69% on MMLU': MMLU's accuracy
        metric = replace(normalize_metric(assumed), written=None)
    converted = comparable(claim.value, None if _no_unit(unit, metric, claim.kind) else unit, metric.scale)
    if converted == (claim.value, "") and (own := _measured_in(metric) or (dict(entry.units).get(metric.name) if entry else None)):
        converted = (claim.value, own)  # '2.1' EPE = '2.1 pixels'; PCQM4Mv2's '0.0719' MAE = 0.0719 eV
    setting = with_written(
        setting_read, benchmark.conditions, metric.conditions,
        _baseline_conditions(claim.baseline) if claim.kind == "score" else (),
    )
    if part is not None:  # 'Hub5 2000', 'the Switchboard subset': Switchboard
        setting = _without_subset(setting, part)
    if metric.entry and f" {phrase_key(metric.entry)} " not in f" {phrase_key(setting.other)} ":
        setting = replace(setting, other=", ".join(filter(None, (metric.entry, setting.other))))
    if setting.get("shots") is None and _unseen(benchmark, claim.setting):
        setting = with_written(setting, (("shots", "0-shot"),))
    if setting.get("languages") is None and (pair := _translated(benchmark, claim.evidence)):
        setting = with_written(setting, (("languages", pair),))
    if setting.get("split") is None and (split := _split_beside_name(claim.evidence, claim.benchmark, own)):
        setting = with_written(setting, (("split", split),))  # '69.7% ... on the BIRD development set'
    if entry is not None:  # a part the words name is stated, so the usual part does not fill it
        setting = _with_part(entry, setting)
    if entry is not None and (entry.usual or entry.condition_aliases):  # ImageNet is scored on validation
        usual = tuple((c, v) for c, v in entry.usual if by_name()[c].assumed_for(metric.name))
        setting = _as_usual(setting, usual, dict(entry.condition_aliases))
    if assumed:
        setting = replace(setting, assumed=(*setting.assumed, "metric"))
    setting = _as_the_entrys(setting, metric.name)
    if entry is not None and entry.classes:
        setting = _labels_in_all(setting, entry.classes)
    setting, unstated = _required(entry, setting, claim.evidence) if entry is not None else (setting, ())
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
        unstated=unstated,
    )
