import pytest

from samoobsluha.shared.alphabet import CZECH, SLOVAK, get_alphabet


@pytest.mark.parametrize("alphabet", [CZECH, SLOVAK], ids=["cs", "sk"])
def test_standard_sets_have_100_tiles_and_two_blanks(alphabet):
    assert alphabet.tile_count == 100
    assert alphabet.blanks == 2


@pytest.mark.parametrize(
    ("alphabet", "letter", "value"),
    [(CZECH, "a", 1), (CZECH, "ď", 8), (CZECH, "x", 10), (CZECH, "ň", 6), (CZECH, "ů", 4),
     (SLOVAK, "ä", 10), (SLOVAK, "ô", 8), (SLOVAK, "ľ", 7), (SLOVAK, "o", 1)],
)  # fmt: skip
def test_letter_values(alphabet, letter, value):
    assert alphabet.value(letter) == value
    assert alphabet.value(letter.upper()) == value


def test_czech_has_no_ch_q_w_tiles_but_blank_can_be_q_or_w():
    assert "ch" not in CZECH.tiles
    assert not {"q", "w"} & set(CZECH.tiles)
    assert {"q", "w"} <= CZECH.letters
    assert CZECH.value("w") == 0


def test_slovak_blank_letters_are_configured():
    assert {"w", "q", "ö", "ü", "ě", "ř"} == set(SLOVAK.blank_only)
    assert not SLOVAK.blank_only & set(SLOVAK.tiles)
    assert "ä" not in CZECH.letters


def test_score_counts_blanks_as_zero():
    # k=1 ů=4 ň=6
    assert CZECH.score("kůň") == 11
    assert CZECH.score("kůň", blanks=[2]) == 5


def test_sort_key_puts_hacek_letters_after_their_base():
    words = ["cop", "čáp", "dům", "ďas", "zub", "žák"]
    assert sorted(reversed(words), key=CZECH.sort_key) == words


def test_unknown_language_names_the_choices():
    with pytest.raises(KeyError, match="cs, pl, sk"):
        get_alphabet("de")
