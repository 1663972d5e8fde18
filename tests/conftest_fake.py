"""The ``fake_openai`` fixture: a started loopback server, stopped after the test.

Import it into a test module (``from tests.conftest_fake import fake_openai``) and script it
in the test: ``fake_openai.faults.append(Fault("rate_limit"))``, ``fake_openai.refuse.add(
"json_schema")``, ``fake_openai.latency = 0.05``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fake_openai import FakeOpenAI


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server
