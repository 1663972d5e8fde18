"""The command reference (docs/reference.md): every command's ``--help``, as the terminal shows
it, in the order the commands are listed. ``python -m extractor.cli.reference > docs/reference.md``
writes it; a test fails when the page and the commands drift apart."""

from __future__ import annotations

import click
import typer

from extractor.cli.app import app

WIDTH = 100


def _commands(group: click.Group, ctx: click.Context, prefix: list[str]) -> list[list[str]]:
    found = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        found.append([*prefix, name])
        if isinstance(command, click.Group):
            found.extend(_commands(command, click.Context(command, info_name=name, parent=ctx), [*prefix, name]))
    return found


def reference_markdown() -> str:
    """The page: the top-level help, then each command's, in fenced blocks."""
    root = typer.main.get_command(app)
    ctx = click.Context(root, info_name="extractor", terminal_width=WIDTH, max_content_width=WIDTH)
    parts = [
        "# Command reference\n",
        "Every command's `--help`, generated (`python -m extractor.cli.reference > docs/reference.md`;",
        "a test keeps it in sync).\n",
    ]
    for words in [[], *_commands(root, ctx, [])]:
        command, sub_ctx = root, ctx
        for word in words:
            command = command.get_command(sub_ctx, word)  # type: ignore[attr-defined]
            sub_ctx = click.Context(command, info_name=word, parent=sub_ctx, terminal_width=WIDTH, max_content_width=WIDTH)
        title = " ".join(["extractor", *words])
        parts.append(f"## `{title}`\n\n```text\n{command.get_help(sub_ctx).rstrip()}\n```\n")
    return "\n".join(parts)


if __name__ == "__main__":
    print(reference_markdown(), end="")
