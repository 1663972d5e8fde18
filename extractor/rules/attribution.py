"""What each reported result is about, read from the grammar of its sentence (ANNOTATION.md,
"Attribution").

- **metric**: the noun phrase bound to the number: after it (``85.3% top-1 accuracy``, ``55.6%
  fewer visual tokens``, ``34.7 BLEU``), before it (``accuracy of 85.3%``, ``GenPPL=27.06``,
  ``perplexity 5.11``), ``in`` after it (``by 9.7% in accuracy``), the object of a change verb
  (``reduces KV cache memory by 75%``, ``improves accuracy from 82.1% to 91.4%``), the subject
  of one (``the perplexity gap shrinks by 32%``), or a share (``retains 90% of teacher
  accuracy``); a multiplier of speed is a ``speedup``. Generic words (``score``,
  ``performance``) are not a metric, and a number in a list (``70.1% and 44.2%``) shares the
  list's metric; a metric is never taken from another clause.
- **benchmark**: the one the number is reported ``on`` (``72.6% on HumanEval``), the one its
  metric names (``HumanEval accuracy``), a sentence opened by ``On X,``, or the list aligned by
  ``respectively``.
- **subject**: ``for M`` after a compared number (``compared to 77.2% for M``), ``M (-16.5%)``,
  else the nearest subject of a verb before the number: a method or a model named there, or
  ``we`` / ``our method`` / ``it`` / ``the proposed X``, which stand for the paper's proposed
  method.
- **kind**, **direction** and **baseline**: change cues (``by``, ``gain``, ``points over``,
  ``fewer``, ``gap``, ``faster``), their direction, and what the change is relative to
  (``over``, ``than``, ``vs``, ``compared to``, ``relative to``). ``From A to B`` is two
  scores: A belongs to the baseline, B to the subject.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from itertools import pairwise

from extractor.catalog.registry import metric_entry
from extractor.grounding import name_key
from extractor.rules.chunks import chunk_ending, coined, name_like
from extractor.rules.claims import CLAIM, SETTING, Reading
from extractor.rules.quantities import Quantity
from extractor.rules.text import AnyCase, AsciiFirst, Document, Mention
from extractor.rules.vocabulary import (
    CHANGE_CUE,
    DECREASE,
    INCREASE,
    METRIC_PATTERN,
    METRIC_WORDS,
    MODEL_FAMILIES,
    alternation,
)
from extractor.schema import ClaimDraft
from extractor.text.numbers import NumberMention

# --- noun phrases -------------------------------------------------------------------------------

# A word; tokenized text spells 'F-measure' and 'top-1' apart ('f - measure', 'top - 1').
_WORD = AsciiFirst(
    r"(?:state\s-\sof\s-\sthe\s-\sart|[^\W\d_][\w@^.+'/-]*[\w@+]|[^\W\d_]|\d[\w@.-]*[^\W\d_][\w@.-]*)(?:\s-\s(?!(?:a|an|the)\b)[\w@+]+)*"
)
# Words a metric phrase never holds: they end it.
_STOP = frozenset(
    """
    on in at for with over than and or while whilst whereas but compared vs vs. versus relative across
    under when using of to by from is are was were be been being has have had that which who where
    as after before per between within without among against via respectively both each all its
    their our the a an this these those it we up nearly about around approximately roughly only
    just more less fewer lower higher better worse faster slower smaller larger earlier
    while yet not no also above below behind ahead
    """.split()
)
# Stems of the verbs a result's subject acts with ('FooNet reaches', 'which retains'); 'score' is
# the verb only when a number follows it ('models score only around 69%'), else the noun.
_RESULT_VERBS = (
    r"achiev|reach|obtain|outperform|surpass|improv|reduc|yield|attain|deliver|match|retain|recover|"
    r"provid|rais|increas|decreas|narrow|shrink|accelerat|exceed|beat|establish|boost|preserv|need|"
    r"requir|consum|perform|generat|answer|exit|outscor|trail|lag|giv|clos|captur|remain|keep|kept|maintain|"
    r"fall|fell|collaps|climb|sit|speed|ranks|ranked|halv|doubl|sav|"
    r"scor(?=es|ed|ing|e\s+(?:[a-z]+\s+){0,2}(?:\\?\$?\d|$))"
)
# Verbs that are also nouns ('gain', 'cost', 'drop'): they end a noun phrase, never open a clause.
_NOUN_VERBS = (
    r"lower|cut|set|show|lead|use|rank|drop|rise|stay|mak|tak|cost|enabl|allow|produc|lift|enhanc|"
    r"demonstrat|indicat|reveal|bring|score|gain|los(?=e|ing|t)|rose|grew|grow|declin|degrad|run|"
    r"find|found|observ|report|confirm"
)
_VERB_ENDING = r"(?:e|es|ed|d|s|t|ing|ting|ning|ped|ping|ted)?"
_VERB = re.compile(r"(?:" + alternation(_RESULT_VERBS + "|" + _NOUN_VERBS) + r")" + _VERB_ENDING + r"$")
_NOUN_VERB = re.compile(r"(?:" + alternation(_NOUN_VERBS) + r")(?:e|es|s)?$")
# Words that are never a metric on their own (ANNOTATION.md: 'score', 'performance').
_GENERIC = frozenset(
    """
    score scores performance performances result results improvement improvements gain gains
    average overall relative absolute mean value values margin margins boost boosts increase
    increases reduction reductions drop drops quality points point percentage percent gap gaps
    state-of-the-art sota best new art
    """.split()
)  # 'art': the tail of 'a new state of the art of 85.3%'
# A change noun at the end of a phrase names the change, not what changed.
_CHANGE_NOUNS = frozenset(
    "improvement improvements gain gains boost boosts increase increases reduction reductions "
    "drop drops margin margins lift lifts uplift uplifts savings saving decrease decreases".split()
)
# Words after a metric's name that are not part of it: the change it names, and its reference
# ('accuracy improvement', '2.5 F1 absolute').
# Words after a metric's name that are not part of it: a change noun, and the unit of a score
# written after the name ('10 F1 points', '31.2 BLEU points').
_TRAILING = _CHANGE_NOUNS | {"absolute", "relative", "points", "point", "pts"}
_METRIC_WORDS = METRIC_WORDS - _GENERIC
_COMPARATIVE = re.compile(
    r"\s*(?:relative\s+|absolute\s+)?(?:fewer|less|lower|higher|more|smaller|larger|faster|slower|"
    r"earlier|better|worse|shorter|longer|cheaper)\b",
    re.IGNORECASE,
)
_SPEED = re.compile(r"speed|faster|throughput|latency|accelerat", re.IGNORECASE)


def _function_case(word: str) -> str:
    """The word as the stop and verb lists read it: an acronym in capitals is a name, never a
    function word or a verb ('PER' is the phoneme error rate, 'ARE' no verb)."""
    return word if len(word) > 1 and word.isupper() else word.lower()


# What follows the head noun of a changed quantity ('API costs by', 'training costs from').
_HEAD_END = re.compile(r"\s+(?:by|from|to|of)\b|\s*[,;.)]")


def _phrase_after(text: str, position: int, limit: int) -> tuple[str, int] | None:
    """The noun phrase that starts at ``position``: up to five words, ending at punctuation, a
    function word or a verb."""
    picked: list[re.Match] = []
    for word in _WORD.finditer(text, position, limit):
        gap = text[picked[-1].end() if picked else position : word.start()]
        if gap.strip() or len(picked) == 5:
            break
        lower = _function_case(word.group())
        if lower in _STOP or lower.endswith("ly"):
            break
        if picked and _VERB.match(lower) and metric_entry(text[picked[0].start() : word.end()]) is None:
            if _NOUN_VERB.match(lower) and _HEAD_END.match(text, word.end()):
                picked.append(word)  # a noun that is also a verb heads it ('reduces API costs by 84%')
            break  # a verb ends the phrase, unless it completes a metric's name ('exact match')
        if not picked and _VERB.match(lower) and not _NOUN_VERB.match(lower):
            break  # nor does a verb open one ('a proportion of 4.1% captures 90%')
        picked.append(word)
    if not picked:
        return None
    return text[picked[0].start() : picked[-1].end()], picked[-1].end()


def _phrase_before(text: str, floor: int, end: int) -> str | None:
    """The noun phrase that ends at ``end`` (up to five words back, stopping at a function word,
    a verb or punctuation)."""
    picked: list[re.Match] = []
    for word in reversed(list(_WORD.finditer(text, max(floor, end - 80), end))):
        gap = text[word.end() : picked[0].start() if picked else end]
        if gap.strip() or len(picked) == 5:
            break
        lower = _function_case(word.group())
        # the head, or the word before a change noun at the head ('BLEU score increase of')
        head = all(p.group().lower() in _CHANGE_NOUNS for p in picked)
        verb = _VERB.match(lower) and not (head and (_NOUN_VERB.match(lower) or lower in _CHANGE_NOUNS))
        if lower in _STOP or lower.endswith("ly") or verb:
            break  # a noun that is also a verb may head the phrase ('an F1 score of', 'BLEU increase of')
        picked.insert(0, word)
    if not picked:
        return None
    return text[picked[0].start() : picked[-1].end()]


# Praise before a metric's name is not part of it: 'a new state-of-the-art BLEU score of',
# 'the previous best IS of', 'strong accuracy (85.3%)'.
_EVALUATIVE = re.compile(
    r"^(?:(?:new|best|previous|prior|current|published|reported|strong|competitive|record|impressive|"
    r"significant|substantial|considerable|notable|remarkable|consistent|large|huge|slight|marginal|"
    r"single\s?-\s?model|(?:near\s?-\s?)?state\s?-\s?of\s?-\s?the\s?-\s?art|sota)\s+)+(?=\S)",
    re.IGNORECASE,
)


def _clean(phrase: str | None) -> str | None:
    """The phrase without praise before it and a change noun after it ('accuracy improvement' ->
    'accuracy'); None when only generic words are left."""
    if not phrase:
        return None
    words = _EVALUATIVE.sub("", phrase).split()
    while words and words[-1].lower() in _TRAILING:
        words.pop()
    if not words or all(w.lower() in _GENERIC for w in words):
        return None
    return " ".join(words)


def _names_metric(phrase: str) -> bool:
    """The phrase holds a metric word ('top-1 accuracy', 'GenPPL', 'pass@1', 'GPU memory')."""
    lower = phrase.lower()
    words = lower.split()
    return (
        any(w in _METRIC_WORDS for w in words)
        # 'chain scores', 'majority-vote score': a score named by what it scores
        or (len(words) >= 2 and words[-1] in ("score", "scores") and words[-2] not in _GENERIC)
        or any(m.group().split()[-1] not in _GENERIC for m in METRIC_PATTERN.finditer(lower))
        or metric_entry(phrase) is not None
    )


# --- metric -------------------------------------------------------------------------------------

_QUALIFIER = (
    r"(?:(?:up\s+to|about|around|approximately|approx|roughly|nearly|almost|only|just|over|more\s+than|"
    r"less\s+than|below|above|at\s+least|at\s+most|(?:an\s+)?average\s+of|~|\\sim|sim)\s*)*"
)
# What binds a metric written before the number to it: 'accuracy of', 'GenPPL=', 'perplexity
# approximately', 'generative perplexity (GenPPL) of'.
_BOUND_LINK = (
    r"\s*(?P<link>of|=|:|is|was|stays\s+in|remains|reaching|at|around|within|"
    r"approximately|approx|about|~|sim|\\approx|\\sim|from|between)?\s*[(\[]?\s*" + _QUALIFIER + r"[(\[]?\s*\$?$"
)
_BOUND_BEFORE = AnyCase(r"(?:\s*\([^()]{1,20}\))?" + _BOUND_LINK)
# Every character the binding after its parenthesis may read: the pattern's own characters in
# both cases and the spaces (more than it reads, never less).
_BOUND_CHARS = "".join(sorted(set(_BOUND_LINK + _BOUND_LINK.upper() + " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f")))
# A character of the words between a number and what binds to it: a digit only inside a name
# ('CIFAR-10', tokenized 'CIFAR - 10'), never a number of its own.
_IN_NAME = r"(?:[^,;:()\d]|(?<=[\w-])\d|(?<=-\s)\d|(?<=[A-Z]\s)\d)"
_IN_AFTER = AsciiFirst(
    _IN_NAME + r"{0,24}?\b(?:in|from|on\s+average)\s+(?:terms\s+of\s+)?(?:the\s+|their\s+|its\s+)?(?=[^\W\d])",
    re.IGNORECASE,
)
_SHARE_OF = re.compile(r"\s+of\s+(?:the\s+|its\s+|their\s+)?(?=[^\W\d])", re.IGNORECASE)
_CHANGE_VERB = AsciiFirst(
    r"\b(?:(?:improv|increas|reduc|lower|rais|boost|cut|decreas|narrow|shrink|halv|doubl|accelerat|"
    r"lift|enhanc|elevat|trim|slash)(?:e|es|ed|s|ing|ting|d)?|speed(?:s|ing)?\s+up)\s+"
    r"(?:the\s+|its\s+|their\s+|our\s+)?",
    re.IGNORECASE,
)
# The subject of a change, intransitive ('the perplexity gap shrinks by 32%') or passive ('rank-1
# accuracy is improved from 55.3% to 80.5%', 'the error rate was reduced to 3.1%').
_SUBJECT_CHANGE = AsciiFirst(
    r"\s+(?:\w+ly\s+)?(?:(?:is|are|was|were|has\s+been|have\s+been|can\s+be)\s+(?:\w+ly\s+)?"
    r"(?:improv|reduc|lower|rais|boost|cut|decreas|increas|halv|doubl|narrow)|"
    r"shrink|shrank|drop|dropp|fall|fell|rise|rose|ris|climb|collaps|grow|grew|"
    r"increas|decreas|improv|degrad|declin|jump)\w*\s+(?:\w+ly\s+)?"
    r"(?:by\s+|to\s+|from\s+)?" + _QUALIFIER + r"\$?$",
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


def _metric_after(text: str, q: Quantity, limit: int, weak: bool = False) -> str | None:
    """'85.3% top-1 accuracy', '55.6% fewer visual tokens', '1.30x wall-clock time speed-up'."""
    position = q.end
    comparative = _COMPARATIVE.match(text, position, limit)
    if comparative:
        position = comparative.end()
    elif q.unit == "x":  # '1.44x the best measured throughput'
        the = re.match(r"\s+the\s+", text[position:limit])
        position += the.end() if the else 0
    measured_in = _IN_AFTER_COMPARATIVE.match(text, position, limit) if comparative else None
    found = _phrase_after(text, measured_in.end() if measured_in else position, limit)
    if not found:
        return None
    phrase = _clean(found[0])
    if phrase and (comparative or _names_metric(phrase) or (weak and (q.unit or q.scale) is not None)):
        return phrase  # weak: any noun after a unit ('24% abstention', '4.5 MB byte buffer', '67M parameters')
    return None


_PARENS_AFTER = re.compile(r"\s*\(\s*(?P<label>[^()]{1,30}?)\s*\)")


def _metric_in_parens(text: str, q: Quantity, limit: int) -> str | None:
    """'62.42 (GLEU)': a metric's name in parentheses right after the number labels it."""
    found = _PARENS_AFTER.match(text, q.end, limit)
    label = _clean(found.group("label")) if found else None
    return label if label and _names_metric(label) else None


def _bound_floor(text: str, start: int, end: int) -> int:
    """Where :data:`_BOUND_BEFORE` can first match in ``text[start:end]``: in the run of its
    characters that ends an ASCII window, or in a parenthesis right before that run. One rstrip
    finds the run; the pattern, all of it optional, was tried at every place of the window."""
    window = text[start:end]
    if not window.isascii():
        return start
    run = start + len(window.rstrip(_BOUND_CHARS))
    return start if "(" in text[max(start, run - 22) : run] else run


