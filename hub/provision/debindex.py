"""A ``Packages`` index for a folder of ``.deb`` files, so apt can use it as a local repository.

install.sh points apt at ``deb [trusted=yes] file:/boot/firmware/samoobsluha/debs ./`` and
installs packages by name: apt resolves dependencies from the folder plus what is already
installed, installs only what the role needs, and never touches the network. (Handing apt
the .deb files directly fails offline: apt then wants the mirror's copy of packages it has
lists for, and its debconf pre-install hook rejects the file names.)

Pure standard library (no dpkg-dev on the organiser's laptop or a fresh Pi):
``python -m samoobsluha.hub.provision.debindex DIR`` (provisioning/build-bundle.sh).
"""

from __future__ import annotations

import hashlib
import io
import sys
import tarfile
from pathlib import Path


class DebError(ValueError):
    """Not a .deb file we can read."""


def _ar_members(data: bytes) -> dict[str, bytes]:
    if not data.startswith(b"!<arch>\n"):
        raise DebError("not an ar archive")
    members: dict[str, bytes] = {}
    pos = 8
    while pos + 60 <= len(data):
        header = data[pos : pos + 60]
        name = header[:16].decode().strip().rstrip("/")
        size = int(header[48:58].decode().strip())
        start = pos + 60
        members[name] = data[start : start + size]
        pos = start + size + (size % 2)
    return members


def control_fields(deb: Path) -> str:
    """The package's ``control`` file, as text."""
    members = _ar_members(deb.read_bytes())
    name = next((n for n in members if n.startswith("control.tar")), None)
    if name is None:
        raise DebError(f"{deb.name}: no control.tar member")
    if name.endswith(".zst"):
        raise DebError(f"{deb.name}: zstd-compressed control (not readable by Python < 3.14)")
    with tarfile.open(fileobj=io.BytesIO(members[name])) as tar:
        for member in tar.getmembers():
            if member.name in ("./control", "control"):
                fh = tar.extractfile(member)
                assert fh is not None
                return fh.read().decode("utf-8").strip("\n")
    raise DebError(f"{deb.name}: no control file")


def packages_index(folder: Path) -> str:
    stanzas = []
    for deb in sorted(folder.glob("*.deb")):
        data = deb.read_bytes()
        stanzas.append(
            control_fields(deb)
            + f"\nFilename: ./{deb.name}\nSize: {len(data)}"
            + f"\nSHA256: {hashlib.sha256(data).hexdigest()}\n"
        )
    return "\n".join(stanzas)


def write_index(folder: Path) -> int:
    """Write ``folder/Packages``; returns the number of packages indexed."""
    text = packages_index(folder)
    (folder / "Packages").write_text(text, encoding="utf-8")
    return text.count("\nFilename: ")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m samoobsluha.hub.provision.debindex DIR", file=sys.stderr)
        return 2
    try:
        n = write_index(Path(args[0]))
    except (DebError, OSError) as exc:
        print(f"debindex: {exc}", file=sys.stderr)
        return 1
    print(f"indexed {n} packages in {args[0]}/Packages")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
