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

# The hub dashboard (hub run).
MESSAGES.update(
    {
        "dash.title": {
            "cs": "Samoobsluha – hub",
            "sk": "Samoobsluha – hub",
            "en": "Samoobsluha hub",
        },
        "dash.tab.stations": {"cs": "Stanice", "sk": "Stanice", "en": "Stations"},
        "dash.tab.rounds": {"cs": "Řízení kola", "sk": "Riadenie kola", "en": "Round control"},
        "dash.tab.challenges": {"cs": "Námitky", "sk": "Námietky", "en": "Challenges"},
        "dash.tab.results": {"cs": "Výsledky", "sk": "Výsledky", "en": "Results"},
        "dash.tab.standings": {
            "cs": "Pořadí a nasazení",
            "sk": "Poradie a žrebovanie",
            "en": "Standings & pairings",
        },
        "dash.round": {"cs": "kolo {n}", "sk": "kolo {n}", "en": "round {n}"},
        "dash.no_round": {"cs": "bez kola", "sk": "bez kola", "en": "no round"},
        "dash.server.on": {"cs": "server běží", "sk": "server beží", "en": "server running"},
        "dash.server.off": {
            "cs": "SERVER NEBĚŽÍ (hub serve)",
            "sk": "SERVER NEBEŽÍ (hub serve)",
            "en": "SERVER NOT RUNNING (hub serve)",
        },
        "dash.quit": {"cs": "Konec", "sk": "Koniec", "en": "Quit"},
        "dash.refresh": {"cs": "Obnovit", "sk": "Obnoviť", "en": "Refresh"},
        "dash.col.station": {"cs": "Stanice", "sk": "Stanica", "en": "Station"},
        "dash.col.state": {"cs": "Stav", "sk": "Stav", "en": "State"},
        "dash.col.seen": {"cs": "Naposledy", "sk": "Naposledy", "en": "Last seen"},
        "dash.col.offset": {"cs": "Posun hodin", "sk": "Posun hodín", "en": "Clock offset"},
        "dash.col.lexicon": {"cs": "Slovník", "sk": "Slovník", "en": "Lexicon"},
        "dash.col.version": {"cs": "Verze", "sk": "Verzia", "en": "Version"},
        "dash.col.backlog": {"cs": "Fronta", "sk": "Front", "en": "Backlog"},
        "dash.col.signal": {"cs": "Poslední signál", "sk": "Posledný signál", "en": "Last signal"},
        "dash.online": {"cs": "online", "sk": "online", "en": "online"},
        "dash.offline": {"cs": "OFFLINE", "sk": "OFFLINE", "en": "OFFLINE"},
        "dash.lex.ok": {"cs": "shodný", "sk": "zhodný", "en": "same"},
        "dash.lex.bad": {"cs": "JINÝ", "sk": "INÝ", "en": "DIFFERS"},
        "dash.lex.unknown": {"cs": "?", "sk": "?", "en": "?"},
        "dash.stations.summary": {
            "cs": "Hráčů {players} → podle ČAS 15.8e potřeba {required} stanic; "
            "online {online} z {total}",
            "sk": "Hráčov {players} → podľa ČAS 15.8e treba {required} staníc; "
            "online {online} z {total}",
            "en": "{players} players → ČAS 15.8e needs {required} station(s); "
            "{online} of {total} online",
        },
        "dash.stations.none": {
            "cs": "Zatím se nepřihlásila žádná stanice.",
            "sk": "Zatiaľ sa neprihlásila žiadna stanica.",
            "en": "No station has reported yet.",
        },
        "dash.ago": {"cs": "před {s} s", "sk": "pred {s} s", "en": "{s} s ago"},
        "dash.phase.idle": {"cs": "nenaplánováno", "sk": "nenaplánované", "en": "not planned"},
        "dash.phase.scheduled": {"cs": "START ZA", "sk": "ŠTART O", "en": "STARTS IN"},
        "dash.phase.running": {"cs": "HRAJE SE", "sk": "HRÁ SA", "en": "RUNNING"},
        "dash.phase.warning": {
            "cs": "POSLEDNÍCH 10 MINUT",
            "sk": "POSLEDNÝCH 10 MINÚT",
            "en": "LAST 10 MINUTES",
        },
        "dash.phase.ended": {"cs": "DOHRÁVKA", "sk": "DOHRÁVKA", "en": "PLAY-OUT"},
        "dash.phase.cancelled": {"cs": "ZRUŠENO", "sk": "ZRUŠENÉ", "en": "CANCELLED"},
        "dash.paused": {"cs": "POZASTAVENO", "sk": "POZASTAVENÉ", "en": "PAUSED"},
        "dash.rounds.round": {"cs": "Kolo", "sk": "Kolo", "en": "Round"},
        "dash.rounds.minutes": {"cs": "Minut", "sk": "Minút", "en": "Minutes"},
        "dash.rounds.at": {"cs": "Čas", "sk": "Čas", "en": "At"},
        "dash.key.created": {
            "cs": "Nový klíč turnaje je v {path}; stanice potřebují jeho kopii (hub serve "
            "vypíše, jak ji předat).",
            "sk": "Nový kľúč turnaja je v {path}; stanice potrebujú jeho kópiu (hub serve "
            "vypíše, ako ju odovzdať).",
            "en": "A new tournament key is in {path}; stations need a copy (hub serve prints "
            "how to hand it over).",
        },
        "dash.station_errors": {
            "cs": "Výsledky ze stanic, které nešlo zapsat: {errors}",
            "sk": "Výsledky zo staníc, ktoré nebolo možné zapísať: {errors}",
            "en": "Station results that could not be entered: {errors}",
        },
        "dash.at.bad": {
            "cs": "„{at}“ není čas (HH:MM).",
            "sk": "„{at}“ nie je čas (HH:MM).",
            "en": "“{at}” is not a time (HH:MM).",
        },
        "dash.at.past": {
            "cs": "Ten čas už minul.",
            "sk": "Ten čas už uplynul.",
            "en": "That time has passed.",
        },
        "dash.col.phase": {"cs": "Fáze", "sk": "Fáza", "en": "Phase"},
        "dash.col.start": {"cs": "Start", "sk": "Štart", "en": "Start"},
        "dash.col.end": {"cs": "Konec", "sk": "Koniec", "en": "End"},
        "dash.col.left": {"cs": "Zbývá", "sk": "Zostáva", "en": "Left"},
        "dash.col.confirmed": {"cs": "Potvrdily", "sk": "Potvrdili", "en": "Confirmed"},
        "dash.col.what": {"cs": "Program", "sk": "Program", "en": "What"},
        "dash.act.start": {"cs": "Start teď", "sk": "Štart teraz", "en": "Start now"},
        "dash.act.start_at": {
            "cs": "Start podle plánu",
            "sk": "Štart podľa plánu",
            "en": "Start as scheduled",
        },
        "dash.act.gong": {"cs": "Gong", "sk": "Gong", "en": "Gong"},
        "dash.act.delay": {"cs": "Odložit", "sk": "Odložiť", "en": "Delay"},
        "dash.act.extend": {"cs": "Přidat minuty", "sk": "Pridať minúty", "en": "Add minutes"},
        "dash.act.pause": {
            "cs": "Pauza / pokračovat",
            "sk": "Pauza / pokračovať",
            "en": "Pause / resume",
        },
        "dash.act.cancel": {"cs": "Zrušit kolo", "sk": "Zrušiť kolo", "en": "Cancel round"},
        "dash.cancel.again": {
            "cs": "Zrušit kolo {n}? Stiskněte znovu.",
            "sk": "Zrušiť kolo {n}? Stlačte znova.",
            "en": "Cancel round {n}? Press again.",
        },
        "dash.sent": {
            "cs": "Odesláno stanicím: {stations}",
            "sk": "Odoslané staniciam: {stations}",
            "en": "Sent to: {stations}",
        },
        "dash.nobody": {"cs": "žádné", "sk": "žiadne", "en": "none"},
        "dash.schedule.break": {"cs": "přestávka", "sk": "prestávka", "en": "break"},
        "dash.schedule.lunch": {"cs": "oběd", "sk": "obed", "en": "lunch"},
        "dash.schedule.refreshment": {
            "cs": "občerstvení",
            "sk": "občerstvenie",
            "en": "refreshment",
        },
        "dash.schedule.none": {
            "cs": "Kolo {n} není v plánu dne.",
            "sk": "Kolo {n} nie je v pláne dňa.",
            "en": "Round {n} is not in the day's schedule.",
        },
        "dash.col.time": {"cs": "Čas", "sk": "Čas", "en": "Time"},
        "dash.col.round": {"cs": "Kolo", "sk": "Kolo", "en": "Round"},
        "dash.col.table": {"cs": "Stůl", "sk": "Stôl", "en": "Table"},
        "dash.col.words": {"cs": "Slova", "sk": "Slová", "en": "Words"},
        "dash.col.verdict": {"cs": "Verdikt", "sk": "Verdikt", "en": "Verdict"},
        "dash.col.variant": {"cs": "Varianta", "sk": "Variant", "en": "Variant"},
        "dash.col.instance": {"cs": "Instance", "sk": "Inštancia", "en": "Instance"},
        "dash.col.challenger": {"cs": "Namítal", "sk": "Namietal", "en": "Challenger"},
        "dash.col.penalty": {"cs": "Pokuta", "sk": "Pokuta", "en": "Penalty"},
        "dash.col.checks": {"cs": "Kontrol", "sk": "Kontrol", "en": "Checks"},
        "dash.col.player": {"cs": "Hráč", "sk": "Hráč", "en": "Player"},
        "dash.col.unjustified": {"cs": "Neoprávněné", "sk": "Neoprávnené", "en": "Unjustified"},
        "dash.instance.first": {"cs": "1.", "sk": "1.", "en": "1st"},
        "dash.instance.appeal": {"cs": "odvolání", "sk": "odvolanie", "en": "appeal"},
        "dash.verdict.valid": {"cs": "PLATNÉ", "sk": "PLATNÉ", "en": "VALID"},
        "dash.verdict.invalid": {"cs": "NEPLATNÉ", "sk": "NEPLATNÉ", "en": "NOT VALID"},
        "dash.verdict.referee": {"cs": "ROZHODČÍ", "sk": "ROZHODCA", "en": "REFEREE"},
        "dash.verdict.refused": {"cs": "odmítnuto", "sk": "odmietnuté", "en": "refused"},
        "dash.requests": {
            "cs": "Volání rozhodčího: {n} (A potvrdí)",
            "sk": "Volanie rozhodcu: {n} (A potvrdí)",
            "en": "Referee calls: {n} (A acknowledges)",
        },
        "dash.requests.none": {
            "cs": "Žádné volání rozhodčího.",
            "sk": "Žiadne volanie rozhodcu.",
            "en": "No referee calls.",
        },
        "dash.reason.too_long": {"cs": "dlouhé slovo", "sk": "dlhé slovo", "en": "long word"},
        "dash.reason.rate_interval": {"cs": "příliš brzy", "sk": "príliš skoro", "en": "too soon"},
        "dash.reason.rate_cap": {"cs": "limit kontrol", "sk": "limit kontrol", "en": "check limit"},
        "dash.filter.round": {"cs": "Kolo", "sk": "Kolo", "en": "Round"},
        "dash.filter.table": {"cs": "Stůl", "sk": "Stôl", "en": "Table"},
        "dash.sss.title": {
            "cs": "SSS: neoprávněné námitky (od třetí 20 bodů)",
            "sk": "SSS: neoprávnené námietky (od tretej 20 bodov)",
            "en": "SSS: unjustified challenges (20 points from the third)",
        },
        "dash.per_table": {
            "cs": "Kontroly po stolech",
            "sk": "Kontroly po stoloch",
            "en": "Checks per table",
        },
        "dash.act.ack": {
            "cs": "Potvrdit volání",
            "sk": "Potvrdiť volanie",
            "en": "Acknowledge call",
        },
        "dash.act.mark1": {"cs": "Namítal ZH", "sk": "Namietal ZH", "en": "ZH challenged"},
        "dash.act.mark2": {"cs": "Namítal DH", "sk": "Namietal DH", "en": "DH challenged"},
        "dash.act.unmark": {"cs": "Nevíme kdo", "sk": "Nevieme kto", "en": "Unknown"},
        "dash.act.appeal_valid": {
            "cs": "Odvolání: platné",
            "sk": "Odvolanie: platné",
            "en": "Appeal: valid",
        },
        "dash.act.appeal_invalid": {
            "cs": "Odvolání: neplatné",
            "sk": "Odvolanie: neplatné",
            "en": "Appeal: not valid",
        },
        "dash.state.in": {"cs": "zapsáno", "sk": "zapísané", "en": "in"},
        "dash.state.pending": {"cs": "čeká na partiář", "sk": "čaká na zápis", "en": "pending"},
        "dash.state.missing": {"cs": "chybí", "sk": "chýba", "en": "missing"},
        "dash.state.conflict": {"cs": "ROZPOR", "sk": "ROZPOR", "en": "CONFLICT"},
        "dash.state.bye": {"cs": "volný los", "sk": "voľný žreb", "en": "bye"},
        "dash.results.summary": {
            "cs": "Kolo {n}: zapsáno {in_}, čeká {pending}, chybí {missing}, rozpor {conflict}",
            "sk": "Kolo {n}: zapísané {in_}, čaká {pending}, chýba {missing}, rozpor {conflict}",
            "en": "Round {n}: in {in_}, pending {pending}, missing {missing}, conflict {conflict}",
        },
        "dash.protest.open": {
            "cs": "Lhůta pro protesty končí za {left}",
            "sk": "Lehota na protesty končí o {left}",
            "en": "Protest window closes in {left}",
        },
        "dash.protest.closed": {
            "cs": "Lhůta pro protesty skončila",
            "sk": "Lehota na protesty skončila",
            "en": "Protest window closed",
        },
        "dash.protest.unpublished": {
            "cs": "Výsledky nejsou schválené",
            "sk": "Výsledky nie sú schválené",
            "en": "Results not approved yet",
        },
        "dash.final": {
            "cs": "Výsledky jsou konečné",
            "sk": "Výsledky sú konečné",
            "en": "Results are final",
        },
        "dash.entry.placeholder": {
            "cs": "stůl skóre skóre [2 = začínal DH]   – (minus) opraví poslední",
            "sk": "stôl skóre skóre [2 = začínal DH]   – (mínus) opraví posledný",
            "en": "table score score [2 = DH started]   - (minus) corrects the last",
        },
        "dash.entry.correcting": {
            "cs": "Oprava zápisu stolu {table}",
            "sk": "Oprava zápisu stola {table}",
            "en": "Correcting table {table}",
        },
        "dash.entry.nothing": {
            "cs": "Není co opravit.",
            "sk": "Nie je čo opraviť.",
            "en": "Nothing to correct.",
        },
        "dash.act.approve": {
            "cs": "Schválit (zveřejnit)",
            "sk": "Schváliť (zverejniť)",
            "en": "Approve (publish)",
        },
        "dash.act.finalise": {"cs": "Uzavřít kolo", "sk": "Uzavrieť kolo", "en": "Make final"},
        "dash.act.correct": {
            "cs": "Opravit poslední",
            "sk": "Opraviť posledný",
            "en": "Correct last",
        },
        "dash.act.publish": {
            "cs": "Poslat stanicím",
            "sk": "Poslať staniciam",
            "en": "Publish to stations",
        },
        "dash.act.pair": {
            "cs": "Nasadit další kolo",
            "sk": "Žrebovať ďalšie kolo",
            "en": "Pair next round",
        },
        "dash.act.html": {"cs": "Tisk (HTML)", "sk": "Tlač (HTML)", "en": "Print (HTML)"},
        "dash.act.csv": {"cs": "Export CSV", "sk": "Export CSV", "en": "Export CSV"},
        "dash.act.explain": {
            "cs": "Proč tento pár",
            "sk": "Prečo tento pár",
            "en": "Why this pair",
        },
        "dash.col.first": {"cs": "Začíná (ZH)", "sk": "Začína (ZH)", "en": "Starts (ZH)"},
        "dash.col.second": {"cs": "Soupeř (DH)", "sk": "Súper (DH)", "en": "Second (DH)"},
        "dash.col.score": {"cs": "Skóre", "sk": "Skóre", "en": "Score"},
        "dash.col.sources": {"cs": "Zdroj", "sk": "Zdroj", "en": "Source"},
        "dash.col.reason": {"cs": "Proč", "sk": "Prečo", "en": "Why"},
        "dash.standings.after": {
            "cs": "Pořadí po {n}. kole",
            "sk": "Poradie po {n}. kole",
            "en": "Standings after round {n}",
        },
        "dash.pairings.of": {
            "cs": "Nasazení {n}. kola",
            "sk": "Žrebovanie {n}. kola",
            "en": "Pairings of round {n}",
        },
        "dash.no_pairing": {
            "cs": "Kolo {n} ještě není nasazené.",
            "sk": "Kolo {n} ešte nie je žrebované.",
            "en": "Round {n} is not paired yet.",
        },
        "dash.saved": {"cs": "Uloženo: {path}", "sk": "Uložené: {path}", "en": "Saved: {path}"},
        "dash.paired": {
            "cs": "Kolo {n} nasazeno ({boards} stolů).",
            "sk": "Kolo {n} žrebované ({boards} stolov).",
            "en": "Round {n} paired ({boards} tables).",
        },
    }
)


