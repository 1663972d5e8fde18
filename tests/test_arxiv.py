from extractor.catalog.normalize import arxiv_id
from extractor.pipeline.ingest import paper_id
from extractor.text.arxiv import find_arxiv_id


def test_an_id_is_found_bare_in_a_url_or_named() -> None:
    assert find_arxiv_id(["2401.01234v2"]) == "2401.01234"
    assert find_arxiv_id([None, 3, "https://arxiv.org/abs/2312.11805"]) == "2312.11805"
    assert find_arxiv_id(["see arXiv:2401.10100 for code"]) == "2401.10100"
    assert find_arxiv_id(["v2 of 12.345", "no id here"]) is None


def test_ingest_and_the_leaderboard_read_ids_the_same_way() -> None:
    metadata = {"url": "https://arxiv.org/pdf/2401.10100v3"}
    assert paper_id("An abstract.", None, metadata) == arxiv_id("p-x", metadata) == "2401.10100"
    assert paper_id("We cite arXiv:2402.00001 here.") == "2402.00001"
