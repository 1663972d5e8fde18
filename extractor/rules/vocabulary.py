"""General ML vocabulary the rules read context with (lower-case words).

These are words of the field, not names from any particular abstract: what a count is of, what
a setting is called, which verbs mean a change, which nouns head a method or a dataset.
"""

from __future__ import annotations

import re


def alternation(pattern: str) -> str:
    """A regex alternation ('a|b|c') regrouped by the first character of its alternatives, which
    keep their order within a group: the engine tries every alternative at every word it meets,
    and a group rejected on its first character skips all its alternatives. Matches what the
    flat alternation matches. Each alternative opens with a lower-case letter or a digit."""
    return "|".join(f"{first}(?:{'|'.join(rests)})" for first, rests in _by_first(pattern).items())


def word_start(pattern: str) -> str:
    """``\\b(?:pattern)`` as an :func:`alternation` whose groups each open with their first
    character, and only then check that no word character comes before it: the engine looks for
    those few characters alone, instead of testing a word boundary at every character of the text
    (when the alternatives open with most letters of the alphabet, that test is the cheaper one).
    Matches what ``\\b(?:pattern)`` matches, at the same places."""
    return "|".join(f"{first}(?<!\\w{first})(?:{'|'.join(rests)})" for first, rests in _by_first(pattern).items())


def _by_first(pattern: str) -> dict[str, list[str]]:
    """The alternatives of ``pattern`` by their first character, without it, in their order."""
    groups: dict[str, list[str]] = {}
    for alternative in _top_level(pattern):
        if not (alternative[:1].islower() or alternative[:1].isdigit()):
            raise ValueError(f"alternative {alternative!r} opens with neither a lower-case letter nor a digit")
        groups.setdefault(alternative[0], []).append(alternative[1:])
    return groups


def _top_level(pattern: str) -> list[str]:
    """The alternatives of ``pattern``, split at the bars outside groups and character classes
    ('scor(?=es|ed)', '[|]')."""
    alternatives: list[str] = []
    depth, start, escaped, in_class = 0, 0, False, False
    for i, char in enumerate(pattern):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            alternatives.append(pattern[start:i])
            start = i + 1
    return [*alternatives, pattern[start:]]


