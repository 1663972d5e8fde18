"""A result's **subject** (ANNOTATION.md, "Attribution"): ``for M`` after a compared number
(``compared to 77.2% for M``), ``M (-16.5%)``, else the nearest subject of a verb before the
number: a method or a model named there, or ``we`` / ``our method`` / ``it`` / ``the proposed X``,
which stand for the paper's proposed method.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from extractor.text.name_keys import name_key
from extractor.rules.attribution.phrases import (
    HEADED_NAME,
    QUALIFIER,
    STOP,
    VERB,
    VERB_ENDING,
    names_metric,
    phrase_after,
    phrase_before,
)
from extractor.rules.chunks import chunk_ending, coined, name_like
from extractor.rules.quantities import Quantity
from extractor.rules.document import AnyCase, AsciiFirst, Mention
from extractor.rules.table import Construction, Example, Table
from extractor.rules.vocabulary import BEATING_STEMS, MODEL_FAMILIES, RESULT_VERBS, alternation

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
        RESULT_VERBS
        + r"|introduc|propos|present|develop|us(?=e|es|ed)|appl(?:y|ies|ied|ying)|sets|eliminat|remov"
        + r"|cut(?=s\b|ting)"
    )
    + r")"
    + VERB_ENDING
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
# Before a verb's form, what makes it a noun or an adjective: an article, a possessive or a
# preposition, with only numbers and degree words after it ('a 3x increase', 'the more recently
# developed X', 'in speed').
_NOUN_POSITION = re.compile(
    r"(?<![\w-])(?:a|an|the|its|their|our|in|of|on|for|with|at|from|into|than)\s+"
    r"(?:(?:[\d.]+\s*(?:%|x|\\times|times|-?fold)?|more|most|less|least|\w+ly)\s+)*$",
    re.IGNORECASE,
)
# What may stand between a subject and its verb: adverbs, a relative pronoun, a parenthesis,
# 'with ...' ('AL8 with uniform 8-bit momentum reaches'; after a comma, 'with' opens a clause of
# its own: ', with GPT-4o reaching 45%'), a modal ('X can far surpass', 'X can
# be made 12% more efficient').
_BEFORE_VERB = AsciiFirst(
    r"(?=[\s(,]|$)"  # every part opens with a space, '(' or ',': other places are skipped at once
    r"(?:\s*\([^()]{0,60}\))?(?:(?<!,)\s+with\s+[^,;()]{1,40}?)?(?:\s*,?\s+(?:that|which|who))?"
    r"(?:\s+(?:\w+ly|also|further|still|only|not\s+only|even|then|thus|both|consistently|far|"
    r"can|cannot|could|may|might|will|would|should|must))*\s*$",
    re.IGNORECASE,
)
# The common noun a name is written before, perhaps with a word of its own ('the BAI-MCTS
# algorithm achieves', 'the PTv3 model had', 'AKG kernel agent achieves'): the name is the
# subject, the noun only says what kind of thing it is.
_NAME_HEAD = re.compile(
    r"\s+(?:[a-z][\w-]*\s+)?(?:algorithm|method|model|framework|approach|system|architecture|network|pipeline|agent|"
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
    + QUALIFIER + r"$",
    re.IGNORECASE,
)


_VERSUS = re.compile(r"\b(?:vs\.?|versus)", re.IGNORECASE)
# An ablation's number is not the proposed method's; variants of the method itself are its own
# ('the two variants of the proposed approach obtain ...').
_ABLATION = AsciiFirst(r"\b(?:ablat\w*|variants?(?!\s+of\s+(?:the\s+proposed|our)\b)|w/o)\b", re.IGNORECASE)


#: The subject of a number the paper's own proposed method achieves when the paper never names
#: that method ('We propose a ... network. Our model reaches 81.1 F1'): it stands in for the name
#: while a claim is read, and the claim says ``proposed`` with no method (contract v3). Never text.
UNNAMED_PROPOSED = "\u2063the proposed method\u2063"
# A paper that brings a method of its own, named or not: 'we propose / introduce / present ...',
# 'this study presents ...', 'by proposing a new method', 'the proposed architecture reduces ...',
# 'our approach represents ...'.
PROPOSES = AsciiFirst(
    r"\b(?:we\s+(?:\w+ly\s+)?(?:propose|introduce|present|develop|design|devise|build)|"
    r"(?:this|the)\s+(?:paper|work|article|study|research)\s+(?:\w+ly\s+)?(?:proposes|introduces|presents|develops)|"
    r"proposing\s+an?|(?:the|our)\s+(?:proposed|new)\s+(?:[\w-]+\s+)?(?:method|approach|framework|model|system|architecture|algorithm|technique)s?|"
    r"(?:is|are)\s+proposed|"
    r"our\s+(?:[\w-]+\s+){0,2}?(?:method|approach|framework|model|system|technique|algorithm|architecture|pipeline)s?)\b",
    re.IGNORECASE,
)

#: A proposed-method construction: from the abstract and the names of the paper's own methods
#: (in the order the rules rank them), the proposed method, or None.
ProposedConstruction = Callable[[str, tuple[str, ...]], "str | None"]


def _first_own_name(abstract: str, own: tuple[str, ...]) -> str | None:
    return own[0] if own else None


def _unnamed_proposed(abstract: str, own: tuple[str, ...]) -> str | None:
    return UNNAMED_PROPOSED if PROPOSES.search(abstract) else None


#: Which method is the paper's own (contract v3): the constructions :func:`proposed_method`
#: tries, in order.
PROPOSED: Table[ProposedConstruction] = Table(
    "proposed method",
    "a name wins over no name: the first of the paper's own methods (a name only the title writes "
    "among them, first), else an unnamed method when the paper says it brings one; a paper that "
    "does neither proposes nothing",
    (
        Construction(
            'first-own-name',
            _first_own_name,
            "the method the contribution cues name first (or the title's name) is the paper's",
            (
                Example('We propose FooNet, a sparse decoder. Our model reaches 81.1 F1 on SQuAD.', 'FooNet', 'method'),
            ),
        ),
        Construction(
            'unnamed-proposed',
            _unnamed_proposed,
            "'We propose a novel attention network. Our model reaches ...', 'this study presents', 'by proposing a', 'the proposed architecture reduces ...': a method the paper brings but never names is still its own",
            (
                Example('We propose a novel attention network. Our model reaches 81.1 F1 on SQuAD.', True, 'proposed'),
                Example('In this study, we focus on sparse decoders. Results show that the proposed architecture reduces latency by 19%.', True, 'proposed'),
                Example('We test this claim by proposing a new tagger. We obtain an F1 of 91.9 on CoNLL-2003.', True, 'proposed'),
            ),
        ),
    ),
)


def proposed_method(abstract: str, own: tuple[str, ...]) -> str | None:
    """The paper's proposed method (:data:`UNNAMED_PROPOSED` for one it never names): the first
    construction of :data:`PROPOSED` that gives one, else None."""
    return next((f for c in PROPOSED.entries if (f := c.run(abstract, own)) is not None), None)


@dataclass(frozen=True)
class Subjects:
    """The names that can be a number's subject, the paper's proposed method (its name, or
    :data:`UNNAMED_PROPOSED` for one the paper never names), and the names that are measures (a
    name the paper gives a metric is what a number measures, never who)."""

    methods: list[Mention]
    models: list[Mention]
    proposed: str | None
    measures: frozenset[str] = frozenset()

    def role(self, mention: Mention) -> tuple[str | None, str | None]:
        """(method, model) for a subject named by ``mention``: one of the methods, else a model."""
        return (mention.name, None) if mention in self.methods else (None, mention.name)


def _by_family(name: str) -> tuple[str | None, str | None]:
    """(method, model) for a subject named by text alone: a model family's name is a model."""
    return (None, name) if MODEL_FAMILIES.match(name) else (name, None)


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


