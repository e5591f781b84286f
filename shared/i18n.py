"""The words the system shows people, in Czech (default), Slovak and English.

Code, logs and docs are in English; anything a player or referee reads goes through
:func:`t`. Keys are stable identifiers; a missing translation falls back to Czech.
"""

from __future__ import annotations

from typing import Any

LANGUAGES = ("cs", "sk", "en")
DEFAULT = "cs"

#: A text, or (plural messages) a dict of CLDR plural categories → text.
Text = str | dict[str, str]

MESSAGES: dict[str, dict[str, Text]] = {
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
    "sync.clock_uncertain": {
        "cs": "Hodiny seřízené jen na ±{ms} ms",
        "sk": "Hodiny zosynchronizované len na ±{ms} ms",
        "en": "Clock only within ±{ms} ms",
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
        "sk": "Kolo {n} začne za",
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
        "cs": "Pro stůl {table} proběhla kontrola před chvílí. Další je možná za {wait} s; "
        "nelze-li čekat, zavolejte rozhodčího.",
        "sk": "Pre stôl {table} prebehla kontrola pred chvíľou. Ďalšia je možná o {wait} s; "
        "ak nemôžete čakať, zavolajte rozhodcu.",
        "en": "Table {table} checked a moment ago. The next check is possible in {wait} s; "
        "if you cannot wait, call the referee.",
    },
    "kiosk.refused.cap": {
        "cs": {
            "one": "Pro stůl {table} už v tomto kole proběhla {max} kontrola. "
            "Zavolejte rozhodčího.",
            "few": "Pro stůl {table} už v tomto kole proběhly {max} kontroly. "
            "Zavolejte rozhodčího.",
            "other": "Pro stůl {table} už v tomto kole proběhlo {max} kontrol. "
            "Zavolejte rozhodčího.",
        },
        "sk": {
            "one": "Pre stôl {table} už v tomto kole prebehla {max} kontrola. Zavolajte rozhodcu.",
            "few": "Pre stôl {table} už v tomto kole prebehli {max} kontroly. Zavolajte rozhodcu.",
            "other": "Pre stôl {table} už v tomto kole prebehlo {max} kontrol. Zavolajte rozhodcu.",
        },
        "en": {
            "one": "Table {table} has used its {max} check in this round. Call the referee.",
            "other": "Table {table} has used its {max} checks in this round. Call the referee.",
        },
    },
    "kiosk.pin.title": {"cs": "Rozhodčí", "sk": "Rozhodca", "en": "Referee"},
    "kiosk.pin.prompt": {"cs": "PIN rozhodčího:", "sk": "PIN rozhodcu:", "en": "Referee PIN:"},
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
        "cs": {
            "one": "ZAMČENO po {n} špatném PINu. Další pokus za {s} s.",
            "other": "ZAMČENO po {n} špatných PINech. Další pokus za {s} s.",
        },
        "sk": {
            "one": "ZAMKNUTÉ po {n} nesprávnom PINe. Ďalší pokus o {s} s.",
            "other": "ZAMKNUTÉ po {n} nesprávnych PINoch. Ďalší pokus o {s} s.",
        },
        "en": {
            "one": "LOCKED after {n} wrong PIN. Next try in {s} s.",
            "other": "LOCKED after {n} wrong PINs. Next try in {s} s.",
        },
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
    """The message ``key`` in ``lang`` with ``values`` filled in.

    A message whose text is a dict of CLDR plural categories (``one``, ``few``, ``many``,
    ``other``) is chosen by the plural rules of ``lang`` for the count named in
    :data:`PLURAL_COUNTS` (default ``n``): „1 stanice, 2 stanice, 5 stanic“. Float values
    are written with the language's decimal separator (``1 095,58`` in cs and sk)."""
    entry = MESSAGES[key]
    text: Any = entry.get(lang) or entry[DEFAULT]
    if isinstance(text, dict):
        count = values.get(PLURAL_COUNTS.get(key, "n"), 0)
        text = text.get(plural_category(count, lang)) or text["other"]
    if not values:
        return str(text)
    shown = {k: decimal(v, lang) if isinstance(v, float) else v for k, v in values.items()}
    return str(text).format(**shown)


#: The value that chooses the plural form of a plural message (default ``n``).
PLURAL_COUNTS: dict[str, str] = {
    "dash.stations.summary": "required",
    "warn.too_few": "required",
    "kiosk.refused.cap": "max",
    "kiosk.refused.station_cap": "max",
    "dash.paired": "boards",
    "warn.rejected": "count",
    "round.played.results": "count",
}

_LOCALES = {"cs": "cs_CZ", "sk": "sk_SK", "en": "en_GB"}


def plural_category(count: Any, lang: str) -> str:
    """The CLDR plural category (one, few, many, other) of ``count`` in ``lang``, by
    Babel's copy of the CLDR rules (cs/sk: 1 one, 2–4 few, decimals many, else other)."""
    from babel import Locale

    try:
        number = float(count) if not isinstance(count, int) else count
    except (TypeError, ValueError):
        return "other"
    return str(Locale.parse(_LOCALES.get(lang, _LOCALES[DEFAULT])).plural_form(number))


def decimal(value: float, lang: str, digits: int | None = None) -> str:
    """``value`` with the language's decimal separator and grouping (Babel, CLDR):
    ``1 095,58`` in cs and sk, ``1,095.58`` in en; ``digits`` fixes the decimals."""
    from babel.numbers import format_decimal

    locale = _LOCALES.get(lang, _LOCALES[DEFAULT])
    if digits is None:
        if float(value).is_integer():
            return format_decimal(int(value), locale=locale)
        return format_decimal(value, locale=locale, decimal_quantization=False)
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(value, format=pattern, locale=locale)


class Phrase(str):
    """A catalogue message that is also its English text: code that logs or prints it
    gets English as before, and a screen shows it in its own language with
    :func:`localize` (for messages made where the language is not known, e.g. a
    service's warnings, or stored to be shown later, e.g. why a pair was paired).

    Values may themselves be phrases, or lists of values (shown joined by ", "); both
    are rendered in the language of the whole. :meth:`to_data` / :meth:`from_data` keep a
    phrase as JSON-able data (its key and values), never as text in one language."""

    key: str
    values: dict[str, Any]

    def __new__(cls, key: str, /, **values: Any) -> Phrase:
        obj = super().__new__(cls, _render(key, "en", values))
        obj.key = key
        obj.values = values
        return obj

    def to_data(self) -> dict[str, Any]:
        """``{"key": …, "values": {…}}`` with nested phrases as the same kind of dict."""
        return {"key": self.key, "values": {k: _encode(v) for k, v in self.values.items()}}

    @classmethod
    def from_data(cls, data: Any) -> str:
        """The phrase :meth:`to_data` made; a plain string as it is (text stored before
        it was a phrase); a key this version does not know as its key and values, so a
        reader never fails on data written by another version."""
        if isinstance(data, str):
            return data
        if not isinstance(data, dict) or not isinstance(data.get("key"), str):
            return str(data)
        values = {str(k): _decode(v) for k, v in dict(data.get("values") or {}).items()}
        if data["key"] not in MESSAGES:
            return f"{data['key']} {values}"
        try:
            return cls(data["key"], **values)
        except (KeyError, IndexError, ValueError):  # a value the message no longer has
            return f"{data['key']} {values}"


def _encode(value: Any) -> Any:
    if isinstance(value, Phrase):
        return value.to_data()
    if isinstance(value, list | tuple):
        return [_encode(v) for v in value]
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        return Phrase.from_data(value)
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


def _shown(value: Any, lang: str) -> Any:
    if isinstance(value, Phrase):
        return _render(value.key, lang, value.values)
    if isinstance(value, list | tuple):
        return ", ".join(str(_shown(v, lang)) for v in value)
    return value


def _render(key: str, lang: str, values: dict[str, Any]) -> str:
    return t(key, lang, **{k: _shown(v, lang) for k, v in values.items()})


def localize(text: str, lang: str) -> str:
    """``text`` in ``lang`` when it is a :class:`Phrase`, else as it is."""
    if isinstance(text, Phrase):
        return _render(text.key, lang, text.values)
    return str(text)


def error_text(exc: BaseException, lang: str) -> str:
    """An exception's message in ``lang`` when it was raised with a :class:`Phrase`
    (``raise SomeError(Phrase(key, …))``), else its text as it is."""
    arg = exc.args[0] if len(exc.args) == 1 else None
    return localize(arg, lang) if isinstance(arg, Phrase) else str(exc)


def cli_language() -> str:
    """The language of command-line messages: ``SAMOOBSLUHA_LANG``, else the locale's
    (``LC_ALL``, ``LC_MESSAGES``, ``LANG``: ``sk_SK.UTF-8`` → sk), else Czech."""
    import os

    for var in ("SAMOOBSLUHA_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")[:2].lower()
        if value in LANGUAGES:
            return value
    return DEFAULT


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
            "sk": "Žrebovanie {round}. kola",
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
        "tour.col.seconds": {"cs": "Jako DH", "sk": "Ako DH", "en": "Second"},
        "tour.col.games": {"cs": "Partie", "sk": "Partie", "en": "Games"},
        "tour.col.table": {"cs": "Stůl", "sk": "Stôl", "en": "Table"},
        "tour.col.first": {"cs": "Začíná (ZH)", "sk": "Začína (ZH)", "en": "Starts"},
        "tour.col.second": {"cs": "Soupeř (DH)", "sk": "Súper (DH)", "en": "Second"},
        "tour.col.round": {"cs": "Kolo", "sk": "Kolo", "en": "Round"},
        "tour.col.opponent": {"cs": "Soupeř", "sk": "Súper", "en": "Opponent"},
        "tour.col.score": {"cs": "Skóre", "sk": "Skóre", "en": "Score"},
        "tour.col.result": {"cs": "Výsledek", "sk": "Výsledok", "en": "Result"},
        "tour.col.started": {"cs": "ZH", "sk": "ZH", "en": "Started"},
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
            "cs": "Pořadí a rozlosování",
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
            "cs": {
                "one": "Hráčů: {players} → podle ČAS 15.8e je potřeba {required} stanice; "
                "online {online} z {total}",
                "few": "Hráčů: {players} → podle ČAS 15.8e jsou potřeba {required} stanice; "
                "online {online} z {total}",
                "other": "Hráčů: {players} → podle ČAS 15.8e je potřeba {required} stanic; "
                "online {online} z {total}",
            },
            "sk": {
                "one": "Hráčov: {players} → podľa ČAS 15.8e treba {required} stanicu; "
                "online {online} z {total}",
                "few": "Hráčov: {players} → podľa ČAS 15.8e treba {required} stanice; "
                "online {online} z {total}",
                "other": "Hráčov: {players} → podľa ČAS 15.8e treba {required} staníc; "
                "online {online} z {total}",
            },
            "en": {
                "one": "{players} players → ČAS 15.8e needs {required} station; "
                "{online} of {total} online",
                "other": "{players} players → ČAS 15.8e needs {required} stations; "
                "{online} of {total} online",
            },
        },
        "dash.stations.none": {
            "cs": "Zatím se nepřihlásila žádná stanice.",
            "sk": "Zatiaľ sa neprihlásila žiadna stanica.",
            "en": "No station has reported yet.",
        },
        "dash.ago": {"cs": "před {s} s", "sk": "pred {s} s", "en": "{s} s ago"},
        "dash.phase.idle": {"cs": "nenaplánováno", "sk": "nenaplánované", "en": "not planned"},
        "dash.phase.scheduled": {"cs": "START ZA", "sk": "ŠTART ZA", "en": "STARTS IN"},
        "dash.phase.running": {"cs": "HRAJE SE", "sk": "HRÁ SA", "en": "RUNNING"},
        "dash.phase.warning": {
            "cs": "POSLEDNÍCH 10 MINUT",
            "sk": "POSLEDNÝCH 10 MINÚT",
            "en": "LAST 10 MINUTES",
        },
        "dash.phase.ended": {"cs": "DOHRÁVKA", "sk": "DOHRÁVKA", "en": "PLAY-OUT"},
        "dash.phase.cancelled": {"cs": "ZRUŠENO", "sk": "ZRUŠENÉ", "en": "CANCELLED"},
        "dash.paused": {"cs": "PŘERUŠENO", "sk": "PRERUŠENÉ", "en": "PAUSED"},
        "dash.rounds.round": {"cs": "Kolo", "sk": "Kolo", "en": "Round"},
        "dash.rounds.minutes": {"cs": "Minut", "sk": "Minút", "en": "Minutes"},
        "dash.rounds.at": {"cs": "Čas", "sk": "Čas", "en": "At"},
        "dash.key.created": {
            "cs": "Nový tajný klíč sálu je v {path} a zůstává jen tady; každá stanice dostane "
            "vlastní klíč (hub provision station nebo hub key station).",
            "sk": "Nový tajný kľúč sály je v {path} a zostáva len tu; každá stanica dostane "
            "vlastný kľúč (hub provision station alebo hub key station).",
            "en": "A new hall secret is in {path} and stays here; each station gets a key of "
            "its own (hub provision station or hub key station).",
        },
        "dash.act.revoke": {"cs": "Zneplatnit klíč", "sk": "Zneplatniť kľúč", "en": "Revoke key"},
        "dash.revoke.confirm": {
            "cs": "Zneplatnit klíč stanice {station}? Stiskněte R znovu. Její karta pak "
            "přestane platit; novou kartu vytvoří hub provision station.",
            "sk": "Zneplatniť kľúč stanice {station}? Stlačte R znova. Jej karta potom "
            "prestane platiť; novú kartu vytvorí hub provision station.",
            "en": "Revoke the key of station {station}? Press R again. Its card stops "
            "working; hub provision station makes a new one.",
        },
        "dash.revoke.done": {
            "cs": "Klíč stanice {station} je zneplatněn.",
            "sk": "Kľúč stanice {station} je zneplatnený.",
            "en": "The key of station {station} is revoked.",
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
        # -- operator safety: what an action touches, asked before it acts --------------
        "dash.cancel.played": {
            "cs": "Odehrané kolo {n} nelze zrušit.",
            "sk": "Odohrané kolo {n} nemožno zrušiť.",
            "en": "Round {n} has been played; it cannot be cancelled.",
        },
        "dash.guard.running": {
            "cs": "Kolo {n} běží (zbývá {left}).",
            "sk": "Kolo {n} beží (zostáva {left}).",
            "en": "Round {n} is under way ({left} left).",
        },
        "dash.guard.ended": {
            "cs": "Kolo {n} skončilo v {at}.",
            "sk": "Kolo {n} sa skončilo o {at}.",
            "en": "Round {n} ended at {at}.",
        },
        "dash.guard.results": {
            "cs": "Zapsané výsledky kola {n}: {count}.",
            "sk": "Zapísané výsledky kola {n}: {count}.",
            "en": "Results entered for round {n}: {count}.",
        },
        "dash.confirm.restart": {
            "cs": "Spustit kolo {n} znovu? Všechny stanice začnou odpočítávat od začátku.",
            "sk": "Spustiť kolo {n} znova? Všetky stanice začnú odpočítavať od začiatku.",
            "en": "Start round {n} again? Every station starts counting down from the beginning.",
        },
        "dash.rounds.followed": {
            "cs": "Pole Kolo ukazuje aktuální kolo turnaje: {n}.",
            "sk": "Pole Kolo ukazuje aktuálne kolo turnaja: {n}.",
            "en": "The Round field shows the tournament's current round: {n}.",
        },
        "dash.confirm.check": {
            "cs": "Kontrola {time} · stanice {station} · {round} · stůl {table} · {words} · "
            "{verdict}",
            "sk": "Kontrola {time} · stanica {station} · {round} · stôl {table} · {words} · "
            "{verdict}",
            "en": "Check of {time} · station {station} · {round} · table {table} · {words} · "
            "{verdict}",
        },
        "dash.confirm.mark": {
            "cs": "Námitku vznesl(a): {name}?",
            "sk": "Námietku vzniesol (vzniesla): {name}?",
            "en": "Challenged by {name}?",
        },
        "dash.confirm.unmark": {
            "cs": "Zrušit údaj, kdo námitku vznesl?",
            "sk": "Zrušiť údaj, kto námietku vzniesol?",
            "en": "Clear who challenged?",
        },
        "dash.confirm.appeal": {
            "cs": "Zapsat rozhodnutí o odvolání: {verdict}?",
            "sk": "Zapísať rozhodnutie o odvolaní: {verdict}?",
            "en": "Record the appeal decision: {verdict}?",
        },
        "dash.confirm.ack": {
            "cs": "Potvrdit volání rozhodčího {time} · stanice {station} · stůl {table}?",
            "sk": "Potvrdiť volanie rozhodcu {time} · stanica {station} · stôl {table}?",
            "en": "Acknowledge the referee call of {time} · station {station} · table {table}?",
        },
        "dash.confirm.hint": {
            "cs": "Enter = ano · Esc = ne",
            "sk": "Enter = áno · Esc = nie",
            "en": "Enter = yes · Esc = no",
        },
        "dash.confirm.yes": {"cs": "Ano", "sk": "Áno", "en": "Yes"},
        "dash.confirm.no": {"cs": "Ne", "sk": "Nie", "en": "No"},
        "dash.confirm.declined": {
            "cs": "Nic se nezměnilo.",
            "sk": "Nič sa nezmenilo.",
            "en": "Nothing was changed.",
        },
        "dash.mark.no_round": {
            "cs": "Kontrola nemá kolo, hráče u stolu nelze určit.",
            "sk": "Kontrola nemá kolo, hráčov pri stole nemožno určiť.",
            "en": "The check has no round; the table's players are unknown.",
        },
        "dash.mark.bye": {
            "cs": "U toho stolu je volný los.",
            "sk": "Pri tom stole je voľný žreb.",
            "en": "That table has a bye.",
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
            "cs": "Volání rozhodčího: {n} (A = potvrdit)",
            "sk": "Volanie rozhodcu: {n} (A = potvrdiť)",
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
            "sk": "Lehota na protesty končí za {left}",
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
        "dash.entry.started": {
            "cs": "začínal(a) {name}",
            "sk": "začínal(a) {name}",
            "en": "{name} started",
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
            "cs": "Rozlosovat další kolo",
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
            "cs": "Rozlosování {n}. kola",
            "sk": "Žrebovanie {n}. kola",
            "en": "Pairings of round {n}",
        },
        "dash.no_pairing": {
            "cs": "Kolo {n} ještě není rozlosované.",
            "sk": "Kolo {n} ešte nie je žrebované.",
            "en": "Round {n} is not paired yet.",
        },
        "dash.saved": {"cs": "Uloženo: {path}", "sk": "Uložené: {path}", "en": "Saved: {path}"},
        "dash.paired": {
            "cs": {
                "one": "Kolo {n} rozlosováno ({boards} stůl).",
                "few": "Kolo {n} rozlosováno ({boards} stoly).",
                "other": "Kolo {n} rozlosováno ({boards} stolů).",
            },
            "sk": {
                "one": "Kolo {n} žrebované ({boards} stôl).",
                "few": "Kolo {n} žrebované ({boards} stoly).",
                "other": "Kolo {n} žrebované ({boards} stolov).",
            },
            "en": {
                "one": "Round {n} paired ({boards} table).",
                "other": "Round {n} paired ({boards} tables).",
            },
        },
    }
)


