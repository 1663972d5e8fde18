"""benchmarks/record_messages.py: the messages a recording is answered from are exactly what a
run sends, the prompt's own examples are left out, and only valid answers are recorded."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from extractor.backends.openai.prompts import load_prompt
from extractor.backends.openai.request_schema import draft_schema_text
from extractor.pipeline.ingest import read_inputs
from tests.conftest import FIXTURES, ROOT
from tests.fake_openai import Replay, abstract_key

spec = importlib.util.spec_from_file_location("record_messages", ROOT / "benchmarks" / "record_messages.py")
record_messages = importlib.util.module_from_spec(spec)
spec.loader.exec_module(record_messages)


@pytest.fixture(scope="module")
def dev_messages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("messages")
    assert record_messages.main(["messages", "dev", str(directory), "--prompt", "v2"]) == 0
    return directory


def test_each_dev_paper_gets_the_messages_a_run_sends_without_the_prompt_examples(dev_messages: Path) -> None:
    header = json.loads((dev_messages / "recording.json").read_text())
    prompt = load_prompt("v2")
    gold_ids = [json.loads(line)["id"] for line in (FIXTURES / "gold" / "dev.jsonl").read_text().splitlines()]
    shown = {e.id for e in prompt.examples}
    assert header["prompt_hash"] == prompt.hash and shown and shown <= set(gold_ids)
    assert header["papers"] == [i for i in gold_ids if i not in shown]
    assert sorted(dev_messages.glob("*.messages.json")) == sorted(dev_messages / f"{i}.messages.json" for i in header["papers"])
    paper = next(p for p in read_inputs([str(FIXTURES / "abstracts")]) if p.id == header["papers"][0])
    record = json.loads((dev_messages / f"{paper.id}.messages.json").read_text())
    assert record["messages"] == prompt.messages(paper.abstract, paper.title)
    assert record["response_schema"] == json.loads(draft_schema_text())
    assert record["abstract_hash"] == abstract_key(paper.abstract)


def test_assemble_records_the_valid_answers_and_names_the_others(dev_messages: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    header = json.loads((dev_messages / "recording.json").read_text())
    first, second, third = header["papers"][:3]
    for paper_id in (first, second, third):
        (tmp_path / f"{paper_id}.messages.json").write_text((dev_messages / f"{paper_id}.messages.json").read_text())
    (tmp_path / "recording.json").write_text(json.dumps({**header, "papers": [first, second, third]}))
    (tmp_path / f"{first}.answer.json").write_text('```json\n{"claims": []}\n```')
    (tmp_path / f"{second}.answer.json").write_text('{"claims": [{"value": "ninety"}]}')
    out = tmp_path / "dev.jsonl"
    code = record_messages.main(["assemble", str(tmp_path), "--model", "m", "--out", str(out), "--date", "2026-12-01"])
    assert code == 1
    errors = capsys.readouterr().err
    assert f"{second}: does not fit the schema" in errors and f"{third}: no answer file" in errors
    replay = Replay.read(out)
    assert replay.header | {"prompt_version": "v2", "model": "m", "date": "2026-12-01", "papers": 1} == replay.header
    assert list(replay.answers.values()) == ['{"claims": []}']


def test_rejections_counts_what_grounding_drops(tmp_path: Path) -> None:
    lines = (FIXTURES / "recorded" / "test-dev-hand.jsonl").read_text().splitlines()
    paper = json.loads(lines[1])
    paper["answer"]["claims"].append({"value": 97.3, "unit": "%", "evidence": paper["answer"]["claims"][0]["evidence"]})
    recording = tmp_path / "dev.jsonl"
    recording.write_text("\n".join([lines[0], json.dumps(paper)]) + "\n")
    report = record_messages.count_rejections(recording).splitlines()
    claims = len(paper["answer"]["claims"])
    assert report[0] == f"dev.jsonl: of {claims} recorded claims, 1 rejected; 0 of those were right; 0 attributions cleared"
    assert report[1].startswith(f"  rejected {paper['id']} (not in gold): 97.3 ")


def test_an_abstracts_file_without_gold_is_recorded_in_file_order_and_assembled(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    example = load_prompt("v3").examples[0]
    papers = [
        {"id": "cp-002", "title": "Second", "abstract": "Our model reaches 81.2% top-1 accuracy on ImageNet.", "benchmarks": ["ImageNet"]},
        {"id": "cp-001", "title": "First", "abstract": "We obtain 28.4 BLEU on WMT14 English-German.", "part": "held-out"},
        {"id": "cp-003", "title": "Shown", "abstract": example.abstract},
    ]
    abstracts = tmp_path / "abstracts.jsonl"
    abstracts.write_text("".join(json.dumps(p) + "\n" for p in papers))
    directory = tmp_path / "messages"
    assert record_messages.main(["messages", "cross", str(directory), "--abstracts", str(abstracts), "--prompt", "v3"]) == 0
    header = json.loads((directory / "recording.json").read_text())
    assert header["set"] == "cross" and header["papers"] == ["cp-002", "cp-001"]
    assert sorted(p.name for p in directory.glob("*.messages.json")) == ["cp-001.messages.json", "cp-002.messages.json"]
    record = json.loads((directory / "cp-001.messages.json").read_text())
    assert record["messages"] == load_prompt("v3").messages(papers[1]["abstract"], "First")
    assert record["abstract_hash"] == abstract_key(papers[1]["abstract"])
    (directory / "cp-002.answer.json").write_text('{"claims": []}')
    (directory / "cp-001.answer.json").write_text('{"claims": []}')
    out = tmp_path / "cross.jsonl"
    assert record_messages.main(["assemble", str(directory), "--model", "m", "--out", str(out)]) == 0
    replay = Replay.read(out)
    assert replay.header["set"] == "cross" and replay.header["papers"] == 2
    assert "2 answers, 0 missing or invalid" in capsys.readouterr().out


def test_an_abstracts_file_may_not_take_a_gold_sets_name(tmp_path: Path) -> None:
    abstracts = tmp_path / "abstracts.jsonl"
    abstracts.write_text(json.dumps({"id": "a", "title": "T", "abstract": "We reach 90% accuracy on CIFAR-10."}) + "\n")
    with pytest.raises(SystemExit, match="gold set's name"):
        record_messages.main(["messages", "dev", str(tmp_path / "m"), "--abstracts", str(abstracts)])
    assert not (tmp_path / "m").exists()