_ACRONYM_BEFORE = re.compile(r"\s*\([^()]{1,24}\)$")


def _named_at(end: int, subjects: Subjects) -> Mention | None:
    return next((m for m in (*subjects.methods, *subjects.models) if m.end == end), None)


def _resolve(text: str, floor: int, end: int, subjects: Subjects) -> tuple[str | None, str | None] | None:
    """(method, model) of the subject that ends at ``end``; None when the words there are no
    subject (a list of predicates goes on), (None, None) when the subject is unnamed."""
    if end <= floor:
        return None
    if _CONJOINED.search(text, max(floor, end - 4), end) and not _named_at(end, subjects):
        return None  # a name may end with its version ('Claude Haiku 4.5 reaches'), a list never
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
            and not any(VERB.match(w) or w in STOP for w in words[1:])
        ):
            name = family.group("name")  # 'we show that Masked diffusion models can be made 12% ...'
            return _by_family(name)
        unnamed = (
            _UNNAMED.search(text, max(floor, end - 60), end)
            or _BARE_SUBJECT.fullmatch(text, floor, end)
            or _CLAUSE_BARE.search(text, max(floor, end - 60), end)
        )
        headed = HEADED_NAME.search(text, max(floor, end - 40), end) if unnamed else None
        named = _named_at(headed.start(), subjects) if headed else None
        if named and unnamed.start() <= named.start:  # 'the PTv3 model had an mIoU of 91.35%'
            return subjects.role(named)
        coined_name = chunk_ending(text, unnamed.start(), headed.start()) if headed else None
        definite = coined_name and re.fullmatch(r"the\s+", text[unnamed.start() : coined_name[1]], re.IGNORECASE)
        if coined_name and definite and coined(coined_name[0]):
            return _by_family(coined_name[0])
        return (None, None) if unnamed else None
    name = re.split(r"\s+on\s+", chunk[0])[0]  # 'the accuracy of FooNet on GSM8K is ...'
    if name_key(name) in subjects.measures or names_metric(name.split()[-1]):
        return None  # 'strong F1 scores', 'a 2.6% mAP boost': a metric's name is what, not who
    for m in subjects.methods:  # 'Kronecker' for 'Kronecker Embeddings'
        if m.name.lower().startswith(name.lower()):
            return m.name, None
    return _by_family(name)


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
        if _NOUN_POSITION.search(text, max(sentence[0], verb.start() - 30), verb.start()):
            continue  # 'a 3x increase in speed', 'the more recently developed Co-DETR': no verb
        if _PASSIVE.search(text, max(sentence[0], verb.start() - 16), verb.start()):
            agent = _BY_AGENT.match(text, verb.end())
            named = [m for m in (*subjects.methods, *subjects.models) if agent and m.start == agent.end()]
            if named:
                return subjects.role(named[0])
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
        if found == (None, None) and names_metric(phrase_before(text, sentence[0], end) or ""):
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
NAMES_GAP = re.compile(r"\s*(?:,\s*(?:and\s+)?|and\s+)(?:the\s+)?(?:[A-Z][\w-]*\s+)?")
_APPOSITIVE_OPEN = re.compile(r"[^\s,;(]\s*,\s*(?:(?:called|named|dubbed|termed)\s+)?(?:[A-Z][\w-]*\s+)?$")