# --- issue 12: table ranges, PIN, rate limits, "where do I play?" (station kiosk) -------
MESSAGES.update(
    {
        "tables.bad_part": {
            "cs": "„{part}“ není číslo stolu ani rozsah jako 1-100.",
            "sk": "„{part}“ nie je číslo stola ani rozsah ako 1-100.",
            "en": "“{part}” is not a table number or a range like 1-100.",
        },
        "tables.bad_range": {
            "cs": "„{part}“ není rozumný rozsah stolů (1 až 10000, od menšího k většímu).",
            "sk": "„{part}“ nie je rozumný rozsah stolov (1 až 10000, od menšieho k väčšiemu).",
            "en": "“{part}” is not a sensible table range (1 to 10000, low to high).",
        },
        "tables.empty": {
            "cs": "Nejsou zadána žádná čísla stolů.",
            "sk": "Nie sú zadané žiadne čísla stolov.",
            "en": "No table numbers given.",
        },
        "kiosk.confirm.quit": {
            "cs": "Opravdu ukončit kiosk? Stanice přestane kontrolovat slova.",
            "sk": "Naozaj ukončiť kiosk? Stanica prestane kontrolovať slová.",
            "en": "Really quit the kiosk? The station stops checking words.",
        },
        "kiosk.confirm.pin": {
            "cs": "Opravdu změnit PIN rozhodčího této stanice?",
            "sk": "Naozaj zmeniť PIN rozhodcu tejto stanice?",
            "en": "Really change this station's referee PIN?",
        },
        "kiosk.confirm.hint": {
            "cs": "A = ano · Esc = ne",
            "sk": "A = áno · Esc = nie",
            "en": "Y = yes · Esc = no",
        },
        "kiosk.refused.station_interval": {
            "cs": "Na této stanici právě proběhla kontrola. Další je možná za {wait} s; "
            "nelze-li čekat, zavolejte rozhodčího.",
            "sk": "Na tejto stanici práve prebehla kontrola. Ďalšia je možná o {wait} s; "
            "ak nemôžete čakať, zavolajte rozhodcu.",
            "en": "This station has just checked. The next check is possible in {wait} s; "
            "if you cannot wait, call the referee.",
        },
        "kiosk.refused.station_cap": {
            "cs": {
                "one": "Tato stanice už v tomto kole provedla {max} kontrolu. "
                "Zavolejte rozhodčího.",
                "few": "Tato stanice už v tomto kole provedla {max} kontroly. "
                "Zavolejte rozhodčího.",
                "other": "Tato stanice už v tomto kole provedla {max} kontrol. "
                "Zavolejte rozhodčího.",
            },
            "sk": {
                "one": "Táto stanica už v tomto kole vykonala {max} kontrolu. Zavolajte rozhodcu.",
                "few": "Táto stanica už v tomto kole vykonala {max} kontroly. Zavolajte rozhodcu.",
                "other": "Táto stanica už v tomto kole vykonala {max} kontrol. Zavolajte rozhodcu.",
            },
            "en": "This station has used its {max} checks in this round. Call the referee.",
        },
        "dash.reason.station_interval": {
            "cs": "stanice: příliš brzy",
            "sk": "stanica: príliš skoro",
            "en": "station: too soon",
        },
        "dash.reason.station_cap": {
            "cs": "stanice: limit kontrol",
            "sk": "stanica: limit kontrol",
            "en": "station: check limit",
        },
        "dash.reason.pin_locked": {
            "cs": "špatný PIN, zamčeno",
            "sk": "nesprávny PIN, zamknuté",
            "en": "wrong PIN, locked",
        },
        "pin.ask": {"cs": "PIN rozhodčího: ", "sk": "PIN rozhodcu: ", "en": "Referee PIN: "},
        "pin.again": {"cs": "Znovu: ", "sk": "Znova: ", "en": "Again: "},
        "pin.differ": {
            "cs": "PINy se neshodují; nic se nezměnilo.",
            "sk": "PINy sa nezhodujú; nič sa nezmenilo.",
            "en": "The PINs differ; nothing changed.",
        },
        "pin.too_short": {
            "cs": "PIN musí mít alespoň {min} znaky bez diakritiky; nic se nezměnilo.",
            "sk": "PIN musí mať aspoň {min} znaky bez diakritiky; nič sa nezmenilo.",
            "en": "The PIN needs at least {min} characters without accents; nothing changed.",
        },
        "pin.sent": {
            "cs": "Nový PIN rozhodčího odeslán stanicím: {stations}",
            "sk": "Nový PIN rozhodcu odoslaný staniciam: {stations}",
            "en": "New referee PIN sent to: {stations}",
        },
        "dash.act.pin": {"cs": "PIN rozhodčího", "sk": "PIN rozhodcu", "en": "Referee PIN"},
        "dash.pin.new": {
            "cs": "Nový PIN rozhodčího pro všechny stanice (Enter, Esc = zpět):",
            "sk": "Nový PIN rozhodcu pre všetky stanice (Enter, Esc = späť):",
            "en": "New referee PIN for every station (Enter, Esc = back):",
        },
        "dash.pin.repeat": {
            "cs": "Zopakujte nový PIN:",
            "sk": "Zopakujte nový PIN:",
            "en": "Repeat the new PIN:",
        },
        "dash.pin.confirm": {
            "cs": "Opravdu poslat nový PIN všem stanicím? A = ano · Esc = ne",
            "sk": "Naozaj poslať nový PIN všetkým staniciam? A = áno · Esc = nie",
            "en": "Really send the new PIN to every station? Y = yes · Esc = no",
        },
        "kiosk.where.next": {
            "cs": "Příští kolo ({round}. kolo):",
            "sk": "Nasledujúce kolo ({round}. kolo):",
            "en": "Next round (round {round}):",
        },
        "kiosk.where.now": {
            "cs": "Právě se hraje {round}. kolo:",
            "sk": "Práve sa hrá {round}. kolo:",
            "en": "Being played now (round {round}):",
        },
        # fast result entry (hub/entry.py): the operator's parse errors
        "entry.empty": {
            "cs": "Prázdný řádek: napište STŮL SKÓRE SKÓRE.",
            "sk": "Prázdny riadok: napíšte STÔL SKÓRE SKÓRE.",
            "en": "Empty line: type TABLE SCORE SCORE.",
        },
        "entry.not_numbers": {
            "cs": "„{text}“: jen čísla (stůl, dvě skóre, případně 1 nebo 2).",
            "sk": "„{text}“: len čísla (stôl, dve skóre, prípadne 1 alebo 2).",
            "en": "“{text}”: only numbers (table, two scores, optionally 1 or 2).",
        },
        "entry.too_few": {
            "cs": "„{text}“: napište STŮL SKÓRE SKÓRE (čísel je {n}).",
            "sk": "„{text}“: napíšte STÔL SKÓRE SKÓRE (čísel je {n}).",
            "en": "“{text}”: type TABLE SCORE SCORE (got {n} numbers).",
        },
        "entry.too_many": {
            "cs": "„{text}“: příliš mnoho čísel; STŮL SKÓRE SKÓRE [1|2].",
            "sk": "„{text}“: príliš veľa čísel; STÔL SKÓRE SKÓRE [1|2].",
            "en": "“{text}”: too many numbers; TABLE SCORE SCORE [1|2].",
        },
        "entry.table_zero": {
            "cs": "Stoly se číslují od 1.",
            "sk": "Stoly sa číslujú od 1.",
            "en": "Tables are numbered from 1.",
        },
        "entry.starter": {
            "cs": "Čtvrté číslo říká, kdo začínal: 1 nebo 2, ne {n}.",
            "sk": "Štvrté číslo hovorí, kto začínal: 1 alebo 2, nie {n}.",
            "en": "The fourth number says who started: 1 or 2, not {n}.",
        },
        # hub: station warnings (hub/service.py), entry outcomes and sources
        "warn.server_off": {
            "cs": "server hubu neběží (hub serve): stanice se nemohou synchronizovat",
            "sk": "server hubu nebeží (hub serve): stanice sa nemôžu synchronizovať",
            "en": "hub server is not running (hub serve): stations cannot sync",
        },
        "warn.too_few": {
            "cs": {
                "one": "ČAS 15.8e: hráčů {players}, potřeba {required} stanice; online {online}",
                "few": "ČAS 15.8e: hráčů {players}, potřeba {required} stanice; online {online}",
                "other": "ČAS 15.8e: hráčů {players}, potřeba {required} stanic; online {online}",
            },
            "sk": {
                "one": "ČAS 15.8e: hráčov {players}, treba {required} stanicu; online {online}",
                "few": "ČAS 15.8e: hráčov {players}, treba {required} stanice; online {online}",
                "other": "ČAS 15.8e: hráčov {players}, treba {required} staníc; online {online}",
            },
            "en": {
                "one": "ČAS 15.8e: {players} players need {required} station; {online} online",
                "other": "ČAS 15.8e: {players} players need {required} stations; {online} online",
            },
        },
        "warn.lexicons_mixed": {
            "cs": "stanice hlásí různé slovníky (hub žádný nezveřejnil)",
            "sk": "stanice hlásia rôzne slovníky (hub žiadny nezverejnil)",
            "en": "stations report different lexicons (none published by the hub)",
        },
        "warn.lexicon_differs": {
            "cs": "stanice {station}: slovník se liší od slovníku hubu",
            "sk": "stanica {station}: slovník sa líši od slovníka hubu",
            "en": "station {station}: lexicon differs from the hub's",
        },
        "warn.clock": {
            "cs": "stanice {station}: hodiny nejsou seřízené",
            "sk": "stanica {station}: hodiny nie sú zosynchronizované",
            "en": "station {station}: clock not synced",
        },
        "warn.rejected": {
            "cs": {
                "one": "stanice {station}: {count} záznam odmítnut jako vadný (hub rejected)",
                "few": "stanice {station}: {count} záznamy odmítnuty jako vadné (hub rejected)",
                "many": "stanice {station}: {count} záznamu odmítnuto jako vadné (hub rejected)",
                "other": "stanice {station}: {count} záznamů odmítnuto jako vadné (hub rejected)",
            },
            "sk": {
                "one": "stanica {station}: {count} záznam odmietnutý ako chybný (hub rejected)",
                "few": "stanica {station}: {count} záznamy odmietnuté ako chybné (hub rejected)",
                "many": "stanica {station}: {count} záznamu odmietnutého ako chybné (hub rejected)",
                "other": "stanica {station}: {count} záznamov odmietnutých (hub rejected)",
            },
            "en": {
                "one": "station {station}: {count} row refused as malformed (hub rejected)",
                "other": "station {station}: {count} rows refused as malformed (hub rejected)",
            },
        },
        "warn.stalled": {
            "cs": "stanice {station}: fronta se minutu nezmenšila (synchronizace vázne; viz log)",
            "sk": "stanica {station}: front sa minútu nezmenšil (synchronizácia viazne; pozri log)",
            "en": "station {station}: its backlog has not shrunk for a minute (sync stuck)",
        },
        "dash.outcome.entered": {"cs": "zapsáno", "sk": "zapísané", "en": "entered"},
        "dash.outcome.confirmed": {"cs": "potvrzeno", "sk": "potvrdené", "en": "confirmed"},
        "dash.outcome.corrected": {"cs": "opraveno", "sk": "opravené", "en": "corrected"},
        "dash.outcome.conflict": {"cs": "ROZPOR", "sk": "ROZPOR", "en": "CONFLICT"},
        "dash.outcome.unchanged": {"cs": "beze změny", "sk": "bez zmeny", "en": "unchanged"},
        "dash.outcome.duplicate": {
            "cs": "už zapsáno (beze změny)",
            "sk": "už zapísané (bez zmeny)",
            "en": "duplicate",
        },
        "dash.source.station": {"cs": "stanice", "sk": "stanica", "en": "station"},
        "dash.source.operator": {"cs": "operátor", "sk": "operátor", "en": "operator"},
        "warn.unusual_score": {
            "cs": "neobvyklé skóre {score} (mimo {low}..{high})",
            "sk": "neobvyklé skóre {score} (mimo {low}..{high})",
            "en": "unusual score {score} (outside {low}..{high})",
        },
        "warn.other_started": {
            "cs": "začínal {started}, podle rozlosování měl {paired}",
            "sk": "začínal {started}, podľa žrebovania mal {paired}",
            "en": "{started} started, the pairing said {paired}",
        },
        "pin.set": {
            "cs": "PIN rozhodčího nastaven v {path}",
            "sk": "PIN rozhodcu nastavený v {path}",
            "en": "referee PIN set in {path}",
        },
        "pin.cleared": {
            "cs": "PIN této stanice odstraněn; dokud nebude nastaven nebo poslán hubem, "
            "F12 nic neotevře",
            "sk": "PIN tejto stanice odstránený; kým nebude nastavený alebo poslaný hubom, "
            "F12 nič neotvorí",
            "en": "station PIN removed; until one is set or sent by the hub, F12 opens nothing",
        },
        "pin.cleared_config": {
            "cs": "PIN této stanice odstraněn; platí referee_pin_hash z konfigurace",
            "sk": "PIN tejto stanice odstránený; platí referee_pin_hash z konfigurácie",
            "en": "station PIN removed; the config file's referee_pin_hash applies again",
        },
    }
)


