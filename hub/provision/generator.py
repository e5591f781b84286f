"""Render the first-boot files for a station or the hub (see ``hub.provision``).

Every text file is built here from the spec plus the fixed files in ``payload/``; nothing is
fetched from the network. YAML is written by hand with every scalar JSON-quoted (JSON is
YAML), so no YAML library is needed and no value can break the document.
"""

from __future__ import annotations

import ipaddress
import json
import re
import secrets
import shlex
import shutil
import subprocess
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from samoobsluha.hub.provision.debindex import DebError, write_index
from samoobsluha.shared.address import AddressError, parse_hostport
from samoobsluha.shared.i18n import Phrase, reason
from samoobsluha.shared.paths import write_private

BOOT_DIR = "/boot/firmware"  # where Raspberry Pi OS (Bookworm and later) mounts the boot partition
PAYLOAD_DIR = "samoobsluha"  # our folder on the boot partition
DATA_DIR = "/srv/samoobsluha"
ETC_DIR = "/etc/samoobsluha"
DATA_LABEL = "SAMODATA"
KEY_NAME = "tournament.key"

# Payload files copied verbatim into samoobsluha/files/.
PAYLOAD_FILES = (
    "samoobsluha-kiosk.service",
    "samoobsluha-station.service",
    "samoobsluha-hub.service",
    "samoobsluha-standby.service",
    "samoobsluha-firstboot.service",
    "samoobsluha-kiosk.pam",
    "logind-kiosk.conf",
    "system-samoobsluha.conf",
    "journald-samoobsluha.conf",
    "sysctl-samoobsluha.conf",
    "kiosk-session",
    "kiosk-inner",
    "kiosk-lockdown",
    "kiosk-lockdown.kmap",
    "foot.ini",
    "no-xwayland",
    "samoobsluha-time",
    "samoobsluha-time.service",
    "samoobsluha-time-save.service",
    "samoobsluha-time-save.timer",
    "samoobsluha-time-serve.path",
    "samoobsluha-time-serve.service",
    "samoobsluha-admin",
    "wipe-secrets",
)
EXECUTABLE = frozenset(
    {
        "install.sh",
        "firstrun.sh",
        "kiosk-session",
        "kiosk-inner",
        "kiosk-lockdown",
        "no-xwayland",
        "samoobsluha-time",
        "samoobsluha-admin",
        "wipe-secrets",
    }
)

# Debian packages each role needs beyond Raspberry Pi OS Lite; provisioning/build-bundle.sh
# fetches them with their dependency closure from Debian's archive. python3-lgpio is not
# among them: it is on every Raspberry Pi OS Lite image (pi-gen stage2 installs
# python3-rpi-lgpio, which depends on it, on Bookworm and Trixie), and it exists only in
# Raspberry Pi's archive, which a build machine cannot reach. lgpio has no aarch64 wheels
# on PyPI either, so the venv sees the image's copy (--system-site-packages).
APT_COMMON = ("chrony", "python3-venv", "overlayroot", "console-setup", "kbd")
# The kiosk's PAM session (payload/samoobsluha-kiosk.pam) needs pam_systemd.so: without
# libpam-systemd the kiosk unit fails at its PAM step on every start (found by booting the
# dry run's station root; Raspberry Pi OS Lite has it, a minimal Debian does not).
APT_STATION: tuple[str, ...] = ("libpam-systemd",)
APT_CAGE = ("cage", "foot", "fonts-dejavu-core")
APT_HUB = ("hunspell-cs", "hunspell-sk", "hunspell-pl")

HOSTNAME_RE = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$")
PIN_HASH_RE = re.compile(r"scrypt\$\d+\$\d+\$\d+\$[0-9a-f]{16,}\$[0-9a-f]{32,}")
USER_RE = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")
SSH_KEY_RE = re.compile(r"^(ssh-(rsa|ed25519|dss)|ecdsa-sha2-\S+|sk-\S+) [A-Za-z0-9+/=]+( .*)?$")
LAYOUTS = ("cz", "sk", "pl")  # pl: the Polish programmer's layout (AltGr + letter)


class ProvisionError(ValueError):
    """The provisioning request cannot be turned into working files; says which option
    (a ``Phrase``: in the operator's language through ``shared.i18n.error_text``)."""


def _no(key: str, **values: Any) -> ProvisionError:
    return ProvisionError(Phrase("provision.err." + key, **values))


