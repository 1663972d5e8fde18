"""A result's **metric**, read from the grammar of its sentence (ANNOTATION.md, "Attribution"):
the noun phrase bound to the number: after it (``85.3% top-1 accuracy``, ``55.6% fewer visual
tokens``, ``34.7 BLEU``), before it (``accuracy of 85.3%``, ``GenPPL=27.06``, ``perplexity 5.11``),
``in`` after it (``by 9.7% in accuracy``), the object of a change verb (``reduces KV cache memory
by 75%``, ``improves accuracy from 82.1% to 91.4%``), the subject of one (``the perplexity gap
shrinks by 32%``), or a share (``retains 90% of teacher accuracy``); a multiplier of speed is a
``speedup``. Generic words (``score``, ``performance``) are not a metric, and a number in a list
(``70.1% and 44.2%``) shares the list's metric (:mod:`.lists`); a metric is never taken from
another clause.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from extractor.catalog.registry import metric_entry
from extractor.rules.attribution.phrases import (
    CHANGE_NOUNS,
    GAP_CHAR,
    HEADED_NAME,
    NOUN_VERB,
    QUALIFIER,
    SPEED,
    clean_metric,
    names_metric,
    phrase_after,
    phrase_before,
)
from extractor.rules.chunks import name_like
from extractor.rules.quantities import Quantity
from extractor.rules.document import AnyCase, AsciiFirst, Document
from extractor.rules.table import Construction, Example, Table
from extractor.rules.vocabulary import (
    CHANGE_VERB_STEMS,
    CORRELATION_SYMBOLS,
    DURATION_UNITS,
    PASSIVE_CHANGE_STEMS,
    RISE_FALL_STEMS,
)


@dataclass(frozen=True)
class Site:
    """Where a number stands, which is all a metric construction reads: the document, the
    number, its clause and sentence, and how far its own phrase may reach (``limit``)."""

    doc: Document
    q: Quantity
    clause: tuple[int, int]
    sentence: tuple[int, int]
    limit: int

    @property
    def text(self) -> str:
        return self.doc.text

_COMPARATIVE = re.compile(
    r"\s*(?:relative\s+|absolute\s+)?(?:fewer|less|lower|higher|more|smaller|larger|faster|slower|"
    r"earlier|better|worse|shorter|longer|cheaper)\b",
    re.IGNORECASE,
)


# What binds a metric written before the number to it: 'accuracy of', 'GenPPL=', 'perplexity
# approximately', 'generative perplexity (GenPPL) of'.
_BOUND_LINK = (
    r"\s*(?P<link>of|=|:|is|was|stays\s+in|remains|reaching|at|around|within|"
    r"approximately|approx|about|~|sim|\\approx|\\sim|from|between)?\s*[(\[]?\s*" + QUALIFIER + r"[(\[]?\s*\$?$"
)
_BOUND_BEFORE = AnyCase(r"(?:\s*\([^()]{1,20}\))?" + _BOUND_LINK)
# Every character the binding after its parenthesis may read: the pattern's own characters in
# both cases and the spaces (more than it reads, never less).
_BOUND_CHARS = "".join(sorted(set(_BOUND_LINK + _BOUND_LINK.upper() + " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f")))


_IN_AFTER = AsciiFirst(
    GAP_CHAR + r"{0,24}?\b(?:in|from|on\s+average)\s+(?:terms\s+of\s+)?(?:the\s+|their\s+|its\s+)?(?=[^\W\d])",
    re.IGNORECASE,
)
# A change noun whose amount follows it ('a reduction of up to', 'an improvement of').
_CHANGE_OF = re.compile(
    r"\b(?:" + "|".join(sorted(CHANGE_NOUNS)) + r")\s+of\s+" + QUALIFIER + r"\$?$", re.IGNORECASE
)
_SHARE_OF = re.compile(r"\s+of\s+(?:the\s+|its\s+|their\s+)?(?=[^\W\d])", re.IGNORECASE)
# A verb that changes its object ('improves the', 'reduces', 'speeds up'), up to the object.
CHANGE_VERB = AsciiFirst(
    r"\b(?:(?:" + CHANGE_VERB_STEMS + r")(?:e|es|ed|s|ing|ting|d)?|speed(?:s|ing)?\s+up)\s+"
    r"(?:the\s+|its\s+|their\s+|our\s+)?",
    re.IGNORECASE,
)
# The subject of a change, intransitive ('the perplexity gap shrinks by 32%') or passive ('rank-1
# accuracy is improved from 55.3% to 80.5%', 'the error rate was reduced to 3.1%').
_SUBJECT_CHANGE = AsciiFirst(
    r"\s+(?:\w+ly\s+)?(?:(?:is|are|was|were|has\s+been|have\s+been|can\s+be)\s+(?:\w+ly\s+)?"
    r"(?:" + PASSIVE_CHANGE_STEMS + r")|"
    + RISE_FALL_STEMS
    + r"|shrink|shrank|dropp|rise|climb|collaps|degrad|declin|jump)\w*\s+(?:\w+ly\s+)?"
    r"(?:by\s+|to\s+|from\s+)?" + QUALIFIER + r"\$?$",
    re.IGNORECASE,
)


# 'exits 17% earlier in denoising steps', '30% faster in wall-clock time': what a comparative
# is measured in.
_IN_AFTER_COMPARATIVE = re.compile(
    r"\s+in\s+(?:terms\s+of\s+)?(?:the\s+|its\s+|their\s+)?(?=[^\W\d])", re.IGNORECASE
)
# A comparative with nothing after it names its own measure when nothing else does: '35% faster
# than M' is a speed, 'a convergence rate 50% faster than M' a convergence rate.
_IMPLIED = {"faster": "speed", "slower": "speed"}


def _metric_after(site: Site, weak: bool = False) -> str | None:
    """'85.3% top-1 accuracy', '55.6% fewer visual tokens', '1.30x wall-clock time speed-up'."""
    text, q, limit = site.text, site.q, site.limit
    position = q.end
    comparative = _COMPARATIVE.match(text, position, limit)
    if comparative:
        position = comparative.end()
    elif q.unit == "x":  # '1.44x the best measured throughput'
        the = re.match(r"\s+the\s+", text[position:limit])
        position += the.end() if the else 0
    measured_in = _IN_AFTER_COMPARATIVE.match(text, position, limit) if comparative else None
    found = phrase_after(text, measured_in.end() if measured_in else position, limit)
    if not found:
        return None
    phrase = clean_metric(found[0])
    if phrase and (comparative or names_metric(phrase) or (weak and (q.unit or q.scale) is not None)):
        return phrase  # weak: any noun after a unit ('24% abstention', '4.5 MB byte buffer', '67M parameters')
    return None


_PARENS_AFTER = re.compile(r"\s*\(\s*(?P<label>[^()]{1,30}?)\s*\)")


def _metric_in_parens(site: Site) -> str | None:
    """'62.42 (GLEU)': a metric's name in parentheses right after the number labels it."""
    text, q, limit = site.text, site.q, site.limit
    found = _PARENS_AFTER.match(text, q.end, limit)
    label = clean_metric(found.group("label")) if found else None
    return label if label and names_metric(label) else None


