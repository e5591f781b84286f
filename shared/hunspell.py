"""Expand a hunspell ``.dic``/``.aff`` pair into every word form it accepts.

Debian's ``hunspell-cs`` and ``hunspell-sk`` are the default lexicon sources when an
organiser has no official word list. Hunspell stores a stem plus affix flags; a word
judge needs the forms themselves. This module implements the parts of hunspell's affix
model those dictionaries (and most others without compounding) use:

* ``PFX``/``SFX`` tables with strip, add, condition and the cross-product flag;
* continuation classes on affixes (two-level suffixes, suffix-enabled prefixes);
* ``FLAG`` types ``char`` (default), ``long``, ``num`` and ``UTF-8``, and ``AF`` aliases;
* ``NEEDAFFIX`` (stem alone is not a word), ``FORBIDDENWORD``, ``ONLYINCOMPOUND``,
  ``CIRCUMFIX`` (a circumfix affix needs its partner), ``IGNORE``.

Compounding (``COMPOUNDFLAG`` …) is not expanded: a compounding dictionary accepts an
unbounded language and cannot become a finite list. :func:`read_aff` reports such
options in :attr:`Affixes.unsupported` so the caller can say so.

The tests prove faithfulness against the hunspell binary itself (a sample of built forms
must be accepted by hunspell, and words of real text that hunspell accepts must be built).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

_COMPOUND_OPTIONS = ("COMPOUNDFLAG", "COMPOUNDBEGIN", "COMPOUNDMIDDLE", "COMPOUNDEND",
                     "COMPOUNDRULE", "ONLYINCOMPOUND_SUPPORTED")  # fmt: skip


@dataclass(slots=True)
class AffixRule:
    flag: str
    is_prefix: bool
    cross: bool
    strip: str
    add: str
    contflags: frozenset[str]
    condition: str
    matcher: Callable[[str], bool]
    positions: int  # how many characters at the stem's edge the test can look at


@dataclass
class Affixes:
    """A parsed ``.aff`` file."""

    encoding: str = "UTF-8"
    flag_type: str = "char"
    prefixes: dict[str, list[AffixRule]] = field(default_factory=dict)
    suffixes: dict[str, list[AffixRule]] = field(default_factory=dict)
    aliases: list[frozenset[str]] = field(default_factory=list)
    needaffix: str | None = None
    forbidden: str | None = None
    onlyincompound: str | None = None
    circumfix: str | None = None
    ignore: str = ""
    unsupported: list[str] = field(default_factory=list)

    def parse_flags(self, text: str) -> frozenset[str]:
        """Split a flag field per ``FLAG`` (or resolve an ``AF`` alias number)."""
        if not text:
            return frozenset()
        if self.aliases and text.isdigit():
            index = int(text)
            if 1 <= index <= len(self.aliases):
                return self.aliases[index - 1]
        if self.flag_type == "long":
            return frozenset(text[i : i + 2] for i in range(0, len(text), 2))
        if self.flag_type == "num":
            return frozenset(part for part in text.split(",") if part)
        return frozenset(text)


def _condition_tokens(condition: bytes) -> list[bytes]:
    """Split a condition into single bytes and whole ``[...]`` groups."""
    tokens: list[bytes] = []
    i = 0
    while i < len(condition):
        if condition[i : i + 1] == b"[":
            close = condition.find(b"]", i + 1)
            if close < 0:
                raise ValueError(f"unterminated [ in affix condition {condition!r}")
            tokens.append(condition[i : close + 1])
            i = close + 1
        else:
            tokens.append(condition[i : i + 1])
            i += 1
    return tokens


def _suffix_condition_bytes(condition: bytes) -> bytes:
    """Hunspell stores a suffix condition byte-reversed (groups kept as groups, their
    contents reversed too) and matches it from the end of the word backwards."""
    out = []
    for token in reversed(_condition_tokens(condition)):
        if token.startswith(b"["):
            body = token[1:-1]
            neg = body.startswith(b"^")
            body = body[1:] if neg else body
            out.append(b"[" + (b"^" if neg else b"") + body[::-1] + b"]")
        else:
            out.append(token)
    return b"".join(out)


def _condlen(condition: bytes) -> int:
    """Hunspell's ``numconds``: a group counts one, and outside groups every ASCII or
    UTF-8 continuation byte counts one (so each character counts once)."""
    n = 0
    group = False
    for b in condition:
        if b == 0x5B:  # [
            group = True
            n += 1
        elif b == 0x5D:  # ]
            group = False
        elif not group and (b < 0x80 or (b & 0xC0) == 0x80):
            n += 1
    return n


_LBRACKET, _RBRACKET, _CARET, _DOT = 0x5B, 0x5D, 0x5E, 0x2E


def _suffix_test(cond: bytes, numconds: int, word: bytes) -> bool:
    """Hunspell 1.7's ``SfxEntry::test_condition`` on UTF-8 bytes, quirks included.

    It must be byte-faithful rather than "correct": hunspell's backward scan lets a
    ``.`` swallow a preceding multi-byte letter, so a rule such as ``[áéíóú].a`` never
    fires on ``…úra`` words, and hunspell rejects what a regular expression would
    generate. We build exactly what hunspell accepts.
    """
    if numconds == 0:
        return True
    end = len(cond)

    def nxt(i: int) -> int | None:
        i += 1
        return i if i < end else None

    def at(i: int) -> int:
        return word[i] if i >= 0 else -1

    p: int | None = 0
    st = len(word) - 1
    pos: int | None = None
    neg = ingroup = False
    count = 1
    while p is not None:
        c = cond[p]
        if c == _LBRACKET:
            p = nxt(p)
            pos = st
        elif c == _CARET:
            p = nxt(p)
            neg = True
        elif c == _RBRACKET:
            if not neg and not ingroup:
                return False
            count += 1
            if not ingroup:
                while st >= 0 and (word[st] & 0xC0) == 0x80:
                    st -= 1
                st -= 1
            pos = None
            neg = ingroup = False
            p = nxt(p)
            if st < 0 and p is not None:
                return False
        elif c == _DOT and pos is None:
            p = nxt(p)
            st -= 1
            while st >= 0 and (word[st] & 0xC0) == 0x80:
                st -= 1
            if st < 0:
                return p is None
            if word[st] & 0x80:
                st -= 1
                if st < 0:
                    return p is None
        elif at(st) == c:
            p = nxt(p)
            if word[st] & 0x80:
                st -= 1
                while p is not None and st >= 0:
                    if cond[p] != word[st]:
                        if pos is None:
                            return False
                        st = pos
                        break
                    if (cond[p] & 0xC0) != 0x80:
                        break
                    p = nxt(p)
                    st -= 1
                if pos is not None and st != pos:
                    if neg:
                        return False
                    if count == numconds:
                        return True
                    ingroup = True
                    while p is not None and cond[p] != _RBRACKET:
                        p = nxt(p)
                    st -= 1
                if p is not None and cond[p] != _RBRACKET:
                    p = nxt(p)
            elif pos is not None:
                if neg:
                    return False
                if count == numconds:
                    return True
                ingroup = True
                while p is not None and cond[p] != _RBRACKET:
                    p = nxt(p)
                st -= 1
            if pos is None:
                count += 1
                st -= 1
            if st < 0 and p is not None and cond[p] != _RBRACKET:
                return False
        elif pos is not None:
            p = nxt(p)
        else:
            return False
    return True


def _prefix_test(cond: bytes, numconds: int, word: bytes) -> bool:
    """Hunspell 1.7's ``PfxEntry::test_condition`` on UTF-8 bytes (forward scan)."""
    if numconds == 0:
        return True
    end = len(cond)

    def nxt(i: int) -> int | None:
        i += 1
        return i if i < end else None

    def at(i: int) -> int:
        return word[i] if i < len(word) else 0

    p: int | None = 0
    st = 0
    pos: int | None = None
    neg = ingroup = False
    while p is not None:
        c = cond[p]
        if c == _LBRACKET:
            neg = ingroup = False
            p = nxt(p)
            pos = st
        elif c == _CARET:
            p = nxt(p)
            neg = True
        elif c == _RBRACKET:
            if neg == ingroup:
                return False
            pos = None
            p = nxt(p)
            if not ingroup and at(st):
                st += 1
                while (at(st) & 0xC0) == 0x80:
                    st += 1
            if at(st) == 0 and p is not None:
                return False
        elif c == _DOT and pos is None:
            p = nxt(p)
            st += 1
            while (at(st) & 0xC0) == 0x80:
                st += 1
            if at(st) == 0 and p is not None:
                return False
        elif at(st) == c:
            st += 1
            p = nxt(p)
            if at(st - 1) & 0x80:
                while p is not None and (cond[p] & 0xC0) == 0x80:
                    if cond[p] != at(st):
                        if pos is None:
                            return False
                        st = pos
                        break
                    p = nxt(p)
                    st += 1
                if pos is not None and st != pos:
                    ingroup = True
                    while p is not None and cond[p] != _RBRACKET:
                        p = nxt(p)
            elif pos is not None:
                ingroup = True
                while p is not None and cond[p] != _RBRACKET:
                    p = nxt(p)
        elif pos is not None:
            p = nxt(p)
        else:
            return False
    return True


