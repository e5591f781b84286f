"""The hall screen's settings: ``[screen]`` in ``<data dir>/hub.toml``.

::

    [screen]
    enabled = true          # false: no web server at all
    host = "192.168.8.1"    # listen on this address only (default: the hub's --host)
    interface = "wlan0"     # or: listen on this interface's IPv4 address
    port = 8080
    lang = "cs"             # the page's default language (cs, sk, en, pl)
    max_clients = 1000      # live pages at once; more get "busy" and retry
    wifi = "SAMOOBSLUHA-HRACI"   # the players' network the phones join (printed + QR)
    wifi_password = "…"     # its password, printed on the pairings ("" or absent: open)
    # bounds against a hostile hall LAN (hub.web.limits, docs/network.md)
    max_connections = 1024  # open connections in total (at most 1/4 of the fd limit)
    connections_per_address = 16
    pages_per_address = 4   # live pages from one address (phone, laptop)
    header_timeout = 10     # seconds to send a complete request head
    projector = ["192.168.8.20"]   # addresses (or networks) with a reserve; loopback always

The projector is also recognised by a token in its address, whatever address it comes from:
``hub serve`` prints ``http://HUB:8080/projector?k=TOKEN``; the token is made once per data
directory (``<data dir>/projector.token``, mode 0600; delete it for a new one; it travels in
the hub's backups and standby copies, so a restored or taken-over hub keeps it) and gives the
page's live stream a reserve of its own that no other device's streams count against
(hub.web.limits, docs/network.md).

Phones never join the stations' hall network: they join the players' own network, on
which the hub's web server is the only thing of ours (docs/hall-setup.md, docs/screen.md).

``hub serve --no-screen`` / ``--screen-port`` override the file for one run.
"""

from __future__ import annotations

import ipaddress
import os
import resource
import secrets
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from samoobsluha.shared.i18n import LANGUAGES, Phrase, reason

DEFAULT_PORT = 8080
CONFIG_NAME = "hub.toml"


DEFAULT_PROJECTOR = ("127.0.0.1", "::1")
TOKEN_NAME = "projector.token"


@dataclass
class WebLimits:
    """How much of the hub one device on the hall LAN may hold (hub.web.limits)."""

    max_connections: int = 1024  # open connections in total (also capped by descriptor_share)
    per_address: int = 16  # open connections from one address (a phone needs 2-3)
    streams_per_address: int = 4  # live pages (/events) from one address
    max_streams: int = 1000  # live pages in total
    header_timeout: float = 10.0  # from accept (or the last answer) to a complete request head
    write_timeout: float = 15.0  # a live page that reads nothing for this long is dropped
    projector: tuple[str, ...] = DEFAULT_PROJECTOR  # addresses or networks with a reserve
    reserved: int = 8  # connections and live pages kept for the projector beyond every cap

    def effective_max_connections(self) -> int:
        return max(1, min(self.max_connections, descriptor_share()))


def descriptor_share(fraction: float = 0.25) -> int:
    """The web server's share of the process's open-file limit (a quarter: the unit's
    LimitNOFILE=4096 gives it 1,024; the station link, the databases, zeroconf and the
    control socket keep the rest)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return 1 << 20
    return max(16, int(soft * fraction))


class ScreenConfigError(ValueError):
    """hub.toml's [screen] section is malformed; the message says where."""


@dataclass
class ScreenSettings:
    enabled: bool = True
    host: str | None = None  # None: the hub's own --host
    interface: str | None = None
    port: int = DEFAULT_PORT
    lang: str = "cs"
    max_clients: int = 1000
    wifi: str | None = None  # the players' network name, printed with a join QR code
    wifi_password: str = ""
    limits: WebLimits = field(default_factory=WebLimits)
    projector_token: str = ""  # the projector's token ("" in settings that were not loaded)

    def bind_address(self, hub_host: str) -> str:
        """The one address to listen on."""
        if self.interface:
            return interface_address(self.interface)
        return self.host if self.host else hub_host


def valid_token(token: str) -> bool:
    return (
        len(token) >= 16 and token.isascii() and token.replace("-", "").replace("_", "").isalnum()
    )


def read_token(data: Path) -> str | None:
    """The projector's token in ``<data>/projector.token``, or None (none, or not one)."""
    try:
        token = (data / TOKEN_NAME).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return token if valid_token(token) else None


def projector_token(data: Path) -> str:
    """The token in the projector's address (``/projector?k=TOKEN``): read from
    ``<data>/projector.token``, made there (random, 0600) the first time. The owner of the
    token: the hall screen recognises the projector by it (hub.web.server). It travels in
    the automatic backups and the standby's copies, and ``hub restore`` / ``hub takeover``
    put it back (hub/backup.py): the projector's address stays the same on the spare."""
    token = read_token(data)
    if token is not None:
        return token
    token = secrets.token_urlsafe(18)
    write_token(data, token)
    return token


