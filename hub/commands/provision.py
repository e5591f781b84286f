"""``hub provision station|hub|key``: first-boot files for Raspberry Pi OS cards.

See ``hub/provision`` for what is written and ``docs/hall-setup.md`` for the whole evening.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from samoobsluha.hub.provision.generator import (
    LAYOUTS,
    NetworkSpec,
    ProvisionError,
    ProvisionSpec,
    hash_password,
    new_psk,
    new_tournament_id,
    write,
)
from samoobsluha.shared.i18n import Phrase, cli_language, error_text, localize, reason, t
from samoobsluha.shared.paths import write_private


def _read_key(path: Path, *, create: bool) -> str:
    if path.is_file():
        return path.read_text(encoding="utf-8").strip()
    if not create:
        raise ProvisionError(Phrase("provision.err.no_psk", path=str(path)))
    path.parent.mkdir(parents=True, exist_ok=True)
    key = new_psk()
    write_private(path, key + "\n")
    print(t("provision.new_secret", cli_language(), path=str(path)))
    return key


def _tournament(args: argparse.Namespace, role: str) -> str | None:
    """--tournament, else the id kept beside the key file (the hub card writes it there)."""
    id_file = Path(args.psk_file).with_name("tournament.id")
    if args.tournament:
        if role == "hub":
            id_file.write_text(args.tournament + "\n", encoding="utf-8")
        return str(args.tournament)
    if id_file.is_file():
        return id_file.read_text(encoding="utf-8").strip()
    if role == "hub":
        tournament = new_tournament_id()
        id_file.write_text(tournament + "\n", encoding="utf-8")
        print(t("provision.new_tournament", cli_language(), id=tournament, path=str(id_file)))
        return tournament
    raise ProvisionError(Phrase("provision.err.no_tournament", path=str(id_file)))


def _kiosk_size(value: str) -> tuple[int, int]:
    match = re.fullmatch(r"(\d+)x(\d+)", value)
    if not match:
        raise argparse.ArgumentTypeError("expected COLSxROWS, e.g. 80x24")
    return int(match.group(1)), int(match.group(2))


def _spec(args: argparse.Namespace, role: str) -> ProvisionSpec:
    password_hash = args.password_hash
    if args.password_file:
        password = Path(args.password_file).read_text(encoding="utf-8").rstrip("\n")
        password_hash = hash_password(password)
    wifi_password = None
    if args.wifi_password_file:
        wifi_password = Path(args.wifi_password_file).read_text(encoding="utf-8").rstrip("\n")
    network = NetworkSpec(
        wifi_ssid=args.wifi_ssid,
        wifi_password=wifi_password,
        country=args.wifi_country,
        address=args.address,
        gateway=args.gateway,
        dns=tuple(args.dns or ()),
    )
    keys = tuple(Path(k).read_text(encoding="utf-8").strip() for k in args.ssh_key or ())
    spec = ProvisionSpec(
        role=role,  # type: ignore[arg-type]
        hostname=args.name,
        psk=_read_key(Path(args.psk_file), create=role == "hub"),
        admin_user=args.user,
        ssh_keys=keys,
        password_hash=password_hash,
        keyboard=args.keyboard,
        timezone=args.timezone,
        network=network,
        image=args.image,
        tournament_id=_tournament(args, role),
        overlay=not args.no_overlay,
    )
    if role == "hub":
        spec.standby_port = args.standby_port
        spec.standby_of = args.standby_of
    if role == "station":
        spec.ui_language = args.ui_language
        spec.lexicon_language = args.lexicon_language
        if args.lexicon:
            spec.lexicon_file = Path(args.lexicon[0]).name
        spec.hub_address = args.hub
        spec.hub_name = args.hub_name
        spec.referee_pin_hash = _referee_pin(args)
        spec.display = args.display
        spec.headless = args.headless
        spec.kiosk_cols, spec.kiosk_rows = args.kiosk_size
    return spec


def _referee_pin(args: argparse.Namespace) -> str | None:
    """The station's referee PIN hash: given as a hash, or hashed here from a file."""
    if args.referee_pin_hash:
        from samoobsluha.shared.pin import PinHashState, pin_hash_state

        if pin_hash_state(str(args.referee_pin_hash)) is PinHashState.OUTDATED:
            raise ProvisionError(Phrase("provision.err.pin_outdated"))
        return str(args.referee_pin_hash)
    if not args.referee_pin_file:
        return None
    from samoobsluha.shared.pin import PinError, hash_pin

    pin = Path(args.referee_pin_file).read_text(encoding="utf-8").strip()
    try:
        return hash_pin(pin)
    except PinError as exc:
        raise ProvisionError(Phrase("provision.err.pin_file", error=reason(exc))) from exc


