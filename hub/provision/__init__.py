"""First-boot configuration for Raspberry Pi OS cards: ``hub provision station|hub``.

The generator (``generator.py``) renders everything a blank Raspberry Pi OS card needs to
become a station or the hub with no internet at the venue, onto its mounted boot partition
(or into any folder):

* ``user-data``, ``network-config``, ``meta-data``: cloud-init (Raspberry Pi OS Trixie
  cards only);
* ``firstrun.sh`` + a ``cmdline.txt`` trigger: Bookworm cards only (no cloud-init there);
* ``samoobsluha/``: the installer (``install.sh``) and its ``setup.env``, the station
  configuration, the tournament key, systemd units, chrony, watchdog and kiosk files, and
  optionally the offline bundle (wheelhouse, Debian packages) and lexicons. install.sh
  wipes the secrets among them from the card at first boot (``payload/wipe-secrets``).

The Pi-side files live in ``payload/`` (package data, so an installed ``hub`` can write
them); the organiser-side scripts (bundle builder, data partition, dry run) live in the
repository's top-level ``provisioning/`` folder.
"""

from samoobsluha.hub.provision.generator import (
    NetworkSpec,
    ProvisionError,
    ProvisionSpec,
    render,
    write,
)

__all__ = ["NetworkSpec", "ProvisionError", "ProvisionSpec", "render", "write"]
