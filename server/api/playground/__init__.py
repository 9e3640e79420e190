"""The GraphQL layer of `server.playground`."""