def _provision(args: argparse.Namespace) -> int:
    role = args.provision_command
    try:
        if role == "hub" and not (args.ssh_key or args.password_hash or args.password_file):
            # The referee logs in to the hub to run the dashboard ("hub run").
            raise ProvisionError(Phrase("provision.err.no_login"))
        spec = _spec(args, role)
        lexicons = tuple(Path(p) for p in (getattr(args, "lexicon", None) or ()))
        for lex in lexicons:
            if not lex.is_file():
                raise ProvisionError(Phrase("provision.err.no_lexicon", path=str(lex)))
        report = write(
            spec,
            Path(args.target),
            bundle=Path(args.bundle) if args.bundle else None,
            lexicons=lexicons,
        )
    except (ProvisionError, OSError) as exc:
        print(f"hub provision {role}: {error_text(exc, cli_language())}", file=sys.stderr)
        return 2
    lang = cli_language()
    for line in report:
        print(localize(line, lang))
    if role == "station" and not spec.referee_pin_hash:
        print(t("provision.report.no_pin", lang), file=sys.stderr)
    if not spec.ssh_keys and not spec.password_hash:
        print(t("provision.report.no_login", lang), file=sys.stderr)
    return 0


def _key(args: argparse.Namespace) -> int:
    path = Path(args.output)
    if path.exists() and not args.force:
        exists = t("provision.key_exists", cli_language(), path=str(path))
        print(f"hub provision key: {exists}", file=sys.stderr)
        return 2
    write_private(path, new_psk() + "\n")
    print(t("provision.key_written", cli_language(), path=str(path)))
    return 0


def _common(p: argparse.ArgumentParser, *, default_name: str | None) -> None:
    p.add_argument(
        "--name",
        required=default_name is None,
        default=default_name,
        help="host name, e.g. station-01 (the station's name on the dashboard)",
    )
    p.add_argument(
        "--target",
        required=True,
        metavar="DIR",
        help="the card's mounted boot partition (e.g. /media/$USER/bootfs) or any folder",
    )
    p.add_argument(
        "--psk-file",
        default="tournament.key",
        metavar="FILE",
        help="tournament key shared by the hub and every station (the hub card creates it)",
    )
    p.add_argument(
        "--tournament",
        metavar="ID",
        help="tournament id (stations find their hub by it); default: the hub card makes one "
        "and keeps it in tournament.id beside the key file",
    )
    p.add_argument(
        "--bundle",
        metavar="DIR",
        help="offline bundle from provisioning/build-bundle.sh (wheelhouse/, debs/)",
    )
    p.add_argument(
        "--image",
        choices=("trixie", "bookworm"),
        default="trixie",
        help="Raspberry Pi OS release on the card: trixie uses cloud-init; bookworm "
        "gets firstrun.sh and a cmdline.txt trigger (default: trixie)",
    )
    p.add_argument("--user", default="rozhodci", help="administrator login (default: rozhodci)")
    p.add_argument(
        "--ssh-key", action="append", metavar="FILE", help="public key file (repeatable)"
    )
    pw = p.add_mutually_exclusive_group()
    pw.add_argument("--password-hash", metavar="HASH", help="crypt hash (openssl passwd -6)")
    pw.add_argument("--password-file", metavar="FILE", help="file holding the plain password")
    p.add_argument("--keyboard", default="cz", choices=LAYOUTS, help="layout (default cz)")
    p.add_argument("--timezone", default="Europe/Prague")
    net = p.add_argument_group("network (Ethernet with DHCP unless told otherwise)")
    net.add_argument("--wifi-ssid", metavar="SSID")
    net.add_argument("--wifi-password-file", metavar="FILE", help="file holding the Wi-Fi password")
    net.add_argument("--wifi-country", default="CZ", metavar="CC", help="regulatory domain")
    net.add_argument("--address", metavar="CIDR", help="static address, e.g. 192.168.50.2/24")
    net.add_argument("--gateway", metavar="IP")
    net.add_argument("--dns", action="append", metavar="IP")
    p.add_argument(
        "--no-overlay",
        action="store_true",
        help="leave the root file system writable (bench machines only)",
    )