def _metric_before(text: str, floor: int, q: Quantity) -> str | None:
    """'accuracy of 85.3%', 'GenPPL=27.06', 'perplexity approximately 59', 'a top-1 accuracy of'."""
    start = max(floor, q.start - 60)
    bound = _BOUND_BEFORE.search(text, _bound_floor(text, start, q.start), q.start)
    if not bound:
        return None
    end = bound.start()
    phrase = _clean(_phrase_before(text, floor, end))
    if not phrase:
        return None
    link = (bound.group("link") or "").lower()
    words = phrase.split()
    if (
        not link
        and len(words) >= 2
        and _NOUN_VERB.match(words[-1].lower())
        and name_like(words[-2])
        and not all(_names_metric(w) for w in words[:-1])
    ):
        return None  # 'FooNet scores 85.4': a name and its verb, not a metric ('F1 scores up to 10 %' is)
    return phrase if link in ("of", "=", ":") or _names_metric(phrase) else None


def _metric_in_after(text: str, q: Quantity, limit: int) -> str | None:
    """'by 9.7% in accuracy', '-0.12 in loss', 'by 0.9dB on average PSNR'; after 'in terms of' any
    noun is the measure ('96% smaller than M in terms of model parameters')."""
    found = _IN_AFTER.match(text, q.end, limit)
    if not found:
        return None
    phrase = _phrase_after(text, found.end(), limit)
    cleaned = _clean(phrase[0]) if phrase else None
    if cleaned and not _names_metric(cleaned) and phrase:
        # 'gains of 22% and 76% in the Ego2Exo and Exo2Ego IoU': modifiers coordinated before
        # the metric's name they share
        joined = _AND.match(text, phrase[1], limit)
        second = _phrase_after(text, joined.end(), limit) if joined else None
        if second and _names_metric(second[0].split()[-1]):
            cleaned = _clean(text[found.end() : second[1]])
    # what a change noun right before 'in' changes is the measure ('a 40 % reduction in parameters')
    lead = found.group().lower().split()
    changed = len(lead) == 2 and lead[0] in _CHANGE_NOUNS
    if cleaned and (changed or _names_metric(cleaned) or _IN_TERMS_OF.search(found.group())):
        return cleaned
    return None


_AND = re.compile(r"\s+and\s+")


# 'The accuracy of FooNet on GSM8K is 84.2%', 'The accuracies on MNIST and SVHN are 99.6 % and
# 97.9 %': the metric heads the clause's subject.
_METRIC_OF_SUBJECT = AsciiFirst(
    r"\b(?:the|its|their)\s+(?P<metric>(?:[\w@-]+\s+){0,3}?[\w@-]+)\s+(?:of|on)\s+[^,;:()]{1,60}?\s+"
    r"(?:is|was|are|were|reaches|reached|stands\s+at|equals)\s+" + _QUALIFIER + r"$",
    re.IGNORECASE,
)


def _metric_of_subject(text: str, floor: int, q: Quantity) -> str | None:
    found = _METRIC_OF_SUBJECT.search(text, max(floor, q.start - 120), q.start)
    phrase = _clean(found.group("metric")) if found else None
    return phrase if phrase and _names_metric(phrase) else None


def _metric_points_of(text: str, q: Quantity, limit: int) -> str | None:
    """'gains 3.2 points of accuracy', '2 pp of top-1 accuracy': points of a metric."""
    found = _SHARE_OF.match(text, q.end, limit) if q.unit in ("points", "pp") else None
    phrase = _phrase_after(text, found.end(), limit) if found else None
    cleaned = _clean(phrase[0]) if phrase else None
    return cleaned if cleaned and _names_metric(cleaned) else None


_DURATIONS = frozenset({"s", "ms", "\u00b5s", "ns", "minutes", "hours", "days"})


def _metric_duration_of(text: str, q: Quantity, limit: int) -> str | None:
    """'approximately 33 minutes of training': a duration of an activity is that activity's time."""
    found = _SHARE_OF.match(text, q.end, limit) if q.unit in _DURATIONS else None
    phrase = _phrase_after(text, found.end(), limit) if found else None
    activity = _clean(phrase[0]) if phrase else None
    return f"{activity} time" if activity and not name_like(activity.split()[0]) else None


_WITHIN = re.compile(r"\bwithin\s+" + _QUALIFIER + r"$", re.IGNORECASE)


def _metric_share(text: str, q: Quantity, limit: int) -> str | None:
    """'retains 86--90% of teacher accuracy', 'recovers 93% of native decoder decisions'."""
    if q.unit != "%" or _WITHIN.search(text, max(0, q.start - 30), q.start):
        return None  # 'within 2-5% of the baseline' is a distance to it, not a share of it
    found = _SHARE_OF.match(text, q.end, limit)
    if not found:
        return None
    phrase = _phrase_after(text, found.end(), limit)
    cleaned = _clean(phrase[0]) if phrase else None
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
_COUNTING_VERB = re.compile(r"\b" + _NOT_PREDICATE + r"(?P<verb>[a-z]{3,}s)\s+" + _QUALIFIER + r"$")
# 'correctly ranks the positive member above the negative one in 92.3% of pairs': the predicate.
_PREDICATE = re.compile(
    r"(?:\b[a-z]+ly\s+)?\b" + _NOT_PREDICATE + r"[a-z]{3,}(?:s|ed)\b" + _IN_NAME + r"{0,80}?(?=\s+(?:in|on|for)\s+"
    + _QUALIFIER + r"$)"
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
    r"\b(?:in|on|for)\s+" + _QUALIFIER + r"[\d.]+\s*%\s+of\s+(?:the\s+|all\s+)?(?P<noun>[\w-]+)"
)
_SHARE_IN = re.compile(r"\b(?:in|on|for)\s+" + _QUALIFIER + r"$", re.IGNORECASE)


def _metric_counted(text: str, floor: int, q: Quantity, limit: int, sentence_start: int) -> str | None:
    """A share of counted things is the rate of what the clause's verb does to them: 'wins 60% of
    comparisons' is a win rate; 'ranks A above B in 92.3% of pairs' measures that ranking, and so
    does 'but answers both correctly in only 74.1%' after it."""
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


def _metric_of_change(text: str, floor: int, q: Quantity) -> str | None:
    """The object of a change verb ('reduces KV cache memory by 75%', 'improves accuracy from
    82.1% to 91.4%') or the subject of a change ('the perplexity gap shrinks by 32%')."""
    window_start = max(floor, q.start - 120)
    verbs = list(_CHANGE_VERB.finditer(text, window_start, q.start))
    for verb in reversed(verbs):
        found = _phrase_after(text, verb.end(), q.start)
        if not found:
            continue
        between = text[found[1] : q.start]
        if re.search(r"[;:]", between) or len(between) > 70:
            continue
        if not re.search(r"\b(?:by|from|to)\b", between, re.IGNORECASE):
            continue
        if _clean(found[0]) is None:
            continue  # 'improve performance of X ( miss rate decreases from ...': generic, look on
        return _measured(found[0])
    change = _SUBJECT_CHANGE.search(text, window_start, q.start)
    if not change:
        return None
    subject = _phrase_before(text, floor, change.start())
    where = _PLACE_BEFORE.search(text, floor, change.start() - len(subject)) if subject else None
    # 'Accuracy on GSM8K rises from 60.1% to 75.3%', 'the convergence rate of the X algorithm increases'
    if where and (not _measured(subject) or _HEADED_NAME.search(" " + subject)):
        subject = _phrase_before(text, floor, where.start())
    return _measured(subject)


# 'reduces latency by 30% and memory by 40%', 'improving the efficiency of M by 6x and the AP by
# 1%': the change verb is left out before the second object, written just before its 'by'.
_GAPPED = re.compile(
    r"(?:\band|,)\s+(?:the\s+|its\s+|their\s+)?(?P<object>(?:[\w@-]+\s+){0,3}?[\w@-]+)\s+by\s+" + _QUALIFIER + r"$",
    re.IGNORECASE,
)


_FIRST_BY = re.compile(r"\bby\s+" + _QUALIFIER + r"[-+\u2212]?\d[\d.,]*\s*[^\s,;]{0,10}\s*$", re.IGNORECASE)


def _metric_gapped(text: str, floor: int, q: Quantity) -> str | None:
    """The object of a change verb left out by gapping: it follows a first 'V X by N' of the
    clause, and holds no verb of its own."""
    found = _GAPPED.search(text, max(floor, q.start - 60), q.start)
    if (
        not found
        or not _FIRST_BY.search(text, max(floor, found.start() - 40), found.start())
        or not _CHANGE_VERB.search(text, max(floor, q.start - 160), found.start())
        or _CHANGE_VERB.search(found.group("object") + " ")
    ):
        return None
    return _measured(found.group("object"))


def _measured(phrase: str | None) -> str | None:
    """What a change verb changes, unless it is a name: 'improves Llama-3-8B by 12.1%', 'Qwen2.5-7B
    improves from 45.1% to 52.3%' change a model's score, not a metric called by its name."""
    cleaned = _clean(phrase)
    if cleaned and all(name_like(w) for w in cleaned.split()) and not _names_metric(cleaned):
        return None
    return cleaned


_BY_LIST = re.compile(r"\bby\s+" + _QUALIFIER + r"(?:[\d.]+\s*(?:,\s*|and\s+))*$", re.IGNORECASE)
_BEATS = re.compile(r"\b(?:beat|surpass|exceed|outperform|outscor)\w*\s+(?:the\s+)?", re.IGNORECASE)


def _metric_beaten(text: str, floor: int, q: Quantity) -> str | None:
    """'we beat the accuracy of our closest competitors by 8 and 9.5 points': the measure a
    verb of beating takes as its object, when its phrase names a metric (never the rival's
    name: 'outperforms the baseline by 3%')."""
    for verb in reversed(list(_BEATS.finditer(text, max(floor, q.start - 120), q.start))):
        found = _phrase_after(text, verb.end(), q.start)
        if not found or not _BY_LIST.search(text[found[1] : q.start]):
            continue
        phrase = _clean(found[0])
        return phrase if phrase and _names_metric(phrase) else None
    return None


_PAIR_OPENS = re.compile(r"[,:]\s*" + _QUALIFIER + r"$")
_VERSUS_NUMBER = re.compile(r"\s*(?:vs\.?|versus)\s*\\?\s*" + _QUALIFIER + r"[-+\u2212]?\d", re.IGNORECASE)
_COMPARED_MEASURE = re.compile(
    r"\b(?:lower|higher|better|worse|greater|smaller|larger|stronger|weaker)\s+(?=\S)", re.IGNORECASE
)


def _metric_of_compared_pair(text: str, sentence: tuple[int, int], q: Quantity) -> str | None:
    """'The fixed-code runs have a lower mean validation perplexity in our experiments, 2.36
    versus 2.44': a pair set after a comma or colon spells out the comparison the sentence has
    just made, so it is measured with the comparative's noun."""
    if not _PAIR_OPENS.search(text, max(sentence[0], q.start - 20), q.start) or not _VERSUS_NUMBER.match(text, q.end):
        return None
    for comparative in reversed(list(_COMPARED_MEASURE.finditer(text, sentence[0], q.start))):
        found = _phrase_after(text, comparative.end(), q.start)
        phrase = _clean(found[0]) if found else None
        if phrase and _names_metric(phrase):
            return phrase
    return None


_IN_TERMS_OF = re.compile(r"\bin\s+terms\s+of\s+(?:the\s+)?", re.IGNORECASE)


def _metric_in_terms(text: str, sentence: tuple[int, int], q: Quantity) -> str | None:
    """'In terms of model perplexity, our method narrows the gap ... by 16.3%'."""
    found = _IN_TERMS_OF.search(text, sentence[0], q.start)
    phrase = _phrase_after(text, found.end(), q.start) if found else None
    return _clean(phrase[0]) if phrase else None


# A fitted exponent or slope names what every number of its list measures: 'power-law exponents
# of -0.15 vs. -0.12 in loss and -0.65 vs. -0.49 in perplexity' are exponents, not losses.
_EXPONENT = re.compile(
    r"\b(?:(?P<mod>[\w]+-[\w-]+|scaling|decay|power)\s+)?(?P<head>exponent|slope)s?\b"
    r"(?:\s*\([^()]{1,20}\))?\s*(?:of|=|:|is|are|was|were|around|about|near)\b(?:[^;.]|(?<=vs)\.|\.(?=\d)){0,90}$",
    re.IGNORECASE,
)


def _metric_exponent(text: str, q: Quantity, limit: int) -> str | None:
    """'exponents of -0.15 in loss and -0.65 in perplexity': an exponent, and of what, so that the
    loss exponent and the perplexity exponent are never ranked together."""
    exponent = _exponent_name(text, q)
    if not exponent:
        return None
    compared = _COMPARED_AFTER.match(text, q.end, limit)  # '-0.15 vs. -0.12 in loss'
    found = _IN_AFTER.match(text, compared.end(), limit)
    phrase = _phrase_after(text, found.end(), limit) if found else None
    of = _clean(phrase[0]) if phrase else None
    return f"{exponent} in {of}" if of and _names_metric(of) else exponent


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
    r"\s*\(\s*" + _QUALIFIER + r"[+\u2212-]?\s*$",
    re.IGNORECASE,
)
_DIMENSION = {
    "small": "size", "larg": "size", "light": "size", "heav": "size", "fast": "speed", "slow": "speed",
    "cheap": "cost", "short": "length", "long": "length",
}


def _metric_of_degree(text: str, q: Quantity) -> str | None:
    found = _DEGREE.search(text, max(0, q.start - 40), q.start)
    if not found:
        return None
    dimension = _DIMENSION[re.sub(r"(?:est|er)$", "", found.group("adj").lower())]
    return f"{found.group('what')} {dimension}" if found.group("what") else dimension


# '(5-task average -0.52)', '(perplexity 5.03)': a parenthesis that opens with a lower-case label
# and then the number.
_LABEL_IN_PARENS = re.compile(
    r"\(\s*(?P<label>(?:\d+-)?[a-z][\w-]+(?:\s+[a-z][\w-]*){0,3})\s*[=:]?\s*" + _QUALIFIER + r"[+\u2212-]?\s*$"
)


# A parenthesis opened by the number after 'in X': 'varies in prevalence across models (16% to 77%)'.
_IN_BEFORE_PARENS = re.compile(
    r"\b(?:var|differ|rang|chang|improv|increas|decreas|drop|gain|declin|grow|grew|ris|rose|fall|fell)\w*\s+"
    r"(?:\w+ly\s+)?in\s+(?P<measure>[^\W\d][^,;:()\d]{0,50}?)\s*\(\s*" + _QUALIFIER + r"$"
)
_DIFFERENCE_LABELS = frozenset({"gap", "difference", "delta", "margin"})


def _metric_labelled_in_parens(text: str, q: Quantity, sentence: tuple[int, int]) -> str | None:
    """'(5-task average -0.52)': the label; '(gap 0.083 nats)' after 'lower X than Y': the compared
    measure X; 'varies in prevalence across models (16% to 77%)': what the clause varies in."""
    found = _LABEL_IN_PARENS.search(text, max(0, q.start - 50), q.start)
    if found and found.group("label").lower() in _DIFFERENCE_LABELS:
        for comparative in reversed(list(_COMPARED_MEASURE.finditer(text, sentence[0], found.start()))):
            phrase = _phrase_after(text, comparative.end(), found.start())
            measure = _clean(phrase[0]) if phrase else None
            if measure and _names_metric(measure):
                return measure
        return None
    if found and not re.fullmatch(_QUALIFIER, found.group("label") + " ", re.IGNORECASE):  # '(sim 0.06)'
        phrase = _phrase_before(text, found.start("label"), found.end("label"))
        return _clean(phrase) if phrase == found.group("label") else None
    varies = _IN_BEFORE_PARENS.search(text, max(sentence[0], q.start - 80), q.start)
    phrase = _phrase_after(text, varies.start("measure"), q.start) if varies else None
    return _clean(phrase[0]) if phrase else None