def _bound_floor(text: str, start: int, end: int) -> int:
    """Where :data:`_BOUND_BEFORE` can first match in ``text[start:end]``: in the run of its
    characters that ends an ASCII window, or in a parenthesis right before that run. One rstrip
    finds the run; the pattern, all of it optional, was tried at every place of the window."""
    window = text[start:end]
    if not window.isascii():
        return start
    run = start + len(window.rstrip(_BOUND_CHARS))
    return start if "(" in text[max(start, run - 22) : run] else run


def _metric_before(site: Site) -> str | None:
    """'accuracy of 85.3%', 'GenPPL=27.06', 'perplexity approximately 59', 'a top-1 accuracy of'."""
    text, floor, q = site.text, site.clause[0], site.q
    start = max(floor, q.start - 60)
    bound = _BOUND_BEFORE.search(text, _bound_floor(text, start, q.start), q.start)
    if not bound:
        return None
    end = bound.start()
    phrase = clean_metric(phrase_before(text, floor, end))
    if not phrase:
        return None
    link = (bound.group("link") or "").lower()
    words = phrase.split()
    if (
        not link
        and len(words) >= 2
        and NOUN_VERB.match(words[-1].lower())
        and name_like(words[-2])
        and not all(names_metric(w) for w in words[:-1])
    ):
        return None  # 'FooNet scores 85.4': a name and its verb, not a metric ('F1 scores up to 10 %' is)
    return phrase if link in ("of", "=", ":") or names_metric(phrase) else None


def _metric_in_after(site: Site) -> str | None:
    """'by 9.7% in accuracy', '-0.12 in loss', 'by 0.9dB on average PSNR'; after 'in terms of' any
    noun is the measure ('96% smaller than M in terms of model parameters')."""
    text, q, limit = site.text, site.q, site.limit
    found = _IN_AFTER.match(text, q.end, limit)
    if not found:
        return None
    phrase = phrase_after(text, found.end(), limit)
    cleaned = clean_metric(phrase[0]) if phrase else None
    if cleaned and not names_metric(cleaned) and phrase:
        # 'gains of 22% and 76% in the Ego2Exo and Exo2Ego IoU': modifiers coordinated before
        # the metric's name they share
        joined = _AND.match(text, phrase[1], limit)
        second = phrase_after(text, joined.end(), limit) if joined else None
        if second and names_metric(second[0].split()[-1]):
            cleaned = clean_metric(text[found.end() : second[1]])
    # what a change noun right before 'in' changes is the measure ('a 40 % reduction in parameters',
    # 'a reduction of up to 4x in weight storage')
    lead = found.group().lower().split()
    changed = (len(lead) == 2 and lead[0] in CHANGE_NOUNS) or (
        len(lead) == 1 and _CHANGE_OF.search(text, max(0, q.start - 40), q.start) is not None
    )
    if cleaned and (changed or names_metric(cleaned) or _IN_TERMS_OF.search(found.group())):
        return cleaned
    return None


_AND = re.compile(r"\s+and\s+")


# 'The accuracy of FooNet on GSM8K is 84.2%', 'The accuracies on MNIST and SVHN are 99.6 % and
# 97.9 %': the metric heads the clause's subject.
_METRIC_OF_SUBJECT = AsciiFirst(
    r"\b(?:the|its|their)\s+(?P<metric>(?:[\w@-]+\s+){0,3}?[\w@-]+)\s+(?:of|on)\s+[^,;:()]{1,60}?\s+"
    r"(?:is|was|are|were|reaches|reached|stands\s+at|equals)\s+" + QUALIFIER + r"$",
    re.IGNORECASE,
)


