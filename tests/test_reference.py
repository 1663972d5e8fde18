"""docs/reference.md is every command's --help as the commands print it now."""

from pathlib import Path

from extractor.cli.reference import reference_markdown

PAGE = Path(__file__).resolve().parent.parent / "docs" / "reference.md"


def test_the_reference_page_is_the_commands_help() -> None:
    assert PAGE.read_text(encoding="utf-8") == reference_markdown(), (
        "docs/reference.md is out of date: python -m extractor.cli.reference > docs/reference.md"
    )


def test_help_shows_shell_text_as_it_is_typed() -> None:
    """Help is click's plain text (no rich markup): a markup escape would show as a stray backslash."""
    text = reference_markdown()
    assert "pip install 'extractor[local]'" in text and "\\[" not in text