def _has_bare_dot(condition: str) -> bool:
    return condition not in (".", "") and "." in re.sub(r"\[[^\]]*\]", "", condition)


def _condition_regex(condition: str, *, is_prefix: bool) -> re.Pattern[str] | None:
    if condition in (".", ""):
        return None
    parts: list[str] = []
    for text in re.findall(r"\[[^\]]*\]|.", condition, re.DOTALL):
        if text.startswith("["):
            body = text[1:-1]
            neg = body.startswith("^")
            parts.append(f"[{'^' if neg else ''}{re.escape(body[1:] if neg else body)}]")
        else:
            parts.append("." if text == "." else re.escape(text))
    pattern = "".join(parts)
    return re.compile(pattern if is_prefix else pattern + "$", re.DOTALL)


def _condition_matcher(
    condition: str, strip: str, *, is_prefix: bool
) -> tuple[Callable[[str], bool], int]:
    """A test of whether an affix applies to a stem, exactly as hunspell decides it, and
    how many characters at the stem's edge it can look at."""
    strip_b = strip.encode()
    cond_text = condition
    # Hunspell drops a condition that only repeats the stripped characters.
    if (
        strip
        and condition != "."
        and (strip.startswith(condition) if is_prefix else strip.endswith(condition))
    ):
        cond_text = "."
    if cond_text in (".", ""):
        numconds, cond_b = 0, b""
    else:
        raw = cond_text.encode()
        numconds = _condlen(raw)
        cond_b = raw if is_prefix else _suffix_condition_bytes(raw)
    if not _has_bare_dot(cond_text):
        # Without a bare '.', hunspell's byte scan agrees with a regular expression (checked
        # over every stem and rule of hunspell-cs and hunspell-sk); use the fast one.
        regex = _condition_regex(cond_text, is_prefix=is_prefix)
        reach = max(numconds, len(strip))
        if regex is None:
            return (lambda word: len(word) > len(strip)), reach
        find = regex.match if is_prefix else regex.search
        return (lambda word: len(word) > len(strip) and find(word) is not None), reach

    # A dot may swallow an extra multi-byte letter in hunspell's suffix scan.
    reach = 2 * numconds + len(strip) + 1

    if is_prefix:

        def test(word: str) -> bool:
            data = word.encode()
            return len(data) > len(strip_b) and _prefix_test(cond_b, numconds, data)

    else:

        def test(word: str) -> bool:
            data = word.encode()
            return (
                len(data) > len(strip_b)
                and len(data) >= numconds
                and _suffix_test(cond_b, numconds, data)
            )

    return test, reach