@dataclass
class NetworkSpec:
    """How the Pi joins the hall LAN: Ethernet with DHCP unless told otherwise."""

    wifi_ssid: str | None = None
    wifi_password: str | None = None
    country: str = "CZ"
    address: str | None = None  # static "192.168.50.2/24"; DHCP when None
    gateway: str | None = None
    dns: tuple[str, ...] = ()

    def validate(self) -> None:
        if self.wifi_password is not None and not self.wifi_ssid:
            raise _no("wifi_password_ssid")
        if self.wifi_password is not None and not 8 <= len(self.wifi_password) <= 63:
            raise _no("wifi_password_length")
        if not re.fullmatch(r"[A-Z]{2}", self.country):
            raise _no("wifi_country", value=self.country)
        if self.address:
            try:
                iface = ipaddress.ip_interface(self.address)
            except ValueError:
                raise _no("address", value=self.address) from None
            if iface.network.prefixlen == iface.max_prefixlen:
                raise _no("address_prefix", value=self.address)
        for value, option in [(self.gateway, "--gateway"), *((d, "--dns") for d in self.dns)]:
            if value:
                try:
                    ipaddress.ip_address(value)
                except ValueError:
                    raise _no("not_ip", option=option, value=value) from None
        if (self.gateway or self.dns) and not self.address:
            raise _no("gateway_dns")


@dataclass
class ProvisionSpec:
    """One card: a station or the hub."""

    role: Literal["station", "hub"]
    hostname: str
    psk: str
    admin_user: str = "rozhodci"
    ssh_keys: tuple[str, ...] = ()
    password_hash: str | None = None
    keyboard: str = "cz"
    timezone: str = "Europe/Prague"
    network: NetworkSpec = field(default_factory=NetworkSpec)
    image: Literal["trixie", "bookworm"] = "trixie"
    tournament_id: str | None = None
    # Hub only: the standby link (hub/standby.py). ``standby_port``: this hub serves copies
    # to a standby on that port (hub.toml [standby] port); ``standby_of``: this card is a
    # standby following the hub at "host[:port]" (hub.toml [standby] primary) until
    # ``hub takeover`` makes it the hub.
    standby_port: int | None = None
    standby_of: str | None = None
    # Station only.
    ui_language: str = "cs"
    lexicon_language: str = "cs"
    lexicon_file: str | None = None  # file name inside lexicons/ on the card
    hub_address: str | None = None  # "host:port" fallback when mDNS is blocked
    hub_name: str = "hub"
    # The referee PIN as a salted hash (``station pin set --print-hash`` or
    # ``hub provision station --referee-pin-file``): the kiosk's F12 opens nothing without.
    referee_pin_hash: str | None = None
    display: Literal["cage", "console"] = "cage"
    headless: bool = False
    kiosk_cols: int = 80
    kiosk_rows: int = 24
    overlay: bool = True
    instance_id: str = field(default_factory=lambda: secrets.token_hex(4))
    generated_at: str = field(
        default_factory=lambda: datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    )

    def validate(self) -> None:
        if self.role not in ("station", "hub"):
            raise _no("role", value=self.role)
        if not HOSTNAME_RE.match(self.hostname):
            raise _no("name", value=self.hostname)
        if not USER_RE.match(self.admin_user) or self.admin_user in ("root", "samoobsluha"):
            raise _no("user", value=self.admin_user)
        for key in self.ssh_keys:
            if not SSH_KEY_RE.match(key.strip()):
                raise _no("ssh_key", value=key[:40])
        if self.password_hash is not None and not self.password_hash.startswith("$"):
            raise _no("password_hash")
        if self.keyboard not in LAYOUTS:
            raise _no("keyboard", choices=", ".join(LAYOUTS))
        if not re.fullmatch(r"[A-Za-z_]+(/[A-Za-z0-9_+-]+)*", self.timezone):
            raise _no("timezone", value=self.timezone)
        if not re.fullmatch(r"[0-9a-fA-F]{64}", "".join(self.psk.split())):
            raise _no("psk")
        if self.tournament_id is not None and not re.fullmatch(r"[\w.-]{1,64}", self.tournament_id):
            raise _no("tournament", value=self.tournament_id)
        if self.ui_language not in ("cs", "sk", "en", "pl"):
            raise _no("ui_language")
        if self.lexicon_language not in ("cs", "sk", "pl"):
            raise _no("lexicon_language")
        if self.hub_address is not None:
            hub_host_port(self.hub_address)
        if (self.standby_port is not None or self.standby_of is not None) and self.role != "hub":
            raise _no("standby_role")
        if self.standby_port is not None and self.standby_of is not None:
            raise _no("standby_both")
        if self.standby_port is not None and not 0 < self.standby_port < 65536:
            raise _no("standby_port", value=self.standby_port)
        if self.standby_of is not None:
            if not self.tournament_id:
                raise _no("standby_tournament")
            primary = self.standby_of if ":" in self.standby_of else f"{self.standby_of}:1"
            hub_host_port(primary)
        if self.referee_pin_hash is not None and not PIN_HASH_RE.fullmatch(self.referee_pin_hash):
            raise _no("pin_hash")
        if not HOSTNAME_RE.match(self.hub_name):
            raise _no("hub_name", value=self.hub_name)
        if self.display not in ("cage", "console"):
            raise _no("display")
        if not (20 <= self.kiosk_cols <= 300 and 10 <= self.kiosk_rows <= 120):
            raise _no("kiosk_size")
        self.network.validate()
        if self.image == "bookworm" and self.network.address and self.network.wifi_ssid:
            raise _no("bookworm_wifi_address")

    # Derived values -----------------------------------------------------------------
    @property
    def time_server(self) -> str:
        """Where a station's chrony gets the time: the hub."""
        if self.hub_address:
            return hub_host_port(self.hub_address)[0]
        return f"{self.hub_name}.local"

    @property
    def apt_packages(self) -> tuple[str, ...]:
        if self.role == "hub":
            return APT_COMMON + APT_HUB
        extra = () if self.headless or self.display == "console" else APT_CAGE
        # No lexicon carried on the card: install.sh builds one from Debian's dictionary.
        hunspell = () if self.lexicon_file else (f"hunspell-{self.lexicon_language}",)
        return APT_COMMON + APT_STATION + extra + hunspell

    @property
    def lexicon_path(self) -> str:
        name = self.lexicon_file or f"{self.lexicon_language}.lex"
        return f"{DATA_DIR}/lexicons/{name}"


