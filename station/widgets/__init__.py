"""Small widgets of the kiosk: big block letters, the round clock, the word input."""
