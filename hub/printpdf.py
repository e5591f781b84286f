"""A4 HTML to PDF through Debian's headless Chromium (``hub export --pdf``).

Why Chromium and not WeasyPrint: the hall screen's tests already drive Debian's
``chromium`` package, so the hub needs nothing new; Chromium's print engine repeats table
headers and fills the CSS page-margin boxes (the event header and „strana N z M“ on every
page) exactly as a director's own browser prints the same HTML, so the PDF on the USB
stick and the page printed from the browser look the same. WeasyPrint would add a Python
dependency with native libraries (Pango, cairo) for a second, slightly different layout
engine.

The HTML is written to a private temporary folder and printed from a ``file://`` address;
Chromium runs with a throw-away profile, no network, and is stopped after ``timeout``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

CANDIDATES = ("chromium", "chromium-browser", "google-chrome")


class PdfError(OSError):
    """The PDF could not be made (no Chromium, or it failed); the message says why."""


def chromium() -> str:
    """The browser binary: ``$SAMOOBSLUHA_CHROMIUM`` or the first of :data:`CANDIDATES`."""
    wanted = os.environ.get("SAMOOBSLUHA_CHROMIUM")
    for name in ([wanted] if wanted else []) + list(CANDIDATES):
        found = shutil.which(name)
        if found:
            return found
    raise PdfError("no Chromium found: install Debian's 'chromium' package")


def html_to_pdf(html: str, out: Path, *, timeout: float = 120.0) -> Path:
    """Print ``html`` (a whole A4 document) to the PDF file ``out``."""
    binary = chromium()
    out = Path(out).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="samoobsluha-pdf-") as folder:
        page = Path(folder) / "print.html"
        page.write_text(html, encoding="utf-8")
        partial = Path(folder) / "print.pdf"
        args = [
            binary,
            "--headless=new",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--no-pdf-header-footer",  # the page's own margin boxes carry the header
            f"--user-data-dir={Path(folder) / 'profile'}",
            f"--print-to-pdf={partial}",
            page.as_uri(),
        ]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # Chromium refuses to sandbox as root
        try:
            done = subprocess.run(
                args, capture_output=True, text=True, timeout=timeout, check=False
            )
        except subprocess.TimeoutExpired as exc:
            raise PdfError(f"Chromium did not finish printing in {timeout:.0f} s") from exc
        if not partial.exists() or partial.stat().st_size == 0:
            raise PdfError(f"Chromium made no PDF: {done.stderr.strip()[-400:]}")
        shutil.move(str(partial), out)
    return out
