import unicodedata

import pytest

from samoobsluha.shared.alphabet import CZECH, SLOVAK
from samoobsluha.shared.i18n import refusal
from samoobsluha.shared.normalize import Reason, Word, WordRefused, normalize_word, normalize_words


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ("kůň", "kůň"),
        ("KŮŇ", "kůň"),
        ("  Kůň ", "kůň"),
        (unicodedata.normalize("NFD", "kůň"), "kůň"),  # dead keys may send decomposed text
        ("c+a-p", "čáp"),
        ("C+A-P", "čáp"),
        ("ku+n+", "kůň"),
        ("r+e+pa", "řěpa"),
        ("d+a-bel", "ďábel"),
        ("t+u-z+e", "ťúže"),
        ("y-s", "ýs"),
        ("e-ro", "éro"),
        ("i-ri", "íri"),
        ("o-da", "óda"),
    ],
)
def test_czech_normalisation(raw, text):
    assert normalize_word(raw, CZECH) == Word(text)


@pytest.mark.parametrize(
    ("raw", "text"),
    [("ma+so", "mäso"), ("ko+n", "kôn"), ("l+ad", "ľad"), ("l-n+", "ĺň"), ("r-b", "ŕb")],
)
def test_slovak_sit_notation(raw, text):
    assert normalize_word(raw, SLOVAK).text == text


def test_blank_brackets_are_removed_and_remembered():
    word = normalize_word("REC(I)E", CZECH)
    assert word == Word("recie", (3,))
    assert word.face == "REC(I)E"
    two = normalize_word("(k)ů(ň)", CZECH)
    assert two.blanks == (0, 2)
    assert two.face == "(K)Ů(Ň)"
    run = normalize_word("do(mo)v", CZECH)
    assert run.blanks == (2, 3)
    assert run.face == "DO(MO)V"


@pytest.mark.parametrize(
    ("raw", "reason", "detail"),
    [
        ("", Reason.EMPTY, ""),
        ("   ", Reason.EMPTY, ""),
        ("a", Reason.TOO_SHORT, "1"),
        ("(a)", Reason.TOO_SHORT, "1"),
        ("a" * 16, Reason.TOO_LONG, "16"),
        ("nejneobhospodařovávatelnějšími", Reason.TOO_LONG, "30"),
        ("kůň1", Reason.BAD_CHAR, "1"),
        ("möbel", Reason.BAD_CHAR, "ö"),
        ("mäso", Reason.BAD_CHAR, "ä"),
        ("kůň!", Reason.BAD_CHAR, "!"),
        ("ab cd", Reason.BAD_CHAR, " "),
        ("re(c", Reason.BRACKETS, ""),
        ("rec)", Reason.BRACKETS, ""),
        ("re()c", Reason.BRACKETS, ""),
        ("r((e))c", Reason.BRACKETS, ""),
    ],
)
def test_refusals_name_the_problem(raw, reason, detail):
    with pytest.raises(WordRefused) as info:
        normalize_word(raw, CZECH)
    assert info.value.reason is reason
    assert info.value.detail == detail
    assert str(info.value)  # an English message for logs
    assert refusal(info.value, "cs")  # and a Czech one for the screen


def test_fifteen_letters_fit_the_board():
    assert len(normalize_word("a" * 15, CZECH).text) == 15


def test_slovak_blank_only_letters_are_accepted():
    assert normalize_word("wörter", SLOVAK).text == "wörter"


def test_refusal_message_names_the_character_in_czech():
    with pytest.raises(WordRefused) as info:
        normalize_word("möbel", CZECH)
    assert "ö" in refusal(info.value, "cs")
    with pytest.raises(WordRefused) as info:
        normalize_word("ab cd", CZECH)
    assert "mezera" in refusal(info.value, "cs")


def test_normalize_words_splits_a_play():
    words = normalize_words("kůň, c+a-p  ryba", CZECH)
    assert [w.text for w in words] == ["kůň", "čáp", "ryba"]
    with pytest.raises(WordRefused):
        normalize_words("  ", CZECH)