def hub_host_port(value: str) -> tuple[str, int]:
    """Split the ``host:port`` hub fallback as the station will read it (IPv6 in
    brackets, a scope allowed: ``[fe80::1%wlan0]:47820``)."""
    try:
        host, port = parse_hostport(value, where="--hub")
    except AddressError as exc:
        raise _no("hub_address", error=reason(exc)) from None
    # the host goes into chrony's and the station's configuration: names, IPv4 and IPv6
    # characters only (no spaces, quotes or line breaks to smuggle a directive in)
    if not HUB_HOST_RE.fullmatch(host):
        raise _no("hub_host", value=value, host=host)
    return host, port


HUB_HOST_RE = re.compile(r"[A-Za-z0-9.-]+|[0-9A-Fa-f:.]+(%[A-Za-z0-9_.-]+)?")


def new_tournament_id() -> str:
    """The same shape the hub gives itself on its first run (hub.store): ``t-`` + 8 hex."""
    return "t-" + secrets.token_hex(4)


def new_psk() -> str:
    """A fresh tournament key: 32 random bytes as 64 hexadecimal digits."""
    return secrets.token_hex(32)


def hash_password(password: str) -> str:
    """SHA-512 crypt hash via ``openssl passwd -6`` (Python 3.13 has no crypt module)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        raise _no("openssl")
    done = subprocess.run(
        [openssl, "passwd", "-6", "-stdin"],
        input=password,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise _no("openssl_failed", error=done.stderr.strip())
    return done.stdout.strip()


# YAML / TOML / shell quoting ------------------------------------------------------------
def q(value: object) -> str:
    """A YAML (and TOML basic-string) scalar: JSON encoding is valid in both."""
    return json.dumps(value, ensure_ascii=False)


def _payload(name: str) -> str:
    return resources.files("samoobsluha.hub.provision").joinpath("payload", name).read_text("utf-8")


def _header(spec: ProvisionSpec, comment: str = "#") -> str:
    return (
        f"{comment} Samoobsluha {spec.role} {spec.hostname}: written by "
        f'"hub provision {spec.role}" on {spec.generated_at}.\n'
        f"{comment} Regenerate rather than edit; see docs/hall-setup.md.\n"
    )


# cloud-init -----------------------------------------------------------------------------
def user_data(spec: ProvisionSpec) -> str:
    u = spec.admin_user
    lines = [
        "#cloud-config",
        _header(spec).rstrip("\n"),
        f"hostname: {q(spec.hostname)}",
        "manage_etc_hosts: true",
        f"timezone: {q(spec.timezone)}",
        "keyboard:",
        f"  layout: {q(spec.keyboard)}",
        '  model: "pc105"',
        # "user:" (singular), as Raspberry Pi Imager 2.x writes it: cloud-init renames and
        # extends the image's default user (uid 1000, with its groups: sudo, gpio, video,
        # input ...). A "users:" list without "- default" would make a second, group-less
        # account beside it (raspberrypi/rpi-imager issue 1601).
        "user:",
        f"  name: {q(u)}",
        '  gecos: "Samoobsluha administrator"',
        '  shell: "/bin/bash"',
        '  sudo: "ALL=(ALL) NOPASSWD:ALL"',
    ]
    if spec.password_hash:
        lines += ["  lock_passwd: false", f"  passwd: {q(spec.password_hash)}"]
    else:
        lines.append("  lock_passwd: true")
    if spec.ssh_keys:
        lines.append("  ssh_authorized_keys:")
        lines += [f"    - {q(k.strip())}" for k in spec.ssh_keys]
    sudoers = f"/etc/sudoers.d/010_{u}-nopasswd"
    rule = shlex.quote(f"{u} ALL=(ALL) NOPASSWD:ALL")
    lines += [
        "ssh_pwauth: false",
        "runcmd:",
        # The sudo rule as a file too (Imager does the same: not every cloud-init path
        # applies the user's sudo key).
        f"  - [{q('sh')}, {q('-c')}, {q(f'echo {rule} > {sudoers}')}]",
        f"  - [{q('chmod')}, {q('0440')}, {q(sudoers)}]",
    ]
    if spec.ssh_keys:
        lines.append('  - ["systemctl", "enable", "--now", "ssh"]')
    lines += [
        f'  - ["env", "SAMOOBSLUHA_NO_REBOOT=1", "/bin/bash", '
        f"{q(f'{BOOT_DIR}/{PAYLOAD_DIR}/install.sh')}]",
        "power_state:",
        '  mode: "reboot"',
        f"  message: {q('Samoobsluha installed; rebooting into the ' + spec.role)}",
        "  condition: true",
        "",
    ]
    return "\n".join(lines)


def network_config(spec: ProvisionSpec) -> str:
    net = spec.network

    def addressing(indent: str) -> list[str]:
        if not net.address:
            return [f"{indent}dhcp4: true"]
        out = [f"{indent}dhcp4: false", f"{indent}addresses: [{q(net.address)}]"]
        if net.gateway:
            out += [
                f"{indent}routes:",
                f"{indent}  - to: default",
                f"{indent}    via: {q(net.gateway)}",
            ]
        if net.dns:
            out += [
                f"{indent}nameservers:",
                f"{indent}  addresses: [{', '.join(q(d) for d in net.dns)}]",
            ]
        return out

    lines = [_header(spec).rstrip("\n"), "network:", "  version: 2"]
    # Ethernet is optional so that a Wi-Fi station does not wait for a cable at boot; a static
    # address goes on the interface the hall actually uses.
    lines += ["  ethernets:", "    eth0:", "      optional: true"]
    lines += addressing("      ") if not net.wifi_ssid else ["      dhcp4: true"]
    if net.wifi_ssid:
        lines += [
            "  wifis:",
            "    wlan0:",
            "      optional: true",
            f"      regulatory-domain: {q(net.country)}",
            *addressing("      "),
            "      access-points:",
        ]
        if net.wifi_password is None:
            lines.append(f"        {q(net.wifi_ssid)}: {{}}")
        else:
            lines.append(f"        {q(net.wifi_ssid)}:")
            lines.append(f"          password: {q(net.wifi_password)}")
    lines.append("")
    return "\n".join(lines)


def cloud_instance_id(spec: ProvisionSpec) -> str:
    """A new instance-id per generation: cloud-init runs again on a re-provisioned card."""
    return f"samoobsluha-{spec.hostname}-{spec.instance_id}"


def meta_data(spec: ProvisionSpec) -> str:
    return (
        f"instance-id: {q(cloud_instance_id(spec))}\n"
        f"local-hostname: {q(spec.hostname)}\n"
        'dsmode: "local"\n'
    )


# Bookworm: firstrun.sh ------------------------------------------------------------------
CMDLINE_TRIGGER = (
    f" systemd.run={BOOT_DIR}/firstrun.sh systemd.run_success_action=reboot"
    " systemd.unit=kernel-command-line.target"
)


def firstrun_sh(spec: ProvisionSpec) -> str:
    """Bookworm images have no cloud-init: Raspberry Pi Imager's mechanism instead.

    Runs once from the kernel command line (very early, before networking), does what
    user-data does, and hands the installer to samoobsluha-firstboot.service.
    """
    s = shlex.quote
    net = spec.network
    out = [
        "#!/bin/bash",
        _header(spec).rstrip("\n"),
        "# Run once by the kernel command line (systemd.run=); removes its own trigger.",
        "set +e",
        f"BOOT={s(BOOT_DIR)}",
        f"NAME={s(spec.hostname)}",
        f"ADMIN={s(spec.admin_user)}",
        f"PASSWORD_HASH={s(spec.password_hash or '!')}",
        "custom=/usr/lib/raspberrypi-sys-mods/imager_custom",
        "",
        "current=$(tr -d ' \\t\\n\\r' < /etc/hostname)",
        'if [ -x "$custom" ]; then',
        '    "$custom" set_hostname "$NAME"',
        "else",
        '    echo "$NAME" > /etc/hostname',
        '    sed -i "s/127.0.1.1.*$current/127.0.1.1\\t$NAME/g" /etc/hosts',
        "fi",
        "",
        "# The administrator account (replaces the first user of the image, like Imager does).",
        "first=$(getent passwd 1000 | cut -d: -f1)",
        "if [ -x /usr/lib/userconf-pi/userconf ]; then",
        '    /usr/lib/userconf-pi/userconf "$ADMIN" "$PASSWORD_HASH"',
        'elif [ -z "$first" ]; then',
        '    useradd -m -s /bin/bash -G adm,sudo,audio,video,plugdev,input "$ADMIN"',
        '    usermod -p "$PASSWORD_HASH" "$ADMIN"',
        "fi",
    ]
    if spec.ssh_keys:
        out += [
            'home=$(getent passwd "$ADMIN" | cut -d: -f6)',
            'install -d -m 700 -o "$ADMIN" -g "$ADMIN" "$home/.ssh"',
            "cat > \"$home/.ssh/authorized_keys\" <<'KEYS'",
            *[k.strip() for k in spec.ssh_keys],
            "KEYS",
            'chown "$ADMIN:$ADMIN" "$home/.ssh/authorized_keys"',
            'chmod 600 "$home/.ssh/authorized_keys"',
            "sed -i 's/^#\\?PasswordAuthentication.*/PasswordAuthentication no/' "
            "/etc/ssh/sshd_config",
            "systemctl enable ssh",
        ]
    if net.wifi_ssid:
        # imager_custom set_wlan SSID PASS COUNTRY: positional, so an open network passes an
        # empty passphrase (as Imager does), never the country in its place.
        args = [s(net.wifi_ssid), s(net.wifi_password or "")]
        out += [
            "",
            'if [ -x "$custom" ]; then',
            f'    "$custom" set_wlan {" ".join(args)} {s(net.country)}',
            "fi",
        ]
    if net.address:
        conn = "samoobsluha-eth0"
        dns = ";".join(net.dns)
        addr = net.address + (f",{net.gateway}" if net.gateway else "")
        out += [
            "",
            "# Static Ethernet address (NetworkManager keyfile; NM is not running yet).",
            f"f=/etc/NetworkManager/system-connections/{conn}.nmconnection",
            "cat > \"$f\" <<'NM'",
            "[connection]",
            f"id={conn}",
            "type=ethernet",
            "interface-name=eth0",
            "[ipv4]",
            "method=manual",
            f"address1={addr}",
            *([f"dns={dns};"] if dns else []),
            "[ipv6]",
            "method=auto",
            "NM",
            'chmod 600 "$f"',
        ]
    out += [
        "",
        'if [ -x "$custom" ]; then',
        f'    "$custom" set_keymap {s(spec.keyboard)}',
        f'    "$custom" set_timezone {s(spec.timezone)}',
        "else",
        f"    sed -i 's/^XKBLAYOUT=.*/XKBLAYOUT=\"{spec.keyboard}\"/' /etc/default/keyboard",
        f"    ln -sf /usr/share/zoneinfo/{spec.timezone} /etc/localtime",
        "fi",
        "",
        "# The installer needs a fully booted system: it runs from a one-shot unit.",
        'install -m 0644 "$BOOT/samoobsluha/files/samoobsluha-firstboot.service" \\',
        "    /etc/systemd/system/",
        "ln -sf /etc/systemd/system/samoobsluha-firstboot.service "
        "/etc/systemd/system/multi-user.target.wants/samoobsluha-firstboot.service",
        "",
        "# This file holds the password hash and Wi-Fi passphrase: overwrite it, then delete",
        "# it (FAT keeps deleted data). One brace group: bash has read all of it before the",
        "# overwrite, so it never executes the random bytes.",
        "{",
        "    sed -i 's| systemd.run.*||g' \"$BOOT/cmdline.txt\"",
        '    head -c "$(stat -c %s "$BOOT/firstrun.sh")" /dev/urandom \\',
        '        | dd of="$BOOT/firstrun.sh" conv=notrunc,fsync status=none',
        '    rm -f "$BOOT/firstrun.sh"',
        "    sync",
        "    exit 0",
        "}",
        "",
    ]
    return "\n".join(out)


# Samoobsluha's own files ------------------------------------------------------------------
def station_toml(spec: ProvisionSpec) -> str:
    lines = [
        _header(spec),
        "# [kiosk] and [gong] keep their defaults unless added below (see the station docs).",
        "",
        "[station]",
        f"name = {q(spec.hostname)}",
        f"ui_language = {q(spec.ui_language)}",
        f"lexicon = {q(spec.lexicon_path)}",
        "",
        "[network]",
    ]
    if spec.tournament_id:
        lines.append(f"tournament_id = {q(spec.tournament_id)}")
    lines.append(f"psk_file = {q(f'{ETC_DIR}/{KEY_NAME}')}")
    if spec.hub_address:
        lines.append("# Used when mDNS (zeroconf) does not get through the hall's router.")
        lines.append(f"hub = {q(spec.hub_address)}")
    if spec.referee_pin_hash:
        lines += [
            "",
            "[kiosk]",
            "# The referee PIN (salted hash). The hub may send a newer one; 'station pin set'",
            "# at the console sets one on this station.",
            f"referee_pin_hash = {q(spec.referee_pin_hash)}",
        ]
    lines.append("")
    return "\n".join(lines)


def chrony_conf(spec: ProvisionSpec) -> str:
    head = _header(spec)
    common = (
        "driftfile /var/lib/chrony/chrony.drift\n"
        "# Keep the Pi 5's real-time clock (if any) in step.\n"
        "rtcsync\n"
        "logdir /var/log/chrony\n"
    )
    if spec.role == "hub":
        return (
            head
            + "# The hub is the hall's time server. With internet it follows the pool; without\n"
            "# it, it serves its own clock: stations need the same time, not the exact one.\n"
            "pool 2.debian.pool.ntp.org iburst\n"
            "# No 'local stratum' here: after a reboot the hub's clock is only the time saved on\n"
            "# the data partition (samoobsluha-time restore), and stations must not step to\n"
            "# that guess. Once the operator confirms it (hub time confirm), the path unit\n"
            "# samoobsluha-time-serve runs 'chronyc local stratum 8' for this boot.\n"
            "# Any station on the hall LAN may ask (the LAN is trusted; see docs).\n"
            "allow\n"
            "# Step freely in the first updates after boot (no RTC on most Pis).\n"
            "makestep 1 3\n" + common
        )
    return (
        head + "# A station follows the hub only: the gongs ring on hub time.\n"
        f"server {spec.time_server} iburst minpoll 2 maxpoll 6\n"
        "# Step in the first three updates after the hub answers (a station that boots\n"
        "# mid-round catches up at once; its own saved time was restored before chrony\n"
        "# started), then only slew: the clock never runs backwards past what the station\n"
        "# has already logged, even if the hub's time is corrected later.\n"
        "makestep 0.5 3\n" + common
    )


def setup_env(spec: ProvisionSpec) -> str:
    s = shlex.quote
    values = {
        "ROLE": spec.role,
        "HOSTNAME_": spec.hostname,
        "KEYBOARD": spec.keyboard,
        "KIOSK_DISPLAY": spec.display,
        "KIOSK_COLS": str(spec.kiosk_cols),
        "KIOSK_ROWS": str(spec.kiosk_rows),
        "HEADLESS": "1" if spec.headless else "0",
        "LEXICON_LANG": spec.lexicon_language,
        "LEXICON_FILE": spec.lexicon_path.rsplit("/", 1)[1],
        "DATA_LABEL": DATA_LABEL,
        "OVERLAY": "1" if spec.overlay else "0",
        "TOURNAMENT_ID": spec.tournament_id or "",
        "STANDBY_OF": spec.standby_of or "",
        "APT_PACKAGES": " ".join(spec.apt_packages),
    }
    body = "".join(f"{k}={s(v)}\n" for k, v in values.items())
    return _header(spec) + "# Read by install.sh (shell syntax).\n" + body


def kiosk_env(spec: ProvisionSpec) -> str:
    return (
        _header(spec)
        + "# Read by samoobsluha-kiosk.service. KIOSK_DISPLAY: cage (Wayland kiosk + foot) or\n"
        "# console (plain tty1). KIOSK_COLS x KIOSK_ROWS: the cells the font is sized to fill.\n"
        f"KIOSK_DISPLAY={spec.display}\n"
        f"KIOSK_COLS={spec.kiosk_cols}\n"
        f"KIOSK_ROWS={spec.kiosk_rows}\n"
        f"KIOSK_XKB_LAYOUT={spec.keyboard}\n"
    )


def hub_toml(spec: ProvisionSpec) -> str:
    """The hub card's hub.toml (installed into the data folder if it has none): the
    standby link, when asked for. ``[backup]`` and ``[screen]`` the director adds there."""
    lines = [
        _header(spec).rstrip("\n"),
        "# The hub's configuration (hub.toml in the data folder): [standby] here, [backup]",
        "# and [screen] as docs/hall-setup.md describes them.",
        "[standby]",
    ]
    if spec.standby_port is not None:
        lines += [
            "# hub serve opens the standby link here: a standby hub (hub standby) copies",
            "# everything this hub holds, authenticated with the hall secret.",
            f"port = {spec.standby_port}",
        ]
    if spec.standby_of is not None:
        lines += [
            "# This card is a standby: samoobsluha-standby.service runs 'hub standby', which",
            "# follows this hub, until 'hub takeover' makes this card the hub (then",
            "# samoobsluha-hub.service runs 'hub serve' here instead).",
            f"primary = {q(spec.standby_of)}",
            f"tournament = {q(spec.tournament_id)}",
        ]
    return "\n".join(lines) + "\n"


def card_key(spec: ProvisionSpec) -> str:
    """The key file on the card: the hub's card carries the hall secret (it never leaves
    the hub), a station's only a key derived for its own id (its host name) plus the
    hub's public key it pins. A copied station card is then one station, never the hub."""
    secret = "".join(spec.psk.split()).lower()
    if spec.role == "hub":
        return secret + "\n"
    from samoobsluha.shared.protocol import HallKeys

    return HallKeys(bytes.fromhex(secret)).credentials(spec.hostname).to_text()