def _implied(text: str, q: Quantity, limit: int) -> str | None:
    """The measure a comparative with nothing after it names ('35% faster than M' is a speed)."""
    comparative = _COMPARATIVE.match(text, q.end, limit)
    if not comparative or _metric_after(text, q, limit):
        return None
    return _IMPLIED.get(comparative.group().split()[-1].lower())


def _metric_from_grammar(
    doc: Document, q: Quantity, clause: tuple[int, int], sentence: tuple[int, int], limit: int
) -> str | None:
    """The first metric phrase a construction binds to the number."""
    text = doc.text
    return (
        _metric_exponent(text, q, max(limit, doc.sentence_of(q.start)[1]))
        or _metric_after(text, q, limit)
        or _metric_in_parens(text, q, limit)
        or _metric_of_degree(text, q)
        or _metric_labelled_in_parens(text, q, sentence)
        or _metric_in_after(text, q, limit)
        or _metric_before(text, clause[0], q)
        or _metric_of_subject(text, clause[0], q)
        or _metric_counted(text, clause[0], q, limit, sentence[0])
        or _metric_share(text, q, limit)
        or _metric_points_of(text, q, limit)
        or _metric_duration_of(text, q, limit)
        or _metric_gapped(text, clause[0], q)
        or _metric_of_change(text, clause[0], q)
        or _metric_beaten(text, clause[0], q)
        or _metric_in_terms(text, sentence, q)
        or _metric_of_compared_pair(text, sentence, q)
    )


def metric_of(
    doc: Document, q: Quantity, clause: tuple[int, int], sentence: tuple[int, int], limit: int
) -> tuple[str | None, bool]:
    """The metric phrase bound to the number, or None (never another clause's metric), and
    whether the grammar binds it firmly (a bare noun after a unit does not)."""
    text = doc.text
    implied = _implied(text, q, limit)
    if implied:  # 'a convergence rate 50% faster than M': the measure bound before wins
        metric = _metric_before(text, clause[0], q) or implied
    else:
        metric = _metric_from_grammar(doc, q, clause, sentence, limit)
    if q.unit == "x" and (metric is None or not _names_metric(metric)) and _SPEED.search(text, *clause):
        return "speedup", True  # 'speeds up decoding by 2.4x', '2.4x faster'
    if metric:
        return metric, True
    if q.unit and q.unit not in ("%", "x") and metric_entry(q.unit):
        return q.unit, True  # a unit that names its measure: '1.08 bpc', '20 FPS'
    return _metric_after(text, q, limit, weak=True), False


# --- lists: parallel numbers, 'respectively' -----------------------------------------------------

# Tokenized text writes a sign apart from its number ('+ 4.37 % , + 1.6 %').
_LIST_GAP = re.compile(
    r"\s*(?:,\s*(?:and\s+|or\s+)?|(?:and|or|vs\.?|versus|to)\s+|vs\.?\\?\s*)\s*" + _QUALIFIER + r"(?:[+\u2212-]\s)?$",
    re.IGNORECASE,
)


_COMPARED_GAP = re.compile(
    r"\s*(?:[\w@-]+\s+){0,3}?(?:vs\.?|versus|compared\s+(?:to|with)|than)\s*\\?\s*" + _QUALIFIER + r"$",
    re.IGNORECASE,
)


# 'an accuracy of 72.6% on HumanEval and 58.1% on MBPP': items that each name where they hold,
# the first perhaps with its metric ('30% accuracy on A and 40% on B', '7% improvement in
# Spearman correlation for A and 14% for B').
_ITEM_GAP = re.compile(
    r"\s*(?:[\w@-]+\s+){0,4}?(?:on|for|across|in)\s+" + _IN_NAME + r"{1,40}?\s*(?:,\s*(?:and\s+)?|and\s+)"
    + _QUALIFIER + r"$",
    re.IGNORECASE,
)


def _listed(text: str, a: Quantity, b: Quantity, items: bool) -> bool:
    """``a`` and ``b`` are neighbours in one list ('70.1% and 44.2%') or compared on one metric
    ('72.90 perplexity versus 73.54'); with ``items``, in a list whose items each say where they
    hold ('72.6% on HumanEval and 58.1% on MBPP')."""
    gap = text[a.end : b.start]
    if items:
        return len(gap) < 50 and bool(_ITEM_GAP.match(gap))
    return len(gap) < 40 and bool(_LIST_GAP.match(gap) or _COMPARED_GAP.match(gap))


# --- benchmark ----------------------------------------------------------------------------------

# '18.7% phoneme error rate (PER) on the TIMIT task', '72.27% on the test-std split of the VQA
# v2.0 dataset': the metric, its acronym, and the part of the benchmark the number is on.
_REPORTED_ON = re.compile(
    r"(?:\s*[\w@-]+){0,4}?(?:\s*\([^()]{1,20}\))?\s*(?:\)\s*)?,?\s*\b(?:on|in|for|over|across)\s+(?:the\s+|both\s+)?"
    r"(?:(?:[\w-]+\s+){1,4}?(?:split|set|subset|portion|part)\s+of\s+(?:the\s+)?)?"
    r"(?:[\w-]+(?:\s-\s\w+)*\s+){0,3}?[\"\u201c]?\s?$",  # a modifier may be tokenized: 'English - to - German'
    re.IGNORECASE,
)
_FRONTED = re.compile(
    r"^(?:[A-Z]\w*(?:\s+\w+)?\s*,\s*)?(?:on|in|for|across|over)\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?$",
    re.IGNORECASE,
)


# '85.3% MMLU accuracy': a benchmark that opens the metric phrase after the number.
_METRIC_OPENER = re.compile(r"\s*(?:[\w@-]+\s+)?")


_OPENS = re.compile(r"\s*\(\s*")
_CLOSES = re.compile(r"\s*\)")


def _benchmark_after(text: str, q: Quantity, benchmarks: list[Mention], limit: int) -> str | None:
    """'72.6% on HumanEval', '72.6% HumanEval accuracy', '85.3 (SST-2)'."""
    for m in benchmarks:
        if q.end <= m.start < limit and _REPORTED_ON.fullmatch(text, q.end, m.start):
            return m.name
        if q.end <= m.start < limit and _OPENS.fullmatch(text, q.end, m.start) and _CLOSES.match(text, m.end):
            return m.name
        if q.end <= m.start < limit and _METRIC_OPENER.fullmatch(text, q.end, m.start):
            following = _phrase_after(text, m.end + 1, limit) if text[m.end : m.end + 1] == " " else None
            if following and _names_metric(following[0]):
                return m.name
    return None


_LABELLING = re.compile(r"\s*(?:\)\s*)?[(:=]\s*" + _QUALIFIER)  # 'GSM8K (85.3%)', '( SVHN ) ( 4 % error )'


def _benchmark_before(text: str, q: Quantity, benchmarks: list[Mention], floor: int) -> str | None:
    """'HumanEval accuracy of 72.6%', 'pass@1 on MBPP of'... a benchmark in the number's own
    metric phrase, or one a fronted 'On X,' gives the whole sentence."""
    for m in reversed(benchmarks):
        if floor <= m.end <= q.start and q.start - m.end < 40:
            between = text[m.end : q.start]
            if not re.search(r"[,;:()]|\b(?:and|while|but|than|vs|over)\b|\d", between):
                return m.name
            if _LABELLING.fullmatch(between):  # 'GSM8K (85.3%)', 'GSM8K: 85.3'
                return m.name
    return None


def _benchmark_fronted(text: str, benchmarks: list[Mention], sentence: tuple[int, int], q: Quantity) -> str | None:
    """'On GSM8K, ...', 'For the MMLU benchmark, ...': a fronted phrase places the sentence."""
    for m in benchmarks:
        if sentence[0] <= m.start < q.start and _FRONTED.match(text[sentence[0] : m.start]):
            rest = text[m.end : q.start]
            if re.match(r"\s*(?:\([^()]*\)\s*)?(?:benchmark|dataset|test\s+set|split)?s?\s*,", rest):
                return m.name
    return None


_HEADING = re.compile(r"\s*(?:\([^()]*\)\s*)?(?:benchmark|dataset|test\s+set|split)?s?\s*:")


def _benchmark_heading(text: str, benchmarks: list[Mention], sentence: tuple[int, int], q: Quantity) -> str | None:
    """'GSM8K: FooNet reaches 85.3% and BarNet 80.1%': a benchmark that opens its sentence with a
    colon heads every number of it."""
    for m in benchmarks:
        if m.start >= q.start:
            break
        if m.start == sentence[0] and _HEADING.match(text, m.end, q.start):
            return m.name
    return None


def _benchmark_in_sentence(
    text: str, q: Quantity, benchmarks: list[Mention], sentence: tuple[int, int]
) -> str | None:
    """A sentence that ties one benchmark to its results ('a comparison on ... FineWeb-Edu shows
    X reaching 2.5% lower loss'): the only benchmark of the sentence, evaluated on before the
    number."""
    inside = [m for m in benchmarks if sentence[0] <= m.start and m.end <= sentence[1]]
    if len({m.name for m in inside}) != 1 or inside[0].start > q.start:
        return None
    lead = text[max(sentence[0], inside[0].start - 40) : inside[0].start]
    if re.search(r"\b(?:on|of|over|across|in|using)\s+(?:the\s+)?(?:[\w-]+\s+){0,3}$", lead, re.IGNORECASE):
        return inside[0].name
    return None


# --- subject ------------------------------------------------------------------------------------

# 'we', 'it', 'our quantized models', 'the proposed method', 'this approach': the paper itself;
# so is a LaTeX macro the authors define for its name ('\name outperforms GRPO', 'our \name
# algorithm'), and its name with the abbreviation in parentheses ('our Past Decode
# Regularization ( PDR ) method', 'our Improved A + ( IA ) method').
_OWN_WORDS = (
    r"(?:(?<![\w\\}])\\[A-Za-z]+\b|\b(?:we|it|our\s+(?:\\?[\w+-]+\s+){0,3}?(?:\(\s*[^()]{1,20}\)\s+)?"
    r"(?:method|approach|framework|model|system|technique|"
    r"algorithm|pipeline|agent|architecture|variant|design|scheme|strategy|recipe|solution|"
    r"network|parser|optimizer|policy|estimator|quantization|compression)s?|(?:the\s+)?(?:proposed|resulting)\s+"
    r"(?:[\w-]+\s+){0,2}?[\w-]+|(?:this|the)\s+(?:method|approach|framework|technique|algorithm)))"
)
_OWN = AsciiFirst(_OWN_WORDS + "$", re.IGNORECASE)
# Verbs a result's subject acts with, and those a contribution is brought with ('We introduce X,
# ... eliminating 91%', 'X, which uses ... and provides 99%', 'X cuts token usage by 50%', 'We
# apply X on Y to achieve 1.26'); a stem glued to a hyphen is a compound noun ('an average
# speed-up of 21%'), and so is one 'of' follows ('R1 scores of 27.8', 'an increase of 5%'):
# neither is the clause's verb.
_SUBJECT_VERB = AnyCase(
    r"(?<![\w-])(?:(?:"
    + alternation(
        _RESULT_VERBS
        + r"|introduc|propos|present|develop|us(?=e|es|ed)|appl(?:y|ies|ied|ying)|sets|eliminat|remov"
        + r"|cut(?=s\b|ting)"
    )
    + r")"
    + _VERB_ENDING
    + r"|is|are|was|were|has|have|had|be|becomes?|became)\b(?!-|\s+of\b)"
)
# What an unnamed subject runs with: 'an audit with a fixed ISR=1.0 achieves ...'.
_WITH_NAME = re.compile(r"\s+with\s+(?:(?:a|an|the|our)\s+)?(?:[\w-]+\s+){0,2}", re.IGNORECASE)
# A passive with its agent: 'the best trade-off is achieved by M'.
_BY_AGENT = re.compile(r"\s+by\s+(?:the\s+)?", re.IGNORECASE)
_PASSIVE = re.compile(r"\b(?:is|are|was|were|be|been)\s+(?:\w+ly\s+)?$", re.IGNORECASE)
# An aside between dashes ('any LLM -- for example, M that achieves 82.4% -- with ...'): its
# verbs are not the main clause's.
_ASIDE = re.compile(r"\s(?:--|\u2014|\u2013)\s[^;]*?\s(?:--|\u2014|\u2013)\s")
# What may stand between a subject and its verb: adverbs, a relative pronoun, a parenthesis,
# 'with ...' ('AL8 with uniform 8-bit momentum reaches'), a modal ('X can far surpass', 'X can
# be made 12% more efficient').
_BEFORE_VERB = AsciiFirst(
    r"(?=[\s(,]|$)"  # every part opens with a space, '(' or ',': other places are skipped at once
    r"(?:\s*\([^()]{0,60}\))?(?:\s+with\s+[^,;()]{1,40}?)?(?:\s*,?\s+(?:that|which|who))?"
    r"(?:\s+(?:\w+ly|also|further|still|only|not\s+only|even|then|thus|both|consistently|far|"
    r"can|cannot|could|may|might|will|would|should|must))*\s*$",
    re.IGNORECASE,
)
# The common noun a name is written before ('the BAI-MCTS algorithm achieves', 'the PTv3 model
# had'): the name is the subject, the noun only says what kind of thing it is.
_NAME_HEAD = re.compile(
    r"\s+(?:algorithm|method|model|framework|approach|system|architecture|network|pipeline|agent|"
    r"detector|retriever|planner|policy|judge)s?$",
    re.IGNORECASE,
)
# A possessive before the subject's head ('FooNet's representations'; tokenized 'FooNet 's').
_POSSESSIVE = re.compile(r"(?P<name>[^\s(]+)\s?['\u2019]s\s+(?:[\w-]+\s+){0,3}?[\w-]+$")
_APOSTROPHE = re.compile(r"['\u2019]")
# Before a verb, what continues a list of predicates ('improves X by 31.4%, increases ...').
_CONJOINED = re.compile(
    r"(?:[,;-]|(?<![\w./-])[\d.]+|%|\)|\b(?:and|or|but|while|whereas|thus|thereby|by|yet|to|not|"
    r"simultaneously|further|also))\s*$",
    re.IGNORECASE,
)
# An unnamed subject ('a margin rule', 'the fixed-code runs', 'no model'): the number is not
# the paper's nor a named system's.
_UNNAMED = AsciiFirst(
    r"(?<![\w-])(?:a|an|the|this|these|that|those|no|each|every|all|both|its|their|such|some|most|"
    r"many|few)\s+(?:[\w-]+\s+){0,4}?[\w-]+$",
    re.IGNORECASE,
)

# A bare plural opened by a name inside a sentence: 'we show that Masked diffusion models can be
# made 12% more efficient' (a named family; 'Encoder-only models' opening a sentence is not).
_FAMILY_SUBJECT = re.compile(
    r"(?:(?<=\bthat\s)|(?<=[,;:]\s))(?P<name>[A-Z][\w-]*(?:\s+[a-z][\w-]*){0,2}\s+[a-z][\w-]*s)$"
)

