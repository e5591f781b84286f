"""``hub provision``: what lands on the card, and what it refuses to write."""

from __future__ import annotations

import hashlib
import re
import shutil
import stat
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml

from samoobsluha.hub.cli import main as hub_main
from samoobsluha.hub.provision import NetworkSpec, ProvisionError, ProvisionSpec, render, write
from samoobsluha.hub.provision.debindex import DebError, write_index
from samoobsluha.hub.provision.generator import CMDLINE_TRIGGER, hub_host_port
from samoobsluha.shared.lexicon import read_info, write_lexicon
from samoobsluha.shared.lextrust import Trust, decide
from samoobsluha.shared.protocol import HallKeys, StationKey
from samoobsluha.station import config as station_config

KEY = "ab" * 32
SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHtVrTm1Qq4p0e1e7c2a9b1e0f3c4d5 org@laptop"


def make_deb(folder: Path, name: str, version: str, *, depends: str | None = None) -> Path:
    """A real (tiny) .deb, built by dpkg-deb."""
    root = folder / f"{name}-src"
    (root / "DEBIAN").mkdir(parents=True)
    control = f"Package: {name}\nVersion: {version}\nArchitecture: all\nMaintainer: t <t@t>\n"
    if depends:
        control += f"Depends: {depends}\n"
    control += "Description: test package\n"
    (root / "DEBIAN" / "control").write_text(control)
    (root / "usr" / "share").mkdir(parents=True)
    (root / "usr" / "share" / name).write_text("x\n")
    deb = folder / f"{name}_{version}_all.deb"
    subprocess.run(["dpkg-deb", "--root-owner-group", "--build", str(root), str(deb)],
                   check=True, capture_output=True)  # fmt: skip
    shutil.rmtree(root)
    return deb