# -- hub rehearse: the hall check (issue 18; hub/rehearse.py, station/rehearse.py) -----------
def _r(cs: str, sk: str, en: str) -> dict[str, Text]:
    return {"cs": cs, "sk": sk, "en": en}


MESSAGES.update(
    {
        "rehearse.title": _r(
            "Zkouška sálu {when}", "Skúška sály {when}", "Hall rehearsal of {when}"
        ),
        "rehearse.html_title": _r(
            "Protokol o zkoušce sálu", "Protokol o skúške sály", "Hall rehearsal record"
        ),
        "rehearse.meta": _r(
            "Zkouška {id}, verze hubu {version}",
            "Skúška {id}, verzia hubu {version}",
            "Rehearsal {id}, hub version {version}",
        ),
        "rehearse.signature": _r(
            "Zkontroloval(a): ____________________   Hlavní rozhodčí: ____________________",
            "Skontroloval(a): ____________________   Hlavný rozhodca: ____________________",
            "Checked by: ____________________   Chief referee: ____________________",
        ),
        "rehearse.verdict.go": _r(
            "SÁL JE PŘIPRAVEN", "SÁLA JE PRIPRAVENÁ", "THE HALL IS READY"
        ),
        "rehearse.verdict.nogo": _r(
            "SÁL NENÍ PŘIPRAVEN", "SÁLA NIE JE PRIPRAVENÁ", "THE HALL IS NOT READY"
        ),
        "rehearse.go": _r("PŘIPRAVENA", "PRIPRAVENÁ", "GO"),
        "rehearse.nogo": _r("NEPŘIPRAVENA", "NEPRIPRAVENÁ", "NO-GO"),
        "rehearse.none_stored": _r(
            "Žádná zkouška sálu zatím neproběhla.",
            "Žiadna skúška sály zatiaľ neprebehla.",
            "No hall rehearsal has been run yet.",
        ),
        "rehearse.progress.asked": _r(
            "Zkouška odeslána, stanic: {n}. Na stanicích teď napište zkušební řádek"
            " (čekám nejvýše {wait} s).",
            "Skúška odoslaná, staníc: {n}. Na staniciach teraz napíšte skúšobný riadok"
            " (čakám najviac {wait} s).",
            "Rehearsal sent to {n} station(s). Type the test line at each station now"
            " (waiting up to {wait} s).",
        ),
        "rehearse.spread": _r(
            "Rozptyl gongu: {spread} ms mezi stanicemi ({n}), cíl nejvýše {target} ms",
            "Rozptyl gongu: {spread} ms medzi stanicami ({n}), cieľ najviac {target} ms",
            "Gong spread: {spread} ms across {n} station(s), target at most {target} ms",
        ),
        "rehearse.spread.none": _r(
            "Rozptyl gongu: žádná stanice nezazvonila",
            "Rozptyl gongu: žiadna stanica nezazvonila",
            "Gong spread: no station rang",
        ),
        "rehearse.cas": _r(
            "ČAS 15.8e: hráčů {players}, potřeba stanic {required}; připraveno {go},"
            " připojeno {online}",
            "ČAS 15.8e: hráčov {players}, treba staníc {required}; pripravených {go},"
            " pripojených {online}",
            "ČAS 15.8e: {players} players need {required} station(s); {go} ready,"
            " {online} connected",
        ),
        "rehearse.sit_hint": _r(
            "Chybí-li na klávesnici písmena s diakritikou, hráči mohou psát v zápisu SIT:"
            " Č=C+ Š=S+ Ž=Z+ Ť=T+ Ď=D+ Ň=N+, Á=A- É=E- Í=I- Ý=Y- Ú=U-; Ě, Ř, Ů opravte"
            " nastavením klávesnice.",
            "Ak na klávesnici chýbajú písmená s diakritikou, hráči môžu písať v zápise SIT:"
            " Č=C+ Š=S+ Ž=Z+ Ť=T+ Ď=D+ Ň=N+ Ä=A+ Ô=O+ Ľ=L+, Á=A- É=E- Í=I- Ý=Y- Ú=U-.",
            "Where accented letters are missing, players can type SIT notation:"
            " Č=C+ Š=S+ Ž=Z+ Ť=T+ Ď=D+ Ň=N+, Á=A- É=E- Í=I- Ý=Y- Ú=U-; fix Ě, Ř, Ů in the"
            " keyboard layout.",
        ),
        "rehearse.check.link": _r("Spojení a klíč", "Spojenie a kľúč", "Link and key"),
        "rehearse.check.answer": _r("Odpověď", "Odpoveď", "Answer"),
        "rehearse.check.version": _r("Verze programu", "Verzia programu", "Software version"),
        "rehearse.check.lexicon": _r("Slovník", "Slovník", "Lexicon"),
        "rehearse.check.clock": _r("Hodiny", "Hodiny", "Clock"),
        "rehearse.check.gong": _r("Zkušební gong", "Skúšobný gong", "Test gong"),
        "rehearse.check.keyboard": _r("Klávesnice", "Klávesnica", "Keyboard"),
        "rehearse.check.bell": _r("Zvonek", "Zvonček", "Bell"),
        "rehearse.check.lamp": _r("Kontrolka", "Kontrolka", "Lamp"),
        "rehearse.check.button": _r("Tlačítko rozhodčího", "Tlačidlo rozhodcu", "Referee button"),
        "rehearse.check.pin": _r("PIN rozhodčího", "PIN rozhodcu", "Referee PIN"),
        "rehearse.check.tables": _r("Stoly", "Stoly", "Tables"),
        "rehearse.check.disk": _r("Volné místo", "Voľné miesto", "Free space"),
        "rehearse.check.root": _r(
            "Systém jen pro čtení", "Systém len na čítanie", "Read-only root"
        ),
        "rehearse.check.watchdog": _r("Watchdog", "Watchdog", "Watchdog"),
        "rehearse.link.ok": _r(
            "připojena ({address}), klíč turnaje platí",
            "pripojená ({address}), kľúč turnaja platí",
            "connected ({address}), tournament key accepted",
        ),
        "rehearse.link.down": _r(
            "není připojena k hubu (síť, napájení nebo klíč turnaje)",
            "nie je pripojená k hubu (sieť, napájanie alebo kľúč turnaja)",
            "not connected to the hub (network, power or tournament key)",
        ),
        "rehearse.answer.none": _r(
            "na zkoušku neodpověděla", "na skúšku neodpovedala", "did not answer the rehearsal"
        ),
        "rehearse.version.ok": _r(
            "verze {version} jako hub", "verzia {version} ako hub", "version {version}, as the hub"
        ),
        "rehearse.version.bad": _r(
            "verze {version}, hub má {hub}",
            "verzia {version}, hub má {hub}",
            "version {version}, the hub runs {hub}",
        ),
        "rehearse.lexicon.ok": _r(
            "slovník shodný s hubem (SHA-256 {sha}…)",
            "slovník zhodný s hubom (SHA-256 {sha}…)",
            "lexicon equal to the hub's (SHA-256 {sha}…)",
        ),
        "rehearse.lexicon.bad": _r(
            "jiný slovník než hub (SHA-256 {sha}…)",
            "iný slovník ako hub (SHA-256 {sha}…)",
            "lexicon differs from the hub's (SHA-256 {sha}…)",
        ),
        "rehearse.lexicon.none": _r(
            "stanice nemá slovník", "stanica nemá slovník", "the station has no lexicon"
        ),
        "rehearse.lexicon.unknown": _r(
            "slovník hubu neznámý, stanice má {sha}…",
            "slovník hubu neznámy, stanica má {sha}…",
            "the hub's lexicon is unknown; the station has {sha}…",
        ),
        "rehearse.clock.ok": _r(
            "odchylka {offset} ms, nejistota ±{unc} ms",
            "odchýlka {offset} ms, neistota ±{unc} ms",
            "offset {offset} ms, uncertainty ±{unc} ms",
        ),
        "rehearse.clock.unsynced": _r(
            "hodiny nejsou seřízené podle hubu",
            "hodiny nie sú zosúladené s hubom",
            "clock not synced to the hub",
        ),
        "rehearse.gong.ok": _r(
            "výstup ({output}) sepnul {late} ms po určeném okamžiku",
            "výstup ({output}) zopol {late} ms po určenom okamihu",
            "output ({output}) switched {late} ms after the instant",
        ),
        "rehearse.output.bell": _r("zvonek", "zvonček", "bell"),
        "rehearse.output.sound": _r("reproduktor", "reproduktor", "speaker"),
        "rehearse.gong.none": _r(
            "stanice nemá čím zvonit", "stanica nemá čím zvoniť", "nothing to ring on"
        ),
        "rehearse.gong.error": _r(
            "zvonění selhalo: {error}", "zvonenie zlyhalo: {error}", "ringing failed: {error}"
        ),
        "rehearse.keyboard.ok": _r(
            "všechna písmena ěščřžýáíéúůďťň došla",
            "všetky písmená ěščřžýáíéúůďťň prišli",
            "every letter of ěščřžýáíéúůďťň arrived",
        ),
        "rehearse.keyboard.missing": _r(
            "nedošla písmena: {letters}",
            "neprišli písmená: {letters}",
            "letters that did not arrive: {letters}",
        ),
        "rehearse.keyboard.none": _r(
            "zkušební řádek nikdo nenapsal",
            "skúšobný riadok nikto nenapísal",
            "nobody typed the test line",
        ),
        "rehearse.keyboard.error": _r(
            "zkouška klávesnice selhala: {error}",
            "skúška klávesnice zlyhala: {error}",
            "keyboard test failed: {error}",
        ),
        "rehearse.bell.ok": _r("zvonek na {bell}", "zvonček na {bell}", "bell on {bell}"),
        "rehearse.bell.simulated": _r(
            "zvonek na {bell} jen simulovaný (bez GPIO)",
            "zvonček na {bell} len simulovaný (bez GPIO)",
            "bell on {bell} simulated only (no GPIO)",
        ),
        "rehearse.bell.sound_only": _r(
            "bez zvonku, zvoní jen reproduktor počítače",
            "bez zvončeka, zvoní len reproduktor počítača",
            "no bell, only the computer's speaker rings",
        ),
        "rehearse.bell.none": _r(
            "žádný zvonek ani zvuk", "žiadny zvonček ani zvuk", "no bell and no sound"
        ),
        "rehearse.lamp.ok": _r(
            "kontrolka na {lamp}", "kontrolka na {lamp}", "lamp on {lamp}"
        ),
        "rehearse.lamp.none": _r(
            "kontrolka není zapojena", "kontrolka nie je zapojená", "no lamp fitted"
        ),
        "rehearse.button.pressed": _r(
            "stisk tlačítka došel", "stlačenie tlačidla prišlo", "the press arrived"
        ),
        "rehearse.button.not_pressed": _r(
            "tlačítko nebylo stisknuto (nebo nefunguje)",
            "tlačidlo nebolo stlačené (alebo nefunguje)",
            "the button was not pressed (or does not work)",
        ),
        "rehearse.button.not_asked": _r(
            "tlačítko rozhodčího nezkoušeno (--no-button)",
            "tlačidlo rozhodcu neskúšané (--no-button)",
            "referee button not tested (--no-button)",
        ),
        "rehearse.button.none": _r(
            "tlačítko rozhodčího není zapojeno",
            "tlačidlo rozhodcu nie je zapojené",
            "no referee button fitted",
        ),
        "rehearse.pin.ok": _r("nastaven", "nastavený", "set"),
        "rehearse.pin.none": _r(
            "PIN rozhodčího není nastaven (station pin set)",
            "PIN rozhodcu nie je nastavený (station pin set)",
            "referee PIN not set (station pin set)",
        ),
        "rehearse.tables": _r("stoly {tables}", "stoly {tables}", "tables {tables}"),
        "rehearse.disk.ok": _r(
            "volno {free} MB", "voľných {free} MB", "{free} MB free"
        ),
        "rehearse.disk.low": _r(
            "volno jen {free} MB, potřeba {need} MB",
            "voľných len {free} MB, treba {need} MB",
            "only {free} MB free, {need} MB needed",
        ),
        "rehearse.disk.unknown": _r(
            "volné místo nezjištěno", "voľné miesto nezistené", "free space unknown"
        ),
        "rehearse.root.ro": _r(
            "systém je jen pro čtení", "systém je len na čítanie", "root is read-only"
        ),
        "rehearse.root.rw": _r(
            "systém je zapisovatelný (vytažení zástrčky může poškodit kartu)",
            "systém je zapisovateľný (vytiahnutie zástrčky môže poškodiť kartu)",
            "root is writable (a pulled plug may damage the card)",
        ),
        "rehearse.root.unknown": _r(
            "stav systému nezjištěn", "stav systému nezistený", "root state unknown"
        ),
        "rehearse.watchdog.ok": _r("aktivní", "aktívny", "armed"),
        "rehearse.watchdog.off": _r(
            "watchdog je, ale není aktivní",
            "watchdog je, ale nie je aktívny",
            "a watchdog exists but is not armed",
        ),
        "rehearse.watchdog.none": _r(
            "bez hardwarového watchdogu",
            "bez hardvérového watchdogu",
            "no hardware watchdog",
        ),
        "rehearse.station.no_request": _r(
            "Hub o zkoušku nepožádal (spusťte na hubu: hub rehearse).",
            "Hub o skúšku nepožiadal (spustite na hube: hub rehearse).",
            "The hub has not asked for a rehearsal (run hub rehearse on the hub).",
        ),
        "rehearse.station.type_prompt": _r(
            "Zkouška klávesnice: napište {letters} a stiskněte Enter",
            "Skúška klávesnice: napíšte {letters} a stlačte Enter",
            "Keyboard test: type {letters} and press Enter",
        ),
        "rehearse.station.typed": _r(
            "Děkujeme, odesláno hubu.", "Ďakujeme, odoslané hubu.", "Thank you, sent to the hub."
        ),
        "rehearse.kiosk.title": _r(
            "Zkouška sálu: klávesnice", "Skúška sály: klávesnica", "Hall rehearsal: keyboard"
        ),
        "rehearse.kiosk.hint": _r(
            "Napište přesně tato písmena a stiskněte Enter:",
            "Napíšte presne tieto písmená a stlačte Enter:",
            "Type exactly these letters and press Enter:",
        ),
        "rehearse.kiosk.button": _r(
            "Potom stiskněte tlačítko rozhodčího.",
            "Potom stlačte tlačidlo rozhodcu.",
            "Then press the referee button.",
        ),
        "rehearse.dash.key": _r("Zkouška sálu", "Skúška sály", "Rehearse hall"),
        "rehearse.dash.running": _r(
            "Zkouška sálu běží: napište na každé stanici zkušební řádek…",
            "Skúška sály beží: napíšte na každej stanici skúšobný riadok…",
            "Hall rehearsal running: type the test line at every station…",
        ),
        "rehearse.dash.done": _r(
            "{verdict} — protokol: {path}",
            "{verdict} — protokol: {path}",
            "{verdict} — record: {path}",
        ),
    }
)