def write_token(data: Path, token: str) -> None:
    """``<data>/projector.token`` (0600) becomes ``token``, in one rename."""
    path = data / TOKEN_NAME
    data.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(token + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def load(data: Path) -> ScreenSettings:
    out = _load(data)
    if out.enabled:
        out.projector_token = projector_token(data)
    return out


def _load(data: Path) -> ScreenSettings:
    path = data / CONFIG_NAME
    if not path.exists():
        return ScreenSettings()
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ScreenConfigError(
            Phrase("config.err.toml", path=str(path), error=reason(exc))
        ) from None
    where = {"path": str(path), "section": "screen"}
    section: Any = raw.get("screen", {})
    if not isinstance(section, dict):
        raise ScreenConfigError(Phrase("config.err.table", path=str(path), name="screen"))
    known = {
        "enabled",
        "host",
        "interface",
        "port",
        "lang",
        "max_clients",
        "wifi",
        "wifi_password",
        "projector",
        *LIMIT_KEYS,
    }
    unknown = set(section) - known
    if unknown:
        keys = ", ".join(sorted(unknown))
        raise ScreenConfigError(Phrase("config.err.unknown_keys", **where, keys=keys))
    out = ScreenSettings()
    enabled = section.get("enabled", True)
    if not isinstance(enabled, bool):
        raise ScreenConfigError(Phrase("config.err.bool", **where, key="enabled"))
    out.enabled = enabled
    for key in ("host", "interface", "wifi"):
        value = section.get(key)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise ScreenConfigError(Phrase("config.err.text", **where, key=key))
        setattr(out, key, value.strip() if isinstance(value, str) else None)
    port = section.get("port", DEFAULT_PORT)
    if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
        raise ScreenConfigError(Phrase("config.err.range", **where, key="port", low=0, high=65535))
    out.port = port
    lang = section.get("lang", "cs")
    if lang not in LANGUAGES:
        choices = ", ".join(LANGUAGES)
        raise ScreenConfigError(Phrase("config.err.one_of", **where, key="lang", choices=choices))
    out.lang = lang
    limit = section.get("max_clients", 1000)
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise ScreenConfigError(Phrase("config.err.positive", **where, key="max_clients"))
    out.max_clients = limit
    password = section.get("wifi_password", "")
    if not isinstance(password, str):
        raise ScreenConfigError(Phrase("config.err.string", **where, key="wifi_password"))
    out.wifi_password = password
    out.limits.max_streams = limit
    for key, attr in LIMIT_KEYS.items():
        value = section.get(key, getattr(out.limits, attr))
        if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
            raise ScreenConfigError(Phrase("config.err.positive", **where, key=key))
        setattr(out.limits, attr, type(getattr(out.limits, attr))(value))
    projector = section.get("projector", [])
    if not isinstance(projector, list) or not all(isinstance(p, str) for p in projector):
        raise ScreenConfigError(Phrase("config.err.addresses", **where, key="projector"))
    for entry in projector:
        try:
            ipaddress.ip_network(entry.strip(), strict=False)
        except ValueError:
            raise ScreenConfigError(
                Phrase("config.err.network", **where, key="projector", entry=entry)
            ) from None
    out.limits.projector = (*DEFAULT_PROJECTOR, *(p.strip() for p in projector))
    return out


# [screen] key -> WebLimits attribute
LIMIT_KEYS = {
    "max_connections": "max_connections",
    "connections_per_address": "per_address",
    "pages_per_address": "streams_per_address",
    "header_timeout": "header_timeout",
}


def interface_address(name: str) -> str:
    """The IPv4 address of network interface ``name`` (ifaddr comes with zeroconf)."""
    import ifaddr

    for adapter in ifaddr.get_adapters():
        if adapter.nice_name == name or adapter.name == name:
            for ip in adapter.ips:
                if ip.is_IPv4:
                    return str(ip.ip)
            raise ScreenConfigError(Phrase("screen.err.no_ipv4", name=name))
    raise ScreenConfigError(Phrase("screen.err.no_interface", name=name))


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, for a server listening on all
    interfaces (0.0.0.0): what the hall screen prints and what mDNS advertises. ifaddr
    comes with zeroconf."""
    import ifaddr

    found = {
        str(ip.ip)
        for adapter in ifaddr.get_adapters()
        for ip in adapter.ips
        if ip.is_IPv4 and not str(ip.ip).startswith("127.")
    }
    return sorted(found) or ["127.0.0.1"]