def read_aff(path: Path | str) -> Affixes:
    raw = Path(path).read_bytes()
    # The SET line decides the encoding of both files; it is ASCII itself.
    encoding = "UTF-8"
    match = re.search(rb"^SET\s+(\S+)", raw, re.MULTILINE)
    if match:
        encoding = match.group(1).decode("ascii")
    aff = Affixes(encoding=encoding)
    lines = raw.decode(_python_encoding(encoding), errors="strict").splitlines()
    cross_of: dict[tuple[str, str], bool] = {}
    for line in lines:
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        key = parts[0]
        if key == "FLAG" and len(parts) > 1:
            aff.flag_type = {"long": "long", "num": "num", "UTF-8": "char"}.get(parts[1], "char")
        elif key == "AF" and len(parts) > 1 and not parts[1].isdigit():
            aff.aliases.append(aff.parse_flags(parts[1]))
        elif key == "NEEDAFFIX" and len(parts) > 1:
            aff.needaffix = parts[1]
        elif key == "FORBIDDENWORD" and len(parts) > 1:
            aff.forbidden = parts[1]
        elif key == "ONLYINCOMPOUND" and len(parts) > 1:
            aff.onlyincompound = parts[1]
        elif key == "CIRCUMFIX" and len(parts) > 1:
            aff.circumfix = parts[1]
        elif key == "IGNORE" and len(parts) > 1:
            aff.ignore = parts[1]
        elif key in _COMPOUND_OPTIONS:
            aff.unsupported.append(key)
        elif key in ("PFX", "SFX") and len(parts) >= 4:
            flag = parts[1]
            is_prefix = key == "PFX"
            table = aff.prefixes if is_prefix else aff.suffixes
            if (key, flag) not in cross_of and parts[2] in ("Y", "N") and parts[3].isdigit():
                # Table header: "SFX flag cross-product count".
                cross_of[(key, flag)] = parts[2] == "Y"
                table.setdefault(flag, [])
                continue
            strip = "" if parts[2] == "0" else parts[2]
            add_field = parts[3]
            add, _, cont = add_field.partition("/")
            add = "" if add == "0" else add
            if aff.ignore:
                add = add.translate({ord(c): None for c in aff.ignore})
            condition = parts[4] if len(parts) > 4 and not parts[4].startswith("#") else "."
            matcher, positions = _condition_matcher(condition, strip, is_prefix=is_prefix)
            table.setdefault(flag, []).append(
                AffixRule(
                    flag=flag,
                    is_prefix=is_prefix,
                    cross=cross_of.get((key, flag), False),
                    strip=strip,
                    add=add,
                    contflags=aff.parse_flags(cont),
                    condition=condition,
                    matcher=matcher,
                    positions=positions,
                )
            )
    return aff