# The hub's clock after a restart (hub.hubtime) and the station's start-up failure screen
# (station.fallback).
MESSAGES.update(
    {
        "hubtime.unconfirmed": {
            "cs": "ČAS HUBU NEPOTVRZEN: {time} – sedí? Ctrl+T potvrdí",
            "sk": "ČAS HUBU NEPOTVRDENÝ: {time} – sedí? Ctrl+T potvrdí",
            "en": "HUB TIME NOT CONFIRMED: {time} – right? Ctrl+T confirms",
        },
        "hubtime.refused": {
            "cs": "Kolo nelze spustit: čas hubu po restartu není potvrzen. Porovnejte hodiny "
            "hubu s hodinkami a potvrďte je (Ctrl+T nebo „hub time confirm“).",
            "sk": "Kolo nie je možné spustiť: čas hubu po reštarte nie je potvrdený. Porovnajte "
            "hodiny hubu s hodinkami a potvrďte ich (Ctrl+T alebo „hub time confirm“).",
            "en": "The round cannot start: the hub's time is not confirmed since its restart. "
            "Compare the hub's clock with a watch and confirm it (Ctrl+T or "
            "'hub time confirm').",
        },
        "hubtime.confirmed": {
            "cs": "Čas hubu potvrzen ({time}). Kola lze spouštět.",
            "sk": "Čas hubu potvrdený ({time}). Kolá je možné spúšťať.",
            "en": "Hub time confirmed ({time}). Rounds may start.",
        },
        "dash.act.confirm_time": {"cs": "potvrdit čas", "sk": "potvrdiť čas", "en": "confirm time"},
        "fallback.title": {
            "cs": "STANICE SE NESPUSTILA",
            "sk": "STANICA SA NESPUSTILA",
            "en": "THE STATION DID NOT START",
        },
        "fallback.players": {
            "cs": "Hráči: tato stanice teď slova neověří. Použijte jinou stanici a zavolejte "
            "rozhodčího.",
            "sk": "Hráči: táto stanica teraz slová neoverí. Použite inú stanicu a zavolajte "
            "rozhodcu.",
            "en": "Players: this station cannot check words now. Use another station and call "
            "the referee.",
        },
        "fallback.reason": {"cs": "Důvod", "sk": "Dôvod", "en": "Reason"},
        "fallback.todo": {"cs": "Rozhodčí", "sk": "Rozhodca", "en": "Referee"},
        "fallback.retry": {
            "cs": "Stanice to zkusí znovu za {seconds} s.",
            "sk": "Stanica to skúsi znova o {seconds} s.",
            "en": "The station tries again in {seconds} s.",
        },
        "fallback.why.lexicon": {
            "cs": "Chybí slovník nebo je poškozený.",
            "sk": "Chýba slovník alebo je poškodený.",
            "en": "The lexicon is missing or damaged.",
        },
        "fallback.do.lexicon": {
            "cs": "Na hubu pošlete slovník znovu („hub push-lexicon cs.lex“), nebo vyměňte "
            "kartu za náhradní kartu stanice se stejným názvem (docs/hall-setup.md, "
            "„Stanice umřela uprostřed kola“).",
            "sk": "Na hube pošlite slovník znova („hub push-lexicon cs.lex“), alebo vymeňte "
            "kartu za náhradnú kartu stanice s rovnakým názvom (docs/hall-setup.md, "
            "„Stanica zlyhala uprostred kola“).",
            "en": "Send the lexicon again from the hub ('hub push-lexicon cs.lex'), or swap "
            "the card for the spare station card with the same name (docs/hall-setup.md, "
            "„Stanice umřela uprostřed kola“).",
        },
        "fallback.why.config": {
            "cs": "Nastavení stanice (/etc/samoobsluha/station.toml) je chybné.",
            "sk": "Nastavenie stanice (/etc/samoobsluha/station.toml) je chybné.",
            "en": "The station's settings (/etc/samoobsluha/station.toml) are wrong.",
        },
        "fallback.do.config": {
            "cs": "Vyměňte kartu za náhradní kartu stanice se stejným názvem; vadnou kartu "
            "po turnaji znovu připravte („hub provision station“).",
            "sk": "Vymeňte kartu za náhradnú kartu stanice s rovnakým názvom; chybnú kartu "
            "po turnaji znova pripravte („hub provision station“).",
            "en": "Swap the card for the spare station card with the same name; re-provision "
            "the faulty card after the event ('hub provision station').",
        },
        "fallback.why.hardware": {
            "cs": "Zvonek, tlačítko nebo kontrolka (GPIO) nejdou ovládat.",
            "sk": "Zvonček, tlačidlo alebo kontrolka (GPIO) sa nedajú ovládať.",
            "en": "The bell, button or lamp (GPIO) cannot be driven.",
        },
        "fallback.do.hardware": {
            "cs": "Odpojte zvonek od stanice (kolo odzvoní ostatní stanice) a vypněte a "
            "zapněte ji; pomůže-li to, zkontrolujte zapojení (hardware/README.md).",
            "sk": "Odpojte zvonček od stanice (kolo odzvonia ostatné stanice) a vypnite a "
            "zapnite ju; ak to pomôže, skontrolujte zapojenie (hardware/README.md).",
            "en": "Unplug the bell from the station (the other stations ring the round), then "
            "switch it off and on; if that helps, check the wiring (hardware/README.md).",
        },
        "fallback.why.data": {
            "cs": "Chybí datový oddíl (SAMODATA): záznamy by se při výpadku proudu ztratily.",
            "sk": "Chýba dátový oddiel (SAMODATA): záznamy by sa pri výpadku prúdu stratili.",
            "en": "The data partition (SAMODATA) is missing: records would be lost in a power cut.",
        },
        "fallback.do.data": {
            "cs": "Vypněte stanici, zkontrolujte, že je karta (nebo USB disk SAMODATA) "
            "zasunutá, a zapněte ji. Jinak náhradní karta se stejným názvem.",
            "sk": "Vypnite stanicu, skontrolujte, či je karta (alebo USB disk SAMODATA) "
            "zasunutá, a zapnite ju. Inak náhradná karta s rovnakým názvom.",
            "en": "Switch the station off, check that the card (or the SAMODATA USB disk) is "
            "in, and switch it on. Otherwise the spare card with the same name.",
        },
        "fallback.why.unknown": {
            "cs": "Neznámá chyba při spuštění.",
            "sk": "Neznáma chyba pri spustení.",
            "en": "An unknown error at start-up.",
        },
        "fallback.do.unknown": {
            "cs": "Vypněte a zapněte stanici. Když se chyba opakuje, vyměňte kartu za "
            "náhradní se stejným názvem.",
            "sk": "Vypnite a zapnite stanicu. Keď sa chyba opakuje, vymeňte kartu za "
            "náhradnú s rovnakým názvom.",
            "en": "Switch the station off and on. If the error comes back, swap the card for "
            "the spare with the same name.",
        },
    }
)