def register(sub: argparse._SubParsersAction) -> None:
    prov = sub.add_parser(
        "provision",
        help="write first-boot files for a Raspberry Pi OS card",
        description="Write cloud-init (or firstrun.sh) files and the offline installer onto a "
        "Raspberry Pi OS boot partition. See docs/hall-setup.md.",
    )
    prov_sub = prov.add_subparsers(dest="provision_command", required=True, metavar="ROLE")

    st = prov_sub.add_parser("station", help="a word-check station (kiosk on tty1, gong)")
    _common(st, default_name=None)
    st.add_argument(
        "--hub",
        metavar="HOST:PORT",
        help="hub address used when mDNS is blocked; also the stations' time server",
    )
    st.add_argument("--hub-name", default="hub", help="hub host name for mDNS (default: hub)")
    st.add_argument("--ui-language", default="cs", choices=("cs", "sk", "en", "pl"))
    st.add_argument(
        "--lexicon",
        action="append",
        metavar="FILE",
        help="lexicon file(s) to carry on the card; the first is the station's lexicon "
        "(default: built on the Pi from Debian's hunspell dictionary)",
    )
    st.add_argument("--lexicon-language", default="cs", choices=("cs", "sk", "pl"))
    pin = st.add_mutually_exclusive_group()
    pin.add_argument(
        "--referee-pin-file",
        metavar="FILE",
        help="file holding the referee PIN (stored on the card only as a salted hash)",
    )
    pin.add_argument(
        "--referee-pin-hash",
        metavar="HASH",
        help="the referee PIN as 'station pin set --print-hash' prints it",
    )
    st.add_argument(
        "--display",
        default="cage",
        choices=("cage", "console"),
        help="kiosk display: cage+foot Wayland kiosk (default) or the plain console",
    )
    st.add_argument(
        "--kiosk-size",
        type=_kiosk_size,
        default=(80, 24),
        metavar="COLSxROWS",
        help="terminal cells the kiosk font is sized to fill (default 80x24)",
    )
    st.add_argument(
        "--headless", action="store_true", help="no screen: run 'station daemon' (gong only)"
    )
    st.set_defaults(func=_provision)

    hb = prov_sub.add_parser("hub", help="the hub (referee's machine, time server)")
    _common(hb, default_name="hub")
    link = hb.add_mutually_exclusive_group()
    link.add_argument(
        "--standby-port",
        type=int,
        metavar="PORT",
        help="this hub serves copies to a standby hub on PORT (hub.toml [standby] port; "
        "usually 47821)",
    )
    link.add_argument(
        "--standby-of",
        metavar="HOST[:PORT]",
        help="this card is a standby hub following the hub at HOST (hub standby; hub "
        "takeover makes it the hub; docs/hall-setup.md 7.5)",
    )
    hb.set_defaults(func=_provision)

    key = prov_sub.add_parser("key", help="write a new tournament key")
    key.add_argument("-o", "--output", required=True, metavar="FILE")
    key.add_argument("--force", action="store_true", help="replace an existing key")
    key.set_defaults(func=_key)