def _python_encoding(name: str) -> str:
    return {"ISO8859-1": "latin-1", "ISO8859-2": "iso8859-2", "microsoft-cp1251": "cp1251"}.get(
        name, name
    )


@dataclass(slots=True)
class Stem:
    word: str
    flags: frozenset[str]


def read_dic(path: Path | str, aff: Affixes) -> Iterator[Stem]:
    """Yield the stems of a ``.dic`` file (the first line, the count, is skipped)."""
    text = Path(path).read_text(encoding=_python_encoding(aff.encoding))
    lines = text.splitlines()
    for line in lines[1:]:
        if not line or line.startswith(("#", "\t")):
            continue
        entry = line.split("\t", 1)[0]
        # Morphological fields follow a space ("po:noun"); an escaped slash is part of the word.
        entry = entry.split(" ", 1)[0] if " " in entry else entry
        word, flags = _split_entry(entry)
        if aff.ignore:
            word = word.translate({ord(c): None for c in aff.ignore})
        if word:
            yield Stem(word, aff.parse_flags(flags))


def _split_entry(entry: str) -> tuple[str, str]:
    i = 0
    while True:
        slash = entry.find("/", i)
        if slash < 0:
            return entry.replace("\\/", "/"), ""
        if slash > 0 and entry[slash - 1] == "\\":
            i = slash + 1
            continue
        return entry[:slash].replace("\\/", "/"), entry[slash + 1 :]


