"""The hall screen's settings: ``[screen]`` in ``<data dir>/hub.toml``.

::

    [screen]
    enabled = true          # false: no web server at all
    host = "192.168.8.1"    # listen on this address only (default: the hub's --host)
    interface = "wlan0"     # or: listen on this interface's IPv4 address
    port = 8080
    lang = "cs"             # the page's default language (cs, sk, en)
    max_clients = 1000      # live pages at once; more get "busy" and retry
    wifi = "SAMOOBSLUHA-HRACI"   # the players' network the phones join (printed + QR)
    wifi_password = "…"     # its password, printed on the pairings ("" or absent: open)

Phones never join the stations' hall network: they join the players' own network, on
which the hub's web server is the only thing of ours (docs/hall-setup.md, docs/screen.md).

``hub serve --no-screen`` / ``--screen-port`` override the file for one run.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from samoobsluha.shared.i18n import LANGUAGES

DEFAULT_PORT = 8080
CONFIG_NAME = "hub.toml"


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

    def bind_address(self, hub_host: str) -> str:
        """The one address to listen on."""
        if self.interface:
            return interface_address(self.interface)
        return self.host if self.host else hub_host


def load(data: Path) -> ScreenSettings:
    path = data / CONFIG_NAME
    if not path.exists():
        return ScreenSettings()
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ScreenConfigError(f"{path}: {exc}") from None
    section: Any = raw.get("screen", {})
    if not isinstance(section, dict):
        raise ScreenConfigError(f"{path}: [screen] must be a table")
    known = {
        "enabled",
        "host",
        "interface",
        "port",
        "lang",
        "max_clients",
        "wifi",
        "wifi_password",
    }
    unknown = set(section) - known
    if unknown:
        raise ScreenConfigError(f"{path}: unknown [screen] keys {sorted(unknown)}")
    out = ScreenSettings()
    enabled = section.get("enabled", True)
    if not isinstance(enabled, bool):
        raise ScreenConfigError(f"{path}: [screen] enabled must be true or false")
    out.enabled = enabled
    for key in ("host", "interface", "wifi"):
        value = section.get(key)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise ScreenConfigError(f"{path}: [screen] {key} must be a non-empty string")
        setattr(out, key, value.strip() if isinstance(value, str) else None)
    port = section.get("port", DEFAULT_PORT)
    if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
        raise ScreenConfigError(f"{path}: [screen] port must be 0..65535")
    out.port = port
    lang = section.get("lang", "cs")
    if lang not in LANGUAGES:
        raise ScreenConfigError(f"{path}: [screen] lang must be one of {', '.join(LANGUAGES)}")
    out.lang = lang
    limit = section.get("max_clients", 1000)
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise ScreenConfigError(f"{path}: [screen] max_clients must be a positive number")
    out.max_clients = limit
    password = section.get("wifi_password", "")
    if not isinstance(password, str):
        raise ScreenConfigError(f"{path}: [screen] wifi_password must be a string")
    out.wifi_password = password
    return out


def interface_address(name: str) -> str:
    """The IPv4 address of network interface ``name`` (ifaddr comes with zeroconf)."""
    import ifaddr

    for adapter in ifaddr.get_adapters():
        if adapter.nice_name == name or adapter.name == name:
            for ip in adapter.ips:
                if ip.is_IPv4:
                    return str(ip.ip)
            raise ScreenConfigError(f"interface {name} has no IPv4 address")
    raise ScreenConfigError(f"no network interface {name}")


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
