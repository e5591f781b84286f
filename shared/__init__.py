"""What the station and the hub both use: alphabets, word normalisation, the lexicon
format, the wire protocol and the clock maths.

Nothing in here imports from ``station`` or ``hub``.
"""

__version__ = "0.1.0"