# tsh .t files, live rounds and pairing refusals (hub.tournament.tsh, hub pair) — issue 13.
MESSAGES.update(
    {
        "tsh.line_too_long": {
            "cs": "řádek {line}: delší než {limit} bajtů — toto není soubor tsh",
            "sk": "riadok {line}: dlhší ako {limit} bajtov — toto nie je súbor tsh",
            "en": "line {line}: longer than {limit} bytes — this is not a tsh file",
        },
        "tsh.too_many_lines": {
            "cs": "soubor má přes {limit} řádků — toto není soubor tsh",
            "sk": "súbor má viac ako {limit} riadkov — toto nie je súbor tsh",
            "en": "the file has more than {limit} lines — this is not a tsh file",
        },
        "tsh.mixed_encoding": {
            "cs": "soubor míchá kódování: řádek {utf8} je v UTF-8, řádek {latin} ne "
            "(ISO-8859-1?); uložte celý soubor v jednom kódování",
            "sk": "súbor mieša kódovania: riadok {utf8} je v UTF-8, riadok {latin} nie "
            "(ISO-8859-1?); uložte celý súbor v jednom kódovaní",
            "en": "the file mixes encodings: line {utf8} is UTF-8, line {latin} is not "
            "(ISO-8859-1?); save the whole file in one encoding",
        },
        "tsh.bad_head": {
            "cs": "řádek {line}: čekám „JMÉNO RATING soupeři…; skóre…“, je tam „{text}“",
            "sk": "riadok {line}: čakám „MENO RATING súperi…; skóre…“, je tam „{text}“",
            "en": "line {line}: expected 'NAME RATING opponents…; scores…', got '{text}'",
        },
        "tsh.bad_score": {
            "cs": "řádek {line} ({name}): skóre „{value}“ není číslo",
            "sk": "riadok {line} ({name}): skóre „{value}“ nie je číslo",
            "en": "line {line} ({name}): score '{value}' is not a number",
        },
        "tsh.bad_key_number": {
            "cs": "řádek {line} ({name}): {key} obsahuje „{value}“, což není číslo",
            "sk": "riadok {line} ({name}): {key} obsahuje „{value}“, čo nie je číslo",
            "en": "line {line} ({name}): {key} has '{value}', which is not a number",
        },
        "tsh.bad_opponent": {
            "cs": "řádek {line} ({name}): soupeř {round}. kola má číslo {opp}, "
            "takový hráč v souboru není",
            "sk": "riadok {line} ({name}): súper {round}. kola má číslo {opp}, "
            "taký hráč v súbore nie je",
            "en": "line {line} ({name}): round {round} opponent {opp} is not a player number",
        },
        "tsh.self_paired": {
            "cs": "řádek {line} ({name}): v {round}. kole rozlosován sám proti sobě",
            "sk": "riadok {line} ({name}): v {round}. kole vyžrebovaný sám proti sebe",
            "en": "line {line} ({name}): round {round} paired with himself",
        },
        "tsh.not_mutual": {
            "cs": "řádek {line} ({name}): v {round}. kole hraje s {opp}, ale {opp} "
            "ho jako soupeře neuvádí",
            "sk": "riadok {line} ({name}): v {round}. kole hrá s {opp}, ale {opp} "
            "ho ako súpera neuvádza",
            "en": "line {line} ({name}): round {round} opponent {opp} does not list him back",
        },
        "tsh.unencodable": {
            "cs": "řádek {line}: znak „{char}“ nelze zapsat v kódování {encoding}",
            "sk": "riadok {line}: znak „{char}“ nemožno zapísať v kódovaní {encoding}",
            "en": "line {line}: '{char}' cannot be written in {encoding}",
        },
        "tsh.ambiguous_name": {
            "cs": "jméno „{name}“ končí číslem: tsh by ho přečetl jako rating; "
            "přidejte k číslu písmeno nebo ho přesuňte",
            "sk": "meno „{name}“ končí číslom: tsh by ho prečítal ako rating; "
            "pridajte k číslu písmeno alebo ho presuňte",
            "en": "the name '{name}' ends in a number: tsh would read it as the rating; "
            "add a letter to the number or move it",
        },
        "tsh.warn_c1": {
            "cs": "řádek {line}: znaky, které v ISO-8859-1 nejsou text — není soubor "
            "ve Windows-1250/1252? Jména mohou být zkomolená",
            "sk": "riadok {line}: znaky, ktoré v ISO-8859-1 nie sú text — nie je súbor "
            "vo Windows-1250/1252? Mená môžu byť skomolené",
            "en": "line {line}: characters that are not text in ISO-8859-1 — is the file "
            "Windows-1250/1252? Names may be garbled",
        },
        "tsh.warn_extra_scores": {
            "cs": "řádek {line} ({name}): {scores} skóre, ale jen {pairings} soupeřů "
            "v rozlosování; skóre navíc se nepočítají",
            "sk": "riadok {line} ({name}): {scores} skóre, ale len {pairings} súperov v žrebovaní; "
            "skóre navyše sa nepočítajú",
            "en": "line {line} ({name}): {scores} scores but only {pairings} pairings; "
            "the extra scores are ignored",
        },
        "tsh.warn_duplicate_key": {
            "cs": "řádek {line} ({name}): klíč {key} je uveden víckrát; platí poslední",
            "sk": "riadok {line} ({name}): kľúč {key} je uvedený viackrát; platí posledný",
            "en": "line {line} ({name}): key {key} appears more than once; the last one counts",
        },
        "tsh.warn_p12": {
            "cs": "řádek {line} ({name}): p12 má jiné hodnoty než 0–3; kdo začínal, je tam neznámé",
            "sk": "riadok {line} ({name}): p12 má iné hodnoty ako 0–3; kto začínal, je tam neznáme",
            "en": "line {line} ({name}): p12 has values other than 0–3; who started is "
            "unknown there",
        },
        "tsh.warn_half_scored": {
            "cs": "řádek {line} ({name}): {round}. kolo proti {opp} má skóre jen u jednoho "
            "z nich; hra se bere jako nedohraná",
            "sk": "riadok {line} ({name}): {round}. kolo proti {opp} má skóre len pri jednom "
            "z nich; hra sa berie ako nedohraná",
            "en": "line {line} ({name}): round {round} against {opp} has a score on one side "
            "only; the game is taken as pending",
        },
        "tsh.no_players": {
            "cs": "{file}: v souboru nejsou žádní hráči",
            "sk": "{file}: v súbore nie sú žiadni hráči",
            "en": "{file}: the file has no players",
        },
        "tsh.warning": {
            "cs": "varování: {text}",
            "sk": "varovanie: {text}",
            "en": "warning: {text}",
        },
        "tsh.pending": {
            "cs": "{round}. kolo je rozlosované, ale výsledky chybí (stolů bez výsledku: {games}) "
            "— do pořadí se nepočítá",
            "sk": "{round}. kolo je vyžrebované, ale výsledky chýbajú (stolov bez výsledku: "
            "{games}) — do poradia sa nepočíta",
            "en": "round {round} is paired but has no results (tables without a result: "
            "{games}) — not in the standings",
        },
        "tsh.pair_too_far": {
            "cs": "{round}. kolo nelze rozlosovat: výsledky jsou jen do {scored}. kola; "
            "další k rozlosování je {next}. kolo",
            "sk": "{round}. kolo nemožno vyžrebovať: výsledky sú len do {scored}. kola; "
            "ďalšie na žrebovanie je {next}. kolo",
            "en": "round {round} cannot be paired: results go up to round {scored} only; "
            "the next round to pair is {next}",
        },
        "tour.no_players": {
            "cs": "turnaj nemá žádné hráče",
            "sk": "turnaj nemá žiadnych hráčov",
            "en": "the tournament has no players",
        },
        "pair.rematch_forbidden": {
            "cs": "{round}. kolo nelze rozlosovat bez opakovaného zápasu ({rules} opakování "
            "zakazují); rozhodčí je může povolit volbou --allow-rematch",
            "sk": "{round}. kolo nemožno vyžrebovať bez opakovaného zápasu ({rules} opakovanie "
            "zakazujú); rozhodca ho môže povoliť voľbou --allow-rematch",
            "en": "round {round} cannot be paired without a rematch ({rules} forbids "
            "rematches); the director may allow them with --allow-rematch",
        },
    }
)


