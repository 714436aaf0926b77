"""A site of several processes (``escoba serve --redis``): the rooms' leases and fencing
tokens (:mod:`.leases`), the bus between the processes (:mod:`.bus`), and which rooms this
process owns and which it follows (:mod:`.ownership`)."""
