"""The benchmark and metric registries (``extractor/data/*.json``) and their lookups.

One alias table serves the rules extractor (finding benchmark names in free text) and the
leaderboard (mapping ``GSM-8K`` and ``gsm8k`` to ``GSM8K``). Lookups ignore case, spaces and
punctuation; free-text matching works on letter and digit runs, so ``GSM8K``, ``GSM-8K`` and
``GSM 8K`` are one mention, and the longest alias wins (``MMLU-Pro`` over ``MMLU``). Names that
are also English words (``MATH``, ``DROP``, ``RACE``) are matched in free text only in the
registry's exact case, as are aliases of three characters or fewer.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from difflib import get_close_matches
from functools import cache, lru_cache
from importlib import resources
from itertools import accumulate, compress
from typing import Literal, NamedTuple

from extractor.catalog.conditions import phrase_regex
from extractor.text.name_keys import name_key

MetricDirection = Literal["higher", "lower"]

# Letter runs, digit runs, and the two symbols that change a benchmark's identity (MBPP+, ∞Bench).
_TOKEN = re.compile(r"[^\W\d_]+|\d+|[+\u221e]")
# The same tokens cut out of a text, between what separates them; ASCII text has ASCII tokens,
# which a plain range reads without asking the Unicode tables about every character.
_SPLIT = re.compile(r"([^\W\d_]+|\d+|[+\u221e])")
# The ASCII one reads a token's first character alone (a letter, a digit or '+'), which the engine
# skips to, and the run it opens after it: three alternatives, none opening with one character,
# were tried at every character between tokens.
_ASCII_SPLIT = re.compile(r"([A-Za-z0-9+](?:(?<=[A-Za-z])[A-Za-z]*|(?<=[0-9])[0-9]*|))")
# What may stand between two tokens of one name: nothing, one space, one joining mark with
# optional spaces around it ('CNN / DailyMail', 'Tanks & Temples'), or a version dot ('2.0').
_GAP = re.compile(r"\s?[-_/&'\u2019\u2010-\u2014:]\s?|\s|\.|")
_SHORT_ALIAS = 3  # aliases this short are matched in free text in their exact case only
# Words around a benchmark name that do not change which benchmark it is.
_DECORATION = re.compile(
    r"^(?:the\s+)?(?P<core>.+?)(?:\s+(?:benchmark|benchmarks|dataset|datasets|data\s*set|"
    r"test\s*set|test|dev\s*set|validation\s*set|val|split|suite|corpus|leaderboard|task|tasks))*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class BenchmarkEntry:
    name: str
    aliases: tuple[str, ...]
    task: str
    area: str
    case_sensitive: bool = False
    # The measures the benchmark's results are reported in, when the registry knows them (text8:
    # bits per character): they decide a metric the paper writes as an alternation ('bpc / perplexity').
    scored_in: tuple[str, ...] = ()
    # The conditions a result on it is measured under when it states none, where they are not the
    # list's defaults (ImageNet: the validation split; LibriSpeech: its clean subset), and the
    # values of a condition that are another's on it (LibriSpeech's noisy subset is 'other').
    usual: tuple[tuple[str, str], ...] = ()
    condition_aliases: tuple[tuple[str, str], ...] = ()
    # Measures that are another measure on this benchmark: {canonical metric: the one it is}
    # (ImageNet's 'accuracy' is its top-1 accuracy; GSM8K's pass@1 is its accuracy).
    measures: tuple[tuple[str, str], ...] = ()
    # Editions that are datasets of their own, each with the aliases that name it (PASCAL VOC 2007).
    editions: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # Conditions a score on it must state to be ranked: it is reported under several with no
    # usual one (LRS3: lip reading, audio-only or audio-visual; GAIA: validation or test).
    required: tuple[str, ...] = ()
    # The number of classes of a classification benchmark whose semi-supervised protocols count
    # labels in all or per class (CIFAR-10: 10, so 'four labels per class' is 40 labels).
    classes: int | None = None
    # Its parts and protocols by the words that name them, each a subset of its own (CASIA-B's
    # walking conditions: 'normal' or 'NM', 'bag', 'coat'; BraTS's tumour regions).
    parts: tuple[tuple[str, re.Pattern[str]], ...] = ()
    # Another benchmark its name stands for when a result is in one of that one's measures
    # ('91.8 F1 on WSJ' is a parse of the Penn Treebank's WSJ sections, not the speech corpus).
    named_for: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # Other benchmarks (or editions) its name stands for when a result's setting names one in
    # these words ('Stanford Sentiment Treebank' with 'fine-grained labels' is SST-5).
    by_words: tuple[tuple[str, re.Pattern[str]], ...] = ()
    # The unit a measure's bare numbers are in on it ({'MAE': 'eV'} on PCQM4Mv2: '0.0719 MAE' is
    # 0.0719 eV, on one board with '0.0723 eV').
    units: tuple[tuple[str, str], ...] = ()

    def stands_for(self, measure: str | None) -> str | None:
        """The benchmark a result in ``measure`` on this name is on, when it is another."""
        return next((other for other, measures in self.named_for if measure in measures), None)


# A speech recognition benchmark's plain 'error rate' is counted in the units its task names.
_ERROR_UNITS = (("phone recognition", "PER"), ("mandarin speech recognition", "CER"), ("speech recognition", "WER"))


def _task_measures(benchmark: dict) -> dict[str, str]:
    """The measures a benchmark's task or its one measure decide: an image classification
    benchmark's 'accuracy' is its top-1 accuracy, as ImageNet's is (a classifier's accuracy is
    its top prediction's; 'top-5' is always written); a speech recognition benchmark's 'error
    rate' is its word error rate (TIMIT's, a phone recognition benchmark's, its phone error rate;
    a Mandarin one's its character error rate); a tracking benchmark's 'AUC' is its success
    AUC; a semantic segmentation benchmark's 'IoU' is its mIoU; and a plain 'score' ('average',
    'average performance') on a benchmark scored in one measure is that measure (its 'top-1
    accuracy' its accuracy, when that is the measure; its plain 'accuracy' that one, when it is
    an accuracy of a kind: CASIA-B's rank-1 accuracy)."""
    task = str(benchmark.get("task", "")).lower()
    measures: dict[str, str] = {}
    if benchmark.get("area") == "vision" and task.endswith("classification"):
        measures["accuracy"] = "top-1 accuracy"
    if unit := next((unit for kind, unit in _ERROR_UNITS if task.endswith(kind)), None):
        measures["error rate"] = unit
    if task.endswith("object tracking"):  # a tracker's 'AUC' is its success plot's
        measures["AUROC"] = "success AUC"
    if task.endswith("semantic segmentation"):  # a segmenter's 'IoU' is its mean over classes
        measures["IoU"] = "mIoU"
    if len(scored := benchmark.get("scored_in", ())) == 1:
        measures["score"] = scored[0]
        if scored[0] == "accuracy":  # a benchmark scored in accuracy alone reports no top-5
            measures.setdefault("top-1 accuracy", "accuracy")
        elif scored[0].endswith(" accuracy"):  # a gait benchmark's plain 'accuracy' is its rank-1 accuracy
            measures.setdefault("accuracy", scored[0])
        elif scored[0] == "pass@1":  # a code benchmark's 'problems solved' with one sample is its pass@1
            measures.setdefault("accuracy", "pass@1")
            measures.setdefault("success rate", "pass@1")
    return measures


@dataclass(frozen=True)
class MetricEntry:
    name: str
    aliases: tuple[str, ...]
    direction: MetricDirection | None
    unit: str | None
    scale: str
    patterns: tuple[re.Pattern[str], ...] = ()
    template: str | None = None
    # Conditions the measure itself implies (bits per character is counted at character level).
    conditions: tuple[tuple[str, str], ...] = ()
    # What an entry spends for its score (time, memory, size, compute, money), never what a
    # benchmark is scored in.
    cost: bool = False


class BenchmarkMention(NamedTuple):
    canonical: str
    surface: str
    span: tuple[int, int]


@dataclass(frozen=True)
class _Alias:
    tokens: tuple[str, ...]  # case-folded
    raw: tuple[str, ...]  # as written in the registry
    canonical: str
    exact_case: bool


# What an alternation of several patterns would change: group references and global flags.
_UNGATED = re.compile(r"\(\?P=|\\[1-9]|^\(\?[aiLmsux]+\)")
_SPELLED = str.maketrans({"+": " plus ", "\u221e": " infinite ", "\u03c4": "tau", "\u00b2": "2", "@": " at "})


# A '+' that joins two words of a name joins them as a hyphen does ('Voice Bank+DEMAND' =
# 'VoiceBank-DEMAND'); only one that ends a word names another benchmark ('HumanEval+').
_JOINING_PLUS = re.compile(r"(?<=[^\W_])\s*\+\s*(?=[^\W\d_])")


def _key(name: str) -> str:
    """:func:`name_key` that keeps the symbols that name a different benchmark or metric
    ('HumanEval+' = 'HumanEval Plus', not 'HumanEval'; 'τ-bench' = 'tau-bench'; 'R@1' is
    recall@1, not 'R1', ROUGE-1)."""
    return name_key(_JOINING_PLUS.sub("-", name).translate(_SPELLED))


# The words that wrap a name without naming another benchmark ('the Foo dataset', 'Foo benchmark').
_WRAPPER = re.compile(
    r"^(?:the\s+)?(?P<core>.+?)(?:\s+(?:benchmark|benchmarks|dataset|datasets|data\s*set|data\s*sets|corpus|suite|leaderboard))*$",
    re.IGNORECASE,
)


def unwrapped(name: str) -> str:
    """A name without the words that wrap it: 'the Foo dataset' and 'Foo benchmark' are 'Foo'."""
    found = _WRAPPER.match(name.strip())
    return found.group("core") if found else name


def fold_key(name: str) -> str:
    """The key two spellings of one name share ('Market - 1501' = 'Market-1501'): how names
    the registry does not know still merge with each other."""
    return _key(name)


def _words_pattern(words: list[str]) -> re.Pattern[str]:
    """Any of a part's names as a whole word, however it is spaced or hyphenated; a name of two
    letters or more in capitals in that case only ('NM', 'WT'), the others in any case."""
    def one(word: str) -> str:
        return phrase_regex(word) if not word.isupper() else f"(?-i:{phrase_regex(word)})"
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(one, sorted(words, key=len, reverse=True))) + r")(?![\w-])", re.IGNORECASE)