def render(spec: ProvisionSpec) -> dict[str, str]:
    """Every text file, keyed by its path relative to the boot partition."""
    spec.validate()
    p = PAYLOAD_DIR
    files: dict[str, str] = {
        f"{p}/install.sh": _payload("install.sh"),
        f"{p}/setup.env": setup_env(spec),
        f"{p}/{KEY_NAME}": card_key(spec),
        f"{p}/files/chrony.conf": chrony_conf(spec),
    }
    # Only what the chosen image reads: cloud-init files on Trixie, firstrun.sh on Bookworm
    # (a card must not carry a password hash or Wi-Fi passphrase nothing will read - and
    # install.sh then wipes what was read, see payload/wipe-secrets).
    if spec.image == "bookworm":
        files["firstrun.sh"] = firstrun_sh(spec)
    else:
        files["user-data"] = user_data(spec)
        files["network-config"] = network_config(spec)
        files["meta-data"] = meta_data(spec)
    if spec.role == "hub" and (spec.standby_port is not None or spec.standby_of is not None):
        files[f"{p}/hub.toml"] = hub_toml(spec)
    if spec.role == "station":
        files[f"{p}/station.toml"] = station_toml(spec)
        files[f"{p}/kiosk.env"] = kiosk_env(spec)
    for name in PAYLOAD_FILES:
        files[f"{p}/files/{name}"] = _payload(name)
    return files


