"""The noun phrases and verbs every attribute is read from: the phrase after or before a number
(up to five words, ending at a function word, a verb or punctuation), cleaned of praise and of a
change noun, whether it names a metric (generic words such as ``score`` or ``performance`` never
do), and the patterns several attributes share.
"""

from __future__ import annotations

import re

from extractor.catalog.registry import metric_entry
from extractor.rules.document import AsciiFirst
from extractor.rules.vocabulary import METRIC_PATTERN, METRIC_WORDS, RESULT_VERBS, alternation

# A word; tokenized text spells 'F-measure' and 'top-1' apart ('f - measure', 'top - 1'). A
# LaTeX dash ('--') joins a compound ('teacher--student') but sets off a participle's clause
# ('99.6% safety rate--exceeding ...').
_WORD = AsciiFirst(
    r"(?:state\s-\sof\s-\sthe\s-\sart|[^\W\d_](?:[\w@^.+'/]|-(?!-[a-z]+(?:ing|ed)\b))*[\w@+]|[^\W\d_]|\d[\w@.-]*[^\W\d_][\w@.-]*)(?:\s-\s(?!(?:a|an|the)\b)[\w@+]+)*"
)
# Words a metric phrase never holds: they end it.
STOP = frozenset(
    """
    on in at for with over than and or while whilst whereas but compared vs vs. versus relative across
    under when using of to by from is are was were be been being has have had that which who where
    as after before per between within without among against via respectively both each all its
    their our the a an this these those it we up nearly about around approximately roughly only
    just more less fewer lower higher better worse faster slower smaller larger earlier
    while yet not no also above below behind ahead
    """.split()
)
# Verbs that are also nouns ('gain', 'cost', 'drop'): they end a noun phrase, never open a clause.
_NOUN_VERBS = (
    r"lower|cut|set|show|lead|use|rank|drop|rise|stay|mak|tak|cost|enabl|allow|produc|lift|enhanc|"
    r"demonstrat|indicat|reveal|bring|score|gain|los(?=e|ing|t)|rose|grew|grow|declin|degrad|run|"
    r"find|found|observ|report|confirm"
)
# The endings a verb stem takes ('reach' -> 'reaches', 'cut' -> 'cutting').
VERB_ENDING = r"(?:e|es|ed|d|s|t|ing|ting|ning|ped|ping|ted)?"
# A word that is a verb, a result verb or a noun-verb with its ending: it ends a noun phrase.
VERB = re.compile(r"(?:" + alternation(RESULT_VERBS + "|" + _NOUN_VERBS) + r")" + VERB_ENDING + r"$")
# A verb that is also a noun ('gain', 'costs'): it may head a noun phrase.
NOUN_VERB = re.compile(r"(?:" + alternation(_NOUN_VERBS) + r")(?:e|es|s)?$")
# Words that are never a metric on their own (ANNOTATION.md: 'score', 'performance').
_GENERIC = frozenset(
    """
    score scores performance performances result results improvement improvements gain gains
    average overall relative absolute mean value values margin margins boost boosts increase
    increases reduction reductions drop drops quality points point percentage percent gap gaps
    state-of-the-art sota best new art factor factors
    """.split()
)  # 'art': the tail of 'a new state of the art of 85.3%'
# A change noun at the end of a phrase names the change, not what changed.
CHANGE_NOUNS = frozenset(
    "improvement improvements gain gains boost boosts increase increases reduction reductions "
    "drop drops margin margins lift lifts uplift uplifts savings saving decrease decreases advantage advantages".split()
)
# Words after a metric's name that are not part of it: the change it names, its reference and
# the unit of a score written after the name ('accuracy improvement', '2.5 F1 absolute', '10 F1
# points').
_TRAILING = CHANGE_NOUNS | {"absolute", "relative", "points", "point", "pts"}
_METRIC_WORDS = METRIC_WORDS - _GENERIC


# Words of speed: a multiplier or a change they name is a speedup, not a score.
SPEED = re.compile(r"speed|faster|throughput|latency|accelerat", re.IGNORECASE)