class Expander:
    """Generates every surface form of a stem. Condition matches are cached on the part
    of the word a flag's conditions can see, which makes expanding a whole dictionary a
    matter of seconds."""

    def __init__(self, aff: Affixes) -> None:
        self.aff = aff
        self._reach: dict[tuple[bool, str], int] = {}
        for table, is_prefix in ((aff.prefixes, True), (aff.suffixes, False)):
            for flag, rules in table.items():
                self._reach[(is_prefix, flag)] = max(
                    (max(r.positions, len(r.strip)) for r in rules), default=0
                )
        self._cache: dict[tuple[bool, str, str], tuple[AffixRule, ...]] = {}

    def _rules(self, is_prefix: bool, flag: str, word: str) -> tuple[AffixRule, ...]:
        table = self.aff.prefixes if is_prefix else self.aff.suffixes
        rules = table.get(flag)
        if not rules:
            return ()
        reach = self._reach[(is_prefix, flag)]
        # A short word is keyed whole (marked, since length matters to the test); a long
        # one only by the edge its conditions can see.
        if len(word) <= reach:
            key = (is_prefix, flag, "\0" + word)
        else:
            key = (is_prefix, flag, word[:reach] if is_prefix else word[-reach:])
        hit = self._cache.get(key)
        if hit is None:
            if is_prefix:
                hit = tuple(r for r in rules if word.startswith(r.strip) and r.matcher(word))
            else:
                hit = tuple(r for r in rules if word.endswith(r.strip) and r.matcher(word))
            self._cache[key] = hit
        return hit

    @staticmethod
    def _apply(rule: AffixRule, word: str) -> str:
        if rule.is_prefix:
            return rule.add + word[len(rule.strip) :]
        return (word[: len(word) - len(rule.strip)] if rule.strip else word) + rule.add

    def forms(self, stem: Stem) -> set[str]:
        aff = self.aff
        flags = stem.flags
        if aff.forbidden and aff.forbidden in flags:
            return set()
        if aff.onlyincompound and aff.onlyincompound in flags:
            return set()
        out: set[str] = set()
        circ = aff.circumfix
        if not (aff.needaffix and aff.needaffix in flags):
            out.add(stem.word)
        # Suffixes (one or two levels), each optionally combined with a prefix.
        suffixed: list[tuple[str, AffixRule, AffixRule | None]] = []
        for flag in flags:
            for rule in self._rules(False, flag, stem.word):
                form = self._apply(rule, stem.word)
                suffixed.append((form, rule, None))
                for flag2 in rule.contflags:
                    for rule2 in self._rules(False, flag2, form):
                        suffixed.append((self._apply(rule2, form), rule2, rule))
        for form, rule, outer in suffixed:
            cont = rule.contflags | (outer.contflags if outer else frozenset())
            needs_more = (aff.needaffix in cont if aff.needaffix else False) and outer is None
            is_circ = circ is not None and circ in cont
            if not needs_more and not is_circ:
                out.add(form)
            if not rule.cross:
                continue
            pflags = flags | rule.contflags
            for pflag in pflags:
                for prule in self._rules(True, pflag, form):
                    if not prule.cross:
                        continue
                    if is_circ != (circ is not None and circ in prule.contflags):
                        continue
                    out.add(self._apply(prule, form))
        # Prefixes alone (and their continuation suffixes).
        for flag in flags:
            for prule in self._rules(True, flag, stem.word):
                if circ is not None and circ in prule.contflags:
                    continue
                form = self._apply(prule, stem.word)
                if not (aff.needaffix and aff.needaffix in prule.contflags):
                    out.add(form)
                for flag2 in prule.contflags:
                    for srule in self._rules(False, flag2, form):
                        out.add(self._apply(srule, form))
        return out


def expand(dic: Path | str, aff_path: Path | str) -> Iterator[tuple[Stem, set[str]]]:
    """Yield each stem of ``dic`` with all of its forms."""
    aff = read_aff(aff_path)
    expander = Expander(aff)
    for stem in read_dic(dic, aff):
        yield stem, expander.forms(stem)


def forbidden_words(dic: Path | str, aff: Affixes) -> set[str]:
    """Surface forms the dictionary explicitly forbids (they never enter a lexicon)."""
    if not aff.forbidden:
        return set()
    return {stem.word for stem in read_dic(dic, aff) if aff.forbidden in stem.flags}


def hunspell_paths(prefix: str | Path) -> tuple[Path, Path]:
    """``/usr/share/hunspell/cs_CZ`` → the ``.dic`` and ``.aff`` paths (both must exist)."""
    base = Path(prefix)
    if base.suffix in (".dic", ".aff"):
        base = base.with_suffix("")
    dic, aff = base.with_suffix(".dic"), base.with_suffix(".aff")
    missing = [str(p) for p in (dic, aff) if not p.is_file()]
    if missing:
        from samoobsluha.shared.i18n import Phrase

        raise FileNotFoundError(Phrase("lexicon.err.no_hunspell", files=", ".join(missing)))
    return dic, aff


def iter_all_forms(pairs: Iterable[tuple[Stem, set[str]]]) -> Iterator[str]:
    for _stem, forms in pairs:
        yield from forms