def _metric_of_subject(site: Site) -> str | None:
    text, floor, q = site.text, site.clause[0], site.q
    found = _METRIC_OF_SUBJECT.search(text, max(floor, q.start - 120), q.start)
    phrase = clean_metric(found.group("metric")) if found else None
    return phrase if phrase and names_metric(phrase) else None


def _metric_points_of(site: Site) -> str | None:
    """'gains 3.2 points of accuracy', '2 pp of top-1 accuracy': points of a metric."""
    text, q, limit = site.text, site.q, site.limit
    found = _SHARE_OF.match(text, q.end, limit) if q.unit in ("points", "pp") else None
    phrase = phrase_after(text, found.end(), limit) if found else None
    cleaned = clean_metric(phrase[0]) if phrase else None
    return cleaned if cleaned and names_metric(cleaned) else None


def _metric_duration_of(site: Site) -> str | None:
    """'approximately 33 minutes of training': a duration of an activity is that activity's time."""
    text, q, limit = site.text, site.q, site.limit
    found = _SHARE_OF.match(text, q.end, limit) if q.unit in DURATION_UNITS else None
    phrase = phrase_after(text, found.end(), limit) if found else None
    activity = clean_metric(phrase[0]) if phrase else None
    return f"{activity} time" if activity and not name_like(activity.split()[0]) else None


_WITHIN = re.compile(r"\bwithin\s+" + QUALIFIER + r"$", re.IGNORECASE)


def _metric_share(site: Site) -> str | None:
    """'retains 86--90% of teacher accuracy', 'recovers 93% of native decoder decisions'."""
    text, q, limit = site.text, site.q, site.limit
    if q.unit != "%" or _WITHIN.search(text, max(0, q.start - 30), q.start):
        return None  # 'within 2-5% of the baseline' is a distance to it, not a share of it
    found = _SHARE_OF.match(text, q.end, limit)
    if not found:
        return None
    phrase = phrase_after(text, found.end(), limit)
    cleaned = clean_metric(phrase[0]) if phrase else None
    if not cleaned or cleaned.split()[-1].lower() in _COUNTED:
        return None
    return cleaned


_COUNTED = frozenset(
    "pairs cases questions items tasks samples examples models problems prompts queries instances "
    "scenarios time times rollouts runs trials users documents images languages comparisons judgments "
    "judgements games matches episodes battles responses conversations dialogues trajectories".split()
)
_OF_COUNTED = re.compile(r"\s+of\s+(?:the\s+|all\s+|their\s+|its\s+)?(?P<nouns>[\w-]+(?:\s+[\w-]+){0,2})")
_NOT_PREDICATE = r"(?!(?:is|was|has|does|as|us|this|its|plus|thus|across|less|whereas|its)\b)"
# 'wins 60% of comparisons', 'solves 40% of the problems': the verb's rate.
_COUNTING_VERB = re.compile(r"\b" + _NOT_PREDICATE + r"(?P<verb>[a-z]{3,}s)\s+" + QUALIFIER + r"$")
# 'correctly ranks the positive member above the negative one in 92.3% of pairs': the predicate.
_PREDICATE = re.compile(
    r"(?:\b[a-z]+ly\s+)?\b" + _NOT_PREDICATE + r"[a-z]{3,}(?:s|ed)\b" + GAP_CHAR + r"{0,80}?(?=\s+(?:in|on|for)\s+"
    + QUALIFIER + r"$)"
)

# A verb that takes a clause ('a probe shows X preserves ...'): the predicate starts after it.
_CLAUSE_OPENER = re.compile(
    r"\b(?:shows?|showed|shown|finds?|found|reveals?|revealed|demonstrates?|demonstrated|indicates?|"
    r"indicated|confirms?|confirmed|that)\s+",
    re.IGNORECASE,
)


def _lemma(verb: str) -> str:
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    return verb[:-2] if verb.endswith(("sses", "shes", "ches", "xes")) else verb[:-1]


# 'ranks A above B in 92.3% of pairs but answers both correctly in only 74.1%': a share whose
# counted noun a coordinated predicate left out, after one that wrote it.
_COUNTED_BEFORE = re.compile(
    r"\b(?:in|on|for)\s+" + QUALIFIER + r"[\d.]+\s*%\s+of\s+(?:the\s+|all\s+)?(?P<noun>[\w-]+)"
)
_SHARE_IN = re.compile(r"\b(?:in|on|for)\s+" + QUALIFIER + r"$", re.IGNORECASE)


def _metric_counted(site: Site) -> str | None:
    """A share of counted things is the rate of what the clause's verb does to them: 'wins 60% of
    comparisons' is a win rate; 'ranks A above B in 92.3% of pairs' measures that ranking, and so
    does 'but answers both correctly in only 74.1%' after it."""
    text, floor, q, limit, sentence_start = site.text, site.clause[0], site.q, site.limit, site.sentence[0]
    if q.unit != "%":
        return None
    start = max(floor, q.start - 120)
    of = _OF_COUNTED.match(text, q.end, limit)
    if of and _COUNTED.intersection(of.group("nouns").lower().split()):
        verb = _COUNTING_VERB.search(text, max(floor, q.start - 40), q.start)
        if verb and not of.group("nouns").lower().startswith("time"):  # '68% of the time' is how often
            return f"{_lemma(verb.group('verb').lower())} rate"
    else:
        written = [
            m for m in _COUNTED_BEFORE.finditer(text, sentence_start, q.start) if m.group("noun").lower() in _COUNTED
        ]
        if of or not written or not _SHARE_IN.search(text, max(floor, q.start - 20), q.start):
            return None
        start = max(start, written[-1].end())
    opener = None
    for opener in _CLAUSE_OPENER.finditer(text, start, q.start):
        pass
    predicate = _PREDICATE.search(text, opener.end() if opener else start, q.start)
    if predicate and len(predicate.group().split()) <= 10:
        return predicate.group()
    return None