def test_debindex_matches_what_dpkg_deb_reads(tmp_path: Path) -> None:
    one = make_deb(tmp_path, "cage", "0.1.4-4", depends="libc6 (>= 2.34), libwlroots10")
    make_deb(tmp_path, "foot", "1.13.1-2")
    assert write_index(tmp_path) == 2
    stanzas = (tmp_path / "Packages").read_text().split("\n\n")
    first = dict(line.split(": ", 1) for line in stanzas[0].strip().splitlines())
    assert first["Package"] == "cage" and first["Version"] == "0.1.4-4"
    assert first["Depends"] == "libc6 (>= 2.34), libwlroots10"
    assert first["Filename"] == "./cage_0.1.4-4_all.deb"
    assert int(first["Size"]) == one.stat().st_size
    assert first["SHA256"] == hashlib.sha256(one.read_bytes()).hexdigest()
    info = subprocess.run(["dpkg-deb", "--field", str(one), "Package", "Version"],
                          capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert info == "Package: cage\nVersion: 0.1.4-4\n"


def test_debindex_refuses_a_file_that_is_not_a_deb(tmp_path: Path) -> None:
    (tmp_path / "x.deb").write_bytes(b"not a deb")
    with pytest.raises(DebError):
        write_index(tmp_path)


def station(**kw: object) -> ProvisionSpec:
    base: dict[str, object] = {"role": "station", "hostname": "station-01", "psk": KEY}
    base.update(kw)
    return ProvisionSpec(**base)  # type: ignore[arg-type]


def test_station_files_cover_cloud_init_installer_and_units() -> None:
    files = render(station())
    for name in ("user-data", "network-config", "meta-data"):
        assert name in files
    assert "firstrun.sh" not in files  # Trixie (cloud-init) is the default image
    for name in (
        "install.sh",
        "setup.env",
        "station.toml",
        "kiosk.env",
        "tournament.key",
        "files/samoobsluha-kiosk.service",
        "files/chrony.conf",
        "files/system-samoobsluha.conf",
    ):
        assert f"samoobsluha/{name}" in files
    # the station's card carries a key for station-01 only, never the hall secret
    card = StationKey.from_text(files["samoobsluha/tournament.key"])
    assert card.station == "station-01" and KEY not in files["samoobsluha/tournament.key"]
    assert card.key == HallKeys(bytes.fromhex(KEY)).station_key("station-01", card.key_id)
    assert card.hub_public == HallKeys(bytes.fromhex(KEY)).public_key


def test_user_data_sets_host_user_keyboard_and_runs_installer() -> None:
    spec = station(ssh_keys=(SSH_KEY,), password_hash="$6$salt$hash")
    doc = yaml.safe_load(render(spec)["user-data"])
    assert doc["hostname"] == "station-01"
    assert doc["keyboard"] == {"layout": "cz", "model": "pc105"}
    # "user:" (singular, as Imager 2.x writes it): the image's default user is renamed and
    # keeps its groups, instead of a second, group-less account beside it
    assert "users" not in doc
    user = doc["user"]
    assert user["name"] == "rozhodci"
    assert ["chmod", "0440", "/etc/sudoers.d/010_rozhodci-nopasswd"] in doc["runcmd"]
    assert user["ssh_authorized_keys"] == [SSH_KEY]
    assert user["passwd"] == "$6$salt$hash" and user["lock_passwd"] is False
    assert ["systemctl", "enable", "--now", "ssh"] in doc["runcmd"]
    assert doc["runcmd"][-1][-1] == "/boot/firmware/samoobsluha/install.sh"
    assert doc["power_state"]["mode"] == "reboot"


def test_hostile_values_stay_inside_their_yaml_scalars() -> None:
    net = NetworkSpec(wifi_ssid='Sál "A": #1\nx', wifi_password="p'\"#: {}[]&*!|>")
    doc = yaml.safe_load(render(station(network=net))["network-config"])
    aps = doc["network"]["wifis"]["wlan0"]["access-points"]
    assert aps == {'Sál "A": #1\nx': {"password": "p'\"#: {}[]&*!|>"}}


def test_open_wifi_and_static_address() -> None:
    net = NetworkSpec(
        wifi_ssid="Hala", address="192.168.50.21/24", gateway="192.168.50.1", dns=("1.1.1.1",)
    )
    wlan = yaml.safe_load(render(station(network=net))["network-config"])["network"]["wifis"][
        "wlan0"
    ]
    assert wlan["access-points"] == {"Hala": {}}
    assert wlan["addresses"] == ["192.168.50.21/24"]
    assert wlan["routes"] == [{"to": "default", "via": "192.168.50.1"}]
    assert wlan["nameservers"] == {"addresses": ["1.1.1.1"]}


def test_station_toml_is_what_the_station_config_loader_reads(tmp_path: Path) -> None:
    spec = station(hub_address="192.168.50.2:7310", tournament_id="MČR-2026", ui_language="sk")
    path = tmp_path / "station.toml"
    path.write_text(render(spec)["samoobsluha/station.toml"], encoding="utf-8")
    cfg = station_config.load(path)
    assert cfg.name == "station-01"
    assert cfg.ui_language == "sk"
    assert cfg.lexicon == Path("/srv/samoobsluha/lexicons/cs.lex")
    assert cfg.section("network") == {
        "tournament_id": "MČR-2026",
        "psk_file": "/etc/samoobsluha/tournament.key",
        "hub": "192.168.50.2:7310",
    }
    # Only the station and network sections: [kiosk] and [gong] belong to their features.
    assert set(tomllib.loads(path.read_text())) == {"station", "network"}


def test_referee_pin_from_provisioning_opens_the_kiosk_referee_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """hub provision station --referee-pin-file: only the hash lands on the card, in
    [kiosk] referee_pin_hash, where the kiosk's settings read it."""
    from samoobsluha.shared.checks import KioskSettings, verify_pin

    pin_file = tmp_path / "pin.txt"
    pin_file.write_text("86429753\n", encoding="utf-8")
    key = tmp_path / "t.key"
    key.write_text(KEY + "\n", encoding="utf-8")
    card = tmp_path / "card"
    card.mkdir()
    code = hub_main(
        [
            "provision",
            "station",
            "--name",
            "station-07",
            "--psk-file",
            str(key),
            "--referee-pin-file",
            str(pin_file),
            "--tournament",
            "MČR-2026",
            "--target",
            str(card),
        ]
    )
    assert code == 0
    text = (card / "samoobsluha" / "station.toml").read_text(encoding="utf-8")
    assert "86429753" not in text
    cfg = station_config.load(card / "samoobsluha" / "station.toml")
    settings = KioskSettings.from_section(cfg.section("kiosk"))
    assert verify_pin("86429753", settings.referee_pin_hash)


def test_station_chrony_follows_the_hub_and_hub_serves_local_time() -> None:
    assert "server hub.local iburst" in render(station())["samoobsluha/files/chrony.conf"]
    conf = render(station(hub_address="10.0.0.5:7310"))["samoobsluha/files/chrony.conf"]
    assert "server 10.0.0.5 iburst" in conf and "allow" not in conf
    hub = render(ProvisionSpec(role="hub", hostname="hub", psk=KEY))
    hub_conf = hub["samoobsluha/files/chrony.conf"]
    # it serves the hall, but its own clock only once the operator confirmed it (hub.hubtime)
    assert "\nallow\n" in hub_conf and "\nlocal " not in hub_conf
    assert "samoobsluha/station.toml" not in hub


@pytest.mark.parametrize(
    ("spec", "packages"),
    [
        (station(), {"cage", "foot", "chrony", "overlayroot"}),
        (station(display="console"), {"chrony", "console-setup"}),
        (ProvisionSpec(role="hub", hostname="hub", psk=KEY), {"chrony", "hunspell-cs"}),
    ],
)
def test_setup_env_lists_the_debian_packages_each_role_needs(
    spec: ProvisionSpec, packages: set[str]
) -> None:
    env = render(spec)["samoobsluha/setup.env"]
    line = next(x for x in env.splitlines() if x.startswith("APT_PACKAGES="))
    listed = set(line.split("=", 1)[1].strip("'").split())
    assert packages <= listed
    # on every Raspberry Pi OS Lite image, and only in Raspberry Pi's archive (not bundled)
    assert "python3-lgpio" not in listed
    if spec.display == "console" or spec.role == "hub":
        assert "cage" not in listed


def test_bookworm_gets_firstrun_and_a_cmdline_trigger(tmp_path: Path) -> None:
    (tmp_path / "cmdline.txt").write_text("console=tty1 root=PARTUUID=1234-02 rootwait\n")
    spec = station(image="bookworm", ssh_keys=(SSH_KEY,), keyboard="sk")
    write(spec, tmp_path)
    firstrun = (tmp_path / "firstrun.sh").read_text()
    assert "set_hostname station-01" in firstrun.replace('"$NAME"', "station-01")
    assert "set_keymap sk" in firstrun and SSH_KEY in firstrun
    assert (tmp_path / "firstrun.sh").stat().st_mode & stat.S_IXUSR
    cmdline = (tmp_path / "cmdline.txt").read_text()
    assert cmdline.count("\n") == 1 and cmdline.strip().endswith(CMDLINE_TRIGGER.strip())
    write(spec, tmp_path)  # writing twice does not add the trigger twice
    assert (tmp_path / "cmdline.txt").read_text().count("systemd.run=") == 1


def test_write_copies_bundle_and_lexicon_and_protects_the_key(tmp_path: Path) -> None:
    bundle = tmp_path / "bundle"
    (bundle / "wheelhouse").mkdir(parents=True)
    (bundle / "debs").mkdir()
    (bundle / "wheelhouse" / "samoobsluha-0.1.0-py3-none-any.whl").write_bytes(b"w")
    (bundle / "wheelhouse" / "msgpack-1.2.4-cp311-cp311-manylinux_aarch64.whl").write_bytes(b"m")
    make_deb(bundle / "debs", "chrony", "4.3-2", depends="ucf")
    lex = tmp_path / "cs-klasik.lex"
    write_lexicon(["pes", "les"], lex, language="cs", variant="KLASIK", source="t", max_length=9)
    card = tmp_path / "card"
    report = write(station(lexicon_file=lex.name), card, bundle=bundle, lexicons=(lex,))
    payload = card / "samoobsluha"
    assert sorted(p.name for p in (payload / "wheelhouse").iterdir()) == [
        "msgpack-1.2.4-cp311-cp311-manylinux_aarch64.whl",
        "samoobsluha-0.1.0-py3-none-any.whl",
    ]
    packages = (payload / "debs" / "Packages").read_text()
    assert "Package: chrony\n" in packages and "Filename: ./chrony_4.3-2_all.deb" in packages
    carried = payload / "lexicons" / "cs-klasik.lex"
    assert carried.read_bytes() == lex.read_bytes()
    # signed by the hub the card pins (its key file's hub_public_key): the station judges
    pinned = StationKey.from_text((payload / "tournament.key").read_text()).hub_public
    assert decide(read_info(carried), carried, pinned) is Trust.HUB
    assert decide(read_info(lex), lex, pinned) is Trust.UNSIGNED  # the unsigned original
    assert (
        'lexicon = "/srv/samoobsluha/lexicons/cs-klasik.lex"'
        in (payload / "station.toml").read_text()
    )
    assert "LEXICON_FILE=cs-klasik.lex\n" in (payload / "setup.env").read_text()
    assert stat.S_IMODE((payload / "tournament.key").stat().st_mode) == 0o600
    assert (payload / "install.sh").stat().st_mode & stat.S_IXUSR
    assert any("2 wheels" in line for line in report)
    assert any("1 Debian packages" in line for line in report)


def test_bundle_without_our_wheel_is_refused(tmp_path: Path) -> None:
    (tmp_path / "b" / "wheelhouse").mkdir(parents=True)
    with pytest.raises(ProvisionError, match="no samoobsluha wheel"):
        write(station(), tmp_path / "card", bundle=tmp_path / "b")


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"hostname": "Station_01"}, "--name"),
        ({"hostname": "x" * 64}, "--name"),
        ({"admin_user": "root"}, "--user"),
        ({"ssh_keys": ("not a key",)}, "--ssh-key"),
        ({"password_hash": "plaintext"}, "--password-hash"),
        ({"keyboard": "us"}, "--keyboard"),
        ({"psk": "short"}, "tournament key"),
        ({"psk": "ab" * 16}, "64 hexadecimal"),
        ({"tournament_id": "a b"}, "--tournament"),
        ({"hub_address": "hub"}, "--hub"),
        ({"hub_address": "hub:99999"}, "--hub"),
        ({"display": "x11"}, "--display"),
        ({"referee_pin_hash": "1234"}, "--referee-pin-hash"),
        ({"network": NetworkSpec(wifi_password="12345678")}, "--wifi-ssid"),
        ({"network": NetworkSpec(wifi_ssid="a", wifi_password="short")}, "8 to 63"),
        ({"network": NetworkSpec(address="192.168.1.5")}, "prefix"),
        ({"network": NetworkSpec(address="10.0.0.2/8", gateway="nope")}, "--gateway"),
        ({"network": NetworkSpec(gateway="10.0.0.1")}, "--address"),
        (
            {"image": "bookworm", "network": NetworkSpec(wifi_ssid="a", address="10.0.0.2/8")},
            "DHCP reservation",
        ),
    ],
)
def test_bad_requests_are_refused_with_the_option_named(
    kw: dict[str, object], message: str
) -> None:
    with pytest.raises(ProvisionError, match=message):
        render(station(**kw))


