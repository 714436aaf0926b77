"""Rooms: a room's state and the one function that changes it (:mod:`.core`), the narrow
interfaces a room needs from the rest of the server (:mod:`.ports`), the room as the owner of
its connections, computers and hints (:mod:`.actor`), and every room of the process
(:mod:`.registry`)."""