# The place a subject's measure is taken, between it and the name it ends with ('Accuracy on GSM8K').
_PLACE_BEFORE = re.compile(r"\s+(?:on|in|for|of|across)\s+(?:the\s+)?$", re.IGNORECASE)


def _metric_of_change(site: Site) -> str | None:
    """The object of a change verb ('reduces KV cache memory by 75%', 'improves accuracy from
    82.1% to 91.4%') or the subject of a change ('the perplexity gap shrinks by 32%')."""
    text, floor, q = site.text, site.clause[0], site.q
    window_start = max(floor, q.start - 120)
    verbs = list(CHANGE_VERB.finditer(text, window_start, q.start))
    for verb in reversed(verbs):
        found = phrase_after(text, verb.end(), q.start)
        if not found:
            continue
        between = text[found[1] : q.start]
        if re.search(r"[;:]", between) or len(between) > 70:
            continue
        if not re.search(r"\b(?:by|from|to)\b", between, re.IGNORECASE):
            continue
        if clean_metric(found[0]) is None:
            continue  # 'improve performance of X ( miss rate decreases from ...': generic, look on
        return measured(found[0])
    change = _SUBJECT_CHANGE.search(text, window_start, q.start)
    if not change:
        return None
    subject = phrase_before(text, floor, change.start())
    where = _PLACE_BEFORE.search(text, floor, change.start() - len(subject)) if subject else None
    # 'Accuracy on GSM8K rises from 60.1% to 75.3%', 'the convergence rate of the X algorithm increases'
    if where and (not measured(subject) or HEADED_NAME.search(" " + subject)):
        subject = phrase_before(text, floor, where.start())
    return measured(subject)


# 'reduces latency by 30% and memory by 40%', 'improving the efficiency of M by 6x and the AP by
# 1%', '..., and energy by 8%': the change verb is left out before the second object, written just
# before its 'by'.
GAPPED = re.compile(
    r"(?:,\s+and|\band|,)\s+(?:the\s+|its\s+|their\s+)?(?P<object>(?:[\w@-]+\s+){0,3}?[\w@-]+)\s+by\s+" + QUALIFIER + r"$",
    re.IGNORECASE,
)


_FIRST_BY = re.compile(r"\bby\s+" + QUALIFIER + r"[-+\u2212]?\d[\d.,]*\s*[^\s,;]{0,10}\s*$", re.IGNORECASE)


def _metric_gapped(site: Site) -> str | None:
    """The object of a change verb left out by gapping: it follows a first 'V X by N' of the
    clause, and holds no verb of its own."""
    text, floor, q = site.text, site.sentence[0], site.q
    found = GAPPED.search(text, max(floor, q.start - 60), q.start)
    if (
        not found
        or not _FIRST_BY.search(text, max(floor, found.start() - 40), found.start())
        or not CHANGE_VERB.search(text, max(floor, q.start - 160), found.start())
        or CHANGE_VERB.search(found.group("object") + " ")
    ):
        return None
    return measured(found.group("object"))


def measured(phrase: str | None) -> str | None:
    """What a change verb changes, unless it is a name: 'improves Llama-3-8B by 12.1%', 'Qwen2.5-7B
    improves from 45.1% to 52.3%' change a model's score, not a metric called by its name."""
    cleaned = clean_metric(phrase)
    if cleaned and all(name_like(w) for w in cleaned.split()) and not names_metric(cleaned):
        return None
    return cleaned


_BY_LIST = re.compile(r"\bby\s+" + QUALIFIER + r"(?:[\d.]+\s*(?:,\s*|and\s+))*$", re.IGNORECASE)
_BEATS = re.compile(r"\b(?:beat|surpass|exceed|outperform|outscor)\w*\s+(?:the\s+)?", re.IGNORECASE)


def _metric_beaten(site: Site) -> str | None:
    """'we beat the accuracy of our closest competitors by 8 and 9.5 points': the measure a
    verb of beating takes as its object, when its phrase names a metric (never the rival's
    name: 'outperforms the baseline by 3%')."""
    text, floor, q = site.text, site.clause[0], site.q
    for verb in reversed(list(_BEATS.finditer(text, max(floor, q.start - 120), q.start))):
        found = phrase_after(text, verb.end(), q.start)
        if not found or not _BY_LIST.search(text[found[1] : q.start]):
            continue
        phrase = clean_metric(found[0])
        return phrase if phrase and names_metric(phrase) else None
    return None


_PAIR_OPENS = re.compile(r"[,:]\s*" + QUALIFIER + r"$")
_VERSUS_NUMBER = re.compile(r"\s*(?:vs\.?|versus)\s*\\?\s*" + QUALIFIER + r"[-+\u2212]?\d", re.IGNORECASE)
_COMPARED_MEASURE = re.compile(
    r"\b(?:lower|higher|better|worse|greater|smaller|larger|stronger|weaker)\s+(?=\S)", re.IGNORECASE
)


