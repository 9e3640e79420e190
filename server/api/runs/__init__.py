"""The GraphQL layer of `server.runs`."""
