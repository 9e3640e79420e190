"""The GraphQL layer of `server.connections`."""