def _metric_of_compared_pair(site: Site) -> str | None:
    """'The fixed-code runs have a lower mean validation perplexity in our experiments, 2.36
    versus 2.44': a pair set after a comma or colon spells out the comparison the sentence has
    just made, so it is measured with the comparative's noun."""
    text, sentence, q = site.text, site.sentence, site.q
    if not _PAIR_OPENS.search(text, max(sentence[0], q.start - 20), q.start) or not _VERSUS_NUMBER.match(text, q.end):
        return None
    for comparative in reversed(list(_COMPARED_MEASURE.finditer(text, sentence[0], q.start))):
        found = phrase_after(text, comparative.end(), q.start)
        phrase = clean_metric(found[0]) if found else None
        if phrase and names_metric(phrase):
            return phrase
    return None


_IN_TERMS_OF = re.compile(r"\bin\s+terms\s+of\s+(?:the\s+)?", re.IGNORECASE)


def _metric_in_terms(site: Site) -> str | None:
    """'In terms of model perplexity, our method narrows the gap ... by 16.3%'."""
    text, sentence, q = site.text, site.sentence, site.q
    found = _IN_TERMS_OF.search(text, sentence[0], q.start)
    phrase = phrase_after(text, found.end(), q.start) if found else None
    return clean_metric(phrase[0]) if phrase else None


# A fitted exponent or slope names what every number of its list measures: 'power-law exponents
# of -0.15 vs. -0.12 in loss and -0.65 vs. -0.49 in perplexity' are exponents, not losses.
_EXPONENT = re.compile(
    r"\b(?:(?P<mod>[\w]+-[\w-]+|scaling|decay|power)\s+)?(?P<head>exponent|slope)s?\b"
    r"(?:\s*\([^()]{1,20}\))?\s*(?:of|=|:|is|are|was|were|around|about|near)\b(?:[^;.]|(?<=vs)\.|\.(?=\d)){0,90}$",
    re.IGNORECASE,
)


def _metric_exponent(site: Site) -> str | None:
    """'exponents of -0.15 in loss and -0.65 in perplexity': an exponent, and of what, so that the
    loss exponent and the perplexity exponent are never ranked together."""
    text, q = site.text, site.q
    limit = max(site.limit, site.doc.sentence_of(q.start)[1])  # an exponent's list may run past the clause
    exponent = _exponent_name(text, q)
    if not exponent:
        return None
    compared = _COMPARED_AFTER.match(text, q.end, limit)  # '-0.15 vs. -0.12 in loss'
    found = _IN_AFTER.match(text, compared.end(), limit)
    phrase = phrase_after(text, found.end(), limit) if found else None
    of = clean_metric(phrase[0]) if phrase else None
    return f"{exponent} in {of}" if of and names_metric(of) else exponent


_COMPARED_AFTER = re.compile(r"(?:\s*(?:vs\.?|versus)\s*\\?\s*[-\u2212+]?\d[\d.]*)*", re.IGNORECASE)


def _exponent_name(text: str, q: Quantity) -> str | None:
    window = text[max(0, q.start - 120) : q.start].lower()
    if q.unit is not None or ("xponent" not in window and "slope" not in window):
        return None
    # no sentence floor: a splitter may end a sentence at 'vs.'; the pattern crosses no '. '
    found = _EXPONENT.search(text, max(0, q.start - 120), q.start)
    if not found:
        return None
    return f"{found.group('mod')} {found.group('head')}" if found.group("mod") else found.group("head")


# 'the smallest (17.5 GiB) and fastest-prefill (+14-19%) recipe': a number in parentheses right
# after an adjective of degree measures that adjective's dimension (of what a hyphen joins to it).
_DEGREE = re.compile(
    r"\b(?P<adj>(?:small|larg|light|heav|fast|slow|cheap|short|long)(?:est|er))(?:\s?-\s?(?P<what>[a-z][\w-]*))?"
    r"\s*\(\s*" + QUALIFIER + r"[+\u2212-]?\s*$",
    re.IGNORECASE,
)
_DIMENSION = {
    "small": "size", "larg": "size", "light": "size", "heav": "size", "fast": "speed", "slow": "speed",
    "cheap": "cost", "short": "length", "long": "length",
}


def _metric_of_degree(site: Site) -> str | None:
    text, q = site.text, site.q
    found = _DEGREE.search(text, max(0, q.start - 40), q.start)
    if not found:
        return None
    dimension = _DIMENSION[re.sub(r"(?:est|er)$", "", found.group("adj").lower())]
    return f"{found.group('what')} {dimension}" if found.group("what") else dimension


# '(5-task average -0.52)', '(perplexity 5.03)': a parenthesis that opens with a lower-case label
# and then the number.
_LABEL_IN_PARENS = re.compile(
    r"\(\s*(?P<label>(?:\d+-)?[a-z][\w-]+(?:\s+[a-z][\w-]*){0,3})\s*[=:]?\s*" + QUALIFIER + r"[+\u2212-]?\s*$"
)


# A parenthesis opened by the number after 'in X': 'varies in prevalence across models (16% to 77%)'.
_IN_BEFORE_PARENS = re.compile(
    r"\b(?:" + RISE_FALL_STEMS + r"|var|differ|rang|chang|gain|declin)\w*\s+"
    r"(?:\w+ly\s+)?in\s+(?P<measure>[^\W\d][^,;:()\d]{0,50}?)\s*\(\s*" + QUALIFIER + r"$"
)
_DIFFERENCE_LABELS = frozenset({"gap", "difference", "delta", "margin"})


