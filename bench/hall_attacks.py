"""The hub under a hostile hall LAN: the hall-screen and discovery attacks, real processes.

    .venv/bin/python bench/hall_attacks.py [--seconds 30] [--slowloris 4500] [--streams 2000]
                                           [--fakes 30 100]

A real ``hub serve`` (mDNS on 127.0.0.1, the hall screen on) and three ``station daemon``s,
with the hub's open-file limit at 4,096 as the systemd unit sets it (``LimitNOFILE``). For
each attack, and once without one in the same run (the baseline):

* ``hub stations``: how long the command takes to answer;
* the projector (``/projector`` from 127.0.0.1) and a phone (``/`` from 127.0.0.2): status
  and time to the whole page;
* a station killed and started again: time until ``hub stations`` shows it linked;
* ``hub gong``: the three stations' worst lateness against the instant asked;
* the hub's log lines written while it lasted.

Attacks (each from its own process with a 20,000-descriptor limit, all from 127.0.0.3):

1. slowloris: ``--slowloris`` connections to the hall screen, each an unfinished request
   head trickling one header line a second, reopened whenever the hub closes one;
2. ``--streams`` live pages (``/events``) from one phone that never reads, reopened when
   refused or closed;
3. ``--fakes`` address-less ``_samoobsluha._tcp`` services announcing the stations'
   tournament: the restarted station finds the hub by mDNS alone; also the search itself
   (``station.link.discovery.discover``) timed with and without the pinned key;
4. ``projector``: ``--streams`` live pages from the projector's own address (127.0.0.1,
   loopback: the hardest case, a device sharing its address or NAT), while the projector
   opens its page and live stream with the token ``hub serve`` printed: the page's status
   and time, the stream's, and how long after each of three round starts (asked on
   hub.sock) the new plan reached it; the same page without the token beside it;
5. ``copied``: a card holding stul-66's key sends ``--forged`` results in stul-01's name:
   how long until all are acknowledged, how many are stored refused under the
   authenticated sender with the name they claimed, how many entered, and whether
   ``hub stations`` flags stul-66.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "net"))

import contextlib

from net_procs import Hub, Station, wait_for
from stream_flood import LiveStream, flood

ATTACKER = "127.0.0.3"
PROJECTOR = "127.0.0.1"  # loopback: a projector address by default (the hub's own HDMI)
FLOOD = Path(__file__).resolve().parents[1] / "tests" / "net" / "stream_flood.py"
HUB_NOFILE = 4096


# -- attackers (run as `hall_attacks.py --attacker KIND ...` in their own process) ---------


async def _slowloris(port: int, count: int, seconds: float) -> dict[str, int]:
    opened = closed = 0
    stop = time.monotonic() + seconds

    async def one() -> None:
        nonlocal opened, closed
        while time.monotonic() < stop:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(ATTACKER, 0)
                )
            except OSError:
                await asyncio.sleep(0.5)
                continue
            opened += 1
            try:
                writer.write(b"GET / HTTP/1.1\r\nHost: hub\r\n")
                while time.monotonic() < stop:
                    await asyncio.sleep(1.0)
                    writer.write(b"X-a: b\r\n")
                    await writer.drain()
                    if reader.at_eof():
                        break
            except OSError:
                pass
            closed += 1
            writer.close()
            await asyncio.sleep(0.2)

    await asyncio.gather(*(one() for _ in range(count)))
    return {"opened": opened, "closed_by_hub": closed}


async def _fakes(tournament: str, count: int, seconds: float) -> dict[str, int]:
    from zeroconf import IPVersion
    from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

    from samoobsluha.shared import protocol

    azc = AsyncZeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
    infos = [
        AsyncServiceInfo(
            protocol.SERVICE_TYPE,
            f"fake-{i}.{protocol.SERVICE_TYPE}",
            addresses=[],
            port=4000 + i,
            server=f"fake-{i}.local.",
            properties={"tournament": tournament, "hub": f"fake{i}", "v": "2"},
        )
        for i in range(count)
    ]
    await asyncio.gather(*(azc.async_register_service(i) for i in infos))
    print("announced", flush=True)
    await asyncio.sleep(seconds)
    await azc.async_close()
    return {"fakes": count}


def attacker_main(kind: str, target: str, count: int, seconds: float) -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 20000), hard))
    if kind == "slowloris":
        out = asyncio.run(_slowloris(int(target), count, seconds))
    elif kind == "streams":
        # the same flooding client as tests/net/test_net_projector.py, from the attacker's address
        out = asyncio.run(flood(int(target), ATTACKER, count, seconds))
    else:
        out = asyncio.run(_fakes(target, count, seconds))
    print(json.dumps(out), flush=True)


def start_attacker(kind: str, target: str, count: int, seconds: float) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, __file__, "--attacker", kind, target, str(count), str(seconds)],
        stdout=subprocess.PIPE,
        text=True,
    )


# -- what the referee and the hall see ------------------------------------------------------


def fetch(port: int, path: str, source: str) -> tuple[int, float]:
    """(status, seconds) of a whole GET from ``source``; status 0 when refused/timed out."""
    import http.client

    t0 = time.perf_counter()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
        conn.request("GET", path)
        resp = conn.getresponse()
        resp.read()
        conn.close()
        return resp.status, time.perf_counter() - t0
    except OSError:
        return 0, time.perf_counter() - t0


def linked(hub: Hub, station: str) -> bool:
    try:
        rows = json.loads(hub.ctl("stations", "--json"))
    except (AssertionError, subprocess.TimeoutExpired):
        return False
    return any(r["station_id"] == station and r["connected"] for r in rows)


def log_lines(hub: Hub) -> int:
    return hub.log().count("\n")


def observe(hub: Hub, stations: list[Station], screen_port: int) -> dict[str, Any]:
    from samoobsluha.hub import control

    out: dict[str, Any] = {}
    assert hub.proc is not None
    out["hub_fds"] = len(os.listdir(f"/proc/{hub.proc.pid}/fd"))
    # the control socket itself, then the command as the referee types it (a new Python
    # process: most of its time is the interpreter starting on this shared machine)
    t0 = time.perf_counter()
    control.request("stations", path=hub.data / "hub.sock")
    out["socket_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    try:
        hub.ctl("stations", "--json")
        out["stations_s"] = time.perf_counter() - t0
    except (AssertionError, subprocess.TimeoutExpired):
        out["stations_s"] = None
    out["projector"] = fetch(screen_port, "/projector", "127.0.0.1")
    out["phone"] = fetch(screen_port, "/", "127.0.0.2")
    # a station restarts (power cut at its table)
    st = stations[-1]
    st.kill()
    wait_for(lambda: not linked(hub, st.station_id), 60, "the hub to notice")
    t0 = time.perf_counter()
    st.start()
    try:
        wait_for(lambda: linked(hub, st.station_id), 60, "the restarted station")
        out["restart_s"] = time.perf_counter() - t0
    except AssertionError:
        out["restart_s"] = None
    for s in stations:
        s.data.joinpath("station.out").write_text("")
    wait_for(lambda: all(synced(hub, s.station_id) for s in stations), 60, "clocks")
    gong = json.loads(hub.ctl("gong", "warning", "--json"))
    wait_for(lambda: all(s.rings() for s in stations), 30, "the gong")
    out["gong_late_ms"] = max(s.rings()[0]["local_time"] - gong["at"] for s in stations) * 1000
    return out


def synced(hub: Hub, station: str) -> bool:
    rows = json.loads(hub.ctl("stations", "--json"))
    return any(
        r["station_id"] == station and r["connected"] and r["status"].get("clock_synced")
        for r in rows
    )


def run_case(
    hub: Hub,
    stations: list[Station],
    screen_port: int,
    attack: subprocess.Popen[str] | None,
    settle: float,
    stop_attack: bool = False,
) -> dict[str, Any]:
    lines0 = log_lines(hub)
    t0 = time.monotonic()
    if attack is not None:
        time.sleep(settle)  # the attack under way
    out = observe(hub, stations, screen_port)
    out["during_s"] = time.monotonic() - t0
    if attack is not None:
        if stop_attack:
            attack.terminate()
        stdout, _ = attack.communicate(timeout=600)
        last = stdout.strip().splitlines()[-1:] if stdout else []
        if last and last[0].startswith("{"):
            out["attacker"] = json.loads(last[0])
    out["log_lines"] = log_lines(hub) - lines0
    return out


def fmt(name: str, r: dict[str, Any]) -> str:
    def ms(v: float | None) -> str:
        return "—" if v is None else f"{v * 1000:.0f} ms"

    return (
        f"{name:<22} hub fds {r['hub_fds']:>4} | hub.sock stations {ms(r['socket_s']):>6}, "
        f"`hub stations` {ms(r['stations_s']):>7} | projector {r['projector'][0]} "
        f"{ms(r['projector'][1]):>7} | phone {r['phone'][0]} {ms(r['phone'][1]):>7} | "
        f"station back {ms(r['restart_s']):>8} | gong late {r['gong_late_ms']:.1f} ms | "
        f"log +{r['log_lines']} lines" + (f" | attacker {r['attacker']}" if "attacker" in r else "")
    )


async def sequential_discover(tournament: str, timeout: float = 3.0) -> list[Any]:
    """The baseline: the search as it was before (station/sync.py until this bench was
    written) — every announced service resolved one after another, 1.5 s each."""
    from zeroconf import IPVersion, ServiceStateChange
    from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

    from samoobsluha.shared import protocol

    azc = AsyncZeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
    names: list[str] = []
    found: list[Any] = []
    seen = asyncio.Event()

    def on_change(zeroconf: Any, service_type: str, name: str, state_change: Any) -> None:
        if state_change is not ServiceStateChange.Removed and name not in names:
            names.append(name)
            seen.set()

    browser = AsyncServiceBrowser(azc.zeroconf, [protocol.SERVICE_TYPE], handlers=[on_change])
    try:
        deadline, checked = time.monotonic() + timeout, 0
        while time.monotonic() < deadline:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(seen.wait(), max(0.0, deadline - time.monotonic()))
            seen.clear()
            for name in names[checked:]:
                info = AsyncServiceInfo(protocol.SERVICE_TYPE, name)
                if not await info.async_request(azc.zeroconf, 1500):
                    continue
                props = {k.decode(): (v or b"").decode() for k, v in info.properties.items()}
                if props.get("tournament") == tournament and info.parsed_addresses():
                    found.append(name)
                    deadline = min(deadline, time.monotonic() + 1.0)
            checked = len(names)
    finally:
        await browser.async_cancel()
        await azc.async_close()
    return found


async def search_times(tournament: str, key: bytes) -> dict[str, float]:
    from samoobsluha.station.link.discovery import discover

    out = {}
    for name, pinned in (("pinned key", key), ("no key", None)):
        t0 = time.perf_counter()
        found = await discover(tournament, interfaces=["127.0.0.1"], pinned_key=pinned)
        out[name] = time.perf_counter() - t0
        assert found, "the hub was not found"
    t0 = time.perf_counter()
    found = await sequential_discover(tournament)
    took = time.perf_counter() - t0
    label = "baseline: one after another" + ("" if found else " (hub NOT found)")
    out[label] = took
    return out


def projector_case(hub: Hub, streams: int, seconds: float) -> dict[str, Any]:
    """The projector, by its token, while one client floods live pages from its address."""
    from urllib.parse import urlsplit

    from samoobsluha.hub import control

    parts = urlsplit(hub.info()["projector"][0])
    port, token = int(parts.port or 0), parts.query.removeprefix("k=")
    sock = hub.data / "hub.sock"

    def round_starts(stream: LiveStream, numbers: tuple[int, ...]) -> list[float]:
        waits = []
        for number in numbers:
            t0 = time.monotonic()
            control.request("start_round", path=sock, number=number, lead=30.0, force=True)
            wait_for(lambda t=t0: stream.patches("plans", t), 30, "the plan on the projector")
            waits.append(stream.patches("plans", t0)[0] - t0)
        return waits

    quiet = LiveStream(port, f"/events?k={token}", PROJECTOR)  # the baseline: no flood
    try:
        wait_for(lambda: any(n == "snap" for _, n, _ in quiet.events), 30, "the snap")
        baseline = round_starts(quiet, (1, 2, 3))
    finally:
        quiet.close()
    flood = subprocess.Popen(
        [sys.executable, str(FLOOD), str(port), PROJECTOR, str(streams), str(seconds)],
        stdout=subprocess.PIPE,
        text=True,
    )
    out: dict[str, Any] = {"update_quiet_s": baseline}
    live: list[LiveStream] = []
    try:
        assert flood.stdout is not None
        flood.stdout.readline()  # "flooding"
        time.sleep(8)  # the attack under way
        out["page"] = fetch(port, f"/projector?k={token}", PROJECTOR)
        t0 = time.perf_counter()
        stream = LiveStream(port, f"/events?k={token}", PROJECTOR)
        live.append(stream)
        wait_for(lambda: any(n == "snap" for _, n, _ in stream.events), 30, "the snap")
        out["stream"] = (stream.status, time.perf_counter() - t0)
        bare = LiveStream(port, "/events", PROJECTOR)  # the address alone
        live.append(bare)
        out["without_token"] = bare.status
        out["update_s"] = round_starts(stream, (4, 5, 6))
        out["stream_alive"] = not stream.closed
    finally:
        for s in live:
            s.close()
        flood.terminate()
        stdout, _ = flood.communicate(timeout=120)
        last = stdout.strip().splitlines()[-1:] if stdout else []
        if last and last[0].startswith("{"):
            out["attacker"] = json.loads(last[0])
    return out


def copied_card_case(hub: Hub, tmp: Path, forged: int) -> dict[str, Any]:
    """stul-66's key, results written in stul-01's name, as a copied card would."""
    from samoobsluha.hub import store
    from samoobsluha.shared.storage import open_db
    from samoobsluha.station.log import KioskStore, Result

    key = tmp / "stul-66.key"
    hub.ctl("key", "station", "stul-66", "--out", str(key))
    thief = Station(tmp / "stul-66", hub, "stul-66", key_file=key)
    thief.start()
    try:
        wait_for(lambda: linked(hub, "stul-66"), 60, "the copied card linked")
        kiosk = KioskStore.open(thief.db_path, "stul-01")
        t0 = time.perf_counter()
        try:
            for table in range(1, forged + 1):
                result = Result(1, table, 400, 300, "first", f"A{table}", f"B{table}")
                kiosk.store_result(result, at=time.time())
        finally:
            kiosk.close()
        wait_for(lambda: thief.backlog() == 0, 60, "the forged rows acknowledged")
        acked = time.perf_counter() - t0
        db = open_db(hub.db_path, store.migrations)
        try:
            refused = store.rejected_rows(db)
            entered = len(store.inbox_rows(db, "result"))
        finally:
            db.close()
        rows = {r["station_id"]: r for r in json.loads(hub.ctl("stations", "--json"))}
        return {
            "acked_s": acked,
            "refused_as_sender": sum(
                1 for r in refused if r["station_id"] == "stul-66" and r["claimed"] == "stul-01"
            ),
            "entered": entered,
            "flagged": rows.get("stul-66", {}).get("impersonated", {}),
        }
    finally:
        thief.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seconds", type=float, default=30.0, help="each attack lasts this long")
    ap.add_argument("--slowloris", type=int, default=4500)
    ap.add_argument("--streams", type=int, default=2000)
    ap.add_argument("--fakes", type=int, nargs="*", default=[30, 100])
    ap.add_argument("--forged", type=int, default=16, help="results a copied card forges")
    ap.add_argument(
        "--cases",
        nargs="*",
        default=["web", "projector", "copied", "mdns"],
        help="web (slowloris, live pages), projector, copied, mdns",
    )
    ap.add_argument("--attacker", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.attacker:
        kind, target, count, seconds = args.attacker
        attacker_main(kind, target, int(count), float(seconds))
        return
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (HUB_NOFILE, hard))  # inherited by the hub

    from samoobsluha.shared.protocol import HallKeys, parse_psk

    tmp = Path(tempfile.mkdtemp(prefix="hall-attacks-"))
    hub = Hub(tmp / "hub", mdns=True).start()
    stations = [Station(tmp / f"st{i}", hub, f"st{i}", use_mdns=(i == 2)) for i in range(3)]
    results: list[tuple[str, dict[str, Any]]] = []
    try:
        for st in stations:
            st.start()
        wait_for(lambda: all(synced(hub, s.station_id) for s in stations), 90, "stations")
        url = hub.info()["screen"][0]
        screen_port = int(url.rsplit(":", 1)[1].strip("/"))
        print(f"hub {hub.port}, hall screen {screen_port}, hub NOFILE {HUB_NOFILE}", flush=True)
        results.append(("baseline (no attack)", run_case(hub, stations, screen_port, None, 0)))
        print(fmt(*results[-1]), flush=True)
        if "web" in args.cases:
            attack = start_attacker("slowloris", str(screen_port), args.slowloris, args.seconds)
            case = run_case(hub, stations, screen_port, attack, 8)
            results.append((f"slowloris ×{args.slowloris}", case))
            print(fmt(*results[-1]), flush=True)
            attack = start_attacker("streams", str(screen_port), args.streams, args.seconds)
            case = run_case(hub, stations, screen_port, attack, 8)
            results.append((f"live pages ×{args.streams}", case))
            print(fmt(*results[-1]), flush=True)
        if "projector" in args.cases:
            p = projector_case(hub, args.streams, args.seconds + 30)
            results.append((f"projector, ×{args.streams} from its address", p))
            ms = ", ".join(f"{w * 1000:.0f}" for w in p["update_s"])
            quiet = ", ".join(f"{w * 1000:.0f}" for w in p["update_quiet_s"])
            print(
                f"projector under {args.streams} live pages from its own address: page "
                f"{p['page'][0]} in {p['page'][1] * 1000:.0f} ms, stream {p['stream'][0]} "
                f"(snap in {p['stream'][1] * 1000:.0f} ms), round start -> its update "
                f"{ms} ms (no flood: {quiet} ms), stream alive {p['stream_alive']}; "
                f"without the token: "
                f"{p['without_token']} | attacker {p.get('attacker')}",
                flush=True,
            )
        if "copied" in args.cases:
            c = copied_card_case(hub, tmp, args.forged)
            results.append(("copied card", c))
            print(
                f"copied card stul-66 sends {args.forged} results as stul-01: acknowledged in "
                f"{c['acked_s'] * 1000:.0f} ms, {c['refused_as_sender']} stored refused from "
                f"stul-66 claiming stul-01, {c['entered']} entered; hub stations flags "
                f"stul-66: {c['flagged']}",
                flush=True,
            )
        if "mdns" not in args.cases:
            args.fakes = []
        key = HallKeys(parse_psk(hub.key_file.read_text())).public_key
        base = asyncio.run(search_times(hub.tournament, key))
        print(
            "mDNS search, no fakes: "
            + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in base.items()),
            flush=True,
        )
        for count in args.fakes:
            attack = start_attacker("fakes", hub.tournament, count, 600)
            assert attack.stdout is not None
            attack.stdout.readline()  # "announced"
            times = asyncio.run(search_times(hub.tournament, key))
            print(
                f"mDNS search, {count} fakes: "
                + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in times.items()),
                flush=True,
            )
            case = run_case(hub, stations, screen_port, attack, 0, stop_attack=True)
            results.append((f"fake mDNS ×{count}", case))
            print(fmt(*results[-1]), flush=True)
    finally:
        for st in stations:
            st.stop()
        hub.stop()
    print(json.dumps({name: r for name, r in results}, default=str))
    print(f"logs: {tmp}", file=sys.stderr)


if __name__ == "__main__":
    if "--attacker" not in sys.argv:
        os.nice(5)
    main()
