"""The web server: app, protocol, rooms, storage."""
