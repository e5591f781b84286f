"""What every dashboard screen shares: the top bar, loading data in a thread worker,
running a service call in a thread worker and reporting its error, asking before an action
that cannot be taken back (:class:`ConfirmScreen`, naming exactly what it acts on),
formatting helpers."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from rich.cells import cell_len
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Footer, Input, Label

from samoobsluha.hub.service import HubService, ServiceError
from samoobsluha.shared.i18n import MESSAGES, error_text, t
from samoobsluha.shared.textsafe import literal

if TYPE_CHECKING:
    from samoobsluha.hub.app import HubApp


class DashScreen(Screen[None]):
    """A dashboard screen: ``fetch`` (any thread) returns data, ``show`` (UI thread)
    paints it; ``act`` runs a service call off the UI thread and reloads after it."""

    TITLE_KEY = ""
    # Escape leaves a field (the round number, a filter, the entry line): the screen's
    # shortcut keys work again at once.
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "leave_field", show=False)]

    @property
    def dash(self) -> HubApp:
        return self.app  # type: ignore[return-value]

    @property
    def service(self) -> HubService:
        return self.dash.service

    @property
    def lang(self) -> str:
        return self.dash.lang

    def tr(self, key: str, **values: Any) -> str:
        return t(key, self.lang, **values)

    def compose(self) -> ComposeResult:
        translate_bindings(self, self.lang)
        yield Label("", id="topbar")
        yield Label(literal(self.tr(self.TITLE_KEY)), id="screen-title")
        yield from self.compose_body()
        yield Label("", id="message")
        yield Footer()

    def compose_body(self) -> ComposeResult:
        yield from ()

    def on_mount(self) -> None:
        self.tick()
        self.reload()

    def on_screen_resume(self) -> None:
        self.reload()

    # -- loading ---------------------------------------------------------------------------
    def reload(self) -> None:
        self._load()

    @work(thread=True, exclusive=True, group="load", exit_on_error=False)
    def _load(self) -> None:
        try:
            data = self.fetch()
        except ServiceError as exc:
            self.app.call_from_thread(self.say, error_text(exc, self.lang), error=True)
            return
        self.app.call_from_thread(self._show, data)

    def _show(self, data: Any) -> None:
        if self.is_mounted:
            self.show(data)
            self.tick()

    def fetch(self) -> Any:
        return None

    def show(self, data: Any) -> None:
        pass

    def tick(self) -> None:
        """Once a second: the clock in the top bar (screens add their countdowns)."""
        if self.is_mounted:
            self.query_one("#topbar", Label).update(literal(self.dash.topbar_text()))

    # -- actions ---------------------------------------------------------------------------
    def act(
        self,
        call: Callable[[], Any],
        done: Callable[[Any], None] | None = None,
    ) -> None:
        """Run ``call`` (a service call) in a worker; then ``done(result)`` and a reload, or
        the error under the screen."""
        self._act(call, done)

    @work(thread=True, group="act", exit_on_error=False)
    def _act(self, call: Callable[[], Any], done: Callable[[Any], None] | None) -> None:
        try:
            result = call()
        except ServiceError as exc:
            self.app.call_from_thread(self.say, error_text(exc, self.lang), error=True)
            return
        if done is not None:
            self.app.call_from_thread(done, result)
        self.app.call_from_thread(self.dash.action_reload)

    def confirm_then(
        self,
        prepare: Callable[[], str | None],
        call: Callable[[], Any],
        done: Callable[[Any], None] | None = None,
    ) -> None:
        """Ask before ``call``: ``prepare`` (in a worker: it may read the hub) returns the
        question — naming exactly the round, check or request the action will touch — or
        ``None`` when no question is needed. Only a yes runs ``call`` (as :meth:`act`)."""
        self._confirm_then(prepare, call, done)

    @work(thread=True, group="act", exit_on_error=False)
    def _confirm_then(
        self,
        prepare: Callable[[], str | None],
        call: Callable[[], Any],
        done: Callable[[Any], None] | None,
    ) -> None:
        try:
            question = prepare()
        except ServiceError as exc:
            self.app.call_from_thread(self.say, error_text(exc, self.lang), error=True)
            return
        if question is None:
            self._act(call, done)
        else:
            self.app.call_from_thread(self._ask, question, call, done)

    def _ask(
        self, question: str, call: Callable[[], Any], done: Callable[[Any], None] | None
    ) -> None:
        def answered(yes: bool | None) -> None:
            if yes:
                self.act(call, done)
            else:
                self.say(self.tr("dash.confirm.declined"))

        self.app.push_screen(ConfirmScreen(question, self.lang), answered)

    def action_leave_field(self) -> None:
        """Out of a text field: to the screen's first table (arrows and shortcut keys
        work), else to nothing focused (shortcut keys work)."""
        if not isinstance(self.focused, Input):
            return
        tables = [t for t in self.query(DataTable) if t.display and t.can_focus]
        if tables:
            tables[0].focus()
        else:
            self.set_focus(None)

    def say(self, text: str, *, error: bool = False) -> None:
        """A line under the screen (and a toast for errors)."""
        if not self.is_mounted:
            return
        label = self.query_one("#message", Label)
        label.update(literal(text))
        label.set_class(error, "error")
        if error:
            self.notify(text, severity="error", timeout=6, markup=False)


class ConfirmScreen(ModalScreen[bool]):
    """Yes or no to one question; Enter or ``y`` is yes, Esc or ``n`` is no."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,y", "answer(True)", "dash.confirm.yes", priority=True),
        Binding("escape,n", "answer(False)", "dash.confirm.no", priority=True),
    ]

    def __init__(self, question: str, lang: str) -> None:
        super().__init__()
        self.question = question
        self.lang = lang

    def compose(self) -> ComposeResult:
        translate_bindings(self, self.lang)
        with Vertical(id="confirm-box"):
            yield Label(literal(self.question), id="confirm-question")
            yield Label(literal(t("dash.confirm.hint", self.lang)), id="confirm-hint")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