def test_hub_host_port_parses_ipv4_names_and_ipv6() -> None:
    assert hub_host_port("192.168.50.2:7310") == ("192.168.50.2", 7310)
    assert hub_host_port("hub.local:1") == ("hub.local", 1)
    assert hub_host_port("[fd00::2]:7310") == ("fd00::2", 7310)
    # a link-local hub with its interface, as the station's --hub takes it
    assert hub_host_port("[fe80::2%wlan0]:47820") == ("fe80::2%wlan0", 47820)


@pytest.mark.parametrize(
    "value",
    ["::1:47820", "hub", "hub:0", "[hub]:1", "hub name:1", 'hub"\nserver evil:1',
     "[fe80::2%wl an0]:1"],
)  # fmt: skip
def test_hub_host_port_refuses_what_the_station_or_chrony_would_not_read(value: str) -> None:
    with pytest.raises(ProvisionError, match="--hub"):
        hub_host_port(value)


def test_cli_hub_creates_the_key_and_stations_get_their_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key = tmp_path / "tournament.key"
    ssh = tmp_path / "id.pub"
    ssh.write_text(SSH_KEY + "\n")
    rc = hub_main(
        ["provision", "hub", "--target", str(tmp_path / "hub"), "--psk-file", str(key),
         "--ssh-key", str(ssh), "--address", "192.168.50.2/24"]
    )  # fmt: skip
    assert rc == 0
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    for n in (1, 2):
        rc = hub_main(
            ["provision", "station", "--name", f"station-0{n}", "--target",
             str(tmp_path / f"s{n}"), "--psk-file", str(key), "--hub", "192.168.50.2:7310",
             "--kiosk-size", "64x20", "--display", "console"]
        )  # fmt: skip
        assert rc == 0
        card_key = (tmp_path / f"s{n}" / "samoobsluha" / "tournament.key").read_text()
        secret = bytes.fromhex(key.read_text().strip())
        assert key.read_text().strip() not in card_key
        creds = StationKey.from_text(card_key)
        assert creds.station == f"station-0{n}"
        assert creds.key == HallKeys(secret).station_key(f"station-0{n}", creds.key_id)
        env = (tmp_path / f"s{n}" / "samoobsluha" / "kiosk.env").read_text()
        assert "KIOSK_DISPLAY=console" in env and "KIOSK_COLS=64" in env
    out = capsys.readouterr().out
    assert re.search(r"zapsán[oy]? \d+ soubor\w* pro station station-02 do ", out), out  # cs


