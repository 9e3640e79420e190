"""The GraphQL layer of `server.datasets`."""
