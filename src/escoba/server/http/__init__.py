"""The server's front: the app factory (:mod:`.app`), the routes of each concern
(:mod:`.routes`), a room's WebSocket (:mod:`.socket`), what the routes are given (:mod:`.deps`),
the middleware, and the hardened HTTP transport uvicorn runs (:mod:`.transport`)."""