def name_chain(text: str, last: Mention, named: list[Mention]) -> list[Mention]:
    """The names coordinated up to ``last`` ('A, B and C'), in the order written."""
    chain = [last]
    while previous := [
        m for m in named if m.end <= chain[0].start and NAMES_GAP.fullmatch(text, m.end, chain[0].start)
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
    first = name_chain(text, last, named)[0]
    if not _APPOSITIVE_OPEN.search(text, max(floor, first.start - 24), first.start):
        return None
    return subjects.role(first)


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


def _participle_subject(site: SubjectSite) -> tuple[str | None, str | None] | None:
    """'Empirical tests affirm the value of X, demonstrating an improvement of 1.24%': a number in
    a participle clause belongs to the main clause's subject, whatever that clause's verb is
    (the paper itself, its study, or a name opening the clause)."""
    text, q, sentence, subjects = site.text, site.q, site.sentence, site.subjects
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


def _opening_subject(site: SubjectSite) -> tuple[str | None, str | None] | None:
    """A method or model that opens the sentence (after a fronted phrase) as the subject of a
    verb the verb lists do not hold is the subject of every predicate after it ('TabFlex
    processes the dataset in just 5 seconds', 'FPTQuant enables INT4 and shows a speed-up of
    3.9 times'); used only when no verb before the number has a subject."""
    text, sentence, q, subjects = site.text, site.sentence, site.q, site.subjects
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


# An article, and after 'a/an' one modifier, perhaps tokenized ('a 1001 - layer'), before the name.
_ARTICLE_MODIFIED = r"(?:the\s+|an?\s+(?:[\w]+(?:\s-\s\w+)*\s+)?)?$"
# 'compared with M', 'along with M': a model named as a comparison point is never the one a
# method ran on (docs/ANNOTATION.md); 'a/an' and a modifier may stand before it ('using a 1001 -
# layer ResNet').
_RAN_ON = re.compile(
    r"(?<!\bcompared\s)(?<!\bcomparison\s)(?<!\balong\s)(?<!\btogether\s)"
    r"\b(?:on|for|with|using|applied\s+to|of)\s+" + _ARTICLE_MODIFIED,
    re.IGNORECASE,
)
_FRONTED_ON = re.compile(r"\b(?:on|for|with|using|applied\s+to|of|in)\s+(?:the\s+)?$", re.IGNORECASE)
_USING = re.compile(r"\busing\s+" + _ARTICLE_MODIFIED, re.IGNORECASE)


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
    return name_after(text, found.end(), limit)


def name_after(text: str, start: int, limit: int) -> str | None:
    """The noun phrase at ``start`` taken as a name, unless it is one character or starts with a
    digit."""
    phrase = phrase_after(text, start, limit)
    if not phrase:
        return None
    name = phrase[0]
    return name if len(name) >= 2 and not name[0].isdigit() else None


_IN_PARENS = re.compile(r"\(\s*" + QUALIFIER + r"$")


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


_THE_MODEL = re.compile(r"\b(?:the|this)\s+model\s+(?:\w+ly\s+)?[a-z]{3,}(?:s|ed)\b", re.IGNORECASE)


def _the_model(site: SubjectSite) -> tuple[str | None, str | None] | None:
    """'We probe Gemma-2B ... the model detects fake entities (AUC = 1.000)': in a paper that
    proposes no method, 'the model' acting in the sentence is the one model it has named."""
    text, sentence, q, subjects = site.text, site.sentence, site.q, site.subjects
    if subjects.proposed or not _THE_MODEL.search(text, sentence[0], q.start):
        return None
    named = {m.name for m in subjects.models if m.end <= q.start}
    return (None, named.pop()) if len(named) == 1 else None


@dataclass(frozen=True)
class SubjectSite:
    """Where a number stands, which is all a subject construction reads."""

    text: str
    q: Quantity
    sentence: tuple[int, int]
    previous: tuple[int, int] | None  # the sentence before, if any
    subjects: Subjects
    limit: int  # how far the number's own phrase may reach
    baseline: str | None  # what the number's change is relative to, read before its subject


SubjectConstruction = Callable[[SubjectSite], "tuple[str | None, str | None] | None"]


def _by_verb_before(site: SubjectSite) -> tuple[str | None, str | None] | None:
    return _subject_before(site.text, site.q.start, site.sentence, site.subjects)


def _by_verb_in_the_sentence_before(site: SubjectSite) -> tuple[str | None, str | None] | None:
    previous = site.previous
    return _subject_before(site.text, previous[1], previous, site.subjects) if previous else None


#: Who achieved a number, when nothing at the number says (:data:`SUBJECT_AT_THE_NUMBER`): the
#: constructions :func:`subject_of` tries, in order.
SUBJECT: Table[SubjectConstruction] = Table(
    "subject",
    "the first that finds a subject wins, named or unnamed ((None, None) is an unnamed subject "
    "and stops the search); the nearer the verb to the number the earlier, and the sentence "
    "before is tried last",
    (
        Construction(
            'subject-of-the-verb-before',
            _by_verb_before,
            "the subject of the nearest verb before the number: who acted, 'we' / 'our method' for the paper's",
            (
                Example('We propose FooNet, a sparse decoder. We add BarNet, which uses a prefix cache and provides 99% of teacher quality.', 'BarNet', 'method'),
                Example('We propose FooNet, a sparse decoder. By contrast, DeepSeek-R1 that achieves 82.4% on SimpleQA lags behind.', 'DeepSeek-R1', 'model'),
                Example('We propose FooNet, a sparse decoder. The best trade-off is achieved by GPT-4o: perplexity 5.1 at 8 bits.', 'GPT-4o', 'model'),
            ),
        ),
        Construction(
            'subject-of-the-main-clause',
            _participle_subject,
            "a number in a participle clause belongs to the main clause's subject, when no verb before it has one",
            (
                Example('We propose FooNet, a sparse decoder. GPT-4o has no gate. Empirical tests affirm its value, demonstrating a mean gain of 2.4%.', 'FooNet', 'method'),
                Example('We propose FooNet, a sparse decoder. GPT-4o has no gate. Experimental validations on three MLLMs demonstrate gains up to 9.5%.', 'FooNet', 'method'),
            ),
        ),
        Construction(
            'name-opening-the-sentence',
            _opening_subject,
            'a name opening the sentence is the subject of whatever verb it governs, when the verb lists hold none',
            (
                Example('We propose FooNet, a sparse decoder. GPT-4o has no gate. For instance, FooNet processes the dataset in just 5 seconds.', 'FooNet', 'method'),
            ),
        ),
        Construction(
            'the-one-model',
            _the_model,
            "'the model' acting, in a paper that proposes no method, is the one model it has named",
            (
                Example('We probe Gemma-2B on entity questions. Across prompts, the model detects fake entities (AUC = 1.000).', 'Gemma-2B', 'model'),
            ),
        ),
        Construction(
            'subject-of-the-sentence-before',
            _by_verb_in_the_sentence_before,
            'a sentence with no subject of its own goes on from the one before; last, the farthest',
            (
                Example('We propose FooNet, a sparse decoder. GPT-4o reaches a new high. This gives 11.0 points of improvement.', 'GPT-4o', 'model'),
            ),
        ),
    ),
)


#: A subject read at the number itself: (method, model, compared), compared when the number is
#: the second of a comparison and its subject is named after it.
SubjectAnswer = tuple[str | None, str | None, bool]
AtTheNumberConstruction = Callable[[SubjectSite], "SubjectAnswer | None"]


def _from_a_to_b(site: SubjectSite) -> SubjectAnswer | None:
    return (site.baseline, None, False) if site.q.form == "before" else None


def _named_before_the_parenthesis(site: SubjectSite) -> SubjectAnswer | None:
    method, model = _subject_in_parens(site.text, site.q, site.subjects)
    return (method, model, False) if method or model else None


def _reference_noun_after(site: SubjectSite) -> SubjectAnswer | None:
    text, q = site.text, site.q
    reference = _REFERENCE_AFTER.match(text, q.end, site.limit)
    if (
        reference
        and _ARTICLE_BEFORE.search(text, max(0, q.start - 8), q.start)
        and not STOP.intersection(reference.group("name").lower().split())
    ):
        return reference.group("name"), None, True
    return None


def _compared(site: SubjectSite) -> re.Match[str] | None:
    """What makes the number the second of a comparison, right before it ('vs.', 'compared to')."""
    return _COMPARED_NUMBER.search(site.text, max(site.sentence[0], site.q.start - 30), site.q.start)


def _versus(site: SubjectSite) -> bool:
    compared = _compared(site)
    return compared is not None and _VERSUS.search(compared.group()) is not None


def _named_after_a_compared_number(site: SubjectSite) -> SubjectAnswer | None:
    named = _subject_named_after(site.text, site.q, site.limit, site.subjects) if _compared(site) else None
    return (*_by_family(named), True) if named else None


def _versus_the_name_compared_with(site: SubjectSite) -> SubjectAnswer | None:
    other = _compared_before(site.text, site.sentence, site.q, site.subjects) if _versus(site) else None
    return (*site.subjects.role(other), True) if other else None


def _versus_the_other_described(site: SubjectSite) -> SubjectAnswer | None:
    described = _compared_description(site.text, site.sentence, site.q) if _versus(site) else None
    return (described, None, True) if described else None


def _versus_an_unnamed_other(site: SubjectSite) -> SubjectAnswer | None:
    return (None, None, False) if _versus(site) else None


#: A subject the number's own place gives, before any verb is read: the constructions
#: :func:`subject_of` tries before :data:`SUBJECT`, in order.
SUBJECT_AT_THE_NUMBER: Table[AtTheNumberConstruction] = Table(
    "subject at the number",
    "tried before the subject table, and the first that answers is the subject as it stands (no "
    "ablation check, no model it ran on): the A of 'from A to B' is the baseline's whatever else "
    "the sentence says, then a name right before the number's parenthesis, a reference noun the "
    "number modifies, and last a compared number: a name after it first, and after 'vs.' the name "
    "the clause compares with, its description, or else nobody, which stops the search",
    (
        Construction(
            'from-a-to-b',
            _from_a_to_b,
            "'improves accuracy from 82.1% to 91.4% over BarNet': A is the baseline's, whoever the clause's subject is",
            (
                Example('We propose FooNet, a sparse decoder. FooNet improves accuracy from 82.1% to 91.4% over BarNet on GSM8K.', 'BarNet', 'method'),
            ),
        ),
        Construction(
            'name-before-the-parenthesis',
            _named_before_the_parenthesis,
            "'GPT-4o (-16.5%)': a name right before the parenthesis that holds the number",
            (
                Example('We propose FooNet, a sparse decoder. Among baselines, GPT-4o (-16.5%) drops the most on MMLU.', 'GPT-4o', 'model'),
            ),
        ),
        Construction(
            'reference-noun-after',
            _reference_noun_after,
            "'over a 48% supervised baseline': a number inside a phrase a reference noun heads is that reference's",
            (
                Example('We propose FooNet, a sparse decoder. FooNet climbs to 61% on GSM8K, over a 48% supervised baseline.', 'supervised baseline', 'method', claim=1),
            ),
        ),
        Construction(
            'named-after-a-compared-number',
            _named_after_a_compared_number,
            "'compared to 77.2% for GPT-4o': the second number of a comparison is the one named after it",
            (
                Example('We propose FooNet, a sparse decoder. FooNet reaches 79.8% on MMLU, compared to 77.2% for GPT-4o.', 'GPT-4o', 'model', claim=1),
            ),
        ),
        Construction(
            'versus-the-name-compared-with',
            _versus_the_name_compared_with,
            "'improves over GPT-4o on MMLU (61.2% vs. 58.1%)': after 'vs.', the second number is the name the clause compares with",
            (
                Example('We propose FooNet, a sparse decoder. FooNet improves over GPT-4o on MMLU (61.2% vs. 58.1%).', 'GPT-4o', 'model', claim=1),
            ),
        ),
        Construction(
            'versus-the-other-described',
            _versus_the_other_described,
            "'surpass autoregressive models, achieving 36.5 vs. 52.1': with no name compared with, what the clause describes",
            (
                Example('We propose FooNet, a sparse decoder. FooNet can surpass autoregressive models, achieving 36.5 vs. 52.1 on MMLU.', 'autoregressive models', 'method', claim=1),
            ),
        ),
        Construction(
            'versus-an-unnamed-other',
            _versus_an_unnamed_other,
            "'exponents of -0.15 vs. -0.12': a second number the clause compares with nobody named is nobody's",
            (
                Example('We propose FooNet, a sparse decoder. FooNet scales better, with exponents of -0.15 vs. -0.12 in loss.', None, 'method', claim=1),
            ),
        ),
    ),
)


def subject_of(
    text: str,
    q: Quantity,
    sentences: tuple[tuple[int, int], tuple[int, int] | None],
    limit: int,
    subjects: Subjects,
    baseline: str | None,
) -> tuple[str | None, str | None, bool]:
    """(method, model, compared): the first construction of :data:`SUBJECT_AT_THE_NUMBER` that
    answers, else the first of :data:`SUBJECT`, then every entry of :data:`SUBJECT_THEN`. A sentence with no
    subject of its own before the number goes on from the one before it ('We propose X. This
    gives 11.0 points')."""
    sentence, previous = sentences
    site = SubjectSite(text, q, sentence, previous, subjects, limit, baseline)
    at_the_number = next((f for c in SUBJECT_AT_THE_NUMBER.entries if (f := c.run(site)) is not None), None)
    if at_the_number:
        return at_the_number
    found = next((f for c in SUBJECT.entries if (f := c.run(site)) is not None), None)
    subject = found or (None, None)
    for construction in SUBJECT_THEN.entries:
        subject = construction.run(site, subject) or subject
    return subject[0], subject[1], False


Subject = tuple[str | None, str | None]


def _ablation(site: SubjectSite, subject: Subject) -> Subject | None:
    method, model = subject
    ablated = method == site.subjects.proposed and _ABLATION.search(site.text, site.sentence[0], site.q.start)
    return (None, model) if ablated else None


def _model_the_method_ran_on(site: SubjectSite, subject: Subject) -> Subject | None:
    method, model = subject
    if not method or model:
        return None
    ran_on = _model_ran_on(site.text, site.sentence, site.q, site.subjects.models)
    return (method, ran_on) if ran_on else None


def _model_a_fronted_phrase_ends(site: SubjectSite, subject: Subject) -> Subject | None:
    if subject != (None, None):
        return None
    ran_on = _model_ran_on(site.text, site.sentence, site.q, site.subjects.models, fronted=True)
    return (None, ran_on) if ran_on else None


def _model_measured_after(site: SubjectSite, subject: Subject) -> Subject | None:
    method, model = subject
    if model:
        return None
    measured = _model_measured_on(site.text, site.q, site.limit, site.subjects.models)
    return (method, measured) if measured else None


#: What becomes of the subject :data:`SUBJECT` found (or of none): :func:`subject_of` runs
#: every entry in order, each on what the ones before left.
SUBJECT_THEN: Table[Callable[[SubjectSite, Subject], "Subject | None"]] = Table(
    "subject, then",
    "run in order after the subject table, each on the subject the ones before left (not after "
    "the subject at the number, which stands as read): an ablation first, so that a model is looked "
    "for once the method is known; the model measured after the number last, for a subject with none",
    (
        Construction(
            'ablation-is-not-the-method',
            _ablation,
            "'we present faster variants that allow optical flow computation at up to 140fps', 'our ablation without the gate': a variant's or an ablation's number is not the proposed method's",
            (Example('We propose FooNet, an optical flow network. Moreover, we present faster variants that allow optical flow computation at up to 140fps.', None, 'method'),),
        ),
        Construction(
            'model-the-method-ran-on',
            _model_the_method_ran_on,
            "'for LLaMA2-7B at 40% sparsity, LaRoSA surpasses ...': the model a method ran on is the claim's model",
            (Example('We propose LaRoSA, a sparsity method. For LLaMA2-7B at 40% sparsity, LaRoSA reaches 65.2% accuracy on MMLU.', 'LLaMA2-7B', 'model'),),
        ),
        Construction(
            'model-a-fronted-phrase-ends',
            _model_a_fronted_phrase_ends,
            "'when clustering the weights in LLaMA-2-7B, the accuracy drop is 46.5%': with no subject at all, the model a fronted phrase ends with",
            (Example('We study weight clustering. When clustering the weights in LLaMA-2-7B, the accuracy drop is 46.5% on MMLU.', 'LLaMA-2-7B', 'model'),),
        ),
        Construction(
            'model-measured-after-the-number',
            _model_measured_after,
            "'it surpasses random selection by 4% on Qwen2.5-72B': a model named right after the number as where it was measured",
            (Example('We propose FooSel, a data selector. FooSel surpasses random selection by 4% on Qwen2.5-72B.', 'Qwen2.5-72B', 'model'),),
        ),
    ),
)


# A number inside a noun phrase a reference noun heads is that reference's: 'climbs to 61% (from a
# 48% pre-RL baseline)', 'over a 70.2% supervised baseline'.
_REFERENCE_AFTER = re.compile(
    r"\s+(?P<name>(?:[\w-]+\s+){0,3}?(?:baseline|reference|checkpoint)s?)"
    r"(?=\s*[),;.]|\s*$|\s+(?:on|in|at|for|and|while)\b)",
    re.IGNORECASE,
)


_ARTICLE_BEFORE = re.compile(r"\b(?:a|an|the)\s+$", re.IGNORECASE)


# What a clause names as the other side of its comparison ('improves over GPT-4o', 'than M').
_OTHER_SIDE_WORDS = r"\b(?:over|than|against|(?:" + BEATING_STEMS + r")\w*)\s+(?:the\s+)?"
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
    return name_after(text, found[-1].end(), q.start) if found else None