# Nouns that make a number before them a count or a data size ("1,552 questions", "15B tokens").
COUNT_NOUNS = frozenset(
    """
    questions question items item tasks task models model llms lms vlms mllms languages language
    datasets dataset benchmarks benchmark layers layer samples sample examples example pairs pair
    images image documents document docs doc tokens token runs run seeds seed editions edition
    categories category problems problem repositories repos files file steps step epochs epoch gpus
    gpu experiments experiment configurations configuration architectures architecture families
    family dimensions dimension axes axis criteria criterion domains domain users user participants
    annotators annotator videos video clips clip subjects patients people humans instances
    instance queries query prompts prompt sentences sentence words word chars characters character
    narratives relations conditions condition specialties candidates scenarios settings methods
    baselines agents environments environment games game classes class labels nodes vertices edges
    graphs articles papers hours minutes trajectories episodes demonstrations dialogues
    conversations utterances frames patches rows records tables pages studies study trials
    workers heads experts iterations rounds generations responses answers annotations hypotheses
    contributions components modules stages levels variants versions groups subsets splits
    views shots programs functions rules species molecules proteins genes cells sites
    countries cities hospitals institutions teams players times seconds days months years
    """.split()
)
# Nouns after a scaled number that make it a data size rather than a model size.
DATA_NOUNS = frozenset(
    """
    tokens token chars characters words docs documents images samples examples pairs sentences
    hours videos clips steps instructions trajectories rows records pages problems questions
    queries prompts conversations utterances frames patches flops tokens/s texts text triples
    entries episodes interactions dialogues articles papers files lines molecules proteins
    """.split()
)
# Words that name a setting of an experiment when they come right before a number.
SETTING_WORDS = frozenset(
    """
    rank ranks r ratio ratios sparsity temperature lr rate batch size length context window seed
    seeds layer layers dimension dimensions dim width depth heads head threshold budget step steps
    epoch epochs k n m top-k top-p beam vocabulary vocab alpha beta gamma lambda epsilon order
    degree level scale version iteration iterations round rounds horizon resolution shots shot
    patch stride kernel grid block group groups bits bit precision cutoff temperature-scaled
    layer-wise decay momentum warmup frequency interval noise sigma tau
    """.split()
)
# Two-word settings whose second word is also a metric word ('learning rate' is not a rate).
SETTING_PHRASES = frozenset(
    {
        "learning rate",
        "dropout rate",
        "masking rate",
        "mask rate",
        "sampling rate",
        "weight decay",
        "label smoothing",
        "warmup ratio",
        "mask ratio",
        "masking ratio",
        "pruning ratio",
        "sparsity ratio",
        "compression level",
        "noise level",
        "guidance scale",
        "loss weight",
        "temperature of",
    }
)
# Words that, right before or after a number, say it is a measured result.
METRIC_WORDS = frozenset(
    """
    accuracy accuracies acc perplexity perplexities ppl genppl f1 f1-score macro-f1 micro-f1 bleu
    rouge rouge-l rouge-1 rouge-2 meteor cider spice chrf auc auroc auprc roc-auc map miou iou
    psnr ssim lpips fid kid wer cer mos elo score scores coverage recall precision cos cosine
    correlation pearson spearman kendall r^2 r2 mae mse rmse loss nll bpd error errors ece brier
    reward rewards return returns mrr ndcg em throughput latency slope exponent exponents
    agreement likelihood log-likelihood win-rate rate rates success hit gap gaps ratio speedup
    speed-up efficiency utility fidelity sharpness entropy divergence kl tpr fpr fnr eer dice
    top-1 top-5 pass@1 pass@k exact-match value values ttft mean median average improvement
    """.split()
)
# Metric names reported as a bare number (not a percentage) that name the metric of a claim.
METRIC_PATTERN = re.compile(
    r"\b(?=[a-z])(?:(?:top-\d+|zero-shot|few-shot|average|mean|validation|test|held-out|generative|"
    r"macro|micro|exact|overall|contrast-group|pairwise)\s+)?"
    r"(?:accuracy|perplexity|genppl|ppl|f1(?:-score)?|bleu|rouge(?:-[l12])?|meteor|cider|chrf|"
    r"auroc|auprc|auc|map|miou|iou|psnr|ssim|lpips|fid|wer|cer|mos|elo|ndcg|mrr|"
    r"pass@\d+|pass@k|hits?@\d+|recall@\d+|exact match|win rate|success rate|error rate|"
    r"hit rates?|coverage|recall|precision|correlation|cosine|loss|nll|bpd|reward|"
    r"throughput|latency|speed-?up|time-to-first-token|ttft|memory|wall-clock time|"
    r"kl|agreement|score)\b",
    re.IGNORECASE,
)
# Verbs and adjectives of change, by direction.
DECREASE = re.compile(
    r"\b(?:reduc\w*|decreas\w*|lower\w*|fewer|less|drop\w*|declin\w*|shrink\w*|shrank|narrow\w*|"
    r"cut\w*|smaller|slower|sav(?:e|es|ed|ing|ings)|eliminat\w*|remov\w*|compress\w*|degrad\w*|"
    r"fall\w*|fell|los(?:e|es|s|ing)|cheaper|shorter|down)\b|(?<![\w.])[-\u2212]\d",
    re.IGNORECASE,
)
INCREASE = re.compile(
    r"\b(?:improv\w*|increas\w*|gain\w*|boost\w*|higher|more|faster|speed-?ups?|better|rais\w*|"
    r"ris(?:e|es|ing)|rose|outperform\w*|surpass\w*|exceed\w*|larger|greater|accelerat\w*|"
    r"enhanc\w*|jump\w*|grow\w*|grew|lifts?|uplifts?|overheads?|longer)\b|(?<![\w.])\+\d",
    re.IGNORECASE,
)
# Words before a number that make it a change relative to something ('by absolute 6.37 %' too);
# removing or eliminating an amount ('removing 67.1M parameters', 'eliminating 91% of ...')
# changes what had it.
CHANGE_CUE = re.compile(
    r"\b(?:by|margins?\s+of|gains?\s+of|improvements?\s+of|reductions?\s+of|drops?\s+of|"
    r"speed-?ups?\s+of|increases?\s+of|decreases?\s+of|costs?(?:\s+of)?|loses|losing|gains|adds|adding|saves|"
    r"saving|remov(?:es|ed|ing)|eliminat(?:es|ed|ing))"
    r"\s*(?:only\s+|just\s+|up\s+to\s+|about\s+|~|nearly\s+|roughly\s+|approximately\s+|over\s+|more\s+than\s+|"
    r"as\s+(?:little|much|few|many)\s+as\s+|(?:an\s+)?(?:absolute|relative)\s+)?$",
    re.IGNORECASE,
)
# Nouns that make a model family's name before them a mechanism ('Kimi delta attention').
MECHANISM_NOUNS = frozenset(
    """
    attention mechanism mechanisms architecture architectures layer layers block blocks kernel
    kernels operator operators tokenizer tokenizers mixer mixers
    """.split()
)
# Nouns that head the name of a method, model, system or metric a paper may coin.
METHOD_HEADS = frozenset(
    """
    method methods approach framework model algorithm system technique strategy architecture
    pipeline mechanism module metric measure score objective loss protocol paradigm recipe
    procedure scheme estimator optimizer attack defense tool toolkit library agent policy planner
    planners regularizer layer network networks encoder decoder family prior probe index criterion
    rate test bound decoding sampler formulation variant encoding convention representation
    """.split()
)
# Nouns that head the name of a dataset or benchmark.
DATA_HEADS = frozenset(
    """
    benchmark dataset corpus suite testbed test-bed leaderboard challenge challenges competition
    collection examination exam arena bank treebank database
    """.split()
)
# Nouns naming phenomena, problems and findings: a name coined for one is not a method.
PHENOMENON_HEADS = frozenset(
    """
    phenomenon phenomena problem problems effect effects issue issues property finding
    observation paradox bias gap illusion tradeoff trade-off failure behavior behaviour regime
    mode process task tasks condition hypothesis dimension notion concept
    """.split()
)
# Acronyms and words of the field that are never a paper's own method.
GENERIC_NAMES = frozenset(
    """
    llm llms lm lms vlm vlms mllm mllms ai ml nlp nlu nlg rl rlhf sft gpu gpus cpu tpu api apis
    sota cv asr tts qa vqa cot icl rag moe dnn dnns cnn cnns rnn rnns gnn gnns mlp mlps nn
    gan gans lstm lstms gru grus crf crfs vae vaes svm svms hmm hmms seq2seq
    transformer transformers we our this that these it ours
    """.split()
)
# The same families spelled out ('we train Generative Adversarial Networks at scale'), in
# lower case, singular, hyphens closed up.
_GENERIC_FAMILIES = frozenset(
    {
        "neural network", "deep neural network", "convolutional neural network", "recurrent neural network",
        "graph neural network", "generative adversarial network", "generative adversarial net",
        "long short-term memory", "gated recurrent unit", "conditional random field", "variational autoencoder",
        "variational auto-encoder", "support vector machine", "hidden markov model", "multilayer perceptron",
        "multi-layer perceptron", "large language model", "language model",
    }
)