# -- why this pair (hub/tournament/pairing.py): stored with the pairing as keys and values,
# shown on the dashboard (F5, e) and by --explain in the reader's language.
MESSAGES.update(
    {
        "pair.who": _r(
            "{name} ({rank}. místo, {score})",
            "{name} ({rank}. miesto, {score})",
            "{name} (#{rank}, {score})",
        ),
        "pair.why.same_group": _r(
            "{a} – {b}: stejná výsledková skupina ({score})",
            "{a} – {b}: rovnaká výsledková skupina ({score})",
            "{a} – {b}: same score group ({score})",
        ),
        "pair.why.floated": _r(
            "{a} – {b}: výsledkové skupiny {score_a} a {score_b} (přesun do jiné skupiny)",
            "{a} – {b}: výsledkové skupiny {score_a} a {score_b} (presun do inej skupiny)",
            "{a} – {b}: score groups {score_a} and {score_b} (floated)",
        ),
        "pair.why.avoided": _r(
            "opakovanému zápasu se předešlo: {name} – dřívější soupeři {met}",
            "opakovanému zápasu sa predišlo: {name} – predchádzajúci súperi {met}",
            "rematch avoided: {name} already met {met}",
        ),
        "pair.why.rematch": _r(
            "OPAKOVANÝ ZÁPAS (nelze se mu vyhnout)",
            "OPAKOVANÝ ZÁPAS (nedá sa mu vyhnúť)",
            "REMATCH (unavoidable)",
        ),
        "pair.why.starts_of": {
            "cs": {
                "one": "{started} z {games} známé partie",
                "other": "{started} z {games} známých partií",
            },
            "sk": {
                "one": "{started} z {games} známej partie",
                "other": "{started} z {games} známych partií",
            },
            "en": {
                "one": "{started} of {games} known game",
                "other": "{started} of {games} known games",
            },
        },
        "pair.why.zh_balance": _r(
            "začíná {first} (ZH): začínal(a) {first_starts}, {second} {second_starts}",
            "začína {first} (ZH): začínal(a) {first_starts}, {second} {second_starts}",
            "{first} starts: started {first_starts}, {second} started {second_starts}",
        ),
        "pair.why.zh_last": _r(
            "začíná {first} (ZH): začínali stejně často, {second} začínal(a) v minulém kole",
            "začína {first} (ZH): začínali rovnako často, {second} začínal(a) v minulom kole",
            "{first} starts: equal start balance, {second} started last round",
        ),
        "pair.why.zh_lot": _r(
            "začíná {first} (ZH): začínali stejně často, rozhodl los",
            "začína {first} (ZH): začínali rovnako často, rozhodol žreb",
            "{first} starts: equal start balance, drawn by lot",
        ),
        "pair.why.zh_lot_only": _r("ZH určil los", "ZH určil žreb", "who starts drawn by lot"),
        "pair.why.lot": _r(
            "losem (klíč losování {seed})",
            "žrebom (kľúč žrebovania {seed})",
            "drawn by lot (seed {seed})",
        ),
        "pair.why.rating": _r(
            "podle ratingu (1. kolo podle PFS)",
            "podľa ratingu (1. kolo podľa PFS)",
            "by rating (PFS round 1)",
        ),
        "pair.why.bye_odd": _r(
            "volný los (lichý počet hráčů)",
            "voľný žreb (nepárny počet hráčov)",
            "bye (odd number of players)",
        ),
        "pair.why.bye_lowest": {
            "cs": "volný los: {who} – nejníže postavený hráč, dosavadní volné losy: {byes}",
            "sk": "voľný žreb: {who} – najnižšie postavený hráč, doterajšie voľné žreby: {byes}",
            "en": {
                "one": "bye: {who} — lowest-ranked player with {byes} bye",
                "other": "bye: {who} — lowest-ranked player with {byes} byes",
            },
        },
        "pair.why.bye_skipped": {
            "cs": "volný los: {who}, dosavadní volné losy: {byes} – přeskočeni (jejich volný "
            "los by ostatním vynutil opakovaný zápas, větší rozdíl výsledků nebo horší "
            "střídání ZH): {skipped}",
            "sk": "voľný žreb: {who}, doterajšie voľné žreby: {byes} – preskočení (ich voľný "
            "žreb by ostatným vynútil opakovaný zápas, väčší rozdiel výsledkov alebo horšie "
            "striedanie ZH): {skipped}",
            "en": {
                "one": "bye: {who}, {byes} bye — skipped (their bye would force a rematch, a "
                "bigger score gap or a ZH clash for the rest): {skipped}",
                "other": "bye: {who}, {byes} byes — skipped (their bye would force a rematch, "
                "a bigger score gap or a ZH clash for the rest): {skipped}",
            },
        },
        "pair.why.bye_fewer": _r(
            "každý s menším počtem volných losů by vynutil opakovaný zápas nebo mnohem "
            "horší rozlosování",
            "každý s menším počtom voľných žrebov by vynútil opakovaný zápas alebo oveľa "
            "horšie žrebovanie",
            "everybody with fewer byes would force a rematch or a much worse pairing",
        ),
        "pair.why.bye_fewest": _r(
            "volný los: {who} – nejníže postavený z hráčů s nejmenším počtem volných losů",
            "voľný žreb: {who} – najnižšie postavený z hráčov s najmenším počtom voľných "
            "žrebov",
            "bye: {who} — lowest-ranked player with the fewest byes",
        ),
        "pair.why.bye_sits_out": _r(
            "volný los: v tomto kole nehraje",
            "voľný žreb: v tomto kole nehrá",
            "bye: sits out this round",
        ),
        "pair.why.koth": _r(
            "{a} – {b}: král hory (podle pořadí 1.–2., 3.–4. …)",
            "{a} – {b}: kráľ hory (podľa poradia 1.–2., 3.–4. …)",
            "{a} – {b}: King of the Hill",
        ),
        "pair.why.roundrobin": _r("každý s každým", "každý s každým", "round robin"),
        "pair.note.lot": _r(
            "{round}. kolo: losem, klíč losování {seed}",
            "{round}. kolo: žrebom, kľúč žrebovania {seed}",
            "round {round} drawn by lot with seed {seed}",
        ),
        "pair.note.rating": _r(
            "{round}. kolo podle ratingu: s ratingem {rated}, bez ratingu {unrated}, "
            "klíč losování {seed}",
            "{round}. kolo podľa ratingu: s ratingom {rated}, bez ratingu {unrated}, "
            "kľúč žrebovania {seed}",
            "round {round} by rating: {rated} rated, {unrated} unrated, seed {seed}",
        ),
        "pair.note.swiss": _r(
            "{round}. kolo: švýcarský systém podle pořadí {rules} po {previous}. kole, "
            "hráčů: {players}, klíč losování {seed}",
            "{round}. kolo: švajčiarsky systém podľa poradia {rules} po {previous}. kole, "
            "hráčov: {players}, kľúč žrebovania {seed}",
            "round {round}: Swiss by {rules} standings after round {previous}, "
            "{players} players, seed {seed}",
        ),
        "pair.note.rematches": {
            "cs": "rozlosování bez opakovaného zápasu neexistuje: opakované zápasy: "
            "{rematches}, nejméně možných, pak nejmenší rozdíly výsledků ({who})",
            "sk": "žrebovanie bez opakovaného zápasu neexistuje: opakované zápasy: "
            "{rematches}, najmenej možných, potom najmenšie rozdiely výsledkov ({who})",
            "en": {
                "one": "no pairing without a rematch exists: {rematches} rematch, the fewest "
                "possible, then the smallest score gaps ({who})",
                "other": "no pairing without a rematch exists: {rematches} rematches, the "
                "fewest possible, then the smallest score gaps ({who})",
            },
        },
        "pair.note.allowed_director": _r(
            "povolil je rozhodčí", "povolil ich rozhodca", "the director allowed them"
        ),
        "pair.note.allowed_rules": _r(
            "pravidla {rules} je povolují",
            "pravidlá {rules} ich povoľujú",
            "{rules} allows them",
        ),
        "pair.note.graph_k": _r(
            "graf kandidátů: pro každého {k} nejbližších dosud nepotkaných hráčů nad ním "
            "i pod ním",
            "graf kandidátov: pre každého {k} najbližších doteraz nestretnutých hráčov nad "
            "ním aj pod ním",
            "candidate graph: {k} nearest unmet players each way",
        ),
        "pair.note.graph_all": _r(
            "graf kandidátů: všechny dvojice",
            "graf kandidátov: všetky dvojice",
            "candidate graph: every pair",
        ),
        "pair.note.koth": _r(
            "{round}. kolo: král hory podle pořadí {rules}, opakované zápasy povoleny",
            "{round}. kolo: kráľ hory podľa poradia {rules}, opakované zápasy povolené",
            "round {round}: King of the Hill by {rules} standings, rematches allowed",
        ),
        "pair.note.roundrobin": _r(
            "{round}. kolo: každý s každým, {cycle}. kolo cyklu z {rounds}",
            "{round}. kolo: každý s každým, {cycle}. kolo cyklu z {rounds}",
            "round {round}: round robin, cycle round {cycle} of {rounds}",
        ),
        "pair.note.left_out": _r(
            "nerozlosováni (nepřítomní nebo bez prezence): {names}",
            "nežrebovaní (neprítomní alebo bez prezentácie): {names}",
            "not paired (absent or not checked in): {names}",
        ),
        "pair.explain.table": _r(
            "stůl {table}: {why}", "stôl {table}: {why}", "table {table}: {why}"
        ),
        "pair.err.round_from_1": _r(
            "kola se číslují od 1", "kolá sa číslujú od 1", "rounds are numbered from 1"
        ),
        "pair.err.unknown_players": _r(
            "neznámí hráči: {ids}", "neznámi hráči: {ids}", "unknown players: {ids}"
        ),
        "pair.err.nobody": _r(
            "není koho rozlosovat", "nie je koho žrebovať", "nobody to pair"
        ),
        "pair.err.method": _r(
            "neznámý způsob rozlosování „{method}“",
            "neznámy spôsob žrebovania „{method}“",
            "unknown pairing method '{method}'",
        ),
    }
)
# -- refusals of the hub (hub/service.py, hub/control.py, hub/tournament/facade.py): raised
# as Phrases, shown by the dashboard and the `hub` commands in their language.
MESSAGES.update(
    {
        "err.hub_not_running": _r(
            "server hubu neběží (hub serve; žádný řídicí soket v {path})",
            "server hubu nebeží (hub serve; žiadny riadiaci soket v {path})",
            "the hub is not running (no control socket at {path})",
        ),
        "err.hub_closed": _r(
            "server hubu ukončil řídicí spojení",
            "server hubu ukončil riadiace spojenie",
            "the hub closed the control connection",
        ),
        "err.no_answer": _r(
            "server hubu neodpovídá: {error}",
            "server hubu neodpovedá: {error}",
            "the hub server does not answer: {error}",
        ),
        "err.schedule.unknown": _r(
            "neznámá nastavení rozpisu: {names}",
            "neznáme nastavenia rozpisu: {names}",
            "unknown schedule settings: {names}",
        ),
        "err.schedule.warning": _r(
            "varování musí přijít po začátku a před koncem kola",
            "upozornenie musí prísť po začiatku a pred koncom kola",
            "the warning must come after the start and before the end",
        ),
        "err.schedule.bad": _r(
            "chybný rozpis: {error}", "chybný rozpis: {error}", "bad schedule: {error}"
        ),
        "err.no_table": _r(
            "{round}. kolo nemá stůl {table}",
            "{round}. kolo nemá stôl {table}",
            "round {round} has no table {table}",
        ),
        "err.intake.bye": _r(
            "{round}. kolo, stůl {table}: volný los",
            "{round}. kolo, stôl {table}: voľný žreb",
            "round {round} table {table} is a bye",
        ),
        "err.intake.players": _r(
            "{round}. kolo, stůl {table}: hrají {first} – {second}, stanice poslala "
            "{sent_first} – {sent_second}",
            "{round}. kolo, stôl {table}: hrajú {first} – {second}, stanica poslala "
            "{sent_first} – {sent_second}",
            "round {round} table {table} is {first} – {second}, the station sent "
            "{sent_first} – {sent_second}",
        ),
        "err.intake.internal": _r(
            "vnitřní chyba: {error}", "vnútorná chyba: {error}", "internal error: {error}"
        ),
        "err.round.first": _r(
            "kola se číslují od 1", "kolá sa číslujú od 1", "round numbers start at 1"
        ),
        "err.round.start_played": _r(
            "{round}. kolo {reasons}; znovu ho lze spustit jen s potvrzením rozhodčího "
            "(hub round start --force)",
            "{round}. kolo {reasons}; znova ho možno spustiť len s potvrdením rozhodcu "
            "(hub round start --force)",
            "round {round} {reasons}; starting it again needs the referee's confirmation "
            "(hub round start --force)",
        ),
        "err.round.cancel_played": _r(
            "{round}. kolo {reasons}: odehrané kolo nelze zrušit",
            "{round}. kolo {reasons}: odohrané kolo nemožno zrušiť",
            "round {round} {reasons}: a played round cannot be cancelled",
        ),
        "round.played.under_way": _r("už běží", "už prebieha", "is under way"),
        "round.played.ended": _r("už skončilo", "už skončilo", "has ended"),
        "round.played.results": {
            "cs": {
                "one": "má zapsaný {count} výsledek",
                "few": "má zapsané {count} výsledky",
                "other": "má zapsaných {count} výsledků",
            },
            "sk": {
                "one": "má zapísaný {count} výsledok",
                "few": "má zapísané {count} výsledky",
                "other": "má zapísaných {count} výsledkov",
            },
            "en": {
                "one": "has {count} result entered",
                "other": "has {count} results entered",
            },
        },
        "err.appeal_verdict": _r(
            "odvolání rozhoduje jen PLATNÉ nebo NEPLATNÉ (valid / invalid)",
            "odvolanie rozhoduje len PLATNÉ alebo NEPLATNÉ (valid / invalid)",
            "an appeal decides valid or invalid",
        ),
        "err.no_check": _r("kontrola {key} neexistuje", "kontrola {key} neexistuje",
                           "no check {key}"),
        "err.export": _r(
            "„{what}“ nelze exportovat", "„{what}“ nie je možné exportovať",
            "cannot export '{what}'",
        ),
        "err.tour.negative": _r(
            "počet kol a minuty na protest nemohou být záporné",
            "počet kôl a minúty na protest nemôžu byť záporné",
            "rounds and protest minutes cannot be negative",
        ),
        "err.tour.no_player": _r(
            "hráč č. {id} neexistuje", "hráč č. {id} neexistuje", "no player #{id}"
        ),
        "err.tour.no_name": _r(
            "hráč musí mít jméno", "hráč musí mať meno", "a player needs a name"
        ),
        "err.tour.not_paired": _r(
            "{round}. kolo není rozlosováno",
            "{round}. kolo nie je vyžrebované",
            "round {round} is not paired",
        ),
        "err.tour.next_round": _r(
            "rozlosovat lze jen další kolo, tj. {next}.",
            "žrebovať sa dá len ďalšie kolo, t. j. {next}.",
            "the next round to pair is {next}",
        ),
        "err.tour.has_results": _r(
            "{round}. kolo už má výsledky; znovu se nerozlosuje",
            "{round}. kolo už má výsledky; znova sa nežrebuje",
            "round {round} already has results; not re-paired",
        ),
        "err.tour.incomplete": _r(
            "{round}. kolo není úplné (stoly {tables}); jinak jen s volbou --force",
            "{round}. kolo nie je úplné (stoly {tables}); inak len s voľbou --force",
            "round {round} is not complete (tables {tables}); use force",
        ),
        "err.tour.source": _r(
            "zdroj musí být jeden z: {sources}",
            "zdroj musí byť jeden z: {sources}",
            "source must be one of {sources}",
        ),
        "err.tour.correct_operator": _r(
            "výsledek může opravit jen operátor",
            "výsledok môže opraviť len operátor",
            "only the operator can correct a result",
        ),
        "err.tour.kind": _r(
            "neznámý druh výsledku „{kind}“",
            "neznámy druh výsledku „{kind}“",
            "unknown result kind '{kind}'",
        ),
        "err.tour.bye_entry": _r(
            "volné losy a nepřítomnost určuje rozlosování, ne zápis výsledku",
            "voľné žreby a neprítomnosť určuje žrebovanie, nie zápis výsledku",
            "byes and absences come from the pairing, not from entries",
        ),
        "err.tour.table_bye": _r(
            "{round}. kolo, stůl {table}: volný los",
            "{round}. kolo, stôl {table}: voľný žreb",
            "round {round} table {table} is a bye",
        ),
        "err.tour.wrong_players": _r(
            "{round}. kolo, stůl {table}: hrají {first} – {second}, ne {player} – {opponent}",
            "{round}. kolo, stôl {table}: hrajú {first} – {second}, nie {player} – {opponent}",
            "round {round} table {table} is {first} – {second}, not {player} – {opponent}",
        ),
        "err.tour.both_scores": _r(
            "odehraná partie potřebuje obě skóre",
            "odohraná partia potrebuje obe skóre",
            "a played game needs both scores",
        ),
        "err.tour.score_range": _r(
            "skóre {score} není v rozmezí 0..{max}",
            "skóre {score} nie je v rozmedzí 0..{max}",
            "score {score} is outside 0..{max}",
        ),
        "err.tour.forfeit_whom": _r(
            "u kontumace musí být uvedeno, v čí neprospěch je",
            "pri kontumácii musí byť uvedené, v koho neprospech je",
            "a forfeit names the player it is forfeited against",
        ),
        "err.tour.starter": _r(
            "začínat mohl jen jeden z těch dvou hráčů",
            "začínať mohol len jeden z tých dvoch hráčov",
            "the starting player must be one of the two",
        ),
        "err.tour.final": _r(
            "{round}. kolo, stůl {table}: výsledek je konečný; změní ho jen oprava",
            "{round}. kolo, stôl {table}: výsledok je konečný; zmení ho len oprava",
            "round {round} table {table} is final; only a correction changes it",
        ),
        "err.tour.operator_result": _r(
            "{round}. kolo, stůl {table}: výsledek už zapsal operátor; změňte ho opravou",
            "{round}. kolo, stôl {table}: výsledok už zapísal operátor; zmeňte ho opravou",
            "round {round} table {table} already has a result from the operator; "
            "correct it explicitly",
        ),
        "err.tour.unagreed": {
            "cs": {
                "one": "{round}. kolo: {tables} stůl bez shodného výsledku",
                "few": "{round}. kolo: {tables} stoly bez shodného výsledku",
                "other": "{round}. kolo: {tables} stolů bez shodného výsledku",
            },
            "sk": {
                "one": "{round}. kolo: {tables} stôl bez zhodného výsledku",
                "few": "{round}. kolo: {tables} stoly bez zhodného výsledku",
                "other": "{round}. kolo: {tables} stolov bez zhodného výsledku",
            },
            "en": {
                "one": "round {round}: {tables} table without an agreed result",
                "other": "round {round}: {tables} tables without an agreed result",
            },
        },
        "err.tour.protest_closed": _r(
            "{round}. kolo: lhůta pro protesty skončila",
            "{round}. kolo: lehota na protesty skončila",
            "round {round}: the protest window has closed",
        ),
        "err.tour.no_protest": _r(
            "{round}. kolo, stůl {table}: žádný otevřený protest",
            "{round}. kolo, stôl {table}: žiadny otvorený protest",
            "round {round} table {table} has no open protest",
        ),
        "err.tour.unpublished": _r(
            "výsledky {round}. kola nejsou schválené",
            "výsledky {round}. kola nie sú schválené",
            "round {round} results are not published",
        ),
        "err.tour.protest_open": _r(
            "{round}. kolo: lhůta pro protesty běží ještě {minutes} min",
            "{round}. kolo: lehota na protesty beží ešte {minutes} min",
            "round {round}: protest window open for {minutes} more min",
        ),
        "err.tour.import_nonempty": _r(
            "soubor tsh lze načíst jen do prázdného turnaje",
            "súbor tsh sa dá načítať len do prázdneho turnaja",
            "import a tsh file only into an empty tournament",
        ),
        "err.tour.rating": _r(
            "řádek {row} ({name}): rating „{rating}“ není číslo",
            "riadok {row} ({name}): rating „{rating}“ nie je číslo",
            "row {row} ({name}): rating '{rating}' is not a number",
        ),
    }
)
# -- the `hub` commands' own lines (hub/commands/): what the operator reads in a terminal,
# in the command line's language (SAMOOBSLUHA_LANG, else the locale, else Czech).
MESSAGES.update(
    {
        "cli.challenger": _r(
            "{key}: namítal hráč {who}", "{key}: namietal hráč {who}", "{key}: challenger {who}"
        ),
        "cli.challenger_unknown": _r(
            "{key}: kdo namítal, není známo",
            "{key}: kto namietal, nie je známe",
            "{key}: challenger unknown",
        ),
        "cli.appeal": _r(
            "{key}: odvolání – {verdict}", "{key}: odvolanie – {verdict}", "{key}: appeal {verdict}"
        ),
        "cli.penalty": _r(
            "{round}. kolo, stůl {table}, {name}: neoprávněné námitky: {unjustified}, "
            "pokuta {penalty}",
            "{round}. kolo, stôl {table}, {name}: neoprávnené námietky: {unjustified}, "
            "pokuta {penalty}",
            "round {round} table {table} {name}: {unjustified} unjustified, penalty {penalty}",
        ),
        "cli.request.acked": _r("potvrzeno", "potvrdené", "acknowledged"),
        "cli.request.waiting": _r("ČEKÁ", "ČAKÁ", "WAITING"),
        "cli.by": _r("namítal {name}", "namietal {name}", "by {name}"),
        "cli.penalised": _r("POKUTA 20", "POKUTA 20", "PENALTY 20"),
        "cli.round_table": _r(
            "kolo {round} stůl {table}", "kolo {round} stôl {table}", "R{round} T{table}"
        ),
        "cli.rejected.none": _r(
            "žádné odmítnuté záznamy", "žiadne odmietnuté záznamy", "no refused rows"
        ),
        "cli.pull.refused": _r(
            "{key}: odmítnuto ({error})", "{key}: odmietnuté ({error})", "{key}: refused ({error})"
        ),
        "cli.wrote": _r("zapsáno do {path}", "zapísané do {path}", "wrote {path}"),
        "cli.players.imported": {
            "cs": {
                "one": "načten {n} hráč",
                "few": "načteni {n} hráči",
                "other": "načteno {n} hráčů",
            },
            "sk": {
                "one": "načítaný {n} hráč",
                "few": "načítaní {n} hráči",
                "other": "načítaných {n} hráčov",
            },
            "en": {"one": "imported {n} player", "other": "imported {n} players"},
        },
        "cli.players.imported_tsh": {
            "cs": {
                "one": "načten {n} hráč i s výsledky",
                "few": "načteni {n} hráči i s výsledky",
                "other": "načteno {n} hráčů i s výsledky",
            },
            "sk": {
                "one": "načítaný {n} hráč aj s výsledkami",
                "few": "načítaní {n} hráči aj s výsledkami",
                "other": "načítaných {n} hráčov aj s výsledkami",
            },
            "en": {
                "one": "imported {n} player with the results",
                "other": "imported {n} players with their results",
            },
        },
        "cli.players.added": _r(
            "přidán hráč č. {id}: {name}", "pridaný hráč č. {id}: {name}", "added #{id} {name}"
        ),
        "cli.player.active": _r("hraje", "hrá", "active"),
        "cli.player.paused": _r("dočasně nehraje", "dočasne nehrá", "paused"),
        "cli.player.withdrawn": _r("odstoupil(a)", "odstúpil(a)", "withdrawn"),
        "cli.finalised": {
            "cs": {
                "one": "{round}. kolo: {n} výsledek je konečný",
                "few": "{round}. kolo: {n} výsledky jsou konečné",
                "other": "{round}. kolo: {n} výsledků je konečných",
            },
            "sk": {
                "one": "{round}. kolo: {n} výsledok je konečný",
                "few": "{round}. kolo: {n} výsledky sú konečné",
                "other": "{round}. kolo: {n} výsledkov je konečných",
            },
            "en": {
                "one": "round {round}: {n} result final",
                "other": "round {round}: {n} results final",
            },
        },
        "cli.time.now": _r("čas hubu teď:    {time}", "čas hubu teraz:  {time}",
                           "hub time now:   {time}"),
        "cli.time.not_restored": _r(
            "potvrzeno:       ano (v tomto startu nebyl obnoven z uloženého času)",
            "potvrdené:       áno (pri tomto štarte nebol obnovený z uloženého času)",
            "confirmed:      yes (not restored from a saved time in this boot)",
        ),
        "cli.time.restored": _r(
            "nastaven při startu: {time} ({source})",
            "nastavený pri štarte: {time} ({source})",
            "set at boot:    {time} (from the {source})",
        ),
        "cli.time.source.saved": _r(
            "podle času uloženého před vypnutím",
            "podľa času uloženého pred vypnutím",
            "saved time",
        ),
        "cli.time.source.rtc": _r(
            "podle hodin reálného času (RTC)",
            "podľa hodín reálneho času (RTC)",
            "RTC time",
        ),
        "cli.time.source.system": _r(
            "podle systémového času", "podľa systémového času", "system time"
        ),
        "cli.time.confirmed": _r(
            "potvrzeno:       ano, {time}, {who}",
            "potvrdené:       áno, {time}, {who}",
            "confirmed:      yes, {time} by {who}",
        ),
        "cli.time.unconfirmed": _r(
            "potvrzeno:       NE – {why}",
            "potvrdené:       NIE – {why}",
            "confirmed:      NO - {why}",
        ),
        "cli.time.no_need": _r(
            "čas hubu není v tomto startu třeba potvrzovat (teď {time})",
            "čas hubu netreba pri tomto štarte potvrdzovať (teraz {time})",
            "the hub's time needs no confirmation in this boot (now {time})",
        ),
        "cli.time.ask": _r(
            "Je teď {time} (podívejte se na hodinky)? [a/N] ",
            "Je teraz {time} (pozrite sa na hodinky)? [a/N] ",
            "Is it {time} now (check a watch)? [y/N] ",
        ),
        "cli.bell_off": _r("zvonek vypnut", "zvonček vypnutý", "bell off"),
        "cli.round.starts": _r(
            "{round}. kolo začne za {lead} s (zvoní ho kiosk, „station run“ nebo "
            "„station gong run“)",
            "{round}. kolo začne za {lead} s (zvoní ho kiosk, „station run“ alebo "
            "„station gong run“)",
            "round {round} starts in {lead} s (the kiosk, `station run`, or "
            "`station gong run` rings it)",
        ),
        "cli.round.changed": _r(
            "{round}. kolo (verze {revision}): {phase}, konec v {ends}",
            "{round}. kolo (verzia {revision}): {phase}, koniec o {ends}",
            "round {round} (revision {revision}): {phase}, ends at {ends}",
        ),
        "err.round.hub_runs": _r(
            "{round}. kolo řídí hub; změňte ho tam",
            "{round}. kolo riadi hub; zmeňte ho tam",
            "round {round} is run by the hub; change it there",
        ),
        "err.round.busy": _r(
            "{round}. kolo je naplánované nebo běží; nejdřív ho dokončete nebo zrušte",
            "{round}. kolo je naplánované alebo beží; najprv ho dokončite alebo zrušte",
            "round {round} is {phase}; finish it first",
        ),
        "err.round.planned": _r(
            "{round}. kolo už je naplánované",
            "{round}. kolo už je naplánované",
            "round {round} already has a plan",
        ),
        "err.round.warning": _r(
            "varování musí přijít před koncem základního času",
            "upozornenie musí prísť pred koncom základného času",
            "the warning must come before the end of the basic time",
        ),
        "err.round.none": _r(
            "žádné kolo neběží ani není naplánované",
            "žiadne kolo nebeží ani nie je naplánované",
            "no round on the clock",
        ),
        "err.round.not_planned": _r(
            "{round}. kolo není naplánované",
            "{round}. kolo nie je naplánované",
            "round {round} is not planned",
        ),
        "err.round.not_started": _r(
            "kolo ještě nezačalo; použijte „station round delay“",
            "kolo ešte nezačalo; použite „station round delay“",
            "the round has not started; use `station round delay` instead",
        ),
        "cli.stations.row": _r(
            "{station} {state} {ago}  záznamů {rows}  k odeslání {backlog}{flags}  "
            "hodiny {clock}, posun {offset}  v{version} slovník {lexicon}",
            "{station} {state} {ago}  záznamov {rows}  na odoslanie {backlog}{flags}  "
            "hodiny {clock}, posun {offset}  v{version} slovník {lexicon}",
            "{station} {state} seen {ago}  rows {rows}  backlog {backlog}{flags}  "
            "clock {clock} offset {offset}  v{version} lex {lexicon}",
        ),
        "cli.stations.stalled": _r("VÁZNE", "VIAZNE", "STALLED"),
        "cli.stations.revoked": _r("KLÍČ ZNEPLATNĚN", "KĽÚČ ZNEPLATNENÝ", "REVOKED"),
        "cli.stations.synced": _r("seřízené", "zosynchronizované", "synced"),
        "cli.stations.unsynced": _r("NESEŘÍZENÉ", "NEZOSYNCHRONIZOVANÉ", "NOT SYNCED"),
        "cli.stations.refused": _r(
            "ODMÍTNUTO {n} („hub rejected“)",
            "ODMIETNUTÉ {n} („hub rejected“)",
            "REFUSED {n} (hub rejected)",
        ),
        "cli.key.written": _r(
            "klíč stanice {station} zapsán do {path} (na té stanici psk_file)",
            "kľúč stanice {station} zapísaný do {path} (na tej stanici psk_file)",
            "wrote the key of station {station} to {path} (psk_file on that station)",
        ),
        "cli.time.declined": _r(
            "nepotvrzeno; nejdřív nastavte hodiny: sudo date -s 'RRRR-MM-DD HH:MM:SS'",
            "nepotvrdené; najprv nastavte hodiny: sudo date -s 'RRRR-MM-DD HH:MM:SS'",
            "not confirmed; set the clock first: sudo date -s 'YYYY-MM-DD HH:MM:SS'",
        ),
    }
)
PLURAL_COUNTS.update(
    {
        "pair.why.starts_of": "games",
        "pair.why.bye_lowest": "byes",
        "pair.why.bye_skipped": "byes",
        "pair.note.rematches": "rematches",
        "err.tour.unagreed": "tables",
        "cli.players.imported": "n",
        "cli.players.imported_tsh": "n",
        "cli.finalised": "n",
    }
)


