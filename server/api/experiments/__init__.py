"""The GraphQL layer of `server.experiments`."""