def _metric_labelled_in_parens(site: Site) -> str | None:
    """'(5-task average -0.52)': the label; '(gap 0.083 nats)' after 'lower X than Y': the compared
    measure X; 'varies in prevalence across models (16% to 77%)': what the clause varies in."""
    text, q, sentence = site.text, site.q, site.sentence
    found = _LABEL_IN_PARENS.search(text, max(0, q.start - 50), q.start)
    if found and found.group("label").lower() in _DIFFERENCE_LABELS:
        for comparative in reversed(list(_COMPARED_MEASURE.finditer(text, sentence[0], found.start()))):
            phrase = phrase_after(text, comparative.end(), found.start())
            measure = clean_metric(phrase[0]) if phrase else None
            if measure and names_metric(measure):
                return measure
        return None
    if found and not re.fullmatch(QUALIFIER, found.group("label") + " ", re.IGNORECASE):  # '(sim 0.06)'
        phrase = phrase_before(text, found.start("label"), found.end("label"))
        return clean_metric(phrase) if phrase == found.group("label") else None
    varies = _IN_BEFORE_PARENS.search(text, max(sentence[0], q.start - 80), q.start)
    phrase = phrase_after(text, varies.start("measure"), q.start) if varies else None
    return clean_metric(phrase[0]) if phrase else None


def _implied(site: Site) -> str | None:
    """The measure a comparative with nothing after it names ('35% faster than M' is a speed)."""
    comparative = _COMPARATIVE.match(site.text, site.q.end, site.limit)
    if not comparative or _metric_after(site):
        return None
    return _IMPLIED.get(comparative.group().split()[-1].lower())


def _implied_measure(site: Site) -> str | None:
    """'a convergence rate 50% faster than M': the measure bound before a comparative with
    nothing after it wins over the comparative's own ('35% faster than M' is a speed)."""
    implied = _implied(site)
    return (_metric_before(site) or implied) if implied else None


MetricConstruction = Callable[[Site], "str | None"]

