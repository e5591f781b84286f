"""A station for a Polish event (``hub provision station --keyboard pl``): the Polish
programmer's layout types every Polish letter with AltGr, on the console (the keymap
setupcon builds with ckbcomp) and under cage + foot (xkbcommon), and the kiosk's console
fonts (Lat2) draw them."""

from __future__ import annotations

import re

import pytest
from test_provision_keyboard_font import (
    CONSOLEFONTS,
    KIOSK_FONTS,
    _xkb_basic,
    console_keymap,
    psf_unicode,
)

from samoobsluha.hub.provision.generator import LAYOUTS
from samoobsluha.shared.alphabet import POLISH

LETTERS = "".join(sorted(ch for ch in POLISH.letters if not ch.isascii()))
BOTH = LETTERS + LETTERS.upper()


def test_polish_is_a_layout_a_card_can_get() -> None:
    assert "pl" in LAYOUTS
    assert LETTERS == "óąćęłńśźż"


def test_the_console_keymap_types_every_polish_letter_with_altgr() -> None:
    direct, _dead, _compose = console_keymap("pl")
    assert [ch for ch in BOTH if ch not in direct] == []


def test_the_xkb_layout_has_every_polish_letter_on_altgr() -> None:
    block = _xkb_basic("pl")
    assert 'include "latin"' in block and 'include "level3(ralt_switch)"' in block
    block += _xkb_basic("latin")  # ł: latin's AltGr+L, which pl includes
    names = {
        "ą": "aogonek", "ć": "cacute", "ę": "eogonek", "ł": "lstroke", "ń": "nacute",
        "ó": "oacute", "ś": "sacute", "ź": "zacute", "ż": "zabovedot",
    }  # fmt: skip
    for letter, sym in names.items():
        upper = sym[0].upper() + sym[1:]
        assert re.search(rf"\[\s*\w+,\s*\w+,\s*{sym},\s*{upper}\s*\]", block), letter


@pytest.mark.parametrize("name", KIOSK_FONTS)
def test_kiosk_console_fonts_draw_every_polish_letter(name: str) -> None:
    _count, chars = psf_unicode(CONSOLEFONTS / name)
    assert [ch for ch in BOTH if ch not in chars] == []