# A sentence opened by a plural noun phrase as its subject ('Encoder-only models perform worst').
_BARE_SUBJECT = re.compile(r"\s*(?:[A-Za-z][\w-]*\s+){0,3}(?:[a-z][\w-]*|[A-Z]+)s")  # 'models', 'LLMs'
# ... or one opening a contrasting clause ('GPT-4o reaches 41.2%, while humans reach 92.0%').
_CLAUSE_BARE = re.compile(r"\b(?:while|whereas|but|although|though)\s+(?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*s$")

_FOR_AFTER = re.compile(r"\s*(?:\)\s*)?(?:for|by|with|from)\s+(?:the\s+|a\s+|an\s+)?", re.IGNORECASE)
# What makes a number the second of a comparison: 'compared to 77.2% for M', 'versus 73.54 for M'.
_COMPARED_NUMBER = AsciiFirst(
    r"(?:\b(?:vs\.?|versus|compared\s+(?:to|with)|relative\s+to|than|against|while|whereas)|,)\s*\\?\s*"
    + _QUALIFIER + r"$",
    re.IGNORECASE,
)


_VERSUS = re.compile(r"\b(?:vs\.?|versus)", re.IGNORECASE)
_ABLATION = AsciiFirst(r"\b(?:ablat\w*|variants?|w/o)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Subjects:
    """The names that can be a number's subject, the paper's proposed method, and the names that
    are measures (a name the paper gives a metric is what a number measures, never who)."""

    methods: list[Mention]
    models: list[Mention]
    proposed: str | None
    measures: frozenset[str] = frozenset()


# The head noun of a measure's name ('Abstraction Gap', 'Confusion Index', 'Hallucination Rate'),
# or the noun a name is written before ('the AG metric').
_MEASURE_HEAD = re.compile(
    r"(?:gap|score|index|rate|ratio|metric|measure|error|distance|divergence|coefficient)s?$", re.IGNORECASE
)
_MEASURE_AFTER = re.compile(r"\s*(?:\([^()]{1,12}\)\s*)?(?:metric|measure|score|index)\b", re.IGNORECASE)


def measure_names(text: str, names: list[tuple[str, tuple[str, ...]]], written: list[Mention]) -> frozenset[str]:
    """The names (keys) that name a measure: one of its forms ends with a measure noun, or the
    text writes it (``written``) before one ('The Abstraction Gap (AG) metric quantifies ...')."""
    measures = {name_key(m.name) for m in written if _MEASURE_AFTER.match(text, m.end)}
    measures.update(name_key(name) for name, surfaces in names if any(_MEASURE_HEAD.search(s) for s in surfaces))
    return frozenset(measures)


# The head noun a name is written before: 'the PTv3 model', 'the FooNet-L variant'.
_HEADED_NAME = re.compile(
    r"\s+(?:model|method|approach|algorithm|system|framework|variant|network|agent|architecture|pipeline|policy)s?$",
    re.IGNORECASE,
)
_ACRONYM_BEFORE = re.compile(r"\s*\([^()]{1,24}\)$")


def _named_at(end: int, subjects: Subjects) -> Mention | None:
    return next((m for m in (*subjects.methods, *subjects.models) if m.end == end), None)


def _resolve(text: str, floor: int, end: int, subjects: Subjects) -> tuple[str | None, str | None] | None:
    """(method, model) of the subject that ends at ``end``; None when the words there are no
    subject (a list of predicates goes on), (None, None) when the subject is unnamed."""
    if _CONJOINED.search(text, max(floor, end - 4), end) or end <= floor:
        return None
    if subjects.proposed and _OWN.search(text, max(floor, end - 60), end):
        return subjects.proposed, None
    head = _NAME_HEAD.search(text, max(floor, end - 24), end)
    for role, mentions in (("method", subjects.methods), ("model", subjects.models)):
        for m in mentions:
            if m.end == end or (m.start < end <= m.end) or (head and m.end == head.start()):
                if name_key(m.name) in subjects.measures:
                    return None  # 'models exhibit AG exceeding 0.50': a measure, not who
                return (m.name, None) if role == "method" else (None, m.name)
    window = max(floor, end - 60)
    # The pattern, which may start at any character, is only searched for when its apostrophe is there.
    owner = _POSSESSIVE.search(text, window, end) if _APOSTROPHE.search(text, window, end) else None
    if owner:
        return _resolve(text, floor, owner.start("name") + len(owner.group("name")), subjects)
    chunk = chunk_ending(text, floor, end)
    if not chunk or not (coined(chunk[0]) or (chunk[1] > floor and name_like(chunk[0].split()[0]))):
        # 'Performance improves ...' at a sentence start, 'a margin rule exits ...'
        family = _FAMILY_SUBJECT.search(text, max(floor, end - 60), end)
        words = family.group("name").split() if family else []
        if (
            family
            and family.start("name") > floor
            and name_like(words[0])
            and not any(_VERB.match(w) or w in _STOP for w in words[1:])
        ):
            name = family.group("name")  # 'we show that Masked diffusion models can be made 12% ...'
            return (None, name) if MODEL_FAMILIES.match(name) else (name, None)
        unnamed = (
            _UNNAMED.search(text, max(floor, end - 60), end)
            or _BARE_SUBJECT.fullmatch(text, floor, end)
            or _CLAUSE_BARE.search(text, max(floor, end - 60), end)
        )
        headed = _HEADED_NAME.search(text, max(floor, end - 40), end) if unnamed else None
        named = _named_at(headed.start(), subjects) if headed else None
        if named and unnamed.start() <= named.start:  # 'the PTv3 model had an mIoU of 91.35%'
            return (named.name, None) if named in subjects.methods else (None, named.name)
        coined_name = chunk_ending(text, unnamed.start(), headed.start()) if headed else None
        definite = coined_name and re.fullmatch(r"the\s+", text[unnamed.start() : coined_name[1]], re.IGNORECASE)
        if coined_name and definite and coined(coined_name[0]):
            return (None, coined_name[0]) if MODEL_FAMILIES.match(coined_name[0]) else (coined_name[0], None)
        return (None, None) if unnamed else None
    name = re.split(r"\s+on\s+", chunk[0])[0]  # 'the accuracy of FooNet on GSM8K is ...'
    if name_key(name) in subjects.measures or _names_metric(name.split()[-1]):
        return None  # 'strong F1 scores', 'a 2.6% mAP boost': a metric's name is what, not who
    for m in subjects.methods:  # 'Kronecker' for 'Kronecker Embeddings'
        if m.name.lower().startswith(name.lower()):
            return m.name, None
    return (None, name) if MODEL_FAMILIES.match(name) else (name, None)


# The paper's own models with their name in parentheses ('our models ( BigGANs ) achieve').
_OWN_NAMED = re.compile(_OWN_WORDS + r"\s*\(\s*(?P<name>[^()]{1,30}?)\s*\)\s*$", re.IGNORECASE)


def _canonical_method(name: str, subjects: Subjects) -> str:
    """A name as the rules list the method it is a form of, else as written."""
    return next((m.name for m in subjects.methods if name_key(m.name) == name_key(name)), name)


def _subject_before(
    text: str, position: int, sentence: tuple[int, int], subjects: Subjects
) -> tuple[str | None, str | None] | None:
    """The subject of the nearest verb before the number, (method, model); None when no verb
    before it has a subject (the sentence goes on from an earlier one: 'This gives 11.0 points')."""
    asides = [a.span() for a in _ASIDE.finditer(text, sentence[0], position)]
    measured = False
    for verb in reversed(list(_SUBJECT_VERB.finditer(text, sentence[0], position))):
        if any(start < verb.start() < end for start, end in asides):
            continue
        if _PASSIVE.search(text, max(sentence[0], verb.start() - 16), verb.start()):
            agent = _BY_AGENT.match(text, verb.end())
            named = [m for m in (*subjects.methods, *subjects.models) if agent and m.start == agent.end()]
            if named:
                return (named[0].name, None) if named[0] in subjects.methods else (None, named[0].name)
        # Only words that end with a closing parenthesis may hold the name; the pattern, which may
        # start at any character, is not searched for otherwise.
        reach = max(sentence[0], verb.start() - 90)
        closed = text[reach : verb.start()].rstrip().endswith(")")
        named = _OWN_NAMED.search(text, reach, verb.start()) if closed else None
        if named and coined(named.group("name")):
            return _canonical_method(named.group("name"), subjects), None
        lead = _BEFORE_VERB.search(text, max(sentence[0], verb.start() - 80), verb.start())
        end = lead.start() if lead else verb.start()
        while end > sentence[0] and text[end - 1].isspace():
            end -= 1
        found = _resolve(text, sentence[0], end, subjects)
        if found is None and not verb.group().endswith("ing"):
            found = _appositive(text, sentence[0], end, subjects)
        if found == (None, None) and verb.group().lower().endswith("ing"):
            continue  # 'X sets new results outperforming Y by 0.9dB': the participle's is X's
        if found == (None, None) and _names_metric(_phrase_before(text, sentence[0], end) or ""):
            measured = True  # 'X is better: the perplexity gap shrinks by 32%': what changes, not who
            continue
        if found == (None, None):  # 'an audit with a fixed ISR=1.0 achieves': the method it runs with
            named = next((m for m in subjects.methods if _WITH_NAME.fullmatch(text, end, max(end, m.start))), None)
            return (named.name, None) if named else found
        if found is not None:
            return found
    return (None, None) if measured else None


# Between coordinated names, and before the first of them: a maker's name may come first
# ('Google Gemini-2.5-Pro and OpenAI o3').
_NAMES_GAP = re.compile(r"\s*(?:,\s*(?:and\s+)?|and\s+)(?:the\s+)?(?:[A-Z][\w-]*\s+)?")
_APPOSITIVE_OPEN = re.compile(r"[^\s,;(]\s*,\s*(?:(?:called|named|dubbed|termed)\s+)?(?:[A-Z][\w-]*\s+)?$")


def _name_chain(text: str, last: Mention, named: list[Mention]) -> list[Mention]:
    """The names coordinated up to ``last`` ('A, B and C'), in the order written."""
    chain = [last]
    while previous := [
        m for m in named if m.end <= chain[0].start and _NAMES_GAP.fullmatch(text, m.end, chain[0].start)
    ]:
        chain.insert(0, previous[-1])
    return chain


def _appositive(text: str, floor: int, end: int, subjects: Subjects) -> tuple[str | None, str | None] | None:
    """'the best-performing models, Gemini-2.5-Pro and o3, achieve 30%', 'the proposed architecture,
    called Light GRU (Li-GRU), reduces': the names set off by commas after a description are the
    subject the description only announces."""
    if end - 1 <= floor or text[end - 1] != ",":
        return None
    close = end - 1
    while close > floor and text[close - 1].isspace():
        close -= 1
    named = sorted((*subjects.methods, *subjects.models), key=lambda m: m.start)
    acronym = _ACRONYM_BEFORE.search(text, max(floor, close - 30), close)  # 'Light GRU (Li-GRU),'
    last = next((m for m in named if m.end in (close, acronym.start() if acronym else -1)), None)
    if last is None:
        return None
    first = _name_chain(text, last, named)[0]
    if not _APPOSITIVE_OPEN.search(text, max(floor, first.start - 24), first.start):
        return None
    return (first.name, None) if first in subjects.methods else (None, first.name)


# A participle clause after a comma goes on from the main clause ('We validate on X, showing
# gains of 2.8x'); 'including', 'using' and the like are prepositions, not clauses.
_PARTICIPLE = re.compile(
    r",\s+(?:\w+ly\s+)?(?:thereby\s+|thus\s+)?(?!(?:including|using|follow|according|regard|depend|concern)"
    r"ing\b)[a-z]{3,}ing\b"
)
# A fronted phrase before the main clause's subject ('Finally, ', 'On GSM8K, ', 'Evaluating X on
# Y, '), and a complement clause whose subject is its own ('We find that ...').
_FRONTED_PHRASE = re.compile(r"^(?:[^,;]{0,80}?,\s+)?", re.IGNORECASE)
_COMPLEMENT = re.compile(r".*\bthat\s+", re.IGNORECASE | re.DOTALL)
# The paper's own study as a subject ('Experiments on five datasets confirm ...', 'Empirical tests
# affirm ...'): its results are the proposed method's.
_STUDY = re.compile(
    r"(?:(?:extensive|empirical|experimental|comprehensive|further|our)\s+)*"
    r"(?:experiments|evaluations|validations|tests|results|studies|analyses|benchmarks)\b",
    re.IGNORECASE,
)
_OPENING_OWN = re.compile(_OWN_WORDS + r"\b", re.IGNORECASE)


def _participle_subject(
    text: str, q: Quantity, sentence: tuple[int, int], subjects: Subjects
) -> tuple[str | None, str | None] | None:
    """'Empirical tests affirm the value of X, demonstrating an improvement of 1.24%': a number in
    a participle clause belongs to the main clause's subject, whatever that clause's verb is
    (the paper itself, its study, or a name opening the clause)."""
    participles = list(_PARTICIPLE.finditer(text, sentence[0], q.start))
    if not participles:
        # 'Experimental validations on three MLLMs demonstrate improvements up to 9.5%': a
        # sentence the paper's study opens is about the proposed method, whatever its verb.
        study = _STUDY.match(text, sentence[0], q.start)
        return (subjects.proposed, None) if study and subjects.proposed else None
    main = text[sentence[0] : participles[-1].start()]
    complement = _COMPLEMENT.match(main)
    opening = main[complement.end() :] if complement else main
    fronted = _FRONTED_PHRASE.match(opening)
    for start in dict.fromkeys((0, fronted.end() if fronted else 0)):
        head = opening[start:]
        if subjects.proposed and (_OPENING_OWN.match(head) or _STUDY.match(head)):
            return subjects.proposed, None
        offset = sentence[0] + (len(main) - len(opening)) + start
        for role, mentions in (("method", subjects.methods), ("model", subjects.models)):
            for m in mentions:
                if m.start == offset:
                    return (m.name, None) if role == "method" else (None, m.name)
    return None


# After a name opening a sentence, the verb it governs, whatever verb it is ('TabFlex processes',
# 'LISA also out - performs', 'FPTQuant enables ... and shows ...'), a copula too ('FlowNet 2.0 is
# only marginally slower ... but decreases the error by 50 %').
_OPENING_VERB = re.compile(
    r"\s+(?:(?:\w+ly|also|further|still|then|thus|consistently|even|can|could|may|will)\s+)*"
    r"(?:(?:[a-z]+\s-\s)?[a-z]{2,}(?:s|ed)|is|are|was|were)\b"
)


# A fronted phrase, which may hold commas of its own ('On a comprehensive, unseen test set, X
# demonstrates ...'): every place after a comma in the sentence's opening may start the subject.
_FRONTED_CLAUSE = re.compile(r",\s+")
_FRONTED_REACH = 120


def _opening_subject(
    text: str, sentence: tuple[int, int], q: Quantity, subjects: Subjects
) -> tuple[str | None, str | None] | None:
    """A method or model that opens the sentence (after a fronted phrase) as the subject of a
    verb the verb lists do not hold is the subject of every predicate after it ('TabFlex
    processes the dataset in just 5 seconds', 'FPTQuant enables INT4 and shows a speed-up of
    3.9 times'); used only when no verb before the number has a subject."""
    reach = min(q.start, sentence[0] + _FRONTED_REACH)
    starts = [sentence[0], *(f.end() for f in _FRONTED_CLAUSE.finditer(text, sentence[0], reach))]
    for start in starts:
        for role, mentions in (("method", subjects.methods), ("model", subjects.models)):
            for m in mentions:
                if m.start == start and m.end < q.start and _OPENING_VERB.match(text, m.end, q.start):
                    if name_key(m.name) in subjects.measures:
                        return None
                    return (m.name, None) if role == "method" else (None, m.name)
    return None


# 'compared with M', 'along with M': a model named as a comparison point is never the one a
# method ran on (docs/ANNOTATION.md); 'a/an' and a modifier may stand before it ('using a 1001 -
# layer ResNet').
_RAN_ON = re.compile(
    r"(?<!\bcompared\s)(?<!\bcomparison\s)(?<!\balong\s)(?<!\btogether\s)"
    r"\b(?:on|for|with|using|applied\s+to|of)\s+(?:the\s+|an?\s+(?:[\w]+(?:\s-\s\w+)*\s+)?)?$",
    re.IGNORECASE,
)
_FRONTED_ON = re.compile(r"\b(?:on|for|with|using|applied\s+to|of|in)\s+(?:the\s+)?$", re.IGNORECASE)
_USING = re.compile(r"\busing\s+(?:the\s+|an?\s+(?:[\w]+(?:\s-\s\w+)*\s+)?)?$", re.IGNORECASE)


def _model_ran_on(
    text: str, sentence: tuple[int, int], q: Quantity, models: list[Mention], fronted: bool = False
) -> str | None:
    """'for LLaMA2-7B at 40% sparsity, LaRoSA surpasses ...': the model a method ran on. With no
    subject at all, only a model that ends a fronted phrase ('when clustering the weights in
    LLaMA-2-7B, the accuracy drop is 46.5%') or that the paper used ('We report improved results
    using a 1001 - layer ResNet on CIFAR - 10 ( 4.62 % error )') is the one the number was
    measured on."""
    for m in models:
        if not sentence[0] <= m.start < q.start:
            continue
        lead = max(sentence[0], m.start - 30)
        if not fronted and _RAN_ON.search(text, lead, m.start):
            return m.name
        ends_fronted = text.startswith(",", m.end) and _FRONTED_ON.search(
            text, max(sentence[0], m.start - 14), m.start
        )
        if fronted and (ends_fronted or _USING.search(text, lead, m.start)):
            return m.name
    return None


_ON_AFTER = re.compile(r"(?:\s+[^\s,;:()\d]+){0,3}?\s+on\s+(?:the\s+)?")


def _model_measured_on(text: str, q: Quantity, limit: int, models: list[Mention]) -> str | None:
    """'it surpasses random selection by 4% on Qwen2.5-72B': a pretrained model named right
    after the number as where it is measured is the model it ran on."""
    after = _ON_AFTER.match(text, q.end, limit)
    if not after:
        return None
    return next((m.name for m in models if m.start == after.end()), None)


def _subject_named_after(text: str, q: Quantity, limit: int, subjects: Subjects) -> str | None:
    """'compared to 77.2% for LLaVA-1.5-13B', 'versus 73.54 for bitsandbytes 8-bit AdamW'."""
    found = _FOR_AFTER.match(text, q.end, limit)
    if not found:
        return None
    for m in (*subjects.methods, *subjects.models):
        if m.start == found.end():
            return m.name
    return _clean_name(text, found.end(), limit)


def _clean_name(text: str, start: int, limit: int) -> str | None:
    phrase = _phrase_after(text, start, limit)
    if not phrase:
        return None
    name = phrase[0]
    return name if len(name) >= 2 and not name[0].isdigit() else None


_IN_PARENS = re.compile(r"\(\s*" + _QUALIFIER + r"$")


def _subject_in_parens(text: str, q: Quantity, subjects: Subjects) -> tuple[str | None, str | None]:
    """'o1-mini (-16.49%)': a name right before the parenthesis that holds the number."""
    if not _IN_PARENS.search(text[max(0, q.start - 12) : q.start]):
        return None, None
    opening = text.rfind("(", 0, q.start)
    for role, mentions in (("method", subjects.methods), ("model", subjects.models)):
        for m in mentions:
            if 0 <= opening - m.end <= 1:
                return (m.name, None) if role == "method" else (None, m.name)
    return None, None


# --- kind, direction, baseline ------------------------------------------------------------------

_PHRASE_BREAK = re.compile(r"[,;]|\.\s|(?<![\w.-])\d")
# After the number: a comparative, or a change noun heading its phrase ('0.2% step-time
# overhead', '3.1-point accuracy drop', '18-point gap').
_CHANGE_AFTER = re.compile(
    r"\s*(?:relative\s+|absolute\s+)?(?:fewer|less|lower|higher|more|faster|slower|smaller|larger|earlier|"
    r"longer|shorter|cheaper|"
    r"(?:(?!(?:of|on|in|at|for|with|and|or|to|the|a|an)\b)[\w-]+\s+){0,2}?(?:speed-?ups?|gains?|improvements?|"
    r"reductions?|drops?|increases?|decreases?|overhead|savings?|lifts?|uplifts?|boosts?|gaps?)\b|"
    r"(?:of\s+)?improvement|over\b|above\b|below\b|behind\b|ahead\s+of\b|(?:\w+\s+)?better|"
    r"(?:[\w@-]+\s+){1,2}(?:higher|lower|more|less|fewer|faster|slower|worse)\s+than)\b",
    re.IGNORECASE,
)
_CHANGE_BEFORE = AsciiFirst(
    r"\b(?:improv\w*|gains?|degrad\w*|drops?|dropped|declin\w*|lifts?|boost\w*|reduc\w*|increas\w*|"
    r"decreas\w*|gap)\b(?:\s+\S+){0,5}\s*\(?\s*(?:up\s+to\s+|about\s+|~|just\s+|only\s+)?$",
    re.IGNORECASE,
)
_BASELINE_AFTER = re.compile(
    r"\b(?:over|vs\.?|versus|compared\s+(?:to|with)|relative\s+to|than|against|from|above|below|behind|"
    r"ahead\s+of)\s+(?:the\s+|a\s+|an\s+|its\s+|their\s+)?(?P<b>[^,;:()\d][^,;:()]{0,60}?)"
    r"(?=\s+(?:on|in|at|for|with|by|while|across|under|when|and|using|which|where|to|is|are|"
    r"as|after|of)\b|[,;:()]|\s*$)",
    re.IGNORECASE,
)
_BASELINE_BEFORE = AsciiFirst(
    r"\b(?:surpass\w*|outperform\w*|beat\w*|exceed\w*|improv\w*\s+(?:over|on|upon))\s+"
    r"(?:the\s+)?(?P<b>[^,;:()]{1,50}?)\s+by\s+(?:up\s+to\s+|about\s+|~|(?:an\s+)?(?:absolute|relative)\s+)?$",
    re.IGNORECASE,
)


_ABOVE = re.compile(r"\s*(?:[\w-]+\s+)?(?:over|above|ahead\s+of)\b", re.IGNORECASE)
_BELOW = re.compile(r"\s*(?:[\w-]+\s+)?(?:below|behind)\b", re.IGNORECASE)
# The verb whose 'by' takes the number states the direction, whatever its object names:
# 'reducing KV cache memory by up to 75% and improving ...' is a decrease. 'improve' is left
# out: an improved latency is a lower one.
_GOVERNING_VERB = AsciiFirst(
    r"\b(?:(?P<decrease>reduc|decreas|lower|cut|shrink|shrank|narrow|trim|slash|compress|sav|drop|declin|fall|fell)|"
    r"(?P<increase>increas|rais|boost|accelerat|lift|doubl|grow|grew|expand))\w*"
    r"(?:\s+[^\s,;:\d]+){0,6}?\s+by\s*" + _QUALIFIER + r"$",
    re.IGNORECASE,
)


_LABEL_GAP = re.compile(r"\s*[=:(]?\s*$")


def _labelled(text: str, floor: int, q: Quantity) -> bool:
    """An unsigned value written right after a metric's name ('(perplexity 5.03, ...)', 'BLEU:
    34.7', 'the best majority-vote score (42/50)') is that metric's value, whatever change
    words the clause holds."""
    if q.sign or q.unit in ("pp", "x") or not text[max(0, q.start - 3) : q.start].rstrip(" =:").strip():
        return False
    gap = _LABEL_GAP.search(text, max(floor, q.start - 4), q.start)
    phrase = _phrase_before(text, floor, gap.start()) if gap else None
    if not phrase or phrase.split()[-1].lower() in _CHANGE_NOUNS | {"gap", "gaps"}:
        return False
    return _names_metric(phrase)


# A change verb whose 'to' takes the number ('further reduces PER to 17.6%', 'climbs to 61%'),
# and the word before it (what changes, when it is the verb's subject).
_NEW_LEVEL = AsciiFirst(
    r"(?P<before>[\w-]+)\s+(?:\w+ly\s+)?(?:reduc|lower|cut|decreas|increas|rais|improv|boost|drop|fall|fell|ris|"
    r"rose|climb|grow|grew|shrink|shrank)" + _VERB_ENDING + r"\b(?:(?!\b(?:by|up)\b)[^,;:()\d]){0,60}?(?<!\bup)\s+to\s+"
    + _QUALIFIER + r"$",
    re.IGNORECASE,
)


_TO_BEFORE = re.compile(r"\bto\s+" + _QUALIFIER + r"$", re.IGNORECASE)


def _new_level(text: str, floor: int, q: Quantity) -> bool:
    """A change verb with 'to N' gives the level reached, a score (as the B of 'from A to B');
    a signed value, a multiple, a point difference, or the level a change itself reaches ('this
    improvement rises to 4%') stays a change."""
    if q.sign or q.unit in ("x", "pp") or not _TO_BEFORE.search(text, max(floor, q.start - 40), q.start):
        return False
    found = _NEW_LEVEL.search(text, max(floor, q.start - 100), q.start)
    return bool(found) and found.group("before").lower() not in _CHANGE_NOUNS | {"gap", "gaps"}


def kind_of(doc: Document, q: Quantity, clause: tuple[int, int]) -> tuple[str, str | None]:
    """'score' or 'change', and for a change its direction."""
    text = doc.text
    before_text = text[clause[0] : q.start]
    if q.form in ("before", "after") or _labelled(text, clause[0], q) or _new_level(text, clause[0], q):
        return "score", None
    change = (
        q.sign == "+"
        or (q.sign == "-" and q.unit in ("%", "pp", "points"))
        or q.unit in ("pp", "x")
        or bool(CHANGE_CUE.search(before_text[-40:]))
        or bool(_CHANGE_AFTER.match(text, q.end, clause[1]))
        or bool(_CHANGE_BEFORE.search(_PHRASE_BREAK.split(before_text[-60:])[-1]))
    )
    if not change:
        return "score", None
    if q.sign == "-":
        return "change", "decrease"
    if q.sign == "+":
        return "change", "increase"
    governing = _GOVERNING_VERB.search(text, max(clause[0], q.start - 90), q.start)
    if governing:
        return "change", "decrease" if governing.group("decrease") else "increase"
    local_start = max(clause[0], q.start - 50)
    local = text[local_start : min(clause[1], q.end + 40)]
    anchor = q.start - local_start
    cues = [(abs(m.start() - anchor), "decrease") for m in DECREASE.finditer(local)]
    cues += [(abs(m.start() - anchor), "increase") for m in INCREASE.finditer(local)]
    if cues:
        return "change", min(cues)[1]
    if _ABOVE.match(text, q.end, clause[1]) or _SPEED.search(local):
        return "change", "increase"  # '2.1 points over LLaMA-2', 'speeds up decoding by 2.4x'
    if _BELOW.match(text, q.end, clause[1]):
        return "change", "decrease"  # '2.1 points below GPT-4o'
    return "change", None


_GAP_OF = re.compile(r"(?:[\w-]+\s+)?(?:gap|ratio)s?\s*(?:of|=|:)\s*" + _QUALIFIER + r"$", re.IGNORECASE)


def _kind_of_gap(
    text: str, q: Quantity, clause: tuple[int, int], metric: str | None, kind: tuple[str, str | None]
) -> tuple[str, str | None]:
    """A gap named by the metric it is a gap in ('a 0.17 perplexity gap', 'reduces the accuracy
    gap ... to 0.54%') is a difference from a baseline, a change; a gap or ratio named by a
    property ('a detectability gap of 0.35 AUC', 'a perplexity jump ratio of 2.39x') is itself
    the measured quantity, a score. What a gap changes by ('narrows the gap by 16%') is a change."""
    window = text[max(clause[0], q.start - 60) : q.start].lower()
    if not any(w in window or w in (metric or "").lower() for w in ("gap", "ratio")):
        return kind
    gap_of = _GAP_OF.search(text, max(clause[0], q.start - 60), q.start)
    words = (gap_of.group() if gap_of else metric or "").lower().split()
    words = words[: next((i + 1 for i, w in enumerate(words) if w.rstrip("s") in ("gap", "ratio")), len(words))]
    head = words[-1].rstrip("s") if words else ""
    if head not in ("gap", "ratio") or q.sign or CHANGE_CUE.search(text, max(clause[0], q.start - 40), q.start):
        return kind
    if len(words) == 1 or _names_metric(words[-2]):
        return ("change", kind[1]) if head == "gap" else kind
    return "score", None


def _baseline(text: str, q: Quantity, clause: tuple[int, int]) -> str | None:
    after = _BASELINE_AFTER.search(text, q.end, clause[1])
    if after and after.start() - q.end < 60:
        return _clean_phrase(after.group("b"))
    before = _BASELINE_BEFORE.search(text[clause[0] : q.start])
    if before:
        # 'surpassing TEAL by 1.77% and CATS by 17.14%': the last one named before this 'by'.
        return _clean_phrase(re.split(r"\s+by\s+[^,;]*?\s+and\s+", before.group("b"))[-1])
    return None


def _clean_phrase(phrase: str) -> str | None:
    phrase = re.sub(r"^(?:the|a|an|its|their|our)\s+", "", phrase.strip().rstrip(".!?").rstrip(), flags=re.IGNORECASE)
    words = phrase.split()
    if not words or len(words) > 7 or re.match(r"[\d.%]", phrase):
        return None
    return phrase


# --- claims -------------------------------------------------------------------------------------


def _setting(readings: list[Reading], text: str, span: tuple[int, int]) -> str | None:
    phrases = []
    for r in readings:
        if r.role == SETTING and span[0] <= r.phrase[0] and r.phrase[1] <= span[1]:
            phrase = text[r.phrase[0] : r.phrase[1]].strip(" ,;(")
            if phrase and phrase not in phrases:
                phrases.append(phrase)
    return ", ".join(phrases[:3]) or None


def _unit(q: Quantity) -> str | None:
    if q.form == "fraction" and q.denominator is not None:
        return f"/{q.denominator:g}"
    if q.unit is None and q.scale is not None:
        return q.scale
    return q.unit


def _evidence(doc: Document, q: Quantity, mentions: list[NumberMention]) -> str:
    """The clause that states the number (the sentence when the clause is a stub), cut so that
    this number is the first of its value in it: grounding locates a claim by its first match."""
    text = doc.text
    start, end = doc.clause_of(q.start)
    if end < q.end or end - start < 30:
        start, end = doc.sentence_of(q.start)
        end = max(end, q.end)
    for m in mentions:
        if m.start >= q.start:
            break
        if m.start >= start and m.matches(q.value):
            start = q.start
            break
    return text[start:end].strip()


@dataclass
class _Draft:
    """One claim's attribution while the sentence's lists are aligned."""

    q: Quantity
    metric: str | None
    firm: bool  # the metric is bound by grammar, not only a noun after the unit
    benchmark: str | None
    own_benchmark: bool
    method: str | None
    model: str | None
    baseline: str | None
    kind: str
    direction: str | None
    compared: bool = False  # the second number of a comparison, its subject named after it
    compared_on: bool = False  # its metric is the one of the clause a comparing participle joins


def _respectively(text: str, drafts: list[_Draft], benchmarks: list[Mention], sentence: tuple[int, int]) -> None:
    """'by 26.3 and 11.9 points on A and B, respectively': the benchmarks in the order written."""
    if "respectively" not in text[sentence[0] : sentence[1]]:
        return
    listed = [d for d in drafts if sentence[0] <= d.q.start < sentence[1]]
    names = list(dict.fromkeys(m.name for m in benchmarks if sentence[0] <= m.start < sentence[1]))
    if len(listed) >= 2 and len(names) == len(listed):
        for draft, name in zip(listed, names, strict=True):
            draft.benchmark, draft.own_benchmark = name, True
    _respective_metrics(text, listed)


def _respective_metrics(text: str, listed: list[_Draft]) -> None:
    """'a top-1 accuracy of 50.9% and a top-5 accuracy of 79.7%, surpassing M by 13.7% and 9.8%,
    respectively': a last list with no metrics of its own takes those of the numbers before it,
    one each, in the order written."""
    runs = _number_lists(text, listed)
    last = runs[-1] if runs else []
    earlier = [d for d in listed if d.q.start < last[0].q.start] if last else []
    if (
        len(last) < 2
        or len(earlier) != len(last)
        or any(d.firm for d in last)
        or not all(d.firm and d.metric for d in earlier)
        or len({d.metric.lower() for d in earlier if d.metric}) != len(earlier)
    ):
        return
    for draft, source in zip(last, earlier, strict=True):
        draft.metric, draft.firm = source.metric, True


_FOR_NAME = re.compile(r"\s+for\s+(?:the\s+)?")


def _numbers_for_names(
    text: str, drafts: list[_Draft], subjects: Subjects, sentence: tuple[int, int]
) -> None:
    """'an accuracy of 61.2% for FooNet and 58.1% for GPT-4o': numbers that each name whose they
    are right after them belong to those names, whatever the sentence's subject."""
    owned = []
    for draft in (d for d in drafts if sentence[0] <= d.q.start < sentence[1]):
        after = _FOR_NAME.match(text, draft.q.end)
        named = [m for m in (*subjects.methods, *subjects.models) if after and m.start == after.end()]
        if named:
            owned.append((draft, named[0]))
    if len({m.name for _, m in owned}) >= 2:
        for draft, m in owned:
            draft.method, draft.model = (m.name, None) if m in subjects.methods else (None, m.name)


def _respective_subjects(
    text: str, drafts: list[_Draft], subjects: Subjects, sentence: tuple[int, int]
) -> None:
    """'GPT-4o and Gemini-2.5-Pro reach 69% and 57%, respectively': the numbers take the
    coordinated names of their subject in the order written."""
    if "respectively" not in text[sentence[0] : sentence[1]]:
        return
    listed = [d for d in drafts if sentence[0] <= d.q.start < sentence[1]]
    owners = {d.method or d.model for d in listed}
    if len(listed) < 2 or len(owners) != 1 or None in owners:
        return
    owner = owners.pop()
    named = sorted((*subjects.methods, *subjects.models), key=lambda m: m.start)
    written = [m for m in named if m.name == owner and sentence[0] <= m.start and m.end <= listed[0].q.start]
    chain = _name_chain(text, written[-1], named) if written else []
    if len(chain) == len(listed):
        for draft, m in zip(listed, chain, strict=True):
            draft.method, draft.model = (m.name, None) if m in subjects.methods else (None, m.name)


_AND_GAP = re.compile(r"\s*(?:,\s*(?:and\s+)?|and\s+)" + _QUALIFIER + r"(?:[+\u2212-]\s?)?$", re.IGNORECASE)
_NAME_AND = re.compile(r"\s*(?:,\s*(?:and\s+)?|and\s+)(?:the\s+)?")


def _number_lists(text: str, drafts: list[_Draft]) -> list[list[_Draft]]:
    """The drafts in runs of coordinated numbers ('85.3%, 72.1% and 60.2%'); a lone number is a
    run of one."""
    runs: list[list[_Draft]] = []
    for index, draft in enumerate(drafts):
        if index and _AND_GAP.fullmatch(text, drafts[index - 1].q.end, draft.q.start):
            runs[-1].append(draft)
        else:
            runs.append([draft])
    return runs


def _parallel_lists(text: str, drafts: list[_Draft], benchmarks: list[Mention]) -> None:
    """'85.3% and 72.1% accuracy on SST-2 and MNLI': a list of numbers reported on a list of as
    many benchmarks pairs them in order, 'respectively' written or not."""
    for run in _number_lists(text, drafts):
        if len(run) < 2:
            continue
        names = _benchmark_list_after(text, run[-1].q.end, benchmarks)
        if len(names) == len(run):
            for draft, name in zip(run, names, strict=True):
                draft.benchmark, draft.own_benchmark = name, True


# 'on this highly challenging benchmark', 'on these two datasets', 'on both benchmarks': a dataset
# phrase that points back at benchmarks named before.
_REFERRING = re.compile(
    r"\s*(?:[\w@-]+\s+){0,4}?(?:on|across|for|in)\s+(?:(?P<one>this|that|the\s+same)|(?P<both>both)|these|the\s+two)"
    r"\s+(?:(?:of\s+the\s+)?(?P<count>two|three|four|five)\s+)?(?:[\w-]+\s+){0,3}?"
    r"(?:benchmark|dataset|data\s+set|corpus|corpora|test\s?set)s?\b",
    re.IGNORECASE,
)
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5}