def test_cli_tournament_id_travels_from_the_hub_card_to_the_stations(tmp_path: Path) -> None:
    key = tmp_path / "tournament.key"
    ssh = tmp_path / "id.pub"
    ssh.write_text(SSH_KEY + "\n")
    assert hub_main(["provision", "hub", "--target", str(tmp_path / "h"), "--psk-file",
                     str(key), "--ssh-key", str(ssh)]) == 0  # fmt: skip
    tournament = (tmp_path / "tournament.id").read_text().strip()
    assert tournament.startswith("t-") and len(tournament) == 10
    assert f"TOURNAMENT_ID={tournament}\n" in (tmp_path / "h/samoobsluha/setup.env").read_text()
    assert hub_main(["provision", "station", "--name", "station-01", "--target",
                     str(tmp_path / "s"), "--psk-file", str(key)]) == 0  # fmt: skip
    toml = tomllib.loads((tmp_path / "s/samoobsluha/station.toml").read_text())
    assert toml["network"]["tournament_id"] == tournament
    # An explicit --tournament on the hub card replaces the kept id.
    assert hub_main(["provision", "hub", "--target", str(tmp_path / "h"), "--psk-file",
                     str(key), "--ssh-key", str(ssh), "--tournament", "mcr-2026"]) == 0  # fmt: skip
    assert (tmp_path / "tournament.id").read_text() == "mcr-2026\n"


