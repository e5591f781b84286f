"""Evidence for the kiosk display decision (docs/hall-setup.md, "Kiosk display").

Checked from Debian's own data, the same packages Raspberry Pi OS uses:

* console fonts (console-setup-linux): which cover every Czech and Slovak letter, and which
  of the block/box characters Textual draws;
* the console keymap that setupcon builds for the cz/sk layouts (ckbcomp, with the compose
  table setupcon picks for them): every letter is typeable, the dead-key letters
  (ď ť ň ó ľ ĺ ŕ ô ä …) through the kernel's dead-key table;
* the Wayland path (cage + foot use xkbcommon): the cz/sk XKB layouts' dead keys and
  libX11's Compose table for UTF-8 locales produce the same letters.

What only a Pi can show (the kernel applies the table, foot renders) is listed in the docs.
"""

from __future__ import annotations

import gzip
import re
import shutil
import struct
import subprocess
import unicodedata
from pathlib import Path

import pytest

from samoobsluha.shared.alphabet import ALPHABETS

CONSOLEFONTS = Path("/usr/share/consolefonts")
XKB = Path("/usr/share/X11/xkb/symbols")
COMPOSE = Path("/usr/share/X11/locale/en_US.UTF-8/Compose")
COMPOSE_DIR = Path("/usr/share/X11/locale/compose.dir")


def letters() -> str:
    """Every Czech and Slovak letter with a diacritic, both cases."""
    lower = {ch for lang in ("cs", "sk") for ch in "".join(ALPHABETS[lang].letters)}
    found = "".join(sorted(ch for ch in lower if not ch.isascii() and len(ch) == 1))
    return found + found.upper()


def psf_unicode(path: Path) -> tuple[int, set[str]]:
    """Glyph count and the characters a PSF1/PSF2 console font maps."""
    with gzip.open(path) as fh:
        data = fh.read()
    chars: set[str] = set()
    if data[:2] == b"\x36\x04":  # PSF1
        mode, height = data[2], data[3]
        count = 512 if mode & 1 else 256
        assert mode & 2, f"{path.name} has no Unicode table"
        pos = 4 + count * height
        while pos + 1 < len(data):
            (code,) = struct.unpack_from("<H", data, pos)
            pos += 2
            if code not in (0xFFFF, 0xFFFE):
                chars.add(chr(code))
        return count, chars
    magic, _v, header, flags, count, size, _h, _w = struct.unpack_from("<8I", data)
    assert magic == 0x864AB572 and flags & 1, f"{path.name}: not a PSF2 font with Unicode"
    for entry in data[header + count * size :].split(b"\xff"):
        chars.update(entry.split(b"\xfe")[0].decode("utf-8"))
    return count, chars


def test_the_alphabet_under_test_is_the_full_czech_and_slovak_set() -> None:
    assert set("áäčďéěíĺľňóôŕřšťúůýž") <= set(letters())
    assert set("ÁÄČĎÉĚÍĹĽŇÓÔŔŘŠŤÚŮÝŽ") <= set(letters())


# Fonts kiosk-lockdown may pick (largest first), all from the Lat2 code set.
SIZES = ("32x16", "28x14", "24x12", "22x11", "20x10", "16")
KIOSK_FONTS = [f"Lat2-TerminusBold{s}.psf.gz" for s in SIZES]


@pytest.mark.parametrize("name", [*KIOSK_FONTS, "Uni2-Terminus32x16.psf.gz"])
def test_kiosk_console_fonts_have_every_czech_and_slovak_letter(name: str) -> None:
    path = CONSOLEFONTS / name
    assert path.is_file(), "console-setup-linux is not installed (./dev setup)"
    _count, chars = psf_unicode(path)
    missing = [ch for ch in letters() if ch not in chars]
    assert missing == []


@pytest.mark.parametrize("name", ["Lat15-Terminus32x16.psf.gz", "Lat7-Terminus32x16.psf.gz"])
def test_other_code_sets_would_lose_letters(name: str) -> None:
    """Why CODESET=Lat2: Western (Lat15) and Baltic (Lat7) sets lack ď ť ľ ŕ …"""
    _count, chars = psf_unicode(CONSOLEFONTS / name)
    assert any(ch not in chars for ch in "ďťľĺŕ")


def test_console_fonts_lack_half_blocks_textual_uses() -> None:
    """A console limit the kiosk must design around (or one reason to prefer foot)."""
    count, chars = psf_unicode(CONSOLEFONTS / "Uni2-Terminus32x16.psf.gz")
    assert count == 512  # the Linux console's ceiling, whatever the font
    assert "█" in chars and "─" in chars and "╭" in chars
    assert not {"▀", "▄", "▔", "▁"} & chars


# Console keymap --------------------------------------------------------------------------
# Kernel dead keys -> the "diacritic" character the kernel looks up in its compose table
# (drivers/tty/vt/keyboard.c, ret_diacr[]); kbd calls the real caron "dead_kcaron".
KERNEL_DIACR = {
    "dead_grave": "`",
    "dead_acute": "'",
    "dead_circumflex": "^",
    "dead_tilde": "~",
    "dead_diaeresis": '"',
    "dead_cedilla": ",",
    "dead_macron": "_",
    "dead_kbreve": "U",
    "dead_abovedot": ".",
    "dead_abovering": "*",
    "dead_kdoubleacute": "=",
    "dead_kcaron": "c",
    "dead_kogonek": "k",
}


