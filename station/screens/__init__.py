"""The kiosk's screens: idle (with the round clock), the word check, the verdict, the
referee's screens, result entry and "where do I play?"."""