#: The metric constructions, in the order :func:`metric_of` tries them.
METRIC: Table[MetricConstruction] = Table(
    "metric",
    "the first construction that binds a phrase wins, and several may bind one number: a comparative "
    "with nothing after it that names its own measure comes first and lets only a phrase bound before "
    "it win over it; then what is written right at the number (after it, in its parenthesis) beats "
    "what is bound before it, which beats what the clause's verb or subject says; the constructions "
    "that read the whole sentence (a gapped verb clauses back, 'in terms of', a compared pair) come "
    "last, since they reach furthest. What the table binds, or that it binds nothing, goes to the "
    "'metric after the grammar' table",
    (
        Construction(
            'comparative-naming-its-measure',
            _implied_measure,
            "'35% faster than M' is a speed, unless a phrase bound before says what is faster ('a convergence rate 50% faster'): first, so nothing else reads the comparative",
            (
                Example('FooNet is 35% faster than GRPO.', 'speed', "metric"),
            ),
        ),
        Construction(
            'exponent',
            _metric_exponent,
            'a fitted exponent names what every number of its list measures, so it runs first',
            (
                Example('FooNet scales better, with power-law exponents of -0.15 vs. -0.12 in loss and -0.65 vs. -0.49 in perplexity.', 'power-law exponent in loss', "metric"),
                Example('FooNet scales better, with power-law exponents of -0.15 vs. -0.12 in loss and -0.65 vs. -0.49 in perplexity.', 'power-law exponent in perplexity', "metric", claim=2),
            ),
        ),
        Construction(
            'after-the-number',
            _metric_after,
            'the noun phrase right after the number, or after its comparative, is the tightest binding',
            (
                Example('It attains 85.3% top-1 accuracy on ImageNet.', 'top-1 accuracy', "metric"),
                Example('We obtain 34.7 BLEU on WMT14.', 'BLEU', "metric"),
                Example('FooNet scores 72.6 pass@1 on HumanEval.', 'pass@1', "metric"),
                Example('It achieves a 1.30x speed-up.', 'speed-up', "metric"),
                Example('FooNet needs 40% fewer parameters.', 'parameters', "metric"),
                Example('It reaches a 2.5% lower validation loss.', 'validation loss', "metric"),
                Example('It attains 2.5 F1 absolute higher than GRPO.', 'F1', "metric"),
            ),
        ),
        Construction(
            'label-in-parentheses-after',
            _metric_in_parens,
            "a metric's name in parentheses right after the number labels it ('62.42 (GLEU)')",
            (
                Example('FooNet reaches 62.42 (BLEU) on WMT14 and 85.3 (SST-2).', 'BLEU', "metric"),
            ),
        ),
        Construction(
            'adjective-of-degree',
            _metric_of_degree,
            "a number in parentheses after 'smallest' or 'fastest-X' measures that adjective's dimension",
            (
                Example('We propose FooQ. FooQ is the smallest (3.1 GB) and fastest-decoding (+22%) recipe we test.', 'size', "metric"),
                Example('We propose FooQ. FooQ is the smallest (3.1 GB) and fastest-decoding (+22%) recipe we test.', 'decoding speed', "metric", claim=1),
            ),
        ),
        Construction(
            'label-opening-a-parenthesis',
            _metric_labelled_in_parens,
            "a parenthesis opened by a label, a difference after a comparative, or 'varies in X (N)' names the number inside",
            (
                Example('We propose FooQ. FooQ matches BF16 within noise (3-task average -0.41) on long inputs.', '3-task average', "metric"),
                Example('We study four models. The hard regime varies widely in prevalence across models (16% and 77%).', 'prevalence', "metric"),
            ),
        ),
        Construction(
            'in-after-the-number',
            _metric_in_after,
            "'by 9.7% in accuracy': what the number is in, right after it, before any phrase bound before it",
            (
                Example('It beats GRPO by 9.7% in accuracy.', 'accuracy', "metric"),
                Example('FooNet beats the best baseline by 7.4% in exact match on HotpotQA.', 'exact match', "metric"),
                Example('FooNet beats BarNet by up to 0.9dB on average PSNR whilst staying fast .', 'PSNR', "metric"),
                Example('It is 96% smaller than GRPO in terms of model parameters.', 'model parameters', "metric"),
                Example('It yields a 40 % reduction in parameters .', 'parameters', "metric"),
            ),
        ),
        Construction(
            'bound-before-the-number',
            _metric_before,
            "'accuracy of 85.3%', 'GenPPL=27.06': the phrase a link binds before the number",
            (
                Example('It reaches an accuracy of 85.3% on ImageNet.', 'accuracy', "metric"),
                Example('FooNet reaches an F1 score of 88.1.', 'F1 score', "metric"),
                Example('It has chain scores below 2.5.', 'chain scores', "metric"),
                Example('FooNet provides F1 scores up to 10 % higher than competing methods .', 'F1 scores', "metric"),
                Example('FooNet keeps accuracy within 2-5% of full-precision baselines.', 'accuracy', "metric"),
            ),
        ),
        Construction(
            'head-of-the-subject',
            _metric_of_subject,
            "'The accuracy of X on Y is 84.2%': the metric heads the clause's subject, farther than a bound phrase",
            (
                Example('The accuracy of FooNet on GSM8K is 84.2%.', 'accuracy', "metric"),
                Example('The accuracy on GSM8K is 84.2%.', 'accuracy', "metric"),
            ),
        ),
        Construction(
            'share-of-counted-things',
            _metric_counted,
            "a share of counted things is the rate of what the clause's verb does to them; before a plain share",
            (
                Example('FooNet wins 60% of comparisons against GPT-4.', 'win rate', "metric"),
                Example('FooNet solves 40% of the problems.', 'solve rate', "metric"),
                Example('FooNet correctly ranks the better answer above the worse one in 92.3% of pairs.', 'correctly ranks the better answer above the worse one', "metric"),
                Example('FooNet is preferred in 70% of human judgments.', 'preferred', "metric"),
                Example('FooNet picks the right tool in 88.0% of episodes but completes the whole task in only 61.5%.', 'completes the whole task', "metric", claim=1),
            ),
        ),
        Construction(
            'share-of',
            _metric_share,
            "'retains 91% of teacher accuracy': a share of something measures that thing",
            (
                Example('It retains 91% of teacher accuracy.', 'teacher accuracy', "metric"),
                Example('It eliminates 91% of the KV cache.', 'KV cache', "metric"),
            ),
        ),
        Construction(
            'points-of',
            _metric_points_of,
            "'3.2 points of top-1 accuracy': points of a metric",
            (
                Example('FooNet gains 3.2 points of top-1 accuracy over GRPO.', 'top-1 accuracy', "metric"),
            ),
        ),
        Construction(
            'duration-of-an-activity',
            _metric_duration_of,
            "'33 minutes of training': a duration of an activity is that activity's time",
            (
                Example('FooNet needs only 3 hours of fine-tuning.', 'fine-tuning time', "metric"),
            ),
        ),
        Construction(
            'gapped-change-verb',
            _metric_gapped,
            "'reduces latency by 30% and memory by 40%': the second object of a change verb left out; before the change verb's own object, which would take the first",
            (
                Example('FooNet reduces latency by 30% and memory by 40%.', 'memory', "metric", claim=1),
                Example('FooNet improves the efficiency of BarNet by 6.0x and the AP by 1.0% on COCO.', 'AP', "metric", claim=1),
                Example('It reduces latency by 30%, training time by 9.9%, and inference time by 8.0%.', 'inference time', "metric", claim=2),
            ),
        ),
        Construction(
            'object-or-subject-of-a-change',
            _metric_of_change,
            "the object of a change verb ('reduces KV cache memory by 75%') or the subject of a change ('the gap shrinks by 32%')",
            (
                Example('The perplexity gap shrinks by up to 32%.', 'perplexity gap', "metric"),
                Example('FooNet improves accuracy by 3.1% on average across GSM8K, MATH and MMLU.', 'accuracy', "metric"),
                Example('With FooNet, accuracy on GSM8K rises from 60.1% to 75.3%.', 'accuracy', "metric"),
                Example('With FooNet, rank - 1 accuracy is improved from 55.3 % to 80.5 % on Market - 1501 .', 'rank - 1 accuracy', "metric"),
            ),
        ),
        Construction(
            'object-of-beating',
            _metric_beaten,
            "'beat the accuracy of our rivals by 8 points': the measure a verb of beating takes, never the rival's name",
            (
                Example('FooNet beats the accuracy of our closest rivals by 8 points .', 'accuracy', "metric"),
            ),
        ),
        Construction(
            'in-terms-of',
            _metric_in_terms,
            "'In terms of model perplexity, ...': a fronted measure for the sentence, when nothing nearer binds",
            (
                Example('In terms of model perplexity, our method narrows the gap to the teacher by 16.3%.', 'model perplexity', "metric"),
            ),
        ),
        Construction(
            'compared-pair-after-a-comma',
            _metric_of_compared_pair,
            "'a higher top-1 accuracy than M, 85.1% vs. 80.2%': a pair spelling out the comparison just made; last, it reads the whole sentence",
            (
                Example('FooNet has a higher top-1 accuracy than BarNet on our data, 85.1% vs. 80.2%.', 'top-1 accuracy', "metric"),
            ),
        ),
    ),
)


