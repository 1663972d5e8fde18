"""The inputs researchers actually have: a workbook, a semicolon CSV, JSONL keys in title case,
and abstracts pasted with their titles."""

from pathlib import Path

from openpyxl import Workbook

from extractor.api import run
from extractor.errors import InputError
from extractor.pipeline.ingest import is_title_line, read_inputs
from extractor.pipeline.guard import input_paths

ABSTRACT = "We propose GANQ. It reaches 83.6% accuracy on GSM8K, a strong result for 3-bit models."
OTHER = "Sparse attention is slow on GPUs. Our kernel reaches a 2.1x speedup over FlashAttention-2 on long inputs."


def _book(path: Path, sheets: dict[str, list[list]]) -> Path:
    book = Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
    book.save(path)
    return path


def test_a_workbook_is_read_with_csv_column_rules_and_ids_as_written(tmp_path: Path) -> None:
    path = _book(tmp_path / "papers.xlsx", {"Papers": [
        ["ID", "Title", "Abstract", "URL"],
        ["2401.10100", "GANQ", ABSTRACT, "https://arxiv.org/abs/2401.10100"],
        [None, None, None, None],
        [2401.101, "Kernel", OTHER, None],
    ]})
    book = __import__("openpyxl").load_workbook(path)
    book["Papers"]["A4"].number_format = "0.00000"
    book.save(path)
    papers = list(read_inputs([str(path)]))
    assert [p.error for p in papers] == [None, None]
    assert [p.id for p in papers] == ["2401.10100", "2401.10100"]  # text as typed; a number as formatted
    assert papers[0].title == "GANQ" and papers[0].metadata["URL"].endswith("2401.10100")
    assert [p.source.line for p in papers] == [2, 4]


def test_a_named_worksheet_is_read_and_a_missing_one_is_named(tmp_path: Path) -> None:
    path = _book(tmp_path / "book.xlsx", {
        "Notes": [["nothing here"]],
        "Results": [["abstract", "id"], [ABSTRACT, 7]],
    })
    [paper] = list(read_inputs([f"{path}#Results"]))
    assert paper.error is None and paper.id == "7"
    [first] = list(read_inputs([str(path)]))
    assert "worksheet header has no 'abstract' column (read: 'nothing here')" in first.error
    [missing] = list(read_inputs([f"{path}#Sheet9"]))
    assert "no worksheet 'Sheet9'" in missing.error and "'Results'" in missing.error


def test_a_run_of_a_named_worksheet_is_accepted_and_is_not_the_run_of_another(tmp_path: Path) -> None:
    path = _book(tmp_path / "book.xlsx", {"Notes": [["abstract"], [OTHER]], "To read": [["abstract"], [ABSTRACT]]})
    summary = run([f"{path}#To read"], tmp_path / "run")
    assert summary.info["counts"]["ok"] == 1
    assert input_paths([f"{path}#To read"]) != input_paths([f"{path}#Notes"]) != input_paths([str(path)])
    try:
        run([f"{tmp_path / 'missing.xlsx'}#To read"], tmp_path / "other")
    except InputError as error:
        assert "missing.xlsx#To read: no such file" in str(error)
    else:
        raise AssertionError("a missing workbook was accepted")


def test_an_xls_or_broken_workbook_fails_by_name(tmp_path: Path) -> None:
    (tmp_path / "old.xls").write_bytes(b"\xd0\xcf\x11\xe0 not really")
    (tmp_path / "bad.xlsx").write_bytes(b"PK not a zip")
    old, bad = (list(read_inputs([str(tmp_path / n)]))[0] for n in ("old.xls", "bad.xlsx"))
    assert "old.xls" in old.error and "save it as .xlsx or CSV" in old.error
    assert "bad.xlsx" in bad.error and "not a readable .xlsx workbook" in bad.error


def test_a_semicolon_csv_is_read_and_a_wrong_header_is_shown(tmp_path: Path) -> None:
    path = tmp_path / "europe.csv"
    path.write_text(f'Title;Abstract;URL\nGANQ;"{ABSTRACT}";https://arxiv.org/abs/2401.10100\n', encoding="utf-8")
    [paper] = list(read_inputs([str(path)]))
    assert paper.error is None and paper.title == "GANQ" and paper.id == "2401.10100"
    wrong = tmp_path / "wrong.csv"
    wrong.write_text("Titel;Zusammenfassung\nA;B\n", encoding="utf-8")
    [failed] = list(read_inputs([str(wrong)]))
    assert "no 'abstract' column (read: 'Titel', 'Zusammenfassung')" in failed.error


