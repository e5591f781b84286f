"""Hub addresses as an operator writes them — ``host:port``, ``1.2.3.4:port`` and IPv6
literals in brackets, a scope allowed (``[fe80::1%wlan0]:47820``) — read and written the
same way on the card (``hub provision … --hub``), the station (``[network] hub``,
``--hub``) and in what the hub prints about itself (``listening on [::1]:47820``)."""

from __future__ import annotations

import ipaddress


class AddressError(ValueError):
    """Not a usable ``host:port``; the message (a ``Phrase``) shows the form to use."""


def parse_hostport(text: str, where: str = "hub") -> tuple[str, int]:
    """``host:port``, ``1.2.3.4:port`` or ``[IPv6]:port`` (brackets required for IPv6,
    a scope as in ``[fe80::1%wlan0]:47820`` allowed) → (host, port)."""
    from samoobsluha.shared.i18n import Phrase

    text = str(text).strip()
    example = Phrase("address.err.form", where=where, text=text)
    if text.startswith("["):
        inside, sep, port = text[1:].partition("]:")
        if not sep:
            raise AddressError(example)
        try:
            ipaddress.IPv6Address(inside)
        except ValueError:
            raise AddressError(Phrase("address.err.ipv6", where=where, address=inside)) from None
        host = inside
    else:
        host, _, port = text.rpartition(":")
        if ":" in host:
            raise AddressError(example)  # an IPv6 address without brackets: ambiguous
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise AddressError(example)
    return host, int(port)


def format_hostport(host: str, port: int) -> str:
    """The inverse of :func:`parse_hostport`: IPv6 addresses in brackets."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