def _benchmarks_referred_to(text: str, drafts: list[_Draft], benchmarks: list[Mention]) -> None:
    """'We introduce CP-Bench ... reaching up to 70% on this highly challenging benchmark',
    'accuracies of 73.6% and 76.6% on these two datasets': a demonstrative dataset phrase a list
    of numbers is reported on names the benchmarks written last before it, one per number, in
    the order written."""
    for run in _number_lists(text, drafts):
        referring = _REFERRING.match(text, run[-1].q.end)
        if not referring:
            continue
        wanted = 1 if referring.group("one") else 2 if referring.group("both") else len(run)
        count = referring.group("count")
        if count and _COUNTS[count.lower()] != wanted:
            continue
        names: list[str] = []
        for m in reversed(benchmarks):
            if m.end <= run[0].q.start and m.name not in names:
                names.insert(0, m.name)
        names = names[-wanted:]
        if len(names) != wanted or (wanted > 1 and wanted != len(run)):
            continue
        for draft, name in zip(run, names * len(run) if wanted == 1 else names):
            if not draft.own_benchmark:
                draft.benchmark, draft.own_benchmark = name, True


def _benchmark_chain(text: str, mention: Mention, inside: list[Mention]) -> list[Mention]:
    """The benchmarks coordinated with ``mention`` ('GSM8K, MATH and MMLU'), in order."""
    chain = _name_chain(text, mention, inside)
    while following := [
        m for m in inside if m.start >= chain[-1].end and _NAMES_GAP.fullmatch(text, chain[-1].end, m.start)
    ]:
        chain.append(following[0])
    return chain