def test_cli_station_without_a_tournament_id_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key = tmp_path / "tournament.key"
    key.write_text(KEY + "\n")
    rc = hub_main(["provision", "station", "--name", "station-01", "--target",
                   str(tmp_path / "s"), "--psk-file", str(key)])  # fmt: skip
    assert rc == 2
    assert "nejdřív připravte kartu hubu" in capsys.readouterr().err


def test_cli_station_without_a_key_says_where_the_key_comes_from(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc = hub_main(
        ["provision", "station", "--name", "station-01", "--target", str(tmp_path / "s"),
         "--psk-file", str(tmp_path / "missing.key")]
    )  # fmt: skip
    assert rc == 2
    assert "hub provision hub" in capsys.readouterr().err
    assert not (tmp_path / "s").exists()


def test_cli_hub_without_any_login_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc = hub_main(
        ["provision", "hub", "--target", str(tmp_path / "h"), "--psk-file", str(tmp_path / "k")]
    )
    assert rc == 2
    assert "--ssh-key" in capsys.readouterr().err


def test_cli_key_refuses_to_overwrite(tmp_path: Path) -> None:
    key = tmp_path / "k"
    assert hub_main(["provision", "key", "-o", str(key)]) == 0
    first = key.read_text()
    assert len(first.strip()) == 64
    assert hub_main(["provision", "key", "-o", str(key)]) == 2
    assert key.read_text() == first
    assert hub_main(["provision", "key", "-o", str(key), "--force"]) == 0
    assert key.read_text() != first


def test_payload_is_shipped_in_the_wheel_and_fully_used() -> None:
    """pyproject ships hub/provision/payload/* (flat); every file there lands on the card."""
    from samoobsluha.hub.provision.generator import PAYLOAD_FILES

    root = Path(__file__).resolve().parents[2]
    pyproject = tomllib.loads((root / "pyproject.toml").read_text())
    package_data = pyproject["tool"]["setuptools"]["package-data"]
    assert "payload/*" in package_data["samoobsluha.hub.provision"]
    payload = root / "hub" / "provision" / "payload"
    on_disk = {p.name for p in payload.iterdir()}
    assert all(p.is_file() for p in payload.iterdir())  # "payload/*" is not recursive
    assert on_disk == {*PAYLOAD_FILES, "install.sh"}
    card = render(station())
    assert {f"samoobsluha/files/{name}" for name in PAYLOAD_FILES} <= set(card)


def hub_card(**kw: object) -> ProvisionSpec:
    base: dict[str, object] = {"role": "hub", "hostname": "hub", "psk": KEY, "ssh_keys": (SSH_KEY,)}
    base.update(kw)
    return ProvisionSpec(**base)  # type: ignore[arg-type]


def _condition(unit: str) -> list[str]:
    """The unit's ExecCondition command line, as systemd runs it."""
    import shlex

    line = next(x for x in unit.splitlines() if x.startswith("ExecCondition="))
    return shlex.split(line.split("=", 1)[1])


def _card_data(files: dict[str, str], data: Path) -> Path:
    """The data folder install.sh makes on the hub card: its hub.toml, if the card has one."""
    data.mkdir(parents=True, exist_ok=True)
    if "samoobsluha/hub.toml" in files:
        (data / "hub.toml").write_text(files["samoobsluha/hub.toml"], encoding="utf-8")
    return data


def _runs(files: dict[str, str], data: Path) -> set[str]:
    """Which of the hub card's two units start on ``data``: their own ExecCondition run
    for real (our hub command in place of /usr/local/bin/hub)."""
    import os
    import sys

    bin_dir = Path(sys.executable).parent
    started = set()
    for name in ("samoobsluha-hub.service", "samoobsluha-standby.service"):
        cmd = [
            c.replace("/usr/local/bin/hub", str(bin_dir / "hub"))
            for c in _condition(files[f"samoobsluha/files/{name}"])
        ]
        env = {**os.environ, "SAMOOBSLUHA_DATA": str(data)}
        if subprocess.run(cmd, env=env, capture_output=True, timeout=60).returncode == 0:
            started.add(name)
    return started


def test_hub_card_opens_the_standby_link_by_configuration(tmp_path: Path) -> None:
    """``--standby-port``: the card's hub.toml says ``[standby] port``, which ``hub serve``
    reads; its hub unit runs, the standby unit does not."""
    from samoobsluha.hub import standby

    files = render(hub_card(standby_port=47821, tournament_id="t-0000abcd"))
    data = _card_data(files, tmp_path / "data")
    settings = standby.load_settings(data)
    assert settings.port == 47821 and settings.primary is None
    assert "STANDBY_OF=''" in files["samoobsluha/setup.env"]
    assert _runs(files, data) == {"samoobsluha-hub.service"}
    # a hub card without the option: no hub.toml, no standby link, the hub unit as before
    plain = render(hub_card(tournament_id="t-0000abcd"))
    assert "samoobsluha/hub.toml" not in plain
    assert standby.load_settings(_card_data(plain, tmp_path / "plain")).port is None
    assert _runs(plain, tmp_path / "plain") == {"samoobsluha-hub.service"}


def test_standby_card_runs_hub_standby_until_it_takes_over(tmp_path: Path) -> None:
    """``--standby-of``: hub.toml names the primary and the tournament (what ``hub
    standby`` needs); the standby unit runs, not the hub's, until ``hub takeover`` gives the
    card a hub database of its own — then the hub unit runs and the standby's does not."""
    from samoobsluha.hub import standby

    files = render(hub_card(standby_of="192.168.8.2:47821", tournament_id="t-0000abcd"))
    data = _card_data(files, tmp_path / "data")
    settings = standby.load_settings(data)
    assert settings == standby.StandbySettings(None, "192.168.8.2:47821", "t-0000abcd")
    assert "STANDBY_OF=192.168.8.2:47821" in files["samoobsluha/setup.env"]
    unit = files["samoobsluha/files/samoobsluha-standby.service"]
    assert "ExecStart=/usr/local/bin/hub standby\n" in unit
    assert "Conflicts=samoobsluha-hub.service" in unit
    assert _runs(files, data) == {"samoobsluha-standby.service"}
    (data / "hub.db").write_bytes(b"")  # what hub takeover leaves: the card is the hub
    assert _runs(files, data) == {"samoobsluha-hub.service"}


def test_install_enables_both_hub_units_and_keeps_the_directors_hub_toml() -> None:
    install = render(hub_card())["samoobsluha/install.sh"]
    assert "systemctl enable samoobsluha-hub.service samoobsluha-standby.service" in install
    assert '[ ! -f "$DATA/hub.toml" ]' in install  # an existing one is never overwritten
    assert '[ -z "${STANDBY_OF:-}" ]' in install  # a standby card gets no hub.db
    assert "/var/lib/samoobsluha-seat/seat" in install  # the seat, before the read-only root


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"standby_port": 0}, "--standby-port 0"),
        ({"standby_port": 47821, "standby_of": "hub2"}, "one card is one of them"),
        ({"standby_of": "hub2"}, "needs the tournament id"),
        ({"standby_of": "no such host!", "tournament_id": "t-1"}, "--hub"),
    ],
)
def test_standby_options_are_checked(kw: dict[str, object], message: str) -> None:
    with pytest.raises(ProvisionError, match=message):
        render(hub_card(**kw))
    with pytest.raises(ProvisionError, match="for the hub's card"):
        render(station(standby_port=47821))


def test_cli_standby_card(tmp_path: Path) -> None:
    key = tmp_path / "tournament.key"
    ssh = tmp_path / "id.pub"
    ssh.write_text(SSH_KEY + "\n")
    rc = hub_main(
        ["provision", "hub", "--name", "hub2", "--target", str(tmp_path / "hub2"),
         "--psk-file", str(key), "--ssh-key", str(ssh), "--tournament", "t-0000abcd",
         "--standby-of", "192.168.8.2"]
    )  # fmt: skip
    assert rc == 0
    toml = tomllib.loads((tmp_path / "hub2" / "samoobsluha" / "hub.toml").read_text())
    assert toml["standby"] == {"primary": "192.168.8.2", "tournament": "t-0000abcd"}
    with pytest.raises(SystemExit):  # argparse: one or the other
        hub_main(
            ["provision", "hub", "--target", str(tmp_path / "x"), "--psk-file", str(key),
             "--ssh-key", str(ssh), "--standby-of", "h", "--standby-port", "1"]
        )  # fmt: skip
