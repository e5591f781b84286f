"""The hall station: the word-check kiosk, the round clock and the gong."""