def _benchmarks_together(
    text: str, drafts: list[_Draft], benchmarks: list[Mention], sentence: tuple[int, int]
) -> None:
    """'improves accuracy by 3.1% on average across GSM8K, MATH and MMLU': fewer numbers than the
    coordinated benchmarks they are stated on are tied to none of them (docs/ANNOTATION.md)."""
    listed = [d for d in drafts if sentence[0] <= d.q.start < sentence[1] and d.benchmark]
    inside = [m for m in benchmarks if sentence[0] <= m.start and m.end <= sentence[1]]
    for draft in listed:
        written = [m for m in inside if m.name == draft.benchmark]
        if not written:
            continue
        nearest = min(written, key=lambda m: abs(m.start - draft.q.start))
        names = {m.name for m in _benchmark_chain(text, nearest, inside)}
        if len(names) >= 2 and len([d for d in listed if d.benchmark in names]) < len(names):
            draft.benchmark, draft.own_benchmark = None, False


# 'increase of 0.8 and 0.7, achieving 34.0 on A and 64.7 on B': a list of changes that leads to
# a list of results.
_LEADING_TO = re.compile(
    r"\s*(?:[\w@-]+\s+){0,2}?,\s*(?:\w+ly\s+)?(?:achiev|reach|attain|obtain|yield|giv|result|lead)\w*\s+"
    r"(?:(?:in|to)\s+)?" + _QUALIFIER + r"$",
    re.IGNORECASE,
)


def _changes_leading_to_results(text: str, drafts: list[_Draft]) -> None:
    """'BLEU score increase of 0.8 and 0.7, achieving 34.0 on Callhome and 64.7 on Fisher': each
    change of a list is on the benchmark of the result it leads to, paired in order."""
    position = {id(d): i for i, d in enumerate(drafts)}
    for run in _number_lists(text, drafts):
        after = position[id(run[-1])] + 1
        results = drafts[after : after + len(run)]
        if (
            len(run) < 2
            or len(results) != len(run)
            or any(d.benchmark for d in run)
            or not all(d.own_benchmark for d in results)
            or not _LEADING_TO.fullmatch(text, run[-1].q.end, results[0].q.start)
        ):
            continue
        for change, result in zip(run, results, strict=True):
            change.benchmark = result.benchmark
            if change.firm and not result.firm:  # 'BLEU increase of 0.8, achieving 34.0': BLEU too
                result.metric, result.firm = change.metric, True


# 'improvements over the BM25 model on the Robust and the ClueWeb collections': a list may hold
# its metric and baseline before 'on'.
_LIST_ON = re.compile(_IN_NAME + r"{0,60}?\b(?:on|across)\s+(?:the\s+)?", re.IGNORECASE)


def _benchmark_list_after(text: str, position: int, benchmarks: list[Mention]) -> list[str]:
    """The coordinated benchmark names a number at ``position`` is reported on ('on A, B and C')."""
    names: list[str] = []
    for m in benchmarks:
        if m.start < position:
            continue
        if not names and not (
            _REPORTED_ON.fullmatch(text, position, m.start) or _LIST_ON.fullmatch(text, position, m.start)
        ):
            break
        if names and not _NAME_AND.fullmatch(text, position, m.start):
            break
        names.append(m.name)
        position = m.end
    return names


# Between two items that each name their metric: after the first ('88.1% joint goal accuracy and
# 97.1%'), or before the second ('an EM score of 71.3 and F1 of 80.1 on SQuAD').
_METRIC_ITEM_GAP = re.compile(
    r"\s*(?:(?:[\w@-]+\s*){1,3}?(?:,\s*)?and\s+|(?:,\s*)?and\s+(?:an?\s+)?(?:[\w@-]+\s+){1,3}?of\s+)" + _QUALIFIER,
    re.IGNORECASE,
)


def _share_lists(text: str, drafts: list[_Draft]) -> None:
    """Neighbours in a list of one unit share a metric ('accuracies of 70.1% and 44.2%', '73% and
    60% refusal'; a firm one wins over a bare noun), and a benchmark given once ('72.6% and 70.1%
    on MMLU'); a change cue ('by 26.3 and 11.9 points') holds for the whole list."""
    pairs = list(zip(drafts, drafts[1:]))
    # Tight lists first: '-0.15 vs. -0.12 in loss and -0.65 vs. -0.49 in perplexity'; then back
    # from the end, where a list names its measure last ('4.4%, 1.6% and 2.5% improvement in F1').
    lists = [p for p in pairs if _listed(text, *(d.q for d in p), False)] + [
        p for p in pairs if _listed(text, *(d.q for d in p), True)
    ]
    for a, b in lists + lists[::-1]:
        # ('1.2 % , 2.3 % and 3.4 % improvements': a change noun ending the list holds for it all)
        unbound = a.metric is None and b.metric is None and a.q.unit == b.q.unit
        if (
            a.kind == "score"
            and b.kind == "change"
            and a.q.form == "single"
            and not a.firm
            and (b.firm or unbound)
        ):
            a.kind, a.direction, a.baseline = b.kind, b.direction, a.baseline or b.baseline
        if a.q.unit == b.q.unit and not (a.firm and b.firm):
            firm = a if a.firm else b if b.firm else None
            shared = firm.metric if firm else a.metric or b.metric
            a.metric = b.metric = shared
            a.firm = b.firm = firm is not None
        if a.benchmark is None and b.own_benchmark:
            a.benchmark = b.benchmark
        # ('by 1.1 points and 24.54 BLEU on B': a score in another unit is a result of its own)
        if a.kind == "change" and b.kind == "score" and b.q.form == "single" and a.q.unit == b.q.unit:
            b.kind, b.direction, b.baseline = a.kind, a.direction, b.baseline or a.baseline
    # '88.1% joint goal accuracy and 97.1% request accuracy on WoZ': items that each name their
    # metric share the benchmark named once at the end.
    for a, b in pairs:
        items = a.firm and b.firm and _METRIC_ITEM_GAP.fullmatch(text, a.q.end, b.q.start)
        if a.benchmark is None and b.own_benchmark and items:
            a.benchmark = b.benchmark


_BY_NUMBER = re.compile(r"\bby\s+" + _QUALIFIER + r"$", re.IGNORECASE)
_NEXT_BY = re.compile(r"(?:,\s*(?:and\s+)?|\s+and\s+)by\s+" + _QUALIFIER + r"$", re.IGNORECASE)


def _share_by_lists(text: str, drafts: list[_Draft]) -> None:
    """'accuracy drops by 3.3% without vision input, by 4.1% without language input, and by 8.0%
    without either': each 'by N' that goes on a list of the clause's change measures what the
    first one does."""
    for a, b in zip(drafts, drafts[1:]):
        if (
            b.metric is None
            and a.metric
            and _BY_NUMBER.search(text, max(0, a.q.start - 20), a.q.start)
            and _NEXT_BY.search(text, max(a.q.end, b.q.start - 30), b.q.start)
            and not re.search(r"[.;:]", text[a.q.end : b.q.start])
        ):
            b.metric, b.firm = a.metric, a.firm
            b.kind, b.direction = a.kind, a.direction


_RESTATED = re.compile(
    r"\s*(?:[\w@-]+\s+){0,3}?\(\s*(?:(?:from|vs\.?|versus|compared\s+(?:to|with))\s+)?(?:an?\s+)?"
    + _QUALIFIER + r"[+\u2212-]?\s*$",
    re.IGNORECASE,
)


def _share_restatement(text: str, drafts: list[_Draft]) -> None:
    """'pushes GLUE to 82.2% (1.8% absolute improvement)', '85.3% accuracy (+2.1% over M)',
    'climbs to 61% (from a 48% baseline)': a number in parentheses right after another restates
    it (its gain, its relative value, where it started) and is measured with the same metric on
    the same benchmark."""
    for a, b in zip(drafts, drafts[1:]):
        if not _RESTATED.fullmatch(text, a.q.end, b.q.start):
            continue
        if a.metric and not b.firm:
            b.metric, b.firm = a.metric, a.firm
        b.benchmark = b.benchmark or a.benchmark


# 'R1@IoU0.3 and R1@IoU0.5 scores of 27.82 and 18.68', 'precision and recall are 81% and 74%': a
# list of metrics bound before a list of as many numbers.
_LIST_LINK = re.compile(r"\s+(?:of|are|were)\s+" + _QUALIFIER + r"$|\s*[=:]\s*" + _QUALIFIER + r"$", re.IGNORECASE)
_METRIC_AND = re.compile(r"\s*(?:,\s*(?:and\s+)?|and\s+)(?:(?:a|an|the|its|their)\s+)?$", re.IGNORECASE)


