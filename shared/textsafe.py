"""Text that came from a person or a file, made safe to show in a Textual widget.

Textual parses a plain ``str`` given to a Label, a DataTable cell, an OptionList prompt or
a notification as *markup*: ``a[/]b`` raises (and kills the app), ``k[o]čka`` loses its
``[o]``, ``[b]x`` turns bold. Players type brackets (blanks are written in brackets on
score sheets), and names, notes and table specs come from files and from the network.

:func:`literal` is the one way both apps hand such text to a widget: a Rich ``Text`` is
shown exactly as it is, never parsed. Control characters (a stray escape sequence in a
name from a file) are shown as their visible Unicode pictures instead of being sent to the
terminal. ``tests/kiosk/test_kiosk_markup.py`` fails if a widget is given text any other way.
"""

from __future__ import annotations

from rich.text import Text

# C0 controls (except newline and tab) → U+2400 "control pictures"; DEL → ␡; C1 → �.
_CONTROLS = {c: 0x2400 + c for c in range(0x20) if c not in (0x09, 0x0A)}
_CONTROLS[0x7F] = 0x2421
_CONTROLS.update({c: 0xFFFD for c in range(0x80, 0xA0)})


def visible(text: object) -> str:
    """``text`` as a string with control characters replaced by visible stand-ins."""
    return str(text).translate(_CONTROLS)


def literal(text: object) -> Text:
    """``text`` (any object, ``str()``-ed) for a widget, shown literally, never as markup."""
    return Text(visible(text), end="")


def styled(*parts: object) -> Text:
    """Several texts shown literally on one widget, each a plain part or a ``(text, style)``
    pair (an alarm word in red): the same guarantee as :func:`literal`, piece by piece."""
    out = Text(end="")
    for part in parts:
        if isinstance(part, tuple):
            text, style = part
            out.append(visible(text), style=style)
        else:
            out.append(visible(part))
    return out
