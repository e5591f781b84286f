"""``hub hall --json`` is what hall-check reads the published lexicon from: it must print
whatever warnings the hub has (they are catalogue phrases, copied by dataclasses.asdict)."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path

import pytest

from samoobsluha.hub.cli import main
from samoobsluha.shared.i18n import Phrase, localize


def test_a_phrase_survives_copy_deepcopy_and_pickle() -> None:
    inner = Phrase("warn.server_off")
    for twin in (copy.copy(inner), copy.deepcopy(inner), pickle.loads(pickle.dumps(inner))):
        assert isinstance(twin, Phrase) and twin.key == inner.key and twin == inner
        assert localize(twin, "cs") == localize(inner, "cs")


def test_hall_json_with_a_warning(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # No hub serve runs for this data dir: the report carries the "not running" warning.
    main(["hall", "--json"])
    out = capsys.readouterr().out
    report = json.loads(out)
    assert report["server_running"] is False
    assert report["warnings"], "the hub's warning is in the JSON"
    assert "expected_lexicon" in report