def _metrics_listed_before(text: str, position: int, floor: int, count: int) -> list[str] | None:
    """The ``count`` coordinated metric phrases that end at ``position``, in the order written."""
    phrases: list[str] = []
    end = position
    while len(phrases) < count:
        phrase = _phrase_before(text, floor, end)
        cleaned = _clean(phrase)
        if cleaned and phrases and not _names_metric(cleaned):  # 'R1@0.3 and R1@0.5 scores': a shared head
            cleaned = f"{cleaned} {phrases[-1].split()[-1]}"
        if not phrase or not cleaned or not _names_metric(cleaned):
            return None
        phrases.insert(0, cleaned)
        start = text.rfind(phrase, floor, end)
        joint = _METRIC_AND.search(text, max(floor, start - 12), start) if len(phrases) < count else None
        if len(phrases) < count and not joint:
            return None
        end = joint.start() if joint else start
    return phrases


def _paired_metric_lists(text: str, doc: Document, drafts: list[_Draft]) -> None:
    """A list of numbers bound to a list of as many metrics takes them one each, in order."""
    for run in _number_lists(text, drafts):
        link = _LIST_LINK.search(text, max(0, run[0].q.start - 20), run[0].q.start) if len(run) >= 2 else None
        if not link:
            continue
        floor = doc.clause_of(run[0].q.start)[0]
        metrics = _metrics_listed_before(text, link.start(), floor, len(run))
        if metrics and len({m.lower() for m in metrics}) == len(run):
            for draft, metric in zip(run, metrics, strict=True):
                draft.metric, draft.firm = metric, True


# A character of the words between two numbers of one sentence: a digit only inside a word or a
# name ('ResNet - 50', '4-bit'), never a number of its own.
_BETWEEN_WORDS = r"(?:[^.;:\d]|(?<=[\w-])\d|(?<=-\s)\d|\d+-?(?=[^\W\d]))"
# '79.4% top-1 accuracy with M, which is a +1.8% absolute improvement over N': a relative clause
# that says what the number before it gains.
_WHICH_IS = re.compile(
    _BETWEEN_WORDS + r"{0,80}?,\s*which\s+(?:is|was|represents|amounts\s+to|"
    r"corresponds\s+to|means)\s+(?:(?:a|an)\s+)?" + _QUALIFIER + r"[+\u2212-]?\s*$",
    re.IGNORECASE,
)


_ASIDE_AFTER = re.compile(_BETWEEN_WORDS + r"{1,80}?\(\s*" + _QUALIFIER + r"[+\u2212-]?\s*$", re.IGNORECASE)


def _share_aside(text: str, drafts: list[_Draft]) -> None:
    """'cos stays in [0.12, 0.20], identical before and after tuning (0.1197 vs 0.1200)': numbers in
    an aside that names no measure, of the unit of the number before, restate that number's measure."""
    for a, b in pairwise(drafts):
        if b.firm or not (a.firm and a.metric) or a.q.unit != b.q.unit:
            continue
        aside = _ASIDE_AFTER.fullmatch(text, a.q.end, b.q.start)
        if aside and not _names_metric(aside.group()):
            b.metric, b.firm = a.metric, True


def _share_which_is(text: str, drafts: list[_Draft]) -> None:
    """A change a 'which is' clause states about the number before it is of that number's measure."""
    for a, b in pairwise(drafts):
        if not (a.metric and a.firm) or b.firm or b.kind != "change":
            continue
        if _WHICH_IS.fullmatch(text, a.q.end, b.q.start):
            b.metric, b.firm = a.metric, True
            b.benchmark = b.benchmark or a.benchmark


_APPOSED = re.compile(_IN_NAME + r"{0,80}?,\s*" + _QUALIFIER + r"[+\u2212-]?$", re.IGNORECASE)
_APPOSED_CHANGE = re.compile(
    r"(?:" + _IN_NAME + r"|\([^()]{0,20}\)){0,80}?,\s*(?:an?\s+)?(?:[\w-]+\s+)?"
    r"(?:improvement|gain|increase|reduction|decrease)\s+of\s+" + _QUALIFIER + r"[+\u2212-]?$",
    re.IGNORECASE,
)
_MORE_THAN = re.compile(
    r"\s*(?:[\w@-]+\s+){0,2}?(?:more|higher|better|less|lower|worse|fewer|above|below|ahead\s+of)\s+(?:than\b)?",
    re.IGNORECASE,
)


def _share_apposed_difference(text: str, drafts: list[_Draft]) -> None:
    """'we get 22.5 BLEU points in WMT 2014, 5.5 points more than M', 'an accuracy of 93.5 % on SST
    - 2 , an improvement of 1.2 % over the previous best': a difference set after a comma beside a
    number's phrase, with no verb of its own, says how far that number is ahead: same metric,
    same benchmark."""
    for a, b in zip(drafts, drafts[1:]):
        apposed = _APPOSED.fullmatch(text, a.q.end, b.q.start) and _MORE_THAN.match(text, b.q.end)
        if apposed or _APPOSED_CHANGE.fullmatch(text, a.q.end, b.q.start):
            if a.metric and not b.firm:
                b.metric, b.firm = a.metric, a.firm
            b.benchmark = b.benchmark or a.benchmark


_PAIR_OPEN = re.compile(r"\(\s*" + _QUALIFIER + r"$")
_PAIR_VERSUS = re.compile(r"\s*(?:vs\.?|versus)\s*" + _QUALIFIER)


def _versus_pairs_are_scores(text: str, drafts: list[_Draft]) -> None:
    """'improves over GPT-4o on MMLU (61.2% vs. 58.1%)': a pair set in parentheses states the two
    sides' scores, whatever change the clause around it names."""
    for a, b in zip(drafts, drafts[1:]):
        opened = _PAIR_OPEN.search(text, max(0, a.q.start - 12), a.q.start)
        if opened and _PAIR_VERSUS.fullmatch(text, a.q.end, b.q.start):
            for draft in (a, b):
                draft.kind, draft.direction = "score", None


# What stands between two coordinated pairs: words, a name's digits ('on WikiText - 103 , from').
_NEXT_PAIR = re.compile(
    r"(?:[^.;:\d]|(?<=[\w-])\d|(?<=-\s)\d){0,60}?(?:,\s*|\band\s+)from\s+" + _QUALIFIER, re.IGNORECASE
)


def _share_before_and_after(text: str, drafts: list[_Draft]) -> None:
    """'improves accuracy on ImageNet from 87.6% to 93.2%': the before and the after value are one
    measure taken twice, so they share its metric (the one bound before 'from' wins) and its
    benchmark, wherever the sentence writes them."""
    pairs = [(a, b) for a, b in zip(drafts, drafts[1:]) if a.q.form == "before" and b.q.form == "after"]
    for a, b in pairs:
        if a.metric and (a.firm or not b.firm):
            b.metric, b.firm = a.metric, a.firm
        elif b.metric:
            a.metric, a.firm = b.metric, b.firm
        a.benchmark = a.benchmark or b.benchmark
        b.benchmark = b.benchmark or a.benchmark
    # '... from 55.3% to 80.5% for M, and from 73.8% to 82.3% for N' (', from 1.13 to 1.08 on B'): a
    # pair coordinated with the one before keeps its measure (what it is on, it may restate: 'and
    # from 34.7% to 39.1% for the harder scenes').
    for (_, first_after), (before, after) in zip(pairs, pairs[1:]):
        if _NEXT_PAIR.fullmatch(text, first_after.q.end, before.q.start):
            for d in (before, after):
                if not d.metric:
                    d.metric, d.firm = first_after.metric, first_after.firm


# 'this improvement rises to 4%', 'the gain grows to 3.1 points': a change named by a pointing word
# as the subject of the number's clause.
_ANAPHOR = re.compile(
    r"\b(?:this|that|these|those|the|such)\s+(?:[\w-]+\s+)?(?:improvement|gain|gap|reduction|speed\s?-?\s?up|"
    r"margin|advantage|boost|drop|increase|decrease|saving)s?\s+(?:(?:\w+ly|further|even)\s+)?"
    r"(?:[a-z]+\s+){0,2}?(?:to|by|at|of|reaches|reached|is|was)?\s*" + _QUALIFIER + r"$",
    re.IGNORECASE,
)


def _share_anaphor(text: str, doc: Document, drafts: list[_Draft]) -> None:
    """'GenCLS achieves an accuracy improvement of 3.5% over SFT; on X, this improvement rises to
    4%': a change the clause points back to is measured like the change before it (same sentence
    or the one before), against the same baseline."""
    for index, draft in enumerate(drafts):
        if draft.firm or draft.kind != "change":
            continue
        clause = doc.clause_of(draft.q.start)
        if not _ANAPHOR.search(text, max(clause[0], draft.q.start - 60), draft.q.start):
            continue
        sentence = doc.sentence_of(draft.q.start)
        floor = doc.sentence_of(sentence[0] - 1)[0] if sentence[0] > 0 else 0
        source = next(
            (d for d in reversed(drafts[:index]) if d.q.start >= floor and d.kind == "change" and d.firm and d.metric),
            None,
        )
        if source:
            draft.metric, draft.firm = source.metric, True
            draft.baseline = draft.baseline or source.baseline


_COMPARED_TO = re.compile(
    _BETWEEN_WORDS + r"{0,80}?,\s*(?:(?:as\s+)?compared\s+(?:to|with)|relative\s+to|versus|vs\.?|against)\s*"
    r"(?:(?:a|an|the)\s+)?" + _QUALIFIER + r"$",
    re.IGNORECASE,
)


def _share_compared_value(text: str, drafts: list[_Draft]) -> None:
    """'GLM reaches 93.5% contrast-group accuracy at a high setting, compared with 81.5% at its
    lowest': the number a clause is compared with is measured like it, on the same benchmark."""
    for a, b in pairwise(drafts):
        if b.firm or not (a.firm and a.metric) or a.q.unit != b.q.unit:
            continue
        if _COMPARED_TO.fullmatch(text, a.q.end, b.q.start):
            b.metric, b.firm = a.metric, True
            b.benchmark = b.benchmark or a.benchmark


# The measure a comparing verb names without a number of its own: 'outperforms M in aggregate
# accuracy', 'improves test perplexity on A and B'.
_COMPARED_IN = re.compile(
    r"\b(?:outperform|surpass|exceed|beat|match|improv|trail|lag)\w*\b(?:[^,;:.\d]|\d+-?(?=[^\W\d]))"
    r"{0,80}?\bin\s+(?:terms\s+of\s+)?"
    r"(?:the\s+|its\s+|their\s+)?(?=[^\W\d])",
    re.IGNORECASE,
)


def _measure_of_the_predicate_before(
    text: str, sentence: tuple[int, int], q: Quantity
) -> tuple[str, int] | None:
    """The last measure a change verb or a comparing verb names in the sentence before ``q``, and
    where it ends."""
    found: tuple[str, int] | None = None
    for pattern in (_CHANGE_VERB, _COMPARED_IN):
        for verb in pattern.finditer(text, sentence[0], q.start):
            phrase = _phrase_after(text, verb.end(), q.start)
            measure = _measured(phrase[0]) if phrase else None
            if phrase and measure and _names_metric(measure) and (found is None or phrase[1] > found[1]):
                found = (measure, phrase[1])
    return found


# '..., reaching up to 70%': a participle that gives the level a change reached.
_REACHING = re.compile(
    r",\s*(?:\w+ly\s+)?(?:reach|achiev|attain|obtain)\w*\s+(?:(?:a|an)\s+)?" + _QUALIFIER + r"$", re.IGNORECASE
)


def _continue_the_predicate_measure(text: str, doc: Document, drafts: list[_Draft]) -> None:
    """'ADLM improves test perplexity on LM1B and OWT, achieving up to 25.4% gains', 'X outperforms
    Y in aggregate accuracy, and improves over Z on GSM8K by 20 points': a change in a participle
    or coordinated predicate that names no measure of its own is a change of the measure the
    sentence's comparison names before it, when no number of that measure stands between; so is
    the level a participle says it reached ('which increase accuracy, reaching up to 70%')."""
    for index, draft in enumerate(drafts):
        reached = _REACHING.search(text, max(0, draft.q.start - 40), draft.q.start)
        if draft.firm or not (draft.kind == "change" or reached):
            continue
        found = _measure_of_the_predicate_before(text, doc.sentence_of(draft.q.start), draft.q)
        if not found:
            continue
        measure, end = found
        between = text[end : draft.q.start]
        earlier = drafts[index - 1].q.end if index else -1
        if earlier < end and "," in between and not re.search(r"[;:]", between):
            draft.metric, draft.firm = measure, True


# A participle clause that compares ('..., surpassing TEAL by 1.77%'), or a relative clause that
# does ('... which surpass Focal Loss by 0.8'), attached to the clause before it, and nothing
# between but that clause's words.
_COMPARING_PARTICIPLE = re.compile(
    r"[^.;:]{0,80}?(?:,\s*(?:\w+ly\s+)?(?:while\s+)?(?:surpass|outperform|exceed|beat|improv|trail|lagg|outscor)"
    r"\w*ing|\s(?:which|that)\s+(?:\w+ly\s+)?(?:surpass|outperform|exceed|beat|trail|lag|outscor)\w*)"
    r"\b[^.;:\d]{0,80}$",
    re.IGNORECASE,
)
_LIST_ITEM = re.compile(r"\s*(?:,\s*)?(?:and\s+)?[^.;:,\d]{0,30}?\bby\s+" + _QUALIFIER + r"$", re.IGNORECASE)


def _compare_on_the_same_measure(text: str, drafts: list[_Draft]) -> None:
    """'X reaches 85% accuracy, surpassing Y by 2%': a comparing participle attached to a clause
    whose number has a metric states a change of that same measure (and so do the items of its
    list: 'surpassing TEAL by 1.77% and CATS by 17.14%')."""
    for a, b in zip(drafts, drafts[1:]):
        points = b.q.unit in ("points", "pp") and a.q.unit in (None, "%")  # '24.4 BLEU, ... by 1.1 points'
        if b.metric or not a.metric or not a.firm or not (a.q.unit == b.q.unit or points) or b.kind != "change":
            continue
        gap = text[a.q.end : b.q.start]
        if _COMPARING_PARTICIPLE.match(gap) or (a.kind == "change" and _LIST_ITEM.fullmatch(gap) and a.compared_on):
            b.metric, b.firm, b.compared_on = a.metric, True, True


def _compare_on_the_same_benchmark(text: str, drafts: list[_Draft]) -> None:
    """'achieves 24.40 BLEU on A, outperforming the state of the art by 1.1 points and 24.54 BLEU
    on B': a comparing participle's change is measured where the clause it joins is, unless it
    is reported on a benchmark of its own."""
    for a, b in zip(drafts, drafts[1:]):
        joined = _COMPARING_PARTICIPLE.match(text, a.q.end, b.q.start)
        if joined and a.benchmark and not b.own_benchmark and b.kind == "change":
            b.benchmark = a.benchmark


def _benchmark_in_metric(
    text: str, metric: str | None, benchmarks: list[Mention], sentence: tuple[int, int], q: Quantity
) -> str | None:
    """A benchmark written in the number's own metric phrase ('GSM8K accuracy by 3.1 points'):
    it wins over one named after the number for another."""
    if not metric:
        return None
    for m in benchmarks:
        surface = text[m.start : m.end]
        if sentence[0] <= m.start < q.start and surface != metric and re.search(
            r"(?<![\w-])" + re.escape(surface) + r"(?![\w-])", metric
        ):
            return m.name
    return None


# A predicate of its own after the last number ('9x faster , and achieves a higher mAP on X').
_NEXT_PREDICATE = re.compile(
    r"(?:,\s*|\band\s+)(?:\w+ly\s+)?(?:" + alternation(_RESULT_VERBS) + r")\w*", re.IGNORECASE
)
# What introduces the benchmark that closes a sentence: 'on the COCO dataset .', 'on COCO )'.
_CLOSING_ON = re.compile(r"\b(?:on|in)\s+(?:the\s+)?$", re.IGNORECASE)
_CLOSING_END = re.compile(r"\s*(?:(?:benchmark|dataset|test\s+set|corpus)s?\s*)?\)?\s*[.;]?\s*$", re.IGNORECASE)


