"""The GraphQL layer of `server.comparisons`."""
