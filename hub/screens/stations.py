"""Stations: who is online, their clocks, lexicons, versions, backlogs and last signals,
and a warning when the hall has fewer stations than ČAS 15.8e requires. ``r`` twice on a
station revokes its key (a lost or copied card)."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Label

from samoobsluha.hub.screens.base import DashScreen, clock_text, fill_table
from samoobsluha.hub.service import StationReport, StationRow
from samoobsluha.shared.i18n import decimal, error_text, localize, t
from samoobsluha.shared.pin import PIN_MAX_LENGTH, PinError, check_new_pin
from samoobsluha.shared.textsafe import literal, styled

# the lexicon's trust as the station reports it (shared/lextrust.py: Trust) → its words
_TRUST = {
    "hub": "dash.trust.hub",
    "referee": "dash.trust.referee",
    "unpinned": "dash.trust.unpinned",
    "unsigned": "dash.trust.refused",
    "bad_signature": "dash.trust.refused",
}

COLUMNS = (
    "station",
    "state",
    "seen",
    "offset",
    "lexicon",
    "config",
    "version",
    "backlog",
    "signal",
)


class PinDialog(ModalScreen[str | None]):
    """A new referee PIN for every station: typed twice (hidden), then confirmed."""

    DEFAULT_CSS = """
    PinDialog { align: center middle; }
    PinDialog > Vertical { width: 64; height: auto; border: thick $warning; padding: 1 2;
                           background: $surface; }
    PinDialog Label { width: 100%; }  /* long prompts and refusals wrap, never cut */
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", show=False)]

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang
        self.first = ""
        self.asking = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(literal(t("dash.pin.new", self.lang)), id="pin-prompt")
            yield Input(id="pin-input", password=True, max_length=PIN_MAX_LENGTH)
            yield Label("", id="pin-error")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        pin, event.input.value = event.value, ""
        prompt = self.query_one("#pin-prompt", Label)
        error = self.query_one("#pin-error", Label)
        if not self.first:
            try:
                check_new_pin(pin)
            except PinError as exc:
                error.update(literal(error_text(exc, self.lang)))
                return
            self.first = pin
            error.update("")
            prompt.update(literal(t("dash.pin.repeat", self.lang)))
            return
        if pin != self.first:
            self.first = ""
            error.update(literal(t("pin.differ", self.lang)))
            prompt.update(literal(t("dash.pin.new", self.lang)))
            return
        self.asking = True
        event.input.disabled = True
        prompt.update(literal(t("dash.pin.confirm", self.lang)))

    def on_key(self, event: Key) -> None:
        if self.asking and event.key != "escape":
            event.stop()
            self.dismiss(self.first if (event.character or "").lower() in ("a", "y", "t") else None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class StationsScreen(DashScreen):
    TITLE_KEY = "dash.tab.stations"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "revoke", "dash.act.revoke"),
        Binding("p", "referee_pin", "dash.act.pin"),
        Binding("q", "qr", show=False),
        Binding("z", "rehearse", "rehearse.dash.key"),  # hub rehearse (hub/rehearse.py)
    ]
    _armed: str | None = None
    screen_urls: list[str] | None = None  # the hall screen's addresses (None: no server)

    def action_revoke(self) -> None:
        """Revoke the selected station's key; the first press only asks."""
        table = self.query_one("#stations", DataTable)
        if table.row_count == 0:
            return
        station = str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)
        if self._armed != station:
            self._armed = station
            self.say(self.tr("dash.revoke.confirm", station=station))
            return
        self._armed = None
        self.act(
            lambda: self.service.revoke_station(station),
            lambda _: self.say(self.tr("dash.revoke.done", station=station)),
        )

    def action_referee_pin(self) -> None:
        def chosen(pin: str | None) -> None:
            if pin:
                self.act(lambda: self.service.set_referee_pin(pin), self._pin_sent)

        self.app.push_screen(PinDialog(self.lang), chosen)

    def _pin_sent(self, result: dict[str, Any]) -> None:
        sent = result.get("sent_to") or []
        text = self.tr("pin.sent", stations=", ".join(sent) or self.tr("dash.nobody"))
        pending = sorted(set(result.get("stations") or []) - set(sent))
        if pending:  # offline now: they get it when they reconnect
            text += " " + self.tr("pin.pending", stations=", ".join(pending))
        self.say(text)

    def action_rehearse(self) -> None:
        """The hall rehearsal; while a round is being played only after the operator types
        its number, and then quiet (no bell, nothing over a player's screen)."""
        self._rehearse_guarded()

    @work(thread=True, group="act", exit_on_error=False)
    def _rehearse_guarded(self) -> None:
        from samoobsluha.hub.rehearse import in_play_now

        in_play = in_play_now(self.service)
        if in_play is None:
            self.app.call_from_thread(self._rehearse, False)
            return
        plan, how = in_play
        self.app.call_from_thread(self._ask_rehearse, plan.number, how)

    def _ask_rehearse(self, number: int, how: str) -> None:
        from samoobsluha.hub.screens.typed import TypedConfirm

        question = f"{self.tr(f'dash.rehearse.{how}', n=number)} {self.tr('dash.rehearse.quiet')}"

        def answered(yes: bool | None) -> None:
            if yes:
                self._rehearse(True)
            else:
                self.say(self.tr("dash.confirm.declined"))

        self.app.push_screen(TypedConfirm(question, str(number), self.lang), answered)

    def _rehearse(self, during_round: bool) -> None:
        from samoobsluha.hub.rehearse import rehearse_for_dashboard

        self.say(self.tr("rehearse.dash.quiet" if during_round else "rehearse.dash.running"))
        self.act(
            lambda: rehearse_for_dashboard(self.service, self.lang, during_round=during_round),
            self._rehearsed,
        )

    def _rehearsed(self, done: dict[str, Any]) -> None:
        """The verdict under the table, one line per station, and the A4 page's path."""
        label = self.query_one("#rehearsal", Label)
        label.update(literal("\n".join([*done["lines"], self.tr("dash.saved", path=done["path"])])))
        label.display = True
        self.say(done["verdict"], error=not done["go"])

    def compose_body(self) -> ComposeResult:
        yield Label("", id="stations-summary")
        yield Label("", id="screen-address")
        yield Label("", id="stations-warnings")
        yield Label("", id="stations-lexicons")
        yield DataTable(id="stations", cursor_type="row", zebra_stripes=True)
        yield Label("", id="rehearsal")

    def on_mount(self) -> None:
        self.query_one("#rehearsal", Label).display = False
        super().on_mount()

    def fetch(self) -> tuple[StationReport, tuple[list[str], list[str]] | None]:
        from samoobsluha.hub.web.qr import screen_and_projector_urls

        return self.service.stations(), screen_and_projector_urls(self.service)

    def show(self, data: tuple[StationReport, tuple[list[str], list[str]] | None]) -> None:
        report, urls = data
        self.screen_urls, projector = (None, []) if urls is None else urls
        address = self.query_one("#screen-address", Label)
        if self.screen_urls:
            text = (
                self.tr("screen.address", url="  ".join(self.screen_urls))
                + " · "
                + self.tr("screen.address.qr_key")
            )
            if projector:  # the operator opens it on the projector (its token: its places)
                text += "\n" + self.tr("screen.address.projector", url=projector[0])
            address.update(literal(text))
        else:
            address.update(literal(self.tr("screen.address.off")))
        address.display = self.screen_urls is not None  # nothing to say without a server
        self.query_one("#stations-summary", Label).update(
            literal(
                self.tr(
                    "dash.stations.summary",
                    players=report.players,
                    required=report.required,
                    online=report.online,
                    total=len(report.rows),
                    rule=report.rule,
                )
                if report.rows
                else self.tr("dash.stations.none")
            )
        )
        warnings = self.query_one("#stations-warnings", Label)
        warnings.update(literal("\n".join(f"⚠ {localize(w, self.lang)}" for w in report.warnings)))
        warnings.display = bool(report.warnings)
        self._show_lexicons(report.rows)
        rows = []
        for r in report.rows:
            lex = {True: "dash.lex.ok", False: "dash.lex.bad", None: "dash.lex.unknown"}[
                r.lexicon_ok
            ]
            if r.lexicon_pending:  # pushed and verified; in use from the next idle moment
                lex = "dash.lex.pending"
            seen = self.tr("dash.ago", s=int(r.seen_ago)) if r.seen_ago is not None else ""
            # the sign of what is shown: −0,0004 s is „+0,000 s“, not „−0,000 s“
            sign = "−" if round(r.clock_offset, 3) < 0 else "+"
            offset = f"{sign}{decimal(abs(r.clock_offset), self.lang, 3)} s" + (
                "" if r.clock_synced else " ✗"
            )
            station = r.station_id
            if r.impersonated:  # it sent rows in another station's name: say whose
                names = ", ".join(sorted(r.impersonated))
                station += " ⚠ " + self.tr("dash.stations.as", claimed=names)
            rows.append(
                [
                    station,
                    self.tr("dash.online" if r.online else "dash.offline"),
                    f"{clock_text(r.last_seen)} ({seen})" if r.last_seen else "",
                    offset,
                    f"{self.tr(lex)} {(r.lexicon_sha256 or '')[:8]}",
                    self._config_cell(r),
                    r.version,
                    "" if r.backlog is None else str(r.backlog),
                    r.last_signal,
                ]
            )
        fill_table(
            self.query_one("#stations", DataTable),
            [(key, self.tr(f"dash.col.{key}")) for key in COLUMNS],
            rows,
            keys=[r.station_id for r in report.rows],
        )

    def _show_lexicons(self, rows: list[StationRow]) -> None:
        """Whose word each station's lexicon is (shared/lextrust.py) and the confirmed rows
        its log lost, on one line that wraps at the screen's edge (the table is cut at
        80 columns); a refused lexicon or lost rows in the alarm style."""
        line: list[object] = []
        alarm = False
        for r in rows:
            parts: list[tuple[str, bool]] = []
            trust = _TRUST.get(r.lexicon_trust or "")
            if trust is not None:
                parts.append((self.tr(trust), trust == "dash.trust.refused"))
            if r.rows_lost:
                parts.append((self.tr("cli.stations.rows_lost", n=r.rows_lost), True))
            if not parts:
                continue
            if line:
                line.append(" · ")
            line.append(r.station_id + " ")
            for i, (text, bad) in enumerate(parts):
                line.append("" if i == 0 else ", ")
                line.append((text, "bold red" if bad else ""))
                alarm = alarm or bad
        label = self.query_one("#stations-lexicons", Label)
        prefix = self.tr("dash.stations.lexicons", list="\0").split("\0")
        label.update(styled(prefix[0], *line, prefix[-1]))
        label.display = bool(line)
        label.set_class(alarm, "alarm")

    def _config_cell(self, r: StationRow) -> str:
        """The hall configuration the kiosk uses: the same as the hub published last, or
        another (then when the one it uses was published), or none."""
        if r.config_ok is None:
            return ""
        if r.config_ok:
            return self.tr("dash.config.ok")
        if r.config_version is None:
            return self.tr("dash.config.none")
        return self.tr("dash.config.other", time=clock_text(r.config_version / 1000))

    def action_qr(self) -> None:
        if self.screen_urls:
            from samoobsluha.hub.screens.qr import QrScreen

            self.app.push_screen(QrScreen(self.screen_urls[0], self.lang))
