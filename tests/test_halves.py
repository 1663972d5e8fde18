"""The two halves of one paper's work (``paper_request``, ``paper_result``) with any engine in
the middle (the loopback server here), and ``write_results`` making a run directory of them:
the same request an online run sends, the same claims from the same answers."""

from __future__ import annotations

import json
from pathlib import Path

from extractor import paper_request, paper_result, write_results
from extractor.runs.files import CLAIMS_FILE
from extractor.pipeline.runner import run
from tests.conftest_fake import fixture_papers, openai_config, write_papers
from tests.fake_openai import FakeOpenAI, Fault


def test_the_halves_send_the_online_request_and_give_the_online_claims(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    papers = fixture_papers(6)
    config = openai_config(fake_openai, mode="json_schema")
    online = run([str(write_papers(tmp_path / "papers.jsonl", papers))], tmp_path / "online", config)
    sent_online = sorted(json.dumps(r.messages) for r in fake_openai.log)
    fake_openai.log.clear()
    results = []
    for paper in papers:
        status, answer, _ = fake_openai.answer_request(paper_request(paper.abstract, None, config))
        assert status == 200
        results.append(paper_result(answer, paper.abstract, None, config, id=paper.id))
    assert sorted(json.dumps(r.messages) for r in fake_openai.log) == sent_online
    summary = write_results(tmp_path / "engine", results, config)
    assert summary.info["counts"]["ok"] == 6 and summary.info["mode"] == "json_schema"
    assert summary.info["usage"]["prompt_tokens"] == sum(r.usage["prompt_tokens"] for r in fake_openai.log)
    assert (tmp_path / "engine" / CLAIMS_FILE).read_text() == (tmp_path / "online" / CLAIMS_FILE).read_text()
    assert online.failed == 0


def test_an_ungrounded_item_is_rejected_and_an_answer_that_is_no_extraction_fails_by_reason(fake_openai: FakeOpenAI) -> None:
    [paper] = fixture_papers(1)
    fake_openai.faults.extend([Fault("invented_number"), Fault("malformed")])
    invented = paper_result(fake_openai.answer_request(paper_request(paper.abstract))[1], paper.abstract, id=paper.id)
    assert invented.status == "ok" and any("97.3" in r.reason or r.value == 97.3 for r in invented.rejected)
    assert all(c.value != 97.3 for c in invented.extraction.claims)
    cut = paper_result(fake_openai.answer_request(paper_request(paper.abstract))[1], paper.abstract, id=paper.id)
    assert cut.status == "failed" and cut.error.startswith("the answer is not a valid extraction")
    assert paper_result({"choices": "none"}, paper.abstract).error.startswith("the answer is not a chat completion")