def generic_name(name: str) -> bool:
    """A word of the field ('LLM', 'CNNs') or a model family spelled out ('Gated Recurrent
    Units'), never a paper's own method."""
    key = re.sub(r"\s*-\s*", "-", " ".join(name.lower().split()))
    return key in GENERIC_NAMES or key.removesuffix("s") in _GENERIC_FAMILIES


# Families of pretrained models: a name starting with one is a model, never a benchmark.
_FAMILIES = (
    r"gpt|chatgpt|llama|llama\d|tinyllama|qwen|qwq|mistral|mixtral|gemma|phi|opt|pythia|bert|"
    r"roberta|deberta|albert|electra|t5|flan|bart|claude|gemini|palm|deepseek|falcon|bloom|vicuna|"
    r"alpaca|olmo|olmoe|smollm|stablelm|yi|internlm|baichuan|glm|chatglm|kimi|grok|"
    r"granite|nemotron|minicpm|llava|qwen-vl|blip|clip|siglip|vit|deit|swin|resnet|resnext|vgg|"
    r"alexnet|efficientnet|mobilenet|convnext|dino|dinov2|sam|whisper|wav2vec|hubert|"
    r"sdxl|dall|imagen|o1|o3|o4|mamba|rwkv|hyena|retnet"
)
FAMILY_PREFIXES = frozenset(name[:2] for name in _FAMILIES.replace("\\d", "").split("|"))
MODEL_FAMILIES = re.compile(r"^(?:" + _FAMILIES + r")(?:\b|[-\d.])", re.IGNORECASE)
# The family names, grouped by first letter (see alternation).
FAMILY_NAMES = alternation(_FAMILIES)
# A model named in running text: a family name with its version and variant ('GPT-4o', 'GPT-5',
# 'Llama-3.1-8B-Instruct', 'DeepSeek-R1', 'DeepSeek R1', 'Qwen2.5'), capitalized or carrying a digit.
# ... and its release written apart: a version ('Claude 3.7 Sonnet', 'Gemini 2.5 Pro') and the
# variant words of a release ('GPT-4o mini', 'Claude Haiku 4.5', 'Gemini 2.0 Flash').
_VARIANT = (
    r"(?-i:Sonnet|Opus|Haiku|Flash(?:-Lite)?|Pro|Ultra|Nano|Mini|mini|Turbo|Instruct|Chat|Lite|Max|Plus|"
    r"Thinking|Preview|Coder|Omni|VL)"
)
_SPACED_VERSION = r"\s\d{1,2}(?:\.\d{1,2})?(?![\w.%]|\.\d)"
MODEL_NAME = re.compile(
    r"(?<![\w-])(?:" + FAMILY_NAMES + r")(?:(?:[-.]?\d|-[A-Za-z])(?:[\w.+-]*[\w+])?|\s[A-Z]\d(?:\.\d)?)?"
    + r"(?:" + _SPACED_VERSION + r")?(?:\s" + _VARIANT + r"(?:" + _SPACED_VERSION + r")?)*(?![\w-])",
    re.IGNORECASE,
)


