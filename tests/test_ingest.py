from pathlib import Path

from extractor.pipeline.ingest import paper_id, read_inputs

from .conftest import FIXTURES

ABSTRACT = "We propose GANQ. It reaches 83.6% accuracy on GSM8K, a strong result for 3-bit models."


def test_fixture_formats_are_read_with_titles_and_lines() -> None:
    papers = list(read_inputs([str(FIXTURES / "abstracts")]))
    assert all(p.error is None for p in papers)
    listing = [p for p in papers if p.source.file.endswith("arxiv-listing-a.txt")]
    assert len(listing) == 5
    assert listing[0].title.startswith("SympFormer")
    assert listing[0].metadata["category"] == "math.SG"
    assert listing[0].source.line == 1
    daily = [p for p in papers if p.source.file.endswith("daily-papers.txt")]
    assert len(daily) == 80
    assert daily[0].abstract.startswith("Large Language Models (LLMs) face")


def test_ids_prefer_given_then_arxiv_then_hash() -> None:
    assert paper_id(ABSTRACT, "my-id") == "my-id"
    assert paper_id(ABSTRACT, None, {"url": "https://arxiv.org/abs/2401.01234v2"}) == "2401.01234"
    assert paper_id(ABSTRACT, None, {"arxiv_id": "2401.01234"}) == "2401.01234"
    hashed = paper_id(ABSTRACT)
    assert hashed.startswith("p-")
    assert paper_id("  " + ABSTRACT.replace(" ", "\n ")) == hashed


def test_bad_records_name_file_line_and_problem(tmp_path: Path) -> None:
    path = tmp_path / "papers.jsonl"
    path.write_bytes(
        b'{"id": "a", "abstract": "' + ABSTRACT.encode() + b'"}\n'
        b'{"id": "b", "abstract": \n'
        b'{"id": "c", "abstract": ""}\n'
        b'{"id": "d", "title": "no abstract"}\n'
        b'{"id": "e", "abstract": "caf\xe9"}\n'
        b'{"id": "f", "abstract": "' + b"long " * 100 + b'"}\n'
        b'{"id": "g", "abstract": "' + ABSTRACT.encode() + b'", "venue": "ICLR"}\n'
    )
    papers = list(read_inputs([str(path)], max_chars=300))
    assert [p.id for p in papers] == ["a", "input:papers.jsonl:2", "c", "d", "input:papers.jsonl:5", "f", "g"]
    errors = {p.id: p.error for p in papers if p.error}
    assert errors["input:papers.jsonl:2"].startswith(f"{path}:2: malformed JSON")
    assert errors["c"] == f"{path}:3: abstract is empty"
    assert errors["d"] == f"{path}:4: record has no 'abstract' field"
    assert errors["input:papers.jsonl:5"] == f"{path}:5: line is not valid UTF-8"
    assert errors["f"] == f"{path}:6: abstract is 499 characters, over the 300 budget"
    assert papers[-1].metadata == {"venue": "ICLR"}


def test_csv_and_missing_paths(tmp_path: Path) -> None:
    path = tmp_path / "papers.csv"
    path.write_text('id,title,abstract,year\nx1,"A title","' + ABSTRACT + '",2026\n')
    (paper, missing) = read_inputs([str(path), str(tmp_path / "nope.jsonl")])
    assert (paper.id, paper.title, paper.metadata) == ("x1", "A title", {"year": "2026"})
    assert "no such file or directory" in missing.error
    bad = tmp_path / "bad.csv"
    bad.write_text("id,text\n1,hello\n")
    (failed,) = read_inputs([str(bad)])
    assert failed.error == f"{bad}:1: CSV header has no 'abstract' column (read: 'id', 'text')"


def test_csv_headers_match_ignoring_case_and_spaces(tmp_path: Path) -> None:
    path = tmp_path / "sheet.csv"
    path.write_text('ID, Title ,Abstract,Year\nx1,"A title","' + ABSTRACT + '",2026\n')
    (paper,) = read_inputs([str(path)])
    assert (paper.error, paper.id, paper.title, paper.abstract) == (None, "x1", "A title", ABSTRACT)
    assert paper.metadata == {"Year": "2026"}
    twice = tmp_path / "twice.csv"
    twice.write_text('abstract,Abstract\n"' + ABSTRACT + '","' + ABSTRACT + '"\n')
    (failed,) = read_inputs([str(twice)])
    assert failed.error == f"{twice}:1: CSV header has more than one 'abstract' column (names are matched ignoring case and a 'Paper' before them): 'abstract', 'Abstract'"


def test_an_oversized_csv_field_fails_its_record_and_the_batch_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "big.csv"
    path.write_text(f'id,abstract\nbig,"{"x" * 200_000}"\nsmall,GANQ reaches 83.6% on GSM8K.\n')
    papers = list(read_inputs([str(path), str(path)]))
    assert [p.id for p in papers] == ["big", "small", "big", "small"]
    assert papers[0].error == f"{path}:2: abstract is 200,000 characters, over the 20,000 budget"
    assert not papers[1].error and papers[1].source.line == 3


def test_an_unterminated_quote_fails_its_record_and_the_next_ones_are_read(tmp_path: Path) -> None:
    path = tmp_path / "quote.csv"
    path.write_text(
        'id,abstract\n'
        'p1,"GANQ reaches 83.6% on GSM8K.\n'
        'p2,QuIP reaches 80.1% on GSM8K.\n'
        'p3,"AWQ is ""fast"": 1.5x."\n'
        'p4,"multi\nline 2.5x abstract"\n'
    )
    papers = list(read_inputs([str(path)]))
    assert [p.id for p in papers] == ["input:quote.csv:2", "p2", "p3", "p4"]
    assert papers[0].error.startswith(f"{path}:2: malformed CSV record")
    assert papers[2].abstract == 'AWQ is "fast": 1.5x.'
    assert papers[3].abstract == "multi\nline 2.5x abstract" and papers[3].source.line == 5


def test_an_unterminated_quote_at_the_end_of_a_csv_is_named(tmp_path: Path) -> None:
    path = tmp_path / "end.csv"
    path.write_text('id,abstract\np1,GANQ reaches 83.6% on GSM8K.\np2,"QuIP reaches 80.1%\n')
    papers = list(read_inputs([str(path)]))
    assert [p.id for p in papers] == ["p1", "input:end.csv:3"]
    assert "malformed CSV record" in papers[1].error
