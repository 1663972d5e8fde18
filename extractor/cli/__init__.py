"""The command line: ``app`` (in ``extractor.cli.app``) and one module per command."""
