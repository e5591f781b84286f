"""A Polish hall's rehearsal asks every station to type the Polish letters (its keyboards
have ą … ż and no ě or ů), and the record says which line it asked for."""

from __future__ import annotations

from samoobsluha.hub import rehearse
from samoobsluha.station.rehearse import missing_letters


def test_the_test_line_follows_the_rehearsals_language() -> None:
    assert rehearse.letters_for("pl") == "ąćęłńóśźż"
    assert rehearse.letters_for("cs") == rehearse.TEST_LETTERS == rehearse.letters_for("sk")
    polish = rehearse.letters_for("pl")
    assert missing_letters(polish, "ąćęłńóśźż") == ""
    assert missing_letters(polish, "ĄĆĘŁŃÓŚŹŻ") == ""  # Caps Lock is fine
    assert missing_letters(polish, "acelnoszz") == polish  # no AltGr letters at all
    assert missing_letters(polish, "ąćęłńóśż") == "ź"


def test_what_the_control_socket_accepts_as_a_test_line() -> None:
    assert rehearse.checked_letters("ąćęłńóśźż") == "ąćęłńóśźż"
    for bad in (None, "", "a b", "x" * 41, "<script>", 5):
        assert rehearse.checked_letters(bad) == rehearse.TEST_LETTERS


def test_the_record_names_the_line_it_asked_for() -> None:
    from samoobsluha.shared.i18n import t

    assert t("rehearse.keyboard.ok", "pl", letters=rehearse.letters_for("pl")) == (
        "doszła każda litera z ąćęłńóśźż"
    )
    assert "ěščřžýáíéúůďťň" in t("rehearse.keyboard.ok", "cs", letters=rehearse.letters_for("cs"))