def _copy_tree(src: Path, dest: Path) -> int:
    count = 0
    dest.mkdir(parents=True, exist_ok=True)
    for item in sorted(src.iterdir()):
        if item.is_file():
            shutil.copyfile(item, dest / item.name)
            count += 1
    return count


def card_image(target: Path) -> Literal["trixie", "bookworm"] | None:
    """Which kind of Raspberry Pi OS image the boot partition at ``target`` comes from, as
    far as its first boot goes: "trixie" when it reads cloud-init (pi-gen's cloud-init stage
    puts meta-data, user-data and network-config on the boot partition; Imager 2.x adds
    ``ds=nocloud;i=…`` to cmdline.txt), "bookworm" for an image without them (firstrun.sh),
    None when ``target`` is not a boot partition (no config.txt: a folder to copy later)."""
    if not (target / "config.txt").is_file():
        return None
    cmdline = target / "cmdline.txt"
    line = cmdline.read_text(errors="replace") if cmdline.is_file() else ""
    if (target / "meta-data").is_file() or "ds=nocloud" in line:
        return "trixie"
    return "bookworm"


def check_card(spec: ProvisionSpec, target: Path) -> None:
    """Refuse, before anything is written, a card whose image would not read what
    ``--image`` writes: nothing would run at first boot, and the key, the password hash
    and the Wi-Fi passphrase would stay on the card's FAT partition."""
    found = card_image(target)
    if found is None or found == spec.image:
        return
    if found == "trixie":
        raise _no("image_trixie", image=spec.image, target=str(target))
    raise _no("image_bookworm", image=spec.image, target=str(target))


