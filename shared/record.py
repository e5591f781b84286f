"""Read-only value objects for the modules every command start imports.

``@dataclass`` imports :mod:`inspect` (and with it ast, dis, tokenize, linecache) and
generates each class's methods by ``exec`` at import: about 8 ms of a 30 ms
``station check`` here, several times that on a Raspberry Pi. The few value classes on
that path (a normalised word, an alphabet, a lexicon's header and verdict, the station
configuration) derive from :class:`Record` instead: they list their ``_fields``, write
their ``__init__`` with :func:`object.__setattr__`, and get equality, hashing, a
``repr``, copying and read-only attributes from here (``__init__`` takes the fields
in ``_fields`` order). Everything else keeps ``@dataclass``;
tests/shared/test_startup_imports.py keeps the start-up path free of it.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: the point of this module is not to import it
if TYPE_CHECKING:
    from typing import Any, ClassVar


class Record:
    """Equality and hashing by ``_fields`` (and the exact type), ``Name(a=1, b=2)`` as
    repr, and no assignment after ``__init__`` — what ``@dataclass(frozen=True)`` gives."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Record)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._values()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({inner})"

    def __reduce__(self) -> tuple[Any, ...]:
        """Copy and pickle by calling ``__init__`` with the fields in order (every
        subclass's ``__init__`` takes them so)."""
        return (type(self), self._values())

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only: cannot delete {name!r}")