# Symbols of a correlation coefficient ('r = 0.95', 'Spearman rho = 0.81').
# The units of time a quantity may carry (extractor.rules.quantities normalizes to these).
DURATION_UNITS = frozenset({"s", "ms", "\u00b5s", "ns", "minutes", "hours", "days"})

CORRELATION_SYMBOLS = frozenset({"r", "rho", "\u03c1", "\\rho", "tau", "\u03c4", "\\tau"})

# The stems of the verbs of rising and falling that every change pattern reads (the subject of a
# change, the level a change verb reaches, what a clause varies in); each pattern adds its own.
RISE_FALL_STEMS = "increas|decreas|improv|drop|fall|fell|ris|rose|grow|grew"
# The stems of the verbs of beating another ('outperforms M', 'surpassing M by 1.77%'); each
# pattern that reads a comparison adds its own ('improv', 'trail', 'lag', 'outscor', 'match').
BEATING_STEMS = "outperform|surpass|exceed|beat"
# Stems of the verbs a result's subject acts with ('FooNet reaches', 'which retains'); 'score' is
# the verb only when a number follows it ('models score only around 69%'), else the noun. (The
# contribution cues read a list of their own that has drifted from this one: cues._RESULT_VERB.)
RESULT_VERBS = (
    r"achiev|reach|obtain|outperform|surpass|improv|reduc|yield|attain|deliver|match|retain|recover|"
    r"provid|rais|increas|decreas|narrow|shrink|accelerat|exceed|beat|establish|boost|preserv|need|"
    r"requir|consum|perform|generat|answer|exit|outscor|trail|lag|giv|clos|captur|remain|keep|kept|maintain|"
    r"fall|fell|collaps|climb|sit|speed(?=(?:s|ed|ing)?\s+up\b)|ranks|ranked|halv|doubl|sav|"
    r"scor(?=es|ed|ing|e\s+(?:[a-z]+\s+){0,2}(?:\\?\$?\d|$))"
)

# The stems of the verbs that change their object ('improves accuracy by 3%', 'slashes latency by
# half'), as one regex alternation.
CHANGE_VERB_STEMS = (
    "improv|increas|reduc|lower|rais|boost|cut|decreas|narrow|shrink|halv|doubl|accelerat|lift|enhanc|elevat|trim|slash"
)
# The stems of the passive change ('is improved from', 'was reduced to'): a copy of
# CHANGE_VERB_STEMS that has drifted (no accelerat, enhanc, slash, shrink, lift, elevat, trim);
# kept apart by name, since unifying them would change what the rules read.
PASSIVE_CHANGE_STEMS = "improv|reduc|lower|rais|boost|cut|decreas|increas|halv|doubl|narrow"