def _set_cmdline(cmdline: Path, drop: str, add: str) -> None:
    """cmdline.txt is one line: remove the parameters starting with ``drop``, append ``add``."""
    words = [w for w in cmdline.read_text().split() if not w.startswith(drop)]
    cmdline.write_text(" ".join([*words, add]) + "\n")


def write(
    spec: ProvisionSpec,
    target: Path,
    *,
    bundle: Path | None = None,
    lexicons: tuple[Path, ...] = (),
    docs: Path | None = None,
) -> list[str]:
    """Write the card's files into ``target`` (a mounted boot partition or a folder).

    ``bundle`` is the folder made by ``provisioning/build-bundle.sh`` (``wheelhouse/`` and
    ``debs/``); it is copied onto the card so the Pi installs with no network. Returns
    human-readable lines describing what was written.
    """
    files = render(spec)
    check_card(spec, target)
    target.mkdir(parents=True, exist_ok=True)
    report: list[str] = []  # phrases: English as text, the operator's language by localize
    if not (target / "config.txt").is_file():
        report.append(Phrase("provision.report.no_config_txt", target=str(target)))
    for rel, text in files.items():
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        name = Path(rel).name
        if name == KEY_NAME:  # 0600 from the first byte, even over an older 0644 file
            write_private(path, text)
            continue
        path.write_text(text, encoding="utf-8", newline="\n")
        if name in EXECUTABLE:
            path.chmod(0o755)
    report.append(
        Phrase("provision.report.wrote", n=len(files), role=spec.role, name=spec.hostname,
               target=str(target))
    )  # fmt: skip
    payload = target / PAYLOAD_DIR
    if bundle is not None:
        wheels = bundle / "wheelhouse"
        if not any(wheels.glob("samoobsluha-*.whl")):
            raise _no("no_wheel", bundle=str(bundle), wheels=str(wheels))
        n = _copy_tree(wheels, payload / "wheelhouse")
        report.append(Phrase("provision.report.wheels", n=n))
        if (bundle / "debs").is_dir():
            n = _copy_tree(bundle / "debs", payload / "debs")
            try:
                indexed = write_index(payload / "debs")
            except DebError as exc:
                raise _no("bundle", bundle=str(bundle), error=str(exc)) from None
            report.append(Phrase("provision.report.debs", n=n, debs=indexed))
    else:
        report.append(Phrase("provision.report.no_bundle", folder=f"{PAYLOAD_DIR}/wheelhouse"))
    for lex in lexicons:
        dest = payload / "lexicons" / lex.name
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(lex, dest)
        # signed by the hub the card pins (shared/lextrust.py): a station judges with
        # nothing else; the header is checked against its content before it is signed
        from samoobsluha.shared.lexicon import Lexicon, LexiconError
        from samoobsluha.shared.lextrust import sign_lexicon
        from samoobsluha.shared.protocol import HallKeys

        try:
            info = Lexicon.open(dest).info
        except LexiconError as exc:
            raise _no("lexicon", path=str(lex), error=reason(exc)) from None
        keys = HallKeys(bytes.fromhex("".join(spec.psk.split()).lower()))
        sign_lexicon(dest, keys, info=info)
        signed = Phrase("provision.report.lexicon", name=lex.name, sha256=info.sha256[:12])
        report.append(signed)
    if spec.role == "station" and not lexicons:
        report.append(Phrase("provision.report.no_lexicon"))
    if docs is not None and docs.is_file():
        shutil.copyfile(docs, payload / "files" / "hall-setup.md")
    if spec.image == "trixie" and (target / "cmdline.txt").is_file():
        # A cloud-init instance id on the command line wins over meta-data's: Imager 2.x
        # writes its own there, and with it a re-provisioned card would not run again.
        _set_cmdline(
            target / "cmdline.txt", "ds=nocloud", f"ds=nocloud;i={cloud_instance_id(spec)}"
        )
        report.append(Phrase("provision.report.instance_id"))
    if spec.image == "bookworm":
        cmdline = target / "cmdline.txt"
        if cmdline.is_file():
            text = cmdline.read_text().strip()
            if "systemd.run=" not in text:
                cmdline.write_text(text + CMDLINE_TRIGGER + "\n")
            report.append(Phrase("provision.report.firstrun"))
        else:
            report.append(Phrase("provision.report.no_cmdline", add=CMDLINE_TRIGGER))
    return report
