"""The GraphQL layer of `server.spend`."""
