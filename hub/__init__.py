"""The referee's machine: lexicon building, stations, rounds, results, standings, pairings."""
