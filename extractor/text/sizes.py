"""Whether a model's name names a model or only states a size ('27B models', '720M scale').

A model needs a name: a family or a coined word ('Llama-3-8B', 'Gemma 2-2B-it', 'Minima').
Digits with a scale, a range of them, a comparison sign and the nouns a size is said with
('parameters', 'scale', 'Base') are no name, so a list of models never holds a bare size. The
rules (:mod:`extractor.rules.models`) read with it, and grounding rejects such a name from any
backend, so one check serves both.
"""

from __future__ import annotations

import re

# Nouns after a scaled number that make it a model size ("7B parameters", "720M scale"); alone
# around a size they name no model ("27B models", "32B Base", "2-2B-it").
PARAMETER_NOUNS = frozenset(
    """
    parameters parameter params param model models lm lms llm llms transformer transformers
    network networks scale scales variant variants checkpoint checkpoints backbone backbones
    teacher student base instruct chat it dense moe mixture language decoder encoder vlm vlms
    """.split()
)
# Words that may stand around a size and still name nothing ('the two 27B models', '3.5B active').
_FILLERS = frozenset(
    """
    a an the our its their this these those two three four five six seven eight nine ten several
    active total sized size
    """.split()
)
_NUMBER = r"\d+(?:[.,]\d+)*"
_SCALE = r"\s*(?:[KMBTkmbt](?![A-Za-z])|(?:thousand|million|billion|trillion)\b)"
_CONNECTOR = r"\s*(?:-{1,2}|\u2013|\u2014|to|and|/)\s*"
# A size as written: '8B', '6.7b', '8x7B', '~3B', 'leq3B' (a lost \leq), '8 to 27 billion', '1B-9B',
# '2-2B' (read as a range, which is what it is without its name).
_SIZE = re.compile(
    rf"(?:leq|geq|le|ge|sim|approx|[<>~\u2264\u2265])?\s*(?:{_NUMBER}\s*[x\u00d7]\s*)?{_NUMBER}(?:{_SCALE})?"
    rf"(?:{_CONNECTOR}{_NUMBER}(?:{_SCALE})?)?",
    re.IGNORECASE,
)
_WORD = re.compile(r"[^\W\d_]+")  # letters of any script: "π0" is a name


def is_bare_size(name: str) -> bool:
    """Whether the name is only a size: numbers (with or without a scale) and words that say
    nothing but that it is one ('27B models', '60M', '8 to 27 billion parameters', '130M-parameter')."""
    rest, count = _SIZE.subn(" ", name)
    return bool(count) and all(word.lower() in PARAMETER_NOUNS or word.lower() in _FILLERS for word in _WORD.findall(rest))