def _benchmark_closing(
    text: str, drafts: list[_Draft], benchmarks: list[Mention], sentence: tuple[int, int]
) -> None:
    """'SNIPER processes 30 % more pixels ... at 800x1333 pixels on the COCO dataset .',
    'improving the efficiency by 6.0x and the AP by 1.0 % on COCO .': the one benchmark a sentence
    closes with, 'on' it, is where every result of the sentence that names none is measured."""
    inside = [d for d in drafts if sentence[0] <= d.q.start < sentence[1]]
    named = [m for m in benchmarks if sentence[0] <= m.start and m.end <= sentence[1]]
    if not inside or len({m.name for m in named}) != 1:
        return
    last = named[-1]
    if any(d.benchmark not in (None, last.name) for d in inside):
        return
    if (
        last.start < inside[-1].q.end
        or not _CLOSING_ON.search(text, max(sentence[0], last.start - 10), last.start)
        or not _CLOSING_END.fullmatch(text, last.end, sentence[1])
        or _NEXT_PREDICATE.search(text, inside[-1].q.end, last.start)
    ):
        return
    for d in inside:
        d.benchmark = last.name


def _benchmark_of(
    text: str, q: Quantity, benchmarks: list[Mention], clause: tuple[int, int], sentence: tuple[int, int], following: int
) -> tuple[str | None, bool]:
    """The number's benchmark, and whether the number is reported 'on' it itself."""
    own = _benchmark_after(text, q, benchmarks, min(sentence[1], following))
    if own:
        return own, True
    # 'On MMLU, X reaches 61.2%; on GSM8K, it reaches 85.3%': a fronted phrase places its clause
    opening = max(sentence[0], text.rfind(";", sentence[0], q.start) + 1)
    while opening < q.start and text[opening].isspace():
        opening += 1
    return (
        _benchmark_before(text, q, benchmarks, clause[0])
        or _benchmark_fronted(text, benchmarks, (opening, sentence[1]), q)
        or _benchmark_heading(text, benchmarks, sentence, q)
        or _benchmark_in_sentence(text, q, benchmarks, sentence)
    ), False


_THE_MODEL = re.compile(r"\b(?:the|this)\s+model\s+(?:\w+ly\s+)?[a-z]{3,}(?:s|ed)\b", re.IGNORECASE)


def _the_model(
    text: str, sentence: tuple[int, int], q: Quantity, subjects: Subjects
) -> tuple[str | None, str | None] | None:
    """'We probe Gemma-2B ... the model detects fake entities (AUC = 1.000)': in a paper that
    proposes no method, 'the model' acting in the sentence is the one model it has named."""
    if subjects.proposed or not _THE_MODEL.search(text, sentence[0], q.start):
        return None
    named = {m.name for m in subjects.models if m.end <= q.start}
    return (None, named.pop()) if len(named) == 1 else None


def _subject_of(
    text: str,
    q: Quantity,
    sentences: tuple[tuple[int, int], tuple[int, int] | None],
    limit: int,
    subjects: Subjects,
    baseline: str | None,
) -> tuple[str | None, str | None, bool]:
    """(method, model, compared): compared when the number is the second of a comparison and
    its subject is named after it. A sentence with no subject of its own before the number goes
    on from the one before it ('We propose X. This gives 11.0 points')."""
    sentence, previous = sentences
    if q.form == "before":
        return baseline, None, False  # 'from A to B': A is the baseline's
    method, model = _subject_in_parens(text, q, subjects)
    if method or model:
        return method, model, False
    reference = _REFERENCE_AFTER.match(text, q.end, limit)
    if (
        reference
        and _ARTICLE_BEFORE.search(text, max(0, q.start - 8), q.start)
        and not _STOP.intersection(reference.group("name").lower().split())
    ):
        return reference.group("name"), None, True
    compared = _COMPARED_NUMBER.search(text, max(sentence[0], q.start - 30), q.start)
    if compared:
        named = _subject_named_after(text, q, limit, subjects)
        if named:
            return (None, named, True) if MODEL_FAMILIES.match(named) else (named, None, True)
        if _VERSUS.search(compared.group()):
            other = _compared_before(text, sentence, q, subjects)
            if other:  # 'improves over GPT-4o on MMLU (61.2% vs. 58.1%)': the second is GPT-4o's
                return (other.name, None, True) if other in subjects.methods else (None, other.name, True)
            described = _compared_description(text, sentence, q)
            if described:  # 'X can surpass autoregressive models -- achieving 36.5 vs. 52.1'
                return described, None, True
            return None, None, False  # '-0.15 vs. -0.12': the second is the unnamed other's
    found = (
        _subject_before(text, q.start, sentence, subjects)
        or _participle_subject(text, q, sentence, subjects)
        or _opening_subject(text, sentence, q, subjects)
    )
    if found is None:
        found = _the_model(text, sentence, q, subjects)
    if found is None and previous is not None:
        found = _subject_before(text, previous[1], previous, subjects)
    method, model = found or (None, None)
    if method == subjects.proposed and _ABLATION.search(text, sentence[0], q.start):
        method = None  # 'an ablation without the gate reaches 70.1%' is not the proposed method's
    if method and not model:
        model = _model_ran_on(text, sentence, q, subjects.models)
    elif not method and not model:
        model = _model_ran_on(text, sentence, q, subjects.models, fronted=True)
    if not model:
        model = _model_measured_on(text, q, limit, subjects.models)
    return method, model, False


# A number inside a noun phrase a reference noun heads is that reference's: 'climbs to 61% (from a
# 48% pre-RL baseline)', 'over a 70.2% supervised baseline'.
_REFERENCE_AFTER = re.compile(
    r"\s+(?P<name>(?:[\w-]+\s+){0,3}?(?:baseline|reference|checkpoint)s?)"
    r"(?=\s*[),;.]|\s*$|\s+(?:on|in|at|for|and|while)\b)",
    re.IGNORECASE,
)


_ARTICLE_BEFORE = re.compile(r"\b(?:a|an|the)\s+$", re.IGNORECASE)


# What a clause names as the other side of its comparison ('improves over GPT-4o', 'than M').
_OTHER_SIDE_WORDS = r"\b(?:over|than|against|outperform\w*|surpass\w*|beat\w*|exceed\w*)\s+(?:the\s+)?"
_OTHER_SIDE = re.compile(_OTHER_SIDE_WORDS + "$", re.IGNORECASE)
_OTHER_SIDE_ANY = re.compile(_OTHER_SIDE_WORDS, re.IGNORECASE)


def _compared_before(text: str, sentence: tuple[int, int], q: Quantity, subjects: Subjects) -> Mention | None:
    """The name the sentence compares its result with, written before the number."""
    named = [
        m
        for m in (*subjects.methods, *subjects.models)
        if sentence[0] <= m.start < q.start
        and _OTHER_SIDE.search(text, max(sentence[0], m.start - 16), m.start)
    ]
    return max(named, key=lambda m: m.start) if named else None


def _compared_description(text: str, sentence: tuple[int, int], q: Quantity) -> str | None:
    """The other side of the comparison as the text describes it when it names none."""
    found = list(_OTHER_SIDE_ANY.finditer(text, sentence[0], q.start))
    return _clean_name(text, found[-1].end(), q.start) if found else None


# 'from A to B for M': the number B ends, then the name A and B were measured for.
_TO_FOR = re.compile(r"\s*to\s+" + _QUALIFIER + r"[\d.,]+\s*(?:\\?%|[a-zA-Z]{1,3}\b)?\s+for\s+(?:the\s+)?", re.IGNORECASE)
# What a sentence compares its result with before 'from A to B' ('improvements over the state of
# the art, increasing accuracy from ...', 'Compared to approaches like MosaicFusion, ...').
_COMPARED_WITH = re.compile(
    r"\b(?:over|compared\s+(?:to|with)|relative\s+to|than)\s+(?:the\s+|a\s+|an\s+)?"
    r"(?P<b>[^,;:()\d][^,;:()]{0,60}?)(?=\s*[,;:(]|\s+(?:on|in|at|by|while|when|which|where|and|to|is|are)\b)",
    re.IGNORECASE,
)
_EXAMPLE = re.compile(r"\s+(?:like|such\s+as|including)\s+", re.IGNORECASE)
# The record a sentence improves from A to B ('we improve the state - of - the - art ( SoTA )
# results of bpc from 1.06 to 0.99', 'improving the best published NLL from 3.83 to 3.77'): A is
# that record's.
_IMPROVED_RECORD = re.compile(
    r"\bimprov\w*\s+(?:(?:on|upon)\s+)?(?:the\s+)?"
    r"(?P<b>(?:current\s+|previous\s+)?(?:state\s-\sof\s-\sthe\s-\sart|"
    r"state-of-the-art|state\s+of\s+the\s+art|best\s+published|best\s+reported|previous\s+best|SoTA)"
    r"(?:\s*\(\s*SoTA\s*\))?)(?=\s)[^.;:\d]{0,80}\bfrom\s",
    re.IGNORECASE,
)


# A baseline the sentence names before 'from A to B': 'Using 26% of the budget of baseline models,
# we reduce perplexity from 25.7 to 21.9'.
_BASELINE_NAMED = re.compile(
    r"\b(?P<b>(?:(?!(?:of|the|a|an|our|their|its|to|for|on|in|over|than|with)\b)[\w-]+\s+)?baselines?"
    r"(?:\s+models?|\s+methods?|\s+systems?)?)\b",
    re.IGNORECASE,
)


def _starting_condition(text: str, q: Quantity, sentence: tuple[int, int], subjects: Subjects) -> str | None:
    """Whose the A of 'from A to B' is when the sentence names the starting point: the system
    both are measured for ('from 55.3% to 80.5% for CaffeNet'), the model whose measure changes
    ('improves the accuracy of Qwen-2.5 ..., increasing it from 19.0% to 35.5%'), or what the
    result is compared with ('improvements over the state of the art, increasing accuracy from
    71.2% to 74.4%')."""
    named = (*subjects.methods, *subjects.models)
    after = _TO_FOR.match(text, q.end, sentence[1])
    if after:
        for m in named:
            if m.start == after.end():
                return m.name
        name = _clean_name(text, after.end(), sentence[1])
        if name and coined(name):
            return name
    for m in subjects.models:
        if sentence[0] <= m.start < q.start and text[max(0, m.start - 4) : m.start].lower().rstrip() == " of":
            return m.name
    compared = list(_COMPARED_WITH.finditer(text, sentence[0], q.start))
    if compared:
        return _clean_phrase(_EXAMPLE.split(compared[-1].group("b"))[-1])
    record = _IMPROVED_RECORD.search(text, sentence[0], q.start)
    if record:
        return record.group("b")
    named = list(_BASELINE_NAMED.finditer(text, sentence[0], q.start))
    return named[-1].group("b") if named else None  # 'with 26% of the budget of baseline models, ...'


def _past_math(text: str, q: Quantity) -> Quantity:
    """'$80.3\\%$ zero-shot ImageNet-1k accuracy': the words bound to a number written in inline
    math start after the math closes."""
    return replace(q, end=q.end + 1) if text[q.end : q.end + 1] == "$" else q


def _in_name(q: Quantity, names: list[Mention]) -> bool:
    """A version written apart from its name ('FlowNet 2.0 is ...', 'on VQA v2.0') is part of a
    method or benchmark the rules found, not a result."""
    return any(m.start <= q.start and q.end <= m.end for m in names)


def build_claims(
    doc: Document,
    readings: list[Reading],
    mentions: list[NumberMention],
    benchmarks: list[Mention],
    subjects: Subjects,
) -> list[ClaimDraft]:
    """A claim for every quantity read as a result, with what its sentence says about it."""
    text = doc.text
    names = [*subjects.methods, *benchmarks]
    results = [
        _past_math(text, r.quantity) for r in readings if r.role == CLAIM and not _in_name(r.quantity, names)
    ]
    drafts: list[_Draft] = []
    benchmark_keys = {name_key(b.name) for b in benchmarks}
    for index, q in enumerate(results):
        clause = doc.clause_of(q.start)
        sentence = doc.sentence_of(q.start)
        following = results[index + 1].start if index + 1 < len(results) else len(text)
        limit = min(clause[1], following)
        kind, direction = kind_of(doc, q, clause)
        metric, firm = metric_of(doc, q, clause, sentence, limit)
        benchmark, own_benchmark = _benchmark_of(text, q, benchmarks, clause, sentence, following)
        if metric and benchmark and name_key(metric) == name_key(benchmark):
            metric, firm = None, False  # 'GSM8K: 85.3' labels the number with where, not what
        named = _benchmark_in_metric(text, metric, benchmarks, sentence, q)
        if named:  # 'improves GSM8K accuracy by 3.1 points and MATH accuracy by 4.2 points'
            benchmark, own_benchmark = named, True
        kind, direction = _kind_of_gap(text, q, clause, metric, (kind, direction))
        baseline = _baseline(text, q, clause) if kind == "change" or q.form == "before" else None
        if q.form == "before" and baseline is None:
            baseline = _starting_condition(text, q, sentence, subjects)
        previous = doc.sentence_of(sentence[0] - 1) if sentence[0] > 0 else None
        method, model, compared = _subject_of(text, q, (sentence, previous), limit, subjects, baseline)
        if not firm and metric == method:
            metric = None  # 'a 70.2% supervised baseline' names whose the number is, not what
        if method and name_key(method) in benchmark_keys:
            method = None  # 'The accuracies on MNIST and SVHN are ...': where, never who
        drafts.append(
            _Draft(q, metric, firm, benchmark, own_benchmark, method, model, baseline, kind, direction, compared)
        )
    _parallel_lists(text, drafts, benchmarks)
    _benchmarks_referred_to(text, drafts, benchmarks)
    _changes_leading_to_results(text, drafts)
    for sentence in doc.sentences:
        _respectively(text, drafts, benchmarks, sentence)
        _respective_subjects(text, drafts, subjects, sentence)
        _numbers_for_names(text, drafts, subjects, sentence)
        _benchmark_closing(text, drafts, benchmarks, sentence)
    _share_aside(text, drafts)
    _share_lists(text, drafts)
    _paired_metric_lists(text, doc, drafts)
    _share_by_lists(text, drafts)
    _share_before_and_after(text, drafts)
    _share_restatement(text, drafts)
    _share_apposed_difference(text, drafts)
    _share_which_is(text, drafts)
    _versus_pairs_are_scores(text, drafts)
    _compare_on_the_same_measure(text, drafts)
    _compare_on_the_same_benchmark(text, drafts)
    for sentence in doc.sentences:
        _benchmarks_together(text, drafts, benchmarks, sentence)
    _share_anaphor(text, doc, drafts)
    _share_compared_value(text, drafts)
    _continue_the_predicate_measure(text, doc, drafts)
    for a, b in zip(drafts, drafts[1:]):
        other = b.method or b.model
        if b.compared and not a.compared and other and other != (a.method or a.model) and a.baseline is None:
            a.baseline = other  # '79.8%, compared to 77.2% for M': M is 79.8's baseline
    return [
        ClaimDraft(
            value=d.q.value,
            value_max=d.q.value_max,
            unit=_unit(d.q),
            metric=d.metric,
            benchmark=d.benchmark,
            method=d.method,
            model=d.model,
            baseline=d.baseline,
            setting=_setting(readings, text, doc.clause_of(d.q.start))
            or _setting(readings, text, doc.sentence_of(d.q.start)),
            kind=d.kind,
            direction=d.direction,
            evidence=_evidence(doc, d.q, mentions),
        )
        for d in drafts
    ]