def _read(name: str) -> dict:
    return json.loads(resources.files("extractor.data").joinpath(name).read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Registry:
    benchmarks: tuple[BenchmarkEntry, ...]
    metrics: tuple[MetricEntry, ...]
    benchmark_keys: dict[str, BenchmarkEntry]
    metric_keys: dict[str, MetricEntry]
    first_token: dict[str, tuple[_Alias, ...]]
    # The patterns of the parametric metrics (those with a template), in registry order, and one
    # alternation of them all that a name must contain for any of them to match it.
    metric_patterns: tuple[tuple[MetricEntry, re.Pattern[str]], ...]
    metric_gate: re.Pattern[str]
    # The same patterns for a search inside a longer name, where a metric starts a word:
    # 'mR@50' (mean recall) holds no 'R@50'.
    metric_starts: tuple[tuple[MetricEntry, re.Pattern[str]], ...]


@cache
def load_registry() -> Registry:
    """Both registries, parsed once per process."""
    benchmarks = tuple(
        BenchmarkEntry(
            name=b["name"],
            aliases=tuple(b.get("aliases", ())),
            task=b.get("task", ""),
            area=b.get("area", ""),
            case_sensitive=bool(b.get("case_sensitive", False)),
            scored_in=tuple(b.get("scored_in", ())),
            usual=tuple(b.get("usual", {}).items()),
            condition_aliases=tuple(b.get("condition_aliases", {}).items()),
            measures=tuple({**_task_measures(b), **b.get("measures", {})}.items()),
            editions=tuple((edition, tuple(aliases)) for edition, aliases in b.get("editions", {}).items()),
            required=tuple(b.get("required", ())),
            classes=b.get("classes"),
            named_for=tuple((other, tuple(measures)) for other, measures in b.get("named_for", {}).items()),
            parts=tuple((part, _words_pattern(words)) for part, words in b.get("parts", {}).items()),
            by_words=tuple((other, _words_pattern(words)) for other, words in b.get("by_words", {}).items()),
            units=tuple(b.get("units", {}).items()),
        )
        for b in _read("benchmarks.json")["benchmarks"]
    )
    metrics = tuple(
        MetricEntry(
            name=m["name"],
            aliases=tuple(m.get("aliases", ())),
            direction=m.get("direction"),
            unit=m.get("unit"),
            scale=m.get("scale", "none"),
            patterns=tuple(re.compile(p, re.IGNORECASE) for p in m.get("patterns", ())),
            template=m.get("template"),
            conditions=tuple(m.get("conditions", {}).items()),
            cost=m.get("cost", False),
        )
        for m in _read("metrics.json")["metrics"]
    )
    benchmark_keys: dict[str, BenchmarkEntry] = {}
    grouped: dict[str, list[_Alias]] = {}
    for entry in benchmarks:
        for surface in (entry.name, *entry.aliases):
            benchmark_keys.setdefault(_key(surface), entry)
            raw = tuple(_TOKEN.findall(surface))
            alias = _Alias(
                tokens=tuple(t.casefold() for t in raw),
                raw=raw,
                canonical=entry.name,
                exact_case=entry.case_sensitive or len(surface) <= _SHORT_ALIAS,
            )
            grouped.setdefault(alias.tokens[0], []).append(alias)
    metric_keys: dict[str, MetricEntry] = {}
    for metric in metrics:
        for surface in (metric.name, *metric.aliases):
            metric_keys.setdefault(_key(surface), metric)
    first_token = {
        key: tuple(sorted(set(aliases), key=lambda a: -len(a.tokens))) for key, aliases in grouped.items()
    }
    metric_patterns = tuple((m, p) for m in metrics if m.template for p in m.patterns)
    metric_starts = tuple((m, re.compile(rf"(?<![^\W_])(?:{p.pattern})", re.IGNORECASE)) for m, p in metric_patterns)
    return Registry(
        benchmarks, metrics, benchmark_keys, metric_keys, first_token, metric_patterns, _gate(metric_patterns), metric_starts
    )


def _gate(patterns: tuple[tuple[MetricEntry, re.Pattern[str]], ...]) -> re.Pattern[str]:
    """One search for all the patterns: a name none of them finds matches none of them, and most
    names are no parametric metric. Their groups become plain ones (names may repeat)."""
    sources = [re.sub(r"\(\?P<\w+>", "(?:", p.pattern) for _, p in patterns]
    if any(_UNGATED.search(s) for s in sources):
        raise ValueError("a metric pattern refers to a group or sets flags: it cannot join the gate")
    return re.compile("|".join(f"(?:{s})" for s in sources) or r"(?!)", re.IGNORECASE)


def exact_benchmark(name: str) -> BenchmarkEntry | None:
    """The registry entry one of whose names or aliases ``name`` is (case, spaces and
    punctuation aside), with no words taken off around it."""
    return load_registry().benchmark_keys.get(_key(name))


@cache
def _edition_keys() -> dict[str, str]:
    return {
        _key(alias): edition
        for entry in load_registry().benchmarks
        for edition, aliases in entry.editions
        for alias in (edition, *aliases)
    }


def edition_of(name: str) -> str | None:
    """The edition of a registry benchmark a name spells ('VOC 2007', 'the VOC 2007 dataset' ->
    'PASCAL VOC 2007'), as :func:`benchmark_entry` reads a name; else None."""
    keys = _edition_keys()
    decorated = _DECORATION.match(name.strip())
    return keys.get(_key(name)) or (keys.get(_key(decorated.group("core"))) if decorated else None)


@lru_cache(maxsize=65536)  # the leaderboard asks it several times per claim, of few distinct names
def benchmark_entry(name: str) -> BenchmarkEntry | None:
    """The registry entry a benchmark name refers to, ignoring case, punctuation and words such
    as 'the ... benchmark' or '... test set' around it."""
    keys = load_registry().benchmark_keys
    found = keys.get(_key(name))
    if found is None:
        decorated = _DECORATION.match(name.strip())
        if decorated:
            found = keys.get(_key(decorated.group("core")))
    return found


# A fuzzy proposal needs this similarity (difflib's ratio, 2 * matched characters / both
# lengths) to the closest alias.
PROPOSAL_CUTOFF = 0.88


@cache
def _benchmark_surfaces() -> dict[str, str]:
    """Every registry name and alias, folded (for the fuzzy matcher), to its canonical name."""
    return {_key(s): e.name for e in load_registry().benchmarks for s in (e.name, *e.aliases)}


@lru_cache(maxsize=65536)  # bounded: a million papers bring many distinct unknown names
def propose_benchmark(name: str) -> str | None:
    """The registry benchmark an unknown name most resembles ('ImagNet-1k' -> 'ImageNet'), for a
    reviewer to confirm: a proposal never merges by itself. None when nothing is close."""
    key = _key(name)
    if len(key) < 4:  # short names resemble too many others
        return None
    surfaces = _benchmark_surfaces()
    found = get_close_matches(key, surfaces, n=1, cutoff=PROPOSAL_CUTOFF)
    return surfaces[found[0]] if found else None


def canonical_benchmark(name: str) -> tuple[str, bool]:
    """``(canonical name, known)``; an unknown name comes back stripped but otherwise as given."""
    entry = benchmark_entry(name)
    return (entry.name, True) if entry else (name.strip(), False)


def _glued(raw: list[str], gaps: list[str], j: int) -> bool:
    """Tokens j - 1 and j are letters or digits written with nothing between them (one word,
    e.g. 'MATH401')."""
    return not gaps[j] and raw[j - 1][0].isalnum() and raw[j][0].isalnum()


def _match_at(
    raw: list[str], folded: list[str], gaps: list[str], i: int, aliases: tuple[_Alias, ...]
) -> _Alias | None:
    for alias in aliases:
        n = len(alias.tokens)
        if i + n > len(raw) or tuple(folded[i : i + n]) != alias.tokens:
            continue
        if alias.exact_case and tuple(raw[i : i + n]) != alias.raw:
            continue
        if not all(_GAP.fullmatch(gaps[j]) for j in range(i + 1, i + n)):
            continue
        if any(raw[j] == "+" and gaps[j] for j in range(i + 1, i + n)):
            continue
        if i + n < len(raw) and _glued(raw, gaps, i + n):
            continue
        if i > 0 and _glued(raw, gaps, i):
            continue
        return alias
    return None


def find_benchmarks(text: str) -> list[BenchmarkMention]:
    """Every registry benchmark named in ``text``, left to right, longest alias first."""
    # One split cuts out the tokens and what lies between them (gaps[j] before token j); where a
    # token starts is only summed up: no match object for each of the few hundred tokens.
    parts = (_ASCII_SPLIT if text.isascii() else _SPLIT).split(text)
    raw, gaps = parts[1::2], parts[0::2]
    offsets = list(accumulate(map(len, parts), initial=0))  # token j is parts[2j + 1]
    folded = list(map(str.casefold, raw))
    index = load_registry().first_token
    found: list[BenchmarkMention] = []
    after = 0  # the first token not inside the last mention found
    # Only tokens that open an alias are tried (about one in ten), picked out without a Python loop.
    for i in compress(range(len(folded)), map(index.__contains__, folded)):
        alias = _match_at(raw, folded, gaps, i, index[folded[i]]) if i >= after else None
        if alias is None:
            continue
        last = i + len(alias.tokens) - 1
        start, end = offsets[2 * i + 1], offsets[2 * last + 2]
        found.append(BenchmarkMention(alias.canonical, text[start:end], (start, end)))
        after = last + 1
    return found


@cache
def _ambiguous() -> dict[str, tuple[tuple[str, str], ...]]:
    return {_key(name): tuple(a["by_task"].items()) for a in _read("metrics.json").get("ambiguous", ()) for name in a["names"]}


def readings(name: str) -> tuple[tuple[str, str], ...]:
    """What an abbreviation several measures share ('R1') is on benchmarks of a task: (a word of
    the task, the measure) each; none for any other name."""
    return _ambiguous().get(_key(name), ())


def is_cost(measure: str) -> bool:
    """Whether a canonical measure is what an entry spends (latency, FLOPs, parameters)."""
    found = metric_entry(measure)
    return found is not None and found[0].cost


def metric_entry(name: str) -> tuple[MetricEntry, str] | None:
    """The registry entry a metric name refers to, with its canonical spelling (parametric
    metrics such as pass@k fill in their k: 'Pass@1' -> 'pass@1')."""
    registry = load_registry()
    text = name.strip()
    entry = registry.metric_keys.get(_key(text))
    if entry is not None:
        return entry, entry.name
    if not registry.metric_gate.search(text):
        return None
    # The patterns' own methods: re.fullmatch(pattern, ...) looks a compiled pattern up in re's
    # cache, where it never is, on every call (hashing it and catching a KeyError): several times
    # the cost of the match itself.
    for search, patterns in ((re.Pattern.fullmatch, registry.metric_patterns), (re.Pattern.search, registry.metric_starts)):
        for metric, pattern in patterns:
            m = search(pattern, text)
            if m:
                parts = {k: v.lower() if k != "what" else _what(v) for k, v in m.groupdict().items()}
                return metric, metric.template.format(**parts)
    return None


def _what(word: str) -> str:
    """The measured quantity of a percentile metric, in its canonical spelling ('p90 TTFT')."""
    found = load_registry().metric_keys.get(_key(word))
    return found.name if found else word