def translate_bindings(node: DOMNode, lang: str) -> None:
    """Binding descriptions are message keys; show them in ``lang`` (in the footer)."""
    bindings = node._bindings.copy()
    for key, items in bindings.key_to_bindings.items():
        bindings.key_to_bindings[key] = [
            dataclasses.replace(b, description=t(b.description, lang))
            if b.description in MESSAGES
            else b
            for b in items
        ]
    node._bindings = bindings


def fill_table(
    table: DataTable,
    columns: list[tuple[str, str]],
    rows: list[list[str]],
    *,
    keys: list[str] | None = None,
    min_widths: dict[str, int] | None = None,
) -> None:
    """Replace a table's columns and rows, each column exactly as wide as its widest cell
    (or ``min_widths``): fixed widths, so the same data always renders the same however
    busy the machine. ``keys`` name the rows: the cursor stays on the row the operator
    chose (by key, wherever new rows put it); without keys, on the same row index."""
    cursor = table.cursor_row
    chosen = selected_key(table) if keys else None
    table.clear(columns=True)
    for i, (key, label) in enumerate(columns):
        width = max(
            [cell_len(label), (min_widths or {}).get(key, 0), *(cell_len(r[i]) for r in rows)]
        )
        table.add_column(literal(label), key=key, width=width)
    for n, row in enumerate(rows):
        table.add_row(*(literal(cell) for cell in row), key=keys[n] if keys else None)
    if chosen is not None and chosen in table.rows:
        table.move_cursor(row=table.get_row_index(chosen))
    elif rows:  # a reload keeps the operator's place
        table.move_cursor(row=min(cursor, len(rows) - 1))


def selected_key(table: DataTable) -> str | None:
    """The key of the row under the cursor, if the table's rows have keys."""
    if not table.row_count:
        return None
    try:
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
    except Exception:
        return None
    return str(key.value) if key.value is not None else None


def clock_text(at: float | None) -> str:
    return time.strftime("%H:%M:%S", time.localtime(at)) if at else ""


def int_or_none(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdigit() else None