# --- hall screen (hub.web): the web page on the hall LAN, and its address on the
# dashboard (F1) and on the printed pairings. The page also uses kiosk.round.*,
# kiosk.where.* and tour.* above, so it speaks the kiosk's and the print's terms.
MESSAGES.update(
    {
        "screen.live": {"cs": "živě", "sk": "naživo", "en": "live"},
        "screen.offline": {
            "cs": "bez spojení s hubem, zkouším znovu",
            "sk": "bez spojenia s hubom, skúšam znova",
            "en": "no link to the hub, retrying",
        },
        "screen.find": {
            "cs": "Kde hraji? Napište část svého jména:",
            "sk": "Kde hrám? Napíšte časť svojho mena:",
            "en": "Where do I play? Type part of your name:",
        },
        "screen.me.games": {
            "cs": "Dosavadní výsledky:",
            "sk": "Doterajšie výsledky:",
            "en": "Results so far:",
        },
        "screen.results.title": {
            "cs": "Výsledky {round}. kola",
            "sk": "Výsledky {round}. kola",
            "en": "Results of round {round}",
        },
        "screen.results.none": {
            "cs": "Zatím žádné schválené výsledky.",
            "sk": "Zatiaľ žiadne schválené výsledky.",
            "en": "No approved results yet.",
        },
        "screen.standings.none": {
            "cs": "Pořadí bude k dispozici po prvním kole.",
            "sk": "Poradie bude k dispozícii po prvom kole.",
            "en": "The standings appear after the first round.",
        },
        "screen.page": {
            "cs": "strana {page} z {pages}",
            "sk": "strana {page} z {pages}",
            "en": "page {page} of {pages}",
        },
        "screen.address": {
            "cs": "Stránka pro sál: {url}",
            "sk": "Stránka pre sálu: {url}",
            "en": "Hall screen: {url}",
        },
        "screen.address.qr_key": {
            "cs": "Q = QR kód",
            "sk": "Q = QR kód",
            "en": "Q = QR code",
        },
        "screen.address.off": {
            "cs": "Stránka pro sál neběží.",
            "sk": "Stránka pre sálu nebeží.",
            "en": "The hall screen is not running.",
        },
        "screen.qr.caption": {
            "cs": "Naskenujte telefonem: kde hrajete, výsledky a pořadí",
            "sk": "Naskenujte telefónom: kde hráte, výsledky a poradie",
            "en": "Scan with your phone: where you play, results and standings",
        },
        "screen.qr.close": {"cs": "Esc = zpět", "sk": "Esc = späť", "en": "Esc = back"},
        "screen.qr.binding": {"cs": "QR kód", "sk": "QR kód", "en": "QR code"},
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

# -- h-g: kiosk (rate-limit wait, lexicon swap on the dashboard) --
MESSAGES.update(
    {
        "kiosk.refused.wait_title": {"cs": "POČKEJTE", "sk": "POČKAJTE", "en": "PLEASE WAIT"},
        "kiosk.refused.wait": {
            "cs": {
                "one": "Počkejte {n} sekundu.",
                "few": "Počkejte {n} sekundy.",
                "other": "Počkejte {n} sekund.",
            },
            "sk": {
                "one": "Počkajte {n} sekundu.",
                "few": "Počkajte {n} sekundy.",
                "other": "Počkajte {n} sekúnd.",
            },
            "en": {"one": "Wait {n} second.", "other": "Wait {n} seconds."},
        },
        "dash.lex.pending": {
            "cs": "přepne se",
            "sk": "prepne sa",
            "en": "switching",
        },
    }
)
