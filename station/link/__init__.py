"""The station's link to its hub, below the outbox sender (station/sync.py):

* :mod:`.discovery` — where the hub is: ``host:port`` addresses (IPv6 in brackets) and the
  mDNS search for the hub of this tournament;
* :mod:`.clock` — what time the hub has: the NTP-style offset estimate and
  :class:`~.clock.HubClock`, the clock every round signal rings on.
"""
