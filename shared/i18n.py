"""The words the system shows people, in Czech (default), Slovak and English.

Code, logs and docs are in English; anything a player or referee reads goes through
:func:`t`. Keys are stable identifiers; a missing translation falls back to Czech.
"""

from __future__ import annotations

from typing import Any

LANGUAGES = ("cs", "sk", "en")
DEFAULT = "cs"

MESSAGES: dict[str, dict[str, str]] = {
    "verdict.valid": {"cs": "PLATNÉ", "sk": "PLATNÉ", "en": "VALID"},
    "verdict.invalid": {"cs": "NEPLATNÉ", "sk": "NEPLATNÉ", "en": "NOT VALID"},
    "verdict.referee": {
        "cs": "ZAVOLEJTE ROZHODČÍHO",
        "sk": "ZAVOLAJTE ROZHODCU",
        "en": "CALL THE REFEREE",
    },
    "verdict.referee_long": {
        "cs": "Slovo je delší, než pokrývá slovník ({max} písmen). Rozhodne rozhodčí.",
        "sk": "Slovo je dlhšie, než pokrýva slovník ({max} písmen). Rozhodne rozhodca.",
        "en": "The word is longer than the lexicon covers ({max} letters). The referee decides.",
    },
    "refused.empty": {
        "cs": "Nebylo zadáno žádné slovo.",
        "sk": "Nebolo zadané žiadne slovo.",
        "en": "No word was entered.",
    },
    "refused.too_short": {
        "cs": "„{raw}“: slovo musí mít alespoň 2 písmena.",
        "sk": "„{raw}“: slovo musí mať aspoň 2 písmená.",
        "en": "“{raw}”: a word has at least 2 letters.",
    },
    "refused.too_long": {
        "cs": "„{raw}“ má {detail} písmen; na desku se vejde nejvýše 15.",
        "sk": "„{raw}“ má {detail} písmen; na dosku sa zmestí najviac 15.",
        "en": "“{raw}” has {detail} letters; at most 15 fit on the board.",
    },
    "refused.bad_char": {
        "cs": "„{raw}“ obsahuje znak „{detail}“, který není písmenem abecedy.",
        "sk": "„{raw}“ obsahuje znak „{detail}“, ktorý nie je písmenom abecedy.",
        "en": "“{raw}” contains “{detail}”, which is not a letter of the alphabet.",
    },
    "refused.brackets": {
        "cs": "„{raw}“: závorky pro žolíka nejsou v pořádku.",
        "sk": "„{raw}“: zátvorky pre žolíka nie sú v poriadku.",
        "en": "“{raw}”: the blank brackets are not balanced.",
    },
    "char.space": {"cs": "mezera", "sk": "medzera", "en": "space"},
    "lexicon.unusable": {
        "cs": "Slovník nelze použít: {error}",
        "sk": "Slovník nie je možné použiť: {error}",
        "en": "The lexicon cannot be used: {error}",
    },
    # -- station ↔ hub link (station/sync.py) --
    "sync.clock_not_synced": {
        "cs": "Hodiny nejsou seřízené",
        "sk": "Hodiny nie sú zosynchronizované",
        "en": "Clock not synced",
    },
    "sync.hub_offline": {
        "cs": "Bez spojení s rozhodčím",
        "sk": "Bez spojenia s rozhodcom",
        "en": "No link to the referee's hub",
    },
    "sync.hub_online": {
        "cs": "Spojeno s rozhodčím",
        "sk": "Spojené s rozhodcom",
        "en": "Linked to the referee's hub",
    },
    "sync.backlog": {
        "cs": "Čeká na odeslání: {count}",
        "sk": "Čaká na odoslanie: {count}",
        "en": "Waiting to be sent: {count}",
    },
    # -- round clock (station/rounds.py, station/commands/gong.py) --
    "round.number": {"cs": "{number}. kolo", "sk": "{number}. kolo", "en": "Round {number}"},
    "round.phase.idle": {"cs": "Žádné kolo", "sk": "Žiadne kolo", "en": "No round"},
    "round.phase.scheduled": {"cs": "Začátek za", "sk": "Začiatok za", "en": "Starts in"},
    "round.phase.running": {"cs": "Hraje se", "sk": "Hrá sa", "en": "Playing"},
    "round.phase.warning": {
        "cs": "Posledních 10 minut",
        "sk": "Posledných 10 minút",
        "en": "Last 10 minutes",
    },
    "round.phase.ended": {"cs": "DOHRÁVKA", "sk": "DOHRÁVKA", "en": "PLAY-OUT"},
    "round.phase.cancelled": {"cs": "Kolo zrušeno", "sk": "Kolo zrušené", "en": "Round cancelled"},
    "round.paused": {"cs": "přerušeno", "sk": "prerušené", "en": "paused"},
    # --- station kiosk (station/app.py, station/screens/) ---------------------------------
    "kiosk.idle.instruction": {
        "cs": "Kontrola slov: napište číslo stolu a stiskněte Enter.",
        "sk": "Kontrola slov: napíšte číslo stola a stlačte Enter.",
        "en": "Word check: type your table number and press Enter.",
    },
    "kiosk.idle.menu": {
        "cs": "F2 zápis výsledku · F3 kde hraji? · F4 jazyk: čeština",
        "sk": "F2 zápis výsledku · F3 kde hrám? · F4 jazyk: slovenčina",
        "en": "F2 enter a result · F3 where do I play? · F4 language: English",
    },
    "kiosk.round.none": {"cs": "Kolo neprobíhá", "sk": "Kolo neprebieha", "en": "No round"},
    "kiosk.round.scheduled": {
        "cs": "Kolo {n} začne za",
        "sk": "Kolo {n} začne o",
        "en": "Round {n} starts in",
    },
    "kiosk.round.running": {"cs": "Kolo {n}", "sk": "Kolo {n}", "en": "Round {n}"},
    "kiosk.round.warning": {
        "cs": "Kolo {n} · poslední minuty",
        "sk": "Kolo {n} · posledné minúty",
        "en": "Round {n} · last minutes",
    },
    "kiosk.round.ended": {"cs": "DOHRÁVKA", "sk": "DOHRÁVKA", "en": "PLAY-OUT"},
    "kiosk.round.ended_label": {
        "cs": "Kolo {n}: základní čas skončil",
        "sk": "Kolo {n}: základný čas skončil",
        "en": "Round {n}: basic time is over",
    },
    "kiosk.round.paused": {
        "cs": "Kolo {n} · PŘERUŠENO",
        "sk": "Kolo {n} · PRERUŠENÉ",
        "en": "Round {n} · PAUSED",
    },
    "kiosk.round.cancelled": {
        "cs": "Kolo {n} zrušeno",
        "sk": "Kolo {n} zrušené",
        "en": "Round {n} cancelled",
    },
    "kiosk.hub.connected": {"cs": "hub: spojeno", "sk": "hub: spojené", "en": "hub: connected"},
    "kiosk.hub.offline": {
        "cs": "hub: NESPOJENO",
        "sk": "hub: NESPOJENÉ",
        "en": "hub: NOT CONNECTED",
    },
    "kiosk.hub.none": {"cs": "bez hubu", "sk": "bez hubu", "en": "no hub"},
    "kiosk.hub.backlog": {"cs": "k odeslání {n}", "sk": "na odoslanie {n}", "en": "{n} to send"},
    "kiosk.pin.unset_warning": {
        "cs": "PIN rozhodčího není nastaven (rozhodčí: skrytá klávesa).",
        "sk": "PIN rozhodcu nie je nastavený (rozhodca: skrytý kláves).",
        "en": "No referee PIN is set (referee: the hidden key).",
    },
    "kiosk.check.title": {"cs": "Kontrola slov", "sk": "Kontrola slov", "en": "Word check"},
    "kiosk.check.table_prompt": {"cs": "Číslo stolu:", "sk": "Číslo stola:", "en": "Table:"},
    "kiosk.check.count_prompt": {
        "cs": "Počet slov (1–{max}):",
        "sk": "Počet slov (1–{max}):",
        "en": "Words (1–{max}):",
    },
    "kiosk.check.words_help": {
        "cs": "Napište slova. Mezera nebo Enter = další slovo. Žolík v závorce: REC(I)E. "
        "Bez háčků a čárek: C+ = Č, A- = Á.",
        "sk": "Napíšte slová. Medzera alebo Enter = ďalšie slovo. Žolík v zátvorke: REC(I)E. "
        "Bez mäkčeňov a dĺžňov: C+ = Č, A- = Á.",
        "en": "Type the words. Space or Enter = next word. Blank in brackets: REC(I)E. "
        "No accents on the keyboard: C+ = Č, A- = Á.",
    },
    "kiosk.check.word_label": {"cs": "{i}. slovo:", "sk": "{i}. slovo:", "en": "Word {i}:"},
    "kiosk.check.table_info": {"cs": "stůl {table}", "sk": "stôl {table}", "en": "table {table}"},
    "kiosk.check.hint_back": {"cs": "Esc = zpět", "sk": "Esc = späť", "en": "Esc = back"},
    "kiosk.check.hint_words": {
        "cs": "Esc = zpět · soupeř potvrdí správnost klávesou {key}",
        "sk": "Esc = späť · súper potvrdí správnosť klávesom {key}",
        "en": "Esc = back · the opponent confirms the spelling with {key}",
    },
    "kiosk.check.review": {
        "cs": "SOUPEŘ: zkontrolujte slova. Správně? {key} = POTVRDIT · Esc = opravit",
        "sk": "SÚPER: skontrolujte slová. Správne? {key} = POTVRDIŤ · Esc = opraviť",
        "en": "OPPONENT: check the spelling. Right? {key} = CONFIRM · Esc = correct",
    },
    "kiosk.check.judging": {"cs": "Ověřuji…", "sk": "Overujem…", "en": "Checking…"},
    "kiosk.error.table_not_number": {
        "cs": "Napište číslo stolu.",
        "sk": "Napíšte číslo stola.",
        "en": "Type the table number.",
    },
    "kiosk.error.table_unknown": {
        "cs": "Stůl {table} v turnaji není (stoly {range}).",
        "sk": "Stôl {table} v turnaji nie je (stoly {range}).",
        "en": "There is no table {table} in this tournament (tables {range}).",
    },
    "kiosk.error.count_not_number": {
        "cs": "Napište počet slov, 1 až {max}.",
        "sk": "Napíšte počet slov, 1 až {max}.",
        "en": "Type the number of words, 1 to {max}.",
    },
    "kiosk.error.count_range": {
        "cs": "Počet slov musí být 1 až {max} (ne {count}).",
        "sk": "Počet slov musí byť 1 až {max} (nie {count}).",
        "en": "The number of words must be 1 to {max} (not {count}).",
    },
    "kiosk.error.word_missing": {
        "cs": "Napište {i}. slovo.",
        "sk": "Napíšte {i}. slovo.",
        "en": "Type word {i}.",
    },
    "kiosk.error.storage": {
        "cs": "Záznam se nepodařilo uložit, verdikt nelze vydat. ({error})",
        "sk": "Záznam sa nepodarilo uložiť, verdikt nemožno vydať. ({error})",
        "en": "The record could not be saved, so no verdict is given. ({error})",
    },
    "kiosk.verdict.words": {"cs": "Slova: {words}", "sk": "Slová: {words}", "en": "Words: {words}"},
    "kiosk.verdict.failed": {
        "cs": "Neplatné: {words}",
        "sk": "Neplatné: {words}",
        "en": "Not valid: {words}",
    },
    "kiosk.verdict.details": {
        "cs": "Stůl {table} · kolo {round} · slovník {language} {variant}",
        "sk": "Stôl {table} · kolo {round} · slovník {language} {variant}",
        "en": "Table {table} · round {round} · lexicon {language} {variant}",
    },
    "kiosk.verdict.dismiss": {
        "cs": "Libovolná klávesa = hotovo",
        "sk": "Ľubovoľný kláves = hotovo",
        "en": "Any key = done",
    },
    "kiosk.refused.interval": {
        "cs": "Stůl {table} kontroloval před chvílí. Další kontrola je možná za {wait} s; "
        "nelze-li čekat, zavolejte rozhodčího.",
        "sk": "Stôl {table} kontroloval pred chvíľou. Ďalšia kontrola je možná o {wait} s; "
        "ak nemôžete čakať, zavolajte rozhodcu.",
        "en": "Table {table} checked a moment ago. The next check is possible in {wait} s; "
        "if you cannot wait, call the referee.",
    },
    "kiosk.refused.cap": {
        "cs": "Stůl {table} už v tomto kole provedl {max} kontrol. Zavolejte rozhodčího.",
        "sk": "Stôl {table} už v tomto kole vykonal {max} kontrol. Zavolajte rozhodcu.",
        "en": "Table {table} has used its {max} checks in this round. Call the referee.",
    },
    "kiosk.pin.title": {"cs": "Rozhodčí", "sk": "Rozhodca", "en": "Referee"},
    "kiosk.pin.prompt": {"cs": "PIN rozhodčího:", "sk": "PIN rozhodcu:", "en": "Referee PIN:"},
    "kiosk.pin.choose": {
        "cs": "PIN ještě není nastaven. Zvolte PIN rozhodčího (alespoň {min} znaky):",
        "sk": "PIN ešte nie je nastavený. Zvoľte PIN rozhodcu (aspoň {min} znaky):",
        "en": "No PIN is set yet. Choose the referee PIN (at least {min} characters):",
    },
    "kiosk.pin.new": {
        "cs": "Nový PIN (alespoň {min} znaky):",
        "sk": "Nový PIN (aspoň {min} znaky):",
        "en": "New PIN (at least {min} characters):",
    },
    "kiosk.pin.repeat": {"cs": "Zopakujte PIN:", "sk": "Zopakujte PIN:", "en": "Repeat the PIN:"},
    "kiosk.pin.mismatch": {
        "cs": "PINy se neshodují, znovu.",
        "sk": "PINy sa nezhodujú, znova.",
        "en": "The PINs differ; again.",
    },
    "kiosk.pin.too_short": {
        "cs": "PIN musí mít alespoň {min} znaky (bez diakritiky).",
        "sk": "PIN musí mať aspoň {min} znaky (bez diakritiky).",
        "en": "The PIN needs at least {min} characters (no accents).",
    },
    "kiosk.pin.wrong": {
        "cs": "Špatný PIN ({n}×).",
        "sk": "Nesprávny PIN ({n}×).",
        "en": "Wrong PIN ({n}×).",
    },
    "kiosk.pin.wait": {
        "cs": "Špatný PIN ({n}×). Další pokus za {s} s.",
        "sk": "Nesprávny PIN ({n}×). Ďalší pokus o {s} s.",
        "en": "Wrong PIN ({n}×). Next try in {s} s.",
    },
    "kiosk.pin.locked": {
        "cs": "ZAMČENO po {n} špatných PINech. Další pokus za {s} s.",
        "sk": "ZAMKNUTÉ po {n} nesprávnych PINoch. Ďalší pokus o {s} s.",
        "en": "LOCKED after {n} wrong PINs. Next try in {s} s.",
    },
    "kiosk.pin.changed": {"cs": "PIN změněn.", "sk": "PIN zmenený.", "en": "PIN changed."},
    "kiosk.referee.title": {
        "cs": "Rozhodčí · {station} · číslo nebo Enter = vybrat, Esc = zpět",
        "sk": "Rozhodca · {station} · číslo alebo Enter = vybrať, Esc = späť",
        "en": "Referee · {station} · number or Enter = choose, Esc = back",
    },
    "kiosk.referee.appeal": {
        "cs": "Odvolání: znovu posoudit slova (druhá instance)",
        "sk": "Odvolanie: znova posúdiť slová (druhá inštancia)",
        "en": "Appeal: re-check words (second instance)",
    },
    "kiosk.referee.log": {
        "cs": "Záznamy této stanice",
        "sk": "Záznamy tejto stanice",
        "en": "This station's log",
    },
    "kiosk.referee.tables": {"cs": "Rozsah stolů", "sk": "Rozsah stolov", "en": "Table range"},
    "kiosk.referee.gong": {"cs": "Zkouška gongu", "sk": "Skúška gongu", "en": "Test the gong"},
    "kiosk.referee.result": {
        "cs": "Opravit výsledek",
        "sk": "Opraviť výsledok",
        "en": "Correct a result",
    },
    "kiosk.referee.pin": {"cs": "Změnit PIN", "sk": "Zmeniť PIN", "en": "Change the PIN"},
    "kiosk.referee.quit": {
        "cs": "Ukončit kiosk",
        "sk": "Ukončiť kiosk",
        "en": "Quit the kiosk",
    },
    "kiosk.referee.gong_ringing": {"cs": "Gong…", "sk": "Gong…", "en": "Gong…"},
    "kiosk.referee.gong_done": {
        "cs": "Gong zazněl.",
        "sk": "Gong zaznel.",
        "en": "The gong rang.",
    },
    "kiosk.referee.gong_none": {
        "cs": "Gong není připojen; zazněl jen zvonek terminálu.",
        "sk": "Gong nie je pripojený; zaznel len zvonček terminálu.",
        "en": "No gong is connected; only the terminal bell rang.",
    },
    "kiosk.referee.gong_failed": {
        "cs": "Gong selhal: {error}",
        "sk": "Gong zlyhal: {error}",
        "en": "The gong failed: {error}",
    },
    "kiosk.appeal.title": {
        "cs": "Odvolání · druhá instance",
        "sk": "Odvolanie · druhá inštancia",
        "en": "Appeal · second instance",
    },
    "kiosk.appeal.words": {"cs": "Slova:", "sk": "Slová:", "en": "Words:"},
    "kiosk.appeal.hint": {
        "cs": "Slova oddělte mezerou, Enter = posoudit · Esc = zpět",
        "sk": "Slová oddeľte medzerou, Enter = posúdiť · Esc = späť",
        "en": "Separate words with spaces, Enter = judge · Esc = back",
    },
    "kiosk.appeal.banner": {
        "cs": "ODVOLÁNÍ – ROZHODNUTÍ ROZHODČÍHO",
        "sk": "ODVOLANIE – ROZHODNUTIE ROZHODCU",
        "en": "APPEAL – REFEREE'S DECISION",
    },
    "kiosk.log.title": {
        "cs": "Záznamy této stanice (nejnovější nahoře) · Esc = zpět",
        "sk": "Záznamy tejto stanice (najnovšie hore) · Esc = späť",
        "en": "This station's log (newest first) · Esc = back",
    },
    "kiosk.log.empty": {
        "cs": "Zatím žádné záznamy · Esc = zpět",
        "sk": "Zatiaľ žiadne záznamy · Esc = späť",
        "en": "No records yet · Esc = back",
    },
    "kiosk.log.time": {"cs": "čas", "sk": "čas", "en": "time"},
    "kiosk.log.table": {"cs": "stůl", "sk": "stôl", "en": "table"},
    "kiosk.log.round": {"cs": "kolo", "sk": "kolo", "en": "round"},
    "kiosk.log.words": {"cs": "slova", "sk": "slová", "en": "words"},
    "kiosk.log.verdict": {"cs": "verdikt", "sk": "verdikt", "en": "verdict"},
    "kiosk.log.failed": {"cs": "neplatná", "sk": "neplatné", "en": "failed"},
    "kiosk.log.note": {"cs": "poznámka", "sk": "poznámka", "en": "note"},
    "kiosk.log.appeal": {"cs": "odvolání", "sk": "odvolanie", "en": "appeal"},
    "kiosk.log.status_valid": {"cs": "PLATNÉ", "sk": "PLATNÉ", "en": "VALID"},
    "kiosk.log.status_invalid": {"cs": "NEPLATNÉ", "sk": "NEPLATNÉ", "en": "NOT VALID"},
    "kiosk.log.status_referee": {"cs": "rozhodčí", "sk": "rozhodca", "en": "referee"},
    "kiosk.log.status_refused": {"cs": "ODMÍTNUTO", "sk": "ODMIETNUTÉ", "en": "REFUSED"},
    "kiosk.tables.prompt": {
        "cs": "Stoly turnaje (např. 1-60 nebo 1-40, 51-60), Enter = uložit · Esc = zpět",
        "sk": "Stoly turnaja (napr. 1-60 alebo 1-40, 51-60), Enter = uložiť · Esc = späť",
        "en": "Tournament tables (e.g. 1-60 or 1-40, 51-60), Enter = save · Esc = back",
    },
    "kiosk.tables.saved": {"cs": "Stoly: {range}", "sk": "Stoly: {range}", "en": "Tables: {range}"},
    "kiosk.result.title": {
        "cs": "Zápis výsledku",
        "sk": "Zápis výsledku",
        "en": "Enter a result",
    },
    "kiosk.result.title_referee": {
        "cs": "Oprava výsledku (rozhodčí)",
        "sk": "Oprava výsledku (rozhodca)",
        "en": "Correct a result (referee)",
    },
    "kiosk.result.round": {"cs": "Kolo:", "sk": "Kolo:", "en": "Round:"},
    "kiosk.result.score_a": {"cs": "Body hráče A:", "sk": "Body hráča A:", "en": "Score A:"},
    "kiosk.result.score_b": {"cs": "Body hráče B:", "sk": "Body hráča B:", "en": "Score B:"},
    "kiosk.result.starter": {
        "cs": "Začínal (A/B):",
        "sk": "Začínal (A/B):",
        "en": "Started (A/B):",
    },
    "kiosk.result.hint": {
        "cs": "Enter = další pole · {key} = uložit · Esc = zpět",
        "sk": "Enter = ďalšie pole · {key} = uložiť · Esc = späť",
        "en": "Enter = next field · {key} = save · Esc = back",
    },
    "kiosk.result.players": {
        "cs": "A: {a}   B: {b}",
        "sk": "A: {a}   B: {b}",
        "en": "A: {a}   B: {b}",
    },
    "kiosk.result.no_pairing": {
        "cs": "Rozlosování tohoto stolu není známo (A = první na zápisu).",
        "sk": "Žrebovanie tohto stola nie je známe (A = prvý na zápise).",
        "en": "Pairing of this table unknown (A = first on the scoresheet).",
    },
    "kiosk.result.bad_round": {
        "cs": "Napište číslo kola.",
        "sk": "Napíšte číslo kola.",
        "en": "Type the round number.",
    },
    "kiosk.result.bad_score": {
        "cs": "Body musí být celé číslo 0 až {max}.",
        "sk": "Body musia byť celé číslo 0 až {max}.",
        "en": "A score is a whole number from 0 to {max}.",
    },
    "kiosk.result.bad_starter": {
        "cs": "Kdo začínal? Napište A nebo B.",
        "sk": "Kto začínal? Napíšte A alebo B.",
        "en": "Who started? Type A or B.",
    },
    "kiosk.result.locked": {
        "cs": "Výsledek kola {round} na stole {table} je už uložen ({a}:{b}). "
        "Změnit ho může jen rozhodčí.",
        "sk": "Výsledok kola {round} na stole {table} je už uložený ({a}:{b}). "
        "Zmeniť ho môže len rozhodca.",
        "en": "The result of round {round} table {table} is already stored ({a}:{b}). "
        "Only the referee can change it.",
    },
    "kiosk.result.saved": {
        "cs": "Uloženo: kolo {round}, stůl {table}, {a}:{b}.",
        "sk": "Uložené: kolo {round}, stôl {table}, {a}:{b}.",
        "en": "Saved: round {round}, table {table}, {a}:{b}.",
    },
    "kiosk.where.title": {"cs": "Kde hraji?", "sk": "Kde hrám?", "en": "Where do I play?"},
    "kiosk.where.hint": {
        "cs": "Napište část svého jména · Esc = zpět",
        "sk": "Napíšte časť svojho mena · Esc = späť",
        "en": "Type part of your name · Esc = back",
    },
    "kiosk.where.no_pairings": {
        "cs": "Rozlosování zatím není k dispozici.",
        "sk": "Žrebovanie zatiaľ nie je k dispozícii.",
        "en": "The pairings are not available yet.",
    },
    "kiosk.where.none": {
        "cs": "V kole {round} nikdo „{name}“ nehraje.",
        "sk": "V kole {round} nikto „{name}“ nehrá.",
        "en": "Nobody called “{name}” plays in round {round}.",
    },
    "kiosk.where.round": {"cs": "Kolo {round}:", "sk": "Kolo {round}:", "en": "Round {round}:"},
    "kiosk.where.row": {
        "cs": "{name}: stůl {table}, soupeř {opponent}",
        "sk": "{name}: stôl {table}, súper {opponent}",
        "en": "{name}: table {table}, opponent {opponent}",
    },
    "kiosk.where.bye": {"cs": "volný los", "sk": "voľný žreb", "en": "bye"},
}