def _function_case(word: str) -> str:
    """The word as the stop and verb lists read it: an acronym in capitals is a name, never a
    function word or a verb ('PER' is the phoneme error rate, 'ARE' no verb)."""
    return word if len(word) > 1 and word.isupper() else word.lower()


# What follows the head noun of a changed quantity ('API costs by', 'training costs from').
_HEAD_END = re.compile(r"\s+(?:by|from|to|of)\b|\s*[,;.)]")


# Nouns of quantity whose 'of' phrase says what they count ('the number of parameters').
_COUNTING_HEADS = frozenset({"number", "amount", "fraction", "proportion", "percentage", "share", "count"})


def phrase_after(text: str, position: int, limit: int) -> tuple[str, int] | None:
    """The noun phrase that starts at ``position``: up to five words, ending at punctuation, a
    function word or a verb."""
    picked: list[re.Match] = []
    for word in _WORD.finditer(text, position, limit):
        gap = text[picked[-1].end() if picked else position : word.start()]
        if gap.strip() or len(picked) == 5:
            break
        lower = _function_case(word.group())
        if lower == "of" and picked and picked[-1].group().lower() in _COUNTING_HEADS:
            picked.append(word)  # 'the number of parameters': what is counted belongs to the phrase
            continue
        if lower in STOP or lower.endswith("ly"):
            break
        if picked and VERB.match(lower) and metric_entry(text[picked[0].start() : word.end()]) is None:
            if NOUN_VERB.match(lower) and _HEAD_END.match(text, word.end()):
                picked.append(word)  # a noun that is also a verb heads it ('reduces API costs by 84%')
            break  # a verb ends the phrase, unless it completes a metric's name ('exact match')
        if not picked and VERB.match(lower) and not NOUN_VERB.match(lower):
            break  # nor does a verb open one ('a proportion of 4.1% captures 90%')
        picked.append(word)
    if not picked:
        return None
    return text[picked[0].start() : picked[-1].end()], picked[-1].end()


def phrase_before(text: str, floor: int, end: int) -> str | None:
    """The noun phrase that ends at ``end`` (up to five words back, stopping at a function word,
    a verb or punctuation)."""
    picked: list[re.Match] = []
    for word in reversed(list(_WORD.finditer(text, max(floor, end - 80), end))):
        gap = text[word.end() : picked[0].start() if picked else end]
        if gap.strip() or len(picked) == 5:
            break
        lower = _function_case(word.group())
        # the head, or the word before a change noun at the head ('BLEU score increase of')
        head = all(p.group().lower() in CHANGE_NOUNS for p in picked)
        verb = VERB.match(lower) and not (head and (NOUN_VERB.match(lower) or lower in CHANGE_NOUNS))
        if lower in STOP or lower.endswith("ly") or verb:
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


def clean_metric(phrase: str | None) -> str | None:
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


def names_metric(phrase: str) -> bool:
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


# Hedges a number may be written after ('up to', 'about', 'more than', '~'), zero or more.
QUALIFIER = (
    r"(?:(?:up\s+to|about|around|approximately|approx|roughly|nearly|almost|only|just|over|more\s+than|"
    r"less\s+than|below|above|at\s+least|at\s+most|(?:an\s+)?average\s+of|~|\\sim|sim)\s*)*"
)


# A character of the words between a number and what binds to it: a digit only inside a name
# ('CIFAR-10', tokenized 'CIFAR - 10'), never a number of its own.
GAP_CHAR = r"(?:[^,;:()\d]|(?<=[\w-])\d|(?<=-\s)\d|(?<=[A-Z]\s)\d)"


# The head noun a name is written before: 'the PTv3 model', 'the FooNet-L variant'.
HEADED_NAME = re.compile(
    r"\s+(?:model|method|approach|algorithm|system|framework|variant|network|agent|architecture|pipeline|policy)s?$",
    re.IGNORECASE,
)
