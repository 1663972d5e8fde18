"""Backends turn one abstract into an ExtractionDraft: the protocol (``base``), the registry
(``registry``), the offline rules adapter (``rules``) and the OpenAI-compatible client (``openai``)."""