def _sym_char(sym: str) -> str | None:
    if sym.startswith("U+"):
        return chr(int(sym[2:], 16))
    if len(sym) == 1:
        return sym
    # Latin-1/2 keysym names such as oacute, Udiaeresis, ocircumflex.
    m = re.fullmatch(r"([A-Za-z])(acute|diaeresis|circumflex|grave|caron|ring|tilde)", sym)
    if m:
        case = "CAPITAL" if m.group(1).isupper() else "SMALL"
        mark = {"ring": "RING ABOVE"}.get(m.group(2), m.group(2).upper())
        return unicodedata.lookup(f"LATIN {case} LETTER {m.group(1).upper()} WITH {mark}")
    return None


def _quoted(token: str) -> str:
    token = token[1:-1]
    return {"\\'": "'", "\\\\": "\\"}.get(token, token)


def console_keymap(layout: str) -> tuple[set[str], dict[str, str], dict[tuple[str, str], str]]:
    """(directly typed characters, dead keysyms -> diacr, compose table) like setupcon."""
    ckbcomp = shutil.which("ckbcomp")
    assert ckbcomp, "console-setup is not installed (./dev setup)"
    # setupcon's choice for cz/sk with CHARMAP=UTF-8: -ccharmap ISO-8859-2 (see setupcon).
    text = subprocess.run(
        [ckbcomp, "-ccharmap", "ISO-8859-2", layout],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    direct: set[str] = set()
    dead: dict[str, str] = {}
    compose: dict[tuple[str, str], str] = {}
    for line in text.splitlines():
        if line.startswith("keycode "):
            for sym in line.split("=", 1)[1].split()[:4]:  # plain, Shift, AltGr, Shift+AltGr
                sym = sym.lstrip("+")
                if sym in KERNEL_DIACR:
                    dead[sym] = KERNEL_DIACR[sym]
                elif (ch := _sym_char(sym)) is not None:
                    direct.add(ch)
        elif m := re.match(r"compose\s+('(?:\\.|[^'])+')\s+('(?:\\.|[^'])+')\s+to\s+(\S+)", line):
            result = _sym_char(m.group(3))
            if result:
                compose[(_quoted(m.group(1)), _quoted(m.group(2)))] = result
    return direct, dead, compose


@pytest.mark.parametrize("layout", ["cz", "sk"])
def test_console_keymap_types_every_letter(layout: str) -> None:
    direct, dead, compose = console_keymap(layout)
    assert {"dead_acute", "dead_kcaron"} <= set(dead)
    unreachable = []
    for ch in letters():
        if ch in direct:
            continue
        via_dead = [
            (sym, base)
            for sym, diacr in dead.items()
            for (d, base), result in compose.items()
            if d == diacr and result == ch and base in direct
        ]
        if not via_dead:
            unreachable.append(ch)
    assert unreachable == []


def test_console_dead_caron_makes_d_t_n_with_caron() -> None:
    direct, dead, compose = console_keymap("cz")
    caron = dead["dead_kcaron"]
    acute = dead["dead_acute"]
    assert compose[(caron, "d")] == "ď"
    assert compose[(caron, "t")] == "ť"
    assert compose[(caron, "n")] == "ň"
    assert compose[(caron, "D")] == "Ď"
    assert compose[(acute, "o")] == "ó"
    assert "ď" not in direct  # really a dead-key letter on the cz layout


# Wayland path (cage + foot, xkbcommon) ---------------------------------------------------
def _xkb_basic(layout: str) -> str:
    text = (XKB / layout).read_text()
    m = re.search(r'xkb_symbols\s+"basic"\s*\{(.*?)\n\};', text, re.S)
    assert m, f"no basic variant in {XKB / layout}"
    return m.group(1)


def _compose_table() -> dict[tuple[str, str], str]:
    table = {}
    for line in COMPOSE.read_text().splitlines():
        m = re.match(r'<(dead_\w+)>\s+<(\w+)>\s*:\s*"([^"]+)"', line)
        if m:
            table[(m.group(1), m.group(2))] = m.group(3)
    return table


@pytest.mark.parametrize("layout", ["cz", "sk"])
def test_xkb_dead_keys_compose_every_dead_key_letter(layout: str) -> None:
    block = _xkb_basic(layout)
    dead_keys = set(re.findall(r"\bdead_\w+", block))
    assert {"dead_acute", "dead_caron"} <= dead_keys
    # AE12 (the key right of "=" on US boards): acute, Shift: caron.
    assert re.search(r"key <AE12>\s*\{\s*\[\s*dead_acute,\s*dead_caron", block)
    table = _compose_table()
    reachable = {v for (d, _base), v in table.items() if d in dead_keys}
    assert [ch for ch in letters() if ch not in reachable] == []
    assert table[("dead_caron", "d")] == "ď" and table[("dead_acute", "o")] == "ó"


def test_c_utf8_locale_uses_that_compose_table() -> None:
    """The kiosk runs with LANG=C.UTF-8; libX11's compose.dir maps it to en_US.UTF-8."""
    entries = re.findall(r"^(\S+?):?\s+C\.UTF-8$", COMPOSE_DIR.read_text(), re.M)
    assert "en_US.UTF-8/Compose" in entries
