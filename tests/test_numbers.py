import pytest

from extractor.text.numbers import find_numbers


def values(text: str) -> list[float]:
    return [m.value for m in find_numbers(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("scoring 1,552 questions", [1552.0]),
        ("up to 2.57times speedup", [2.57]),
        ("reaches 83.6% accuracy", [83.6]),
        ("9--34 accuracy points", [9.0, -34.0]),
        ("~24% to ~27%", [24.0, 27.0]),
        ("5-task average -0.52", [5.0, -0.52]),
        ("a rate of 1.5e-3", [0.0015]),
        ("GPT-5.2 and Qwen3.5 and W4A4", [5.2]),
        ("(+14-19%)", [14.0, 19.0]),
    ],
)
def test_values(text: str, expected: list[float]) -> None:
    assert values(text) == expected


def test_spans_point_at_the_written_number() -> None:
    text = "lowers perplexity to 5.31 at 32K context"
    first, second = find_numbers(text)
    assert text[first.start : first.end] == "5.31"
    assert text[second.start : second.end] == "32K"
    assert second.matches(32) and second.matches(32_000)


def test_range_dash_is_not_a_minus_sign() -> None:
    (low, high) = find_numbers("between 13-38% of answers")
    assert low.value == 13 and high.value == 38
