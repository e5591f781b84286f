"""The dashboard's screens, one module each; :mod:`hub.screens.base` holds what they share."""
