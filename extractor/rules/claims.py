"""Which quantities are reported results (what each is about is :mod:`.attribution`'s job).

:func:`read_quantity` gives every quantity a role. Only ``claim`` becomes a claim; ``setting``
phrases go into the claims' ``setting``; ``size`` quantities are model sizes (see
:mod:`.models`); everything else (counts, data sizes, versions, years, citations, list markers,
symbols, p-values, confidence bounds) is dropped. The checks are the named entries of
:data:`ROLE`, tried in order: what a number is glued to beats the words around it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from extractor.catalog.registry import benchmark_entry
from extractor.rules.quantities import Quantity
from extractor.rules.document import AsciiFirst, Document
from extractor.rules.table import Construction, Example, Table
from extractor.rules.vocabulary import (
    CORRELATION_SYMBOLS,
    COUNT_NOUNS,
    DATA_NOUNS,
    DURATION_UNITS,
    METRIC_PATTERN,
    METRIC_WORDS,
    SETTING_PHRASES,
    SETTING_WORDS,
    alternation,
)
from extractor.text.sizes import PARAMETER_NOUNS

CLAIM, SETTING, SIZE, DATA, COUNT, NAME, MATH, PVALUE, BOUND, YEAR, CITATION, MARKER = (
    "claim",
    "setting",
    "size",
    "data",
    "count",
    "name",
    "math",
    "p-value",
    "bound",
    "year",
    "citation",
    "marker",
)


@dataclass(frozen=True)
class Reading:
    """A quantity, the role it plays in its sentence, and the span of the phrase that says so."""

    quantity: Quantity
    role: str
    phrase: tuple[int, int]


_GLUED_QUALIFIERS = ("approx", "sim", "leq", "geq")
_DIGIT_AFTER = re.compile(r"\s*\d")
_APPROXIMATE = ("~", "sim", "approx", "approximately", "about", "roughly", "around", "nearly")
_EQUALS = ("=", ":=", "\\approx", "approx", "\u2248", "\\sim", "sim")
_EQUATION = re.compile(
    r"(?P<lhs>[\w^*|\\{}()'.-]*[\w^*|}')])\s*(?:" + "|".join(map(re.escape, _EQUALS)) + r")\s*$"
)
# Symbols of a measured coefficient: in a sentence about correlation or agreement, 'r = 0.95' and
# 'rho = 0.81' state a result ('we set r = 0.5' does not).
_COEFFICIENTS = CORRELATION_SYMBOLS | {"kappa", "\u03ba", "\\kappa", "r^2", "r\u00b2", "icc"}
_CORRELATION = re.compile(r"correlat|agreement|associat|reliabilit", re.IGNORECASE)
_P_VALUE = re.compile(
    r"(?:\bp(?:-value)?s?\s*(?:[<>=\u2264\u2265]=?|\\leq|\\geq|leq|geq|of)|\bp-values?\s+of)\s*$",
    re.IGNORECASE,
)
_BIG_O = re.compile(r"(?:\b[oO\u03a9\u0398\u03c9]|\\Omega|\\Theta|poly|log)\(\s*$")
_HARDWARE = re.compile(r"^(?:[ahvlt]\d{2,4}\w*|rtx|gtx|gpu|gpus|tpu|tpus|v\d|nvidia|gh200|mi\d{3}x?)$")
# A memory size right before a device names the device ('a single 64GB consumer Mac'), unless
# what follows is the memory it used ('14.21 GB GPU memory').
_DEVICE_AFTER = re.compile(
    r"^\s*(?:[\w-]+\s+)?(?:gpus?|macs?|laptops?|cards?|devices?|machines?|nodes?|servers?|accelerators?|"
    r"phones?|tpus?|[ahv]\d{2,3}s?)\b(?!\s+(?:memory|vram|ram|usage|footprint|consumption))",
    re.IGNORECASE,
)
# LaTeX left in the text: the components of a colour ('mygreenrgb0.032 , 0.6392 , 0.2039',
# 'darkgreenRGB0 , 140 , 0') and a length set by a key ('labelsep=5pt', 'itemsep= - 4pt').
_LATEX_RESIDUE = re.compile(r"(?:rgb|RGB)[\d.]+\s*,\s*(?:[\d.]+\s*,\s*)?$")
_LATEX_KEY = re.compile(r"[a-z]=\s*(?:-\s*)?$")
_HYPOTHETICAL = AsciiFirst(
    r"\b(?:" + alternation(r"if|would|may|might|could|should|must|hypothetical(?:ly)?|suppose|e\.g") + r")\b",
    re.IGNORECASE,
)
_CI = re.compile(
    r"^\s*(?:%|\\%)?\s*(?:bootstrap(?:ped)?\s+)?(?:confidence|credible|ci\b|cis\b|intervals?|prediction\s+intervals?)",
    re.IGNORECASE,
)
_PERCENT_SETTING_AFTER = re.compile(
    r"^\s*(?:(?:unstructured|structured|weight|activation|attention|token|kv|layer|head)\s+)?"
    r"(?:sparsity|sparse|pruning|pruned|masking|masked|mask|dropout|noise|label\s+noise|"
    r"compression\s+ratio|density|rank|corruption|poisoning|poison|contamination|missing|"
    r"subsampling|quantile|percentile|break-even|threshold|cutoff)\b",
    re.IGNORECASE,
)
# A setting noun a few words before the percentage ('rank equating to 8.3%'), or a verb of use
# right before it ('using only 26%', 'trained on 10%').
_PERCENT_SETTING_BEFORE = re.compile(
    r"(?:(?<![-\w])(?:rank|ratio|sparsity|pruning|masking|dropout|threshold|quantile|percentile|budget\s+of|"
    r"fraction\s+of)\b[^,;.]{0,25}|\b(?:using|with\s+only|training|trained\s+(?:with|on))\s+"
    r"(?:only\s+|just\s+|about\s+|approximately\s+|~)?)$",
    re.IGNORECASE,
)
_FEWER = re.compile(r"\s*(?:fewer|less)\b", re.IGNORECASE)
_RESOURCE_OF = re.compile(
    r"^\s*of\s+(?:the\s+|its\s+|their\s+|a\s+|an\s+)?(?:[\w-]+\s+){0,2}?"
    r"(?:parameters|params|weights|budget|data|dataset|datasets|training|compute|tokens|"
    r"embedding|dimension|dimensions|layers|heads|experts|vocabulary|size|samples|examples|"
    r"labels|annotations|memory\s+budget|steps|flops)\b",
    re.IGNORECASE,
)
_RESOURCE_CHANGE = re.compile(
    r"\b(?:eliminat\w*|remov\w*|reduc\w*|sav\w*|cut\w*|prun\w*|compress\w*|discard\w*|"
    r"skip\w*|drop\w*|lower\w*|decreas\w*)\b[^,;.]{0,30}$",
    re.IGNORECASE,
)
# 'we find that removing 25% of experts costs ...': an amount removed as the condition of a test.
_GERUND_CONDITION = re.compile(
    r"(?:^|[;:]\s*|\b(?:that|when|if|after|by|while)\s+)(?:\w+\s+)?[a-z]+ing\s+(?:only\s+|just\s+|about\s+|~)?$",
    re.IGNORECASE,
)
_SCALED_CHANGE = re.compile(
    r"\b(?:remov\w*|reduc\w*|sav\w*|eliminat\w*|cut\w*|prun\w*|fewer|less)\b[^,;.]{0,20}$", re.IGNORECASE
)
_OUTCOME_VERB = re.compile(
    r"\b(?:solv\w*|pass\w*|wins?|winning|won|correct\w*|succeed\w*|success\w*|beats?|beating|best|tops?)\b",
    re.IGNORECASE,
)
_MODEL_CONTEXT = re.compile(
    r"\b(?:param\w*|models?|scales?|sizes?|LMs?|LLMs?|transformers?)\b", re.IGNORECASE
)
_WORD_HYPHEN = re.compile(r"(\w+)-$")
_MEMORY_UNIT = re.compile(r"[KMGT]i?B|bytes")
_DATA_WORD = re.compile(r"\b(?:data|dataset|corpus|corpora|collection|text)\b")  # 'on 40 GB of text'
_LIMIT_WORD = re.compile(r"\b(?:limit|budget|timeout|cap)\b")
_CHUNK_BREAK = re.compile(r"[\d,;:()\[\]]")
_PHRASE_BREAK = re.compile(r"[,;]|\.\s|(?<![\w.-])\d")
_VERSION_NUMBER = re.compile(r"\d(?:\.\d{1,2})?")
_NAME_BEFORE = re.compile(r"(?:^|\s)([A-Z][\w-]*)\s$")
_CITATION_LIST = re.compile(r"\[(?:\d+,\s*)+$")
_PLUS_MINUS = re.compile(r"(?:\u00b1|\\pm|\bpm|\+-|\+/-)\s*$")
_STOP_WORDS = frozenset("over on of for with in to from at by and or than vs versus while".split())
_SETTING_MODIFIERS = frozenset(
    "bit bits token tokens context step steps shot shots layer layers head heads dimensional "
    "dim d way fold hop round rounds epoch epochs sample samples nfe nfes element gram k".split()
)


# LaTeX macros that only set the type of what their braces hold.
_FORMAT_MACRO = re.compile(r"\\(?:textbf|textit|textrm|emph|underline|mathbf|mathrm|text|bm)\{$")


def _glued_left(text: str, q: Quantity) -> str | None:
    """What the number is glued to on its left: a name, a symbol, or nothing."""
    if q.start == 0:
        return None
    before = text[q.start - 1]
    if q.qualifier in _GLUED_QUALIFIERS and text[max(0, q.start - len(q.qualifier)) : q.start] == q.qualifier:
        return None
    if before.isalnum():
        return NAME
    if before == "{" and _FORMAT_MACRO.search(text, max(0, q.start - 12), q.start):
        return None  # '\textbf{32 FPS}': bold type, no math
    if before in "^_{\\":
        return MATH
    if before in "@'#\u2019":
        return NAME
    if before == "-" and q.start >= 2 and text[q.start - 2].isalnum():
        word = _WORD_HYPHEN.search(text, max(0, q.start - 12), q.start)
        if word and word.group(1).lower() in ("near", "sub", "over", "under", "about", "approx"):
            return None
        return NAME
    return None


def _glued_right(text: str, q: Quantity) -> str | None:
    after = text[q.end : q.end + 1]
    if after in ("^", "_"):
        return MATH
    if q.unit is None and q.scale is None and q.modifier is None and after.isalpha():
        return NAME
    return None


@dataclass(frozen=True)
class QuantitySite:
    """Where a quantity stands, which is all a role construction reads: the document, the
    quantity, its clause and sentence, the sentence's text before and after it, and up to four
    lower-cased words each side."""

    doc: Document
    q: Quantity
    clause: tuple[int, int]
    sentence: tuple[int, int]
    before_text: str
    after_text: str
    before: list[str]
    after: list[str]

    @property
    def text(self) -> str:
        return self.doc.text

    def reading(self, role: str, span: tuple[int, int] | None = None) -> Reading:
        """The quantity in ``role``, its phrase ``span`` (the quantity itself by default)."""
        return Reading(self.q, role, span or (self.q.start, self.q.end))


RoleConstruction = Callable[[QuantitySite], "Reading | None"]


def _math_glued(site: QuantitySite) -> Reading | None:
    text, q = site.text, site.q
    if _glued_left(text, q) == MATH or _glued_right(text, q) == MATH or _BIG_O.search(site.before_text[-8:]):
        return site.reading(MATH)
    return None


def _in_math(site: QuantitySite) -> Reading | None:
    """'$4\\times$' is a result, as '$4\\%$' is; '$4096 \\times 4096$' is a product."""
    q = site.q
    if site.doc.in_math(q.start) and (q.unit not in ("%", "x") or _DIGIT_AFTER.match(site.text, q.end)):
        return site.reading(MATH)
    return None


def _latex_residue(site: QuantitySite) -> Reading | None:
    text, q = site.text, site.q
    if _LATEX_RESIDUE.search(text, max(0, q.start - 30), q.start) or (
        text.startswith("pt", q.number_end) and _LATEX_KEY.search(text, max(0, q.start - 12), q.start)
    ):
        return site.reading(MATH)
    return None


def _name_before(site: QuantitySite) -> Reading | None:
    if _glued_left(site.text, site.q) != NAME:
        return None
    return site.reading(SIZE if site.q.scale in ("M", "B", "T") and site.q.unit is None else NAME)


def _name_after(site: QuantitySite) -> Reading | None:
    return site.reading(NAME) if _glued_right(site.text, site.q) == NAME else None


def _p_value(site: QuantitySite) -> Reading | None:
    return site.reading(PVALUE) if _P_VALUE.search(site.before_text[-14:]) else None


def _citation(site: QuantitySite) -> Reading | None:
    return site.reading(CITATION) if _is_citation(site.text, site.q) else None


def _marker(site: QuantitySite) -> Reading | None:
    return site.reading(MARKER) if _is_marker(site.text, site.q, site.before_text) else None


def _hypothetical(site: QuantitySite) -> Reading | None:
    q, clause = site.q, site.clause
    if q.unit is None and q.scale is None and _HYPOTHETICAL.search(site.text[clause[0] : clause[1]]):
        return site.reading(COUNT)
    return None


def _equation(site: QuantitySite) -> Reading | None:
    """'F1 = 0.91' is a result, 'r = 0.95' too in a sentence about correlation; 'k = 5' is a setting."""
    q, before_text, sentence = site.q, site.before_text, site.sentence
    window = before_text[-24:]
    # Only a bare number can be an equation's right side; most windows hold no sign of one.
    bare = q.unit is None and q.scale is None
    equation = _EQUATION.search(window) if bare and any(e in window for e in _EQUALS) else None
    if not equation:
        return None
    lhs = equation.group("lhs").lower().strip("|()")
    measured = lhs in _COEFFICIENTS and _CORRELATION.search(site.text, *sentence)
    if lhs in METRIC_WORDS or measured or METRIC_PATTERN.fullmatch(lhs):
        return site.reading(CLAIM)
    if "=" in window[equation.start() :] or not q.decimal:
        return site.reading(SETTING, (sentence[0] + len(before_text) - len(window) + equation.start(), q.end))
    return None


def _scaled(site: QuantitySite) -> Reading | None:
    q = site.q
    if q.scale is None or q.unit is not None:
        return None
    role = _scaled_role(site.doc, q, site.before, site.after, site.before_text, site.after_text)
    return site.reading(role, _phrase_after(site.doc, q, site.sentence))


def _modified(site: QuantitySite) -> Reading | None:
    """'7-parameter' a size, '500-sample' a count, '3-bit' a setting."""
    q = site.q
    if q.modifier is None or q.form == "product":
        return None
    if q.modifier in ("parameter", "param", "params", "parameters"):
        return site.reading(SIZE)
    if q.modifier in DATA_NOUNS or (q.modifier in COUNT_NOUNS and q.modifier not in _SETTING_MODIFIERS):
        return site.reading(COUNT)
    return site.reading(SETTING, (q.start, q.end + 1 + len(q.modifier)))


def _after_plus_minus(site: QuantitySite) -> Reading | None:
    q = site.q
    return site.reading(BOUND) if q.uncertainty is None and _is_bound_after_pm(site.text, q) else None


def _percentage(site: QuantitySite) -> Reading | None:
    q = site.q
    if q.unit != "%":
        return None
    resource = _RESOURCE_OF.match(site.after_text)
    span = (q.start, q.end + resource.end()) if resource else _phrase_after(site.doc, q, site.sentence)
    return site.reading(_percent_role(site.before_text, site.after_text, site.before), span)


def _points_or_times(site: QuantitySite) -> Reading | None:
    q = site.q
    if q.unit not in ("pp", "points", "x"):
        return None
    return site.reading(SETTING if q.form == "product" else CLAIM)


def _bits(site: QuantitySite) -> Reading | None:
    return site.reading(SETTING, _phrase_after(site.doc, site.q, site.sentence)) if site.q.unit == "bits" else None


def _memory(site: QuantitySite) -> Reading | None:
    q, before, after = site.q, site.before, site.after
    if q.unit is None or not _MEMORY_UNIT.fullmatch(q.unit):
        return None
    if any(_HARDWARE.match(w) for w in before[-3:]) or _DEVICE_AFTER.match(site.after_text):
        return site.reading(SETTING)
    if _DATA_WORD.search(" ".join(before[-4:] + after[:3])):
        return site.reading(DATA)
    return site.reading(CLAIM)


def _duration(site: QuantitySite) -> Reading | None:
    q = site.q
    if q.unit not in DURATION_UNITS:
        return None
    if q.unit == "s" and q.end == q.number_end + 1 and not q.decimal and 1900 <= q.value < 2100:
        return site.reading(YEAR)  # 'since the release of the corpus in the 1990s': a decade
    if _LIMIT_WORD.search(" ".join(site.before[-2:] + site.after[:2])):
        return site.reading(SETTING)
    return site.reading(CLAIM)


def _other_unit(site: QuantitySite) -> Reading | None:
    return site.reading(CLAIM) if site.q.unit is not None else None


def _product(site: QuantitySite) -> Reading | None:
    return site.reading(SETTING) if site.q.form == "product" else None


def _fraction(site: QuantitySite) -> Reading | None:
    if site.q.form != "fraction":
        return None
    after = site.after
    if after and after[0] in COUNT_NOUNS and not _metric_before(site.before_text):
        return site.reading(COUNT)
    return site.reading(CLAIM)


def _k_of_n(site: QuantitySite) -> Reading | None:
    if site.q.form != "of":
        return None
    return site.reading(CLAIM if _OUTCOME_VERB.search(" ".join(site.before)) else COUNT)


def _bare(site: QuantitySite) -> Reading:
    doc, q = site.doc, site.q
    role = _bare_role(doc, q, site.before, site.after, site.before_text, site.clause)
    if role != SETTING:
        return site.reading(role)
    words = doc.words_before(q.start, 3, floor=site.sentence[0])
    while words and words[0].lower not in SETTING_WORDS:
        words.pop(0)
    return site.reading(role, (words[0].start if words else q.start, q.end))


#: What role a quantity plays, claim or not: the constructions :func:`read_quantity` tries, in
#: order.
ROLE: Table[RoleConstruction] = Table(
    "claim or not",
    "the first that gives a role wins, and the last always gives one: what the number is glued to "
    "(math, a name) beats the words around it; then what marks it as no result whatever its unit "
    "(a p-value, a citation, a list marker, a hypothetical, an equation's setting); then what its "
    "scale, its compound word and its unit make of it; a bare number last",
    (
        Construction(
            'glued-to-math',
            _math_glued,
            "'2^{Omega(n)}', 'O(n^2)': a number glued to a sign of math is a symbol",
            (
                Example('FooNet reaches 85.3% accuracy with a x^0.5 penalty.', [85.3], 'values'),
            ),
        ),
        Construction(
            'inside-math',
            _in_math,
            "a number in inline math is a symbol, unless it is a percentage or a multiplier on its own",
            (
                Example('It reaches $0.5 \\times 0.5$ accuracy.', [], 'values'),
            ),
        ),
        Construction(
            'latex-residue',
            _latex_residue,
            "LaTeX left in the text: a colour's components, a length set by a key",
            (
                Example('FooNet reaches 85.3% accuracy. mygreenrgb0.032 , 0.6392 , 0.2039', [85.3], 'values'),
            ),
        ),
        Construction(
            'glued-to-a-name-before',
            _name_before,
            "'GPT-4.5', 'Llama-2 7B': a number glued to a name before it is part of the name, or a model size",
            (
                Example('FooNet-2.5 reaches 85.3% accuracy.', [85.3], 'values'),
            ),
        ),
        Construction(
            'glued-to-a-name-after',
            _name_after,
            "a bare number glued to letters after it is part of a name",
            (
                Example('FooNet reaches 85.3% accuracy with the 0.5a setup.', [85.3], 'values'),
            ),
        ),
        Construction(
            'p-value',
            _p_value,
            "'p < 0.01': a test's p-value, not a result",
            (
                Example('FooNet reaches 85.3% accuracy (p < 0.01).', [85.3], 'values'),
            ),
        ),
        Construction(
            'citation',
            _citation,
            "'[12]', '[3, 12]': a reference",
            (
                Example('FooNet reaches 85.3% accuracy, as in [12] accuracy.', [85.3], 'values'),
            ),
        ),
        Construction(
            'list-marker',
            _marker,
            "'(1) JRT-Prompt', 'techniques: 1. A greedy': a small integer numbering a list",
            (
                Example('FooNet reaches 85.3% accuracy in two ways: (1) accuracy rises, and (2) accuracy holds.', [85.3], 'values'),
            ),
        ),
        Construction(
            'hypothetical',
            _hypothetical,
            "'an R^2 of 0.6 may only reflect ...': a bare number in a hypothetical clause is no finding",
            (
                Example('An R^2 of 0.6 may only reflect what the input gives away.', [], 'values'),
            ),
        ),
        Construction(
            'equation',
            _equation,
            "'F1 = 0.91' is a result ('r = 0.95' in a sentence about correlation too); 'd = 5' sets a setting",
            (
                Example('The detector reaches AUC = 1.000 from layer 5.', [1.0], 'values'),
                Example('Under polynomial decay with d=0.5 and tau=0.1 it holds.', [], 'values'),
            ),
        ),
        Construction(
            'scaled',
            _scaled,
            "'7B parameters' is a model size, '15B tokens' a data size, '32K' a context, 'removing 67.1M parameters' a result",
            (
                Example('It uses a 32.5K context.', [], 'values'),
            ),
        ),
        Construction(
            'compound-word',
            _modified,
            "'3-bit', '500-sample', '7-parameter': the number of a compound adjective is a setting, a count or a size",
            (
                Example('Experiments on 3-bit and 4.5-bit quantization of LLaMA models.', [], 'values'),
            ),
        ),
        Construction(
            'after-plus-minus',
            _after_plus_minus,
            "a number after a plus-minus sign is the width of an interval",
            (
                Example('FooNet reaches 85.3% accuracy, error \u00b1 0.45.', [85.3], 'values'),
            ),
        ),
        Construction(
            'percentage',
            _percentage,
            "a percentage is a result unless it is a confidence level, a sparsity or ratio used, or a share of a resource kept",
            (
                Example('For LLaMA2-7B at 40% sparsity the model runs.', [], 'values'),
                Example('With bootstrap 95% intervals excluding zero.', [], 'values'),
            ),
        ),
        Construction(
            'points-or-times',
            _points_or_times,
            "points and multipliers are results ('2.4x faster'), but a product of them ('a 2x3 points grid') is a setting",
            (
                Example('It uses a 2x3 points grid.', [], 'values'),
            ),
        ),
        Construction(
            'bits',
            _bits,
            "'4 bits' is a setting of precision",
            (
                Example('FooNet quantizes weights to 4.5 bits.', [], 'values'),
            ),
        ),
        Construction(
            'memory',
            _memory,
            "a memory size is a result, unless it names a device ('a 64GB Mac') or a data size ('40 GB of text')",
            (
                Example('It enables inference for a 70B model on a single 64GB consumer Mac.', [], 'values'),
                Example('FooNet is trained on 40 GB of text data.', [], 'values'),
            ),
        ),
        Construction(
            'duration',
            _duration,
            "a duration is a result, unless it is a limit ('a 30 s timeout') or a decade ('the 1990s')",
            (
                Example('With a timeout of 30.5 s per task, it runs.', [], 'values'),
                Example('It was released in the 1990s.', [], 'values'),
            ),
        ),
        Construction(
            'other-unit',
            _other_unit,
            "any other unit ('34.7 BLEU' aside, '20 FPS', '1.08 bpc') makes a result",
            (
                Example('FooNet runs at 20 FPS.', [20.0], 'values'),
            ),
        ),
        Construction(
            'product',
            _product,
            "'4096 x 4096': a product of bare numbers is a setting",
            (
                Example('FooNet reaches 85.3% accuracy on a 4.5x4.5 grid.', [85.3], 'values'),
            ),
        ),
        Construction(
            'fraction',
            _fraction,
            "'42/50' is a result, unless counted things follow with no metric before ('3/5 tasks')",
            (
                Example('FooNet gets 42/50 right.', [42.0], 'values'),
            ),
        ),
        Construction(
            'k-of-n',
            _k_of_n,
            "'solves 7 of 10' is a result with a verb of outcome, else a count",
            (
                Example('FooNet solves 7 of 10 puzzles.', [7.0], 'values'),
            ),
        ),
        Construction(
            'bare-number',
            _bare,
            "a bare number is a result when a metric names it or it is a decimal, else a setting, a count or a version; last, it always answers",
            (
                Example('GPT-4 scores MT-Bench 8.2 with learning rate 3e-4 and a dropout rate of 0.1.', [8.2], 'values'),
                Example('Models like Qwen 2.5 achieve gains.', [], 'values'),
            ),
        ),
    ),
)


def read_quantity(doc: Document, q: Quantity) -> Reading:
    """The role of one quantity in its sentence: the first construction of :data:`ROLE` that
    gives one."""
    text = doc.text
    sentence = doc.sentence_of(q.start)
    site = QuantitySite(
        doc,
        q,
        doc.clause_of(q.start),
        sentence,
        text[sentence[0] : q.start],
        text[q.end : sentence[1]],
        [w.lower for w in doc.words_before(q.start, 4, floor=sentence[0])],
        [w.lower for w in doc.words_after(q.end, 4, ceiling=sentence[1])],
    )
    return next(reading for c in ROLE.entries if (reading := c.run(site)) is not None)


def _scaled_role(
    doc: Document, q: Quantity, before: list[str], after: list[str], before_text: str, after_text: str
) -> str:
    """'7B parameters' is a model size, '15B tokens' a data size, '32K' a context length,
    'removing 67.1M parameters' a result."""
    if q.modifier:
        if q.modifier in ("parameter", "param", "params", "active", "a"):
            return SIZE
        if q.modifier in DATA_NOUNS or q.modifier.rstrip("s") + "s" in DATA_NOUNS:
            return DATA
        return SETTING
    previous = doc.words_before(q.start, 1)
    if (
        previous
        and q.scale != "K"
        and previous[0].end == q.start - 1
        and re.search(r"[A-Z]", previous[0].text)
        and previous[0].lower
        not in ("the", "our", "on", "at", "in", "of", "and", "to", "with", "from", "over")
    ):
        return SIZE  # 'Mistral 7B', 'GPT-2 124M'
    for word in after[:3]:
        if word in _STOP_WORDS or word[:1].isdigit():
            break
        if word in DATA_NOUNS:
            return DATA
        if word in PARAMETER_NOUNS or word.startswith("param"):
            if _SCALED_CHANGE.search(before_text[-30:]):
                return CLAIM
            return SIZE if q.scale != "K" else SETTING
    if q.scale == "K":
        return SETTING
    if q.qualifier in _APPROXIMATE:
        return COUNT
    if q.scale in ("B", "T"):
        return SIZE
    sentence = doc.text[slice(*doc.sentence_of(q.start))]
    return SIZE if _MODEL_CONTEXT.search(sentence) else DATA


def _percent_role(before_text: str, after_text: str, before: list[str]) -> str:
    if _CI.match(after_text) or (before and before[-1] in ("bootstrap", "bootstrapped", "confidence")):
        return BOUND
    if _FEWER.match(after_text) and _PERCENT_SETTING_BEFORE.search(before_text[-40:]):
        return CLAIM  # 'using 70 % fewer parameters': what is used is compared, a result
    if _PERCENT_SETTING_AFTER.match(after_text):
        return SETTING
    if _PERCENT_SETTING_BEFORE.search(before_text[-40:]) and not _RESOURCE_CHANGE.search(before_text[-60:]):
        return SETTING
    if _RESOURCE_OF.match(after_text) and (
        not _RESOURCE_CHANGE.search(before_text[-60:]) or _GERUND_CONDITION.search(before_text)
    ):
        return SETTING
    return CLAIM


def _metric_before(before_text: str) -> bool:
    """A metric word among the three words right before the number, with no other number or
    punctuation in between ('perplexity approximately 59', 'scores of 6--8')."""
    chunk = _CHUNK_BREAK.split(before_text)[-1]
    return any(w in METRIC_WORDS or METRIC_PATTERN.fullmatch(w) for w in chunk.lower().split()[-3:])


def _bare_role(
    doc: Document, q: Quantity, before: list[str], after: list[str], before_text: str, clause: tuple[int, int]
) -> str:
    """A number without unit or scale: a result only when a metric names it or it is a decimal."""
    near = [
        w
        for w in before[-3:]
        if w not in ("of", "is", "to", "at", "equal", "equals", "equating", "was", "are", "in")
    ]
    if near and near[-1] in SETTING_WORDS and (not q.decimal or near[-1] not in METRIC_WORDS):
        return SETTING
    if " ".join(near[-2:]) in SETTING_PHRASES:
        return SETTING  # 'learning rate 3e-4', 'dropout rate of 0.1'

    if any(w in COUNT_NOUNS and w not in METRIC_WORDS for w in after[:2]):
        return COUNT
    if _is_version(doc.text, q, before_text):
        return NAME
    if _metric_before(before_text) or (
        after and (after[0] in METRIC_WORDS or METRIC_PATTERN.match(after[0]))
    ):
        return CLAIM
    if q.value_max is not None and not q.decimal:
        return COUNT
    return CLAIM if q.decimal else COUNT


def _is_version(text: str, q: Quantity, before_text: str) -> bool:
    """'Qwen 2.5', 'Claude Haiku 4.5', 'Python 3.10', 'Terminal-Bench 2.0': a number below ten
    with at most two decimals right after a capitalized name is the name's version."""
    if q.value_max is not None or q.value >= 10 or not _VERSION_NUMBER.fullmatch(text, q.start, q.number_end):
        return False
    name = _NAME_BEFORE.search(before_text)
    if not name or name.group(1).lower() in METRIC_WORDS or len(before_text.strip()) <= len(name.group(1)):
        return False
    # After a benchmark's name a number is its score ('MT-Bench 8.2'), unless it reads 'X.0'.
    return benchmark_entry(name.group(1)) is None or text[q.number_end - 2 : q.number_end] == ".0"


