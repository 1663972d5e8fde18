"""Untrusted text made safe for each place it is written: CSV, XLSX, the terminal and HTML.

Abstracts, ids, cells and reviewer names come from outside. Every writer takes its text through
one function here, so a control character or a formula is handled the same way everywhere:

- control characters are made visible as Unicode control pictures (ESC shows as ``␛``, NUL as
  ``␀``), one character for one, so offsets into the text stay right;
- credentials in a URL are never written or printed (:func:`redact_url`);
- a text a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``, tab, CR at the start
  of a line) is kept as text: in CSV with a leading ``'`` on every such line, in XLSX by typing
  the cell as text (the caller sets the cell's quote-prefix style; no ``'`` is shown).
"""

from __future__ import annotations

import base64
import re
from html import escape
from urllib.parse import parse_qsl, quote, quote_plus, unquote, urlencode, urlsplit, urlunsplit

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# RFC 4180 line end: the csv module then quotes every field holding CR or LF (with "\n" alone a
# bare CR is written unquoted, and a reader that splits lines there starts a new row).
CSV_LINE_END = "\r\n"

_LINE = re.compile(r"(\r\n|\r|\n)")
# Every C0 control but tab and LF, DEL and the C1 controls: none belongs on a terminal.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_TERMINAL_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # a printed value is one line: LF and tab too
# The bidirectional controls (embeddings, overrides, isolates and marks): a terminal or a page
# reorders the text around them, so 'report\u202egpj.exe' shows as 'reportexe.jpg'.
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# What an XLSX cell (XML 1.0, as openpyxl checks it) cannot hold.
_XLSX_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def _picture(match: re.Match[str]) -> str:
    """U+2400 + code for C0 (``␛``), ``␡`` for DEL, the replacement character for C1."""
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)
    return "\u2421" if code == 0x7F else "\ufffd"


def _named(match: re.Match[str]) -> str:
    return f"<U+{ord(match.group()):04X}>"


def visible(text: str) -> str:
    """``text`` with its control characters (not tab or LF) shown as visible symbols."""
    return _CONTROL.sub(_picture, text)


def formula_like(text: object) -> bool:
    """True for text a spreadsheet would run as a formula when it is typed in or imported."""
    return isinstance(text, str) and text.startswith(FORMULA_STARTS)


def csv_cell(value: object) -> object:
    """A CSV field no spreadsheet runs: every line that starts like a formula gets a leading
    ``'``, so a reader that splits the field at CR or LF finds no formula either. Numbers and
    None are left alone."""
    if not isinstance(value, str):
        return value
    parts = _LINE.split(value)  # text, break, text, break, ...
    for i in range(0, len(parts), 2):
        if formula_like(parts[i]) or (i == 0 and value.startswith("\r")):
            parts[i] = "'" + parts[i]
    return "".join(parts)


def xlsx_text(value: object) -> object:
    """A cell value XLSX can hold: characters it cannot are shown as visible symbols (openpyxl
    refuses NUL, form feed and the like). The formula guard is the cell's type, not the text:
    see :func:`set_text_cell`."""
    return _XLSX_ILLEGAL.sub(_picture, value) if isinstance(value, str) else value


def set_text_cell(cell: object, value: object) -> None:
    """Put ``value`` in an openpyxl cell so that it is shown as written and never run: text a
    spreadsheet would take as a formula is typed as text with the quote-prefix style (kept as
    text when a user edits the cell), and characters XLSX cannot hold are made visible."""
    value = xlsx_text(value)
    cell.value = value  # type: ignore[attr-defined]
    text = str(value) if isinstance(value, list) else value  # rich text is a list of runs
    if formula_like(text):
        cell.data_type = "s"  # type: ignore[attr-defined]  # openpyxl made it a formula
        cell.quotePrefix = True  # type: ignore[attr-defined]


def printable(value: object) -> str:
    """``value`` as one line of plain terminal text: every control character (ESC, CR, LF...)
    shown as a visible symbol, so nothing from the data can move the cursor or recolour the
    screen, and every bidirectional control by its code point (``<U+202E>``), so nothing
    reorders what is shown. Print it without markup (rich would read ``[/]`` as a tag)."""
    return _BIDI.sub(_named, _TERMINAL_CONTROL.sub(_picture, str(value)))


def path_text(path: object) -> str:
    """A path as text every UTF-8 writer takes: the bytes of a file name that are not UTF-8
    (which Python keeps as lone surrogates) shown as ``\\xNN``, so ``caf\\xe9.txt`` names the
    file and writing it to a journal or a terminal cannot fail."""
    text = str(path)
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate no file name gives: written as its code point
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return raw.decode("utf-8", "backslashreplace")


def html_text(value: object) -> str:
    """HTML-escaped text with control characters made visible (HTML cannot hold them) and
    bidirectional controls shown by their code point (a page would reorder the text)."""
    return escape(_BIDI.sub(_named, visible("" if value is None else str(value))), quote=True)


MIN_SECRET = 4  # a shorter query value ("x=1") is no secret, and would blank every "1" of a message


def url_secrets(url: str | None, key: str | None = None) -> list[str]:
    """What of an endpoint's URL and key a server's error message may repeat: the key (as in
    ``Bearer sk-...``), the password (or lone token) of ``user:key@`` and its Basic-auth form,
    and each query value, as written and percent-encoded. Longest first, for :func:`redact`."""
    found = [key] if key else []
    parts = urlsplit(url or "")
    if "@" in parts.netloc:
        userinfo = unquote(parts.netloc.rsplit("@", 1)[0])
        found += [userinfo.partition(":")[2] or userinfo, base64.b64encode(userinfo.encode()).decode()]
    for _, value in parse_qsl(parts.query, keep_blank_values=True):
        found += [value, quote_plus(value), quote(value, safe="")]
    return sorted({s for s in found if len(s) >= MIN_SECRET}, key=len, reverse=True)


def redact(text: str, secrets: list[str]) -> str:
    """``text`` with every secret of :func:`url_secrets` in it replaced by ``***``."""
    for secret in secrets:
        text = text.replace(secret, "***")
    return text


def redact_url(url: str) -> str:
    """``url`` as it may be written or printed: the password (or lone token) of ``user:key@`` and
    every query value (``?key=...``) replaced by ``***``. Host, port and path stay readable."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, host = netloc.rsplit("@", 1)
        user, colon, _ = userinfo.partition(":")
        netloc = f"{user}:***@{host}" if colon else f"***@{host}"
    query = urlencode([(key, "***") for key, _ in parse_qsl(parts.query, keep_blank_values=True)], safe="*")
    return urlunsplit(parts._replace(netloc=netloc, query=query))