def t(key: str, lang: str = DEFAULT, /, **values: Any) -> str:
    """The message ``key`` in ``lang`` with ``values`` filled in."""
    entry = MESSAGES[key]
    text = entry.get(lang) or entry[DEFAULT]
    return text.format(**values) if values else text


def refusal(exc: Any, lang: str = DEFAULT) -> str:
    """A :class:`shared.normalize.WordRefused` as a sentence for the screen."""
    detail = exc.detail
    if detail and detail.isspace():
        detail = t("char.space", lang)
    return t(f"refused.{exc.reason.value}", lang, raw=exc.raw, detail=detail)


# Tournament exports and screens (hub.tournament).
MESSAGES.update(
    {
        "tour.standings": {
            "cs": "Pořadí po {round}. kole",
            "sk": "Poradie po {round}. kole",
            "en": "Standings after round {round}",
        },
        "tour.pairings": {
            "cs": "Rozlosování {round}. kola",
            "sk": "Nasadenie {round}. kola",
            "en": "Pairings, round {round}",
        },
        "tour.by_name": {"cs": "Podle jmen", "sk": "Podľa mien", "en": "By name"},
        "tour.scorecard": {"cs": "Karta hráče", "sk": "Karta hráča", "en": "Scorecard"},
        "tour.col.rank": {"cs": "Pořadí", "sk": "Poradie", "en": "Rank"},
        "tour.col.name": {"cs": "Jméno", "sk": "Meno", "en": "Name"},
        "tour.col.club": {"cs": "Klub", "sk": "Klub", "en": "Club"},
        "tour.col.wins": {"cs": "Výhry", "sk": "Výhry", "en": "Wins"},
        "tour.col.spread": {"cs": "Rozdíl", "sk": "Rozdiel", "en": "Spread"},
        "tour.col.points": {"cs": "Body", "sk": "Body", "en": "Points"},
        "tour.col.turcas": {"cs": "TurČAS", "sk": "TurČAS", "en": "TurČAS"},
        "tour.col.opp_wins": {"cs": "Výhry soupeřů", "sk": "Výhry súperov", "en": "Opp. wins"},
        "tour.col.balance": {"cs": "Bilance", "sk": "Bilancia", "en": "Balance"},
        "tour.col.starts": {"cs": "Začínal", "sk": "Začínal", "en": "Started"},
        "tour.col.table": {"cs": "Stůl", "sk": "Stôl", "en": "Table"},
        "tour.col.first": {"cs": "Začíná (ZH)", "sk": "Začína (ZH)", "en": "Starts"},
        "tour.col.second": {"cs": "Soupeř (DH)", "sk": "Súper (DH)", "en": "Second"},
        "tour.col.round": {"cs": "Kolo", "sk": "Kolo", "en": "Round"},
        "tour.col.opponent": {"cs": "Soupeř", "sk": "Súper", "en": "Opponent"},
        "tour.col.score": {"cs": "Skóre", "sk": "Skóre", "en": "Score"},
        "tour.col.result": {"cs": "Výsledek", "sk": "Výsledok", "en": "Result"},
        "tour.col.zh": {"cs": "ZH", "sk": "ZH", "en": "Started"},
        "tour.bye": {"cs": "volný los", "sk": "voľný žreb", "en": "bye"},
        "tour.kind.forfeit": {"cs": "kontumace", "sk": "kontumácia", "en": "forfeit"},
        "tour.kind.double_forfeit": {
            "cs": "kontumace obou",
            "sk": "kontumácia oboch",
            "en": "double forfeit",
        },
        "tour.kind.late": {"cs": "pozdní vstup", "sk": "neskorý vstup", "en": "late entry"},
        "tour.kind.absent": {"cs": "nepřítomen", "sk": "neprítomný", "en": "absent"},
        "tour.win": {"cs": "V", "sk": "V", "en": "W"},
        "tour.loss": {"cs": "P", "sk": "P", "en": "L"},
        "tour.draw": {"cs": "R", "sk": "R", "en": "D"},
    }
)