def _is_citation(text: str, q: Quantity) -> bool:
    if q.decimal or q.unit:
        return False
    if text[q.start - 1 : q.start] == "[" and text[q.end : q.end + 1] in ("]", ","):
        return True
    return bool(_CITATION_LIST.search(text, max(0, q.start - 20), q.start))


def _is_marker(text: str, q: Quantity, before_text: str) -> bool:
    """'(1) JRT-Prompt', 'techniques: 1. A greedy', '2) examining'."""
    if q.decimal or q.unit or q.scale or q.value > 20 or q.form != "single":
        return False
    after = text[q.end : q.end + 2]
    if text[q.start - 1 : q.start] == "(" and after[:1] == ")":
        return True
    if after[:1] in (")", ".") and after[1:2] in (" ", ""):
        lead = before_text.rstrip()
        return not lead or lead[-1] in ":;,." or lead.endswith((" and", " or", "("))
    return False


def _is_bound_after_pm(text: str, q: Quantity) -> bool:
    """A number written after a plus-minus sign is the width of an interval."""
    return bool(_PLUS_MINUS.search(text, max(0, q.start - 5), q.start))


def _phrase_after(doc: Document, q: Quantity, sentence: tuple[int, int]) -> tuple[int, int]:
    """The quantity and the word after it ('40% sparsity', '32K context')."""
    following = doc.words_after(q.end, 1, ceiling=sentence[1])
    if following and following[0].start - q.end <= 1:
        return q.start, following[0].end
    return q.start, q.end


def read_all(doc: Document, quantities: list[Quantity]) -> list[Reading]:
    """Read every quantity, then let a bare number compared with a result ('36.47 vs. 52.11')
    be a result too."""
    readings = [read_quantity(doc, q) for q in quantities]
    text = doc.text
    for i, reading in enumerate(readings):
        if reading.role != COUNT or reading.quantity.unit or reading.quantity.scale:
            continue
        for j in (i - 1, i + 1):
            if 0 <= j < len(readings) and readings[j].role == CLAIM:
                a, b = sorted((reading.quantity, readings[j].quantity), key=lambda x: x.start)
                if re.fullmatch(
                    r"\s*(?:vs\.?|versus|compared\s+(?:to|with))\s*(?:\\\s*)?", text[a.end : b.start]
                ):
                    readings[i] = Reading(reading.quantity, CLAIM, reading.phrase)
    return readings
