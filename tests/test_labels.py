from extractor.text.labels import paper_label


def test_a_paper_is_named_by_its_title_s_name_or_first_words_else_its_id() -> None:
    assert paper_label("BiDAF: Bidirectional Attention Flow for Machine Comprehension", "1611.01603") == "BiDAF"
    assert paper_label("Attention Is All You Need", "1706.03762") == "Attention Is All You Need"
    assert paper_label("Full - Resolution Residual Networks for Semantic Segmentation in Street Scenes", "x") == (
        "Full - Resolution Residual Networks for\u2026"
    )
    assert paper_label("A very long survey title that says: many things about many models", "x") == "A very long survey title that\u2026"
    assert paper_label(None, "p-534a20f04ec7") == paper_label("  ", "p-534a20f04ec7") == "p-534a20f04ec7"