def _metric_from_grammar(site: Site) -> str | None:
    """The first metric phrase a construction of :data:`METRIC` binds to the number (as an
    ``or``-chain would: the last one's answer when none binds)."""
    found = None
    for construction in METRIC.entries:
        found = construction.run(site)
        if found:
            return found
    return found


#: A construction run once :data:`METRIC` has read the number: from the phrase it bound (or
#: None), the metric and whether the grammar binds it firmly, or None when it says nothing.
MetricFallback = Callable[[Site, "str | None"], "tuple[str | None, bool] | None"]


def _speedup(site: Site, bound: str | None) -> tuple[str | None, bool] | None:
    """'speeds up decoding by 2.4x', '2.4x faster': a multiplier in a clause of speed, unless the
    phrase bound names a metric or, unless a comparative implied it, a speed ('a 3x increase in
    task processing speed' names what got faster)."""
    if site.q.unit != "x" or not SPEED.search(site.text, *site.clause):
        return None
    if bound and (names_metric(bound) or (not _implied(site) and SPEED.search(bound) is not None)):
        return None
    return "speedup", True


def _phrase_bound(site: Site, bound: str | None) -> tuple[str | None, bool] | None:
    """The phrase the grammar bound; a coefficient named by its bare symbol ('(r = 0.95)') is a
    correlation."""
    if not bound:
        return None
    return ("correlation" if bound.lower() in CORRELATION_SYMBOLS else bound), True


def _unit_naming_its_measure(site: Site, bound: str | None) -> tuple[str | None, bool] | None:
    """'1.08 bpc', '20 FPS': a unit that names its measure."""
    unit = site.q.unit
    return (unit, True) if unit and unit not in ("%", "x") and metric_entry(unit) else None


def _noun_after_a_unit(site: Site, bound: str | None) -> tuple[str | None, bool] | None:
    """'24% abstention', '67M parameters': any noun after a unit, loosely bound."""
    phrase = _metric_after(site, weak=True)
    return (phrase, False) if phrase else None


#: What :func:`metric_of` makes of what :data:`METRIC` bound, in order.
METRIC_FALLBACK: Table[MetricFallback] = Table(
    "metric after the grammar",
    "run on what the metric table bound, or on nothing: a multiplier in a clause of speed is a "
    "speedup unless the phrase bound says what it measures, so it comes first; then the phrase "
    "bound, firmly; then a unit that names its measure; last, loosely, any noun after a unit. The "
    "first that answers wins, and when none does the number has no metric",
    (
        Construction(
            'speedup',
            _speedup,
            "'speeds up decoding by 2.4x', '2.4x faster than M': a multiplier of speed is a speedup, whatever it speeds up",
            (
                Example('FooNet speeds up decoding by 2.4x.', 'speedup', "metric"),
                Example('We propose FooNet, a sparse decoder. FooNet decodes 2.4x faster than BarNet.', 'speedup', "metric"),
            ),
        ),
        Construction(
            'phrase-bound',
            _phrase_bound,
            "the phrase a construction of the metric table bound, firmly; a bare 'r' is a correlation",
            (
                Example('We propose FooNet, a sparse decoder. FooNet reaches an accuracy of 85.3% on MMLU.', 'accuracy', "metric"),
                Example("We propose FooNet, a sparse decoder. FooNet's scores correlate with human ratings (r = 0.95).", 'correlation', "metric"),
            ),
        ),
        Construction(
            'unit-naming-its-measure',
            _unit_naming_its_measure,
            "'1.08 bpc', '20 FPS': when nothing binds a phrase, a unit the catalog knows as a metric is one",
            (
                Example('FooNet runs at over 20 FPS on a single GPU.', 'FPS', "metric"),
                Example('FooNet reaches 1.08 bpc on enwik8.', 'BPC', "metric"),
            ),
        ),
        Construction(
            'noun-after-a-unit',
            _noun_after_a_unit,
            "'24% abstention': last, any noun after a unit, not firmly bound (a name it turns out to be is dropped)",
            (
                Example('We propose FooNet, a sparse decoder. FooNet answers with 24% abstention.', 'abstention', "metric"),
            ),
        ),
    ),
)


def metric_of(
    doc: Document, q: Quantity, clause: tuple[int, int], sentence: tuple[int, int], limit: int
) -> tuple[str | None, bool]:
    """The metric phrase bound to the number, or None (never another clause's metric), and
    whether the grammar binds it firmly (a bare noun after a unit does not): the first
    construction of :data:`METRIC_FALLBACK` that answers on what :data:`METRIC` bound."""
    site = Site(doc, q, clause, sentence, limit)
    bound = _metric_from_grammar(site)
    return next((f for c in METRIC_FALLBACK.entries if (f := c.run(site, bound)) is not None), (None, False))