def test_jsonl_keys_are_matched_as_csv_headers(tmp_path: Path) -> None:
    path = tmp_path / "papers.jsonl"
    path.write_text(
        f'{{"ID": "a", "Abstract": "{ABSTRACT}", "Title": "GANQ"}}\n'
        f'{{"abstract": "{OTHER}", "Abstract": "{ABSTRACT}"}}\n',
        encoding="utf-8",
    )
    good, doubled = read_inputs([str(path)])
    assert (good.error, good.id, good.title) == (None, "a", "GANQ")
    assert "papers.jsonl:2" in doubled.error and "more than one 'abstract'" in doubled.error


def test_pasted_titles_go_with_their_abstracts(tmp_path: Path) -> None:
    path = tmp_path / "pasted.txt"
    path.write_text(
        "Daily Papers\n\n"
        "GANQ: GPU-Adaptive Non-Uniform Quantization for Large Language Models\n\n"
        f"{ABSTRACT}\n\n"
        "Fast Sparse Attention Kernels for Long Inputs\n"
        f"{OTHER}\n\n"
        "Sparse attention is slow on GPUs because its memory access is irregular and\n"
        "our kernel reaches a 2.1x speedup over FlashAttention-2 on long inputs of 64K.\n",
        encoding="utf-8",
    )
    papers = list(read_inputs([str(path)]))
    assert [p.title for p in papers] == [
        "GANQ: GPU-Adaptive Non-Uniform Quantization for Large Language Models",
        "Fast Sparse Attention Kernels for Long Inputs",
        None,
    ]
    assert [p.abstract for p in papers[:2]] == [ABSTRACT, OTHER]
    assert papers[2].abstract.startswith("Sparse attention is slow on GPUs because")


def test_what_is_a_title_line() -> None:
    assert is_title_line("Attention Is All You Need")
    assert is_title_line("BiDAF: Bidirectional Attention Flow for Machine Comprehension")
    assert not is_title_line("Daily Papers")
    assert not is_title_line("We propose a method that is fast.")
    assert not is_title_line("Sparse attention is slow on GPUs because its memory access is irregular and")
    assert not is_title_line("A" * 10 + " Long " * 40)


def test_paper_id_and_paper_title_headers_are_the_id_and_the_title(tmp_path: Path) -> None:
    path = tmp_path / "papers.csv"
    path.write_text(f'Paper ID,Paper Title,paper_abstract,Venue\nx1,GANQ,"{ABSTRACT}",ICLR\n', encoding="utf-8")
    [paper] = read_inputs([str(path)])
    assert (paper.error, paper.id, paper.title, paper.metadata) == (None, "x1", "GANQ", {"Venue": "ICLR"})


MISTRAL = (
    "We introduce Mistral 7B, a 7-billion-parameter language model engineered for superior performance "
    "and efficiency. Mistral 7B outperforms Llama 2 13B across all evaluated benchmarks."
)
AUTHORS = "Albert Q. Jiang, Alexandre Sablayrolles, Diego de las Casas, Marie-Anne Lachaux1, Teven Le Scao*"


def test_a_short_title_and_an_author_line_are_told_from_the_abstract(tmp_path: Path) -> None:
    path = tmp_path / "pasted.txt"
    path.write_text(
        "Daily Papers\n\n"
        f"Mistral 7B\n{AUTHORS}\n{MISTRAL}\n\n"
        f"Mistral 7B\n\n{AUTHORS}\n\n{MISTRAL.replace('13B', '34B')}\n\n"
        f"Fast Sparse Attention Kernels for Long Inputs\nJane Doe and John Smith\n{OTHER}\n",
        encoding="utf-8",
    )
    papers = list(read_inputs([str(path)]))
    assert [(p.title, p.metadata.get("authors")) for p in papers] == [
        ("Mistral 7B", AUTHORS),
        ("Mistral 7B", AUTHORS),
        ("Fast Sparse Attention Kernels for Long Inputs", "Jane Doe and John Smith"),
    ]
    assert [p.abstract for p in papers] == [MISTRAL, MISTRAL.replace("13B", "34B"), OTHER]


def test_what_is_an_author_line() -> None:
    from extractor.pipeline.ingest import is_author_line

    assert is_author_line(AUTHORS)
    assert is_author_line("Jane Doe, John Smith et al.")
    assert not is_author_line("Jane Doe")  # one name: a heading as much as an author
    assert not is_author_line("Large Language Models (LLMs), Vision Transformers and Diffusion Models dominate")
    assert not is_author_line(MISTRAL)
