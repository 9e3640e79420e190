"""The GraphQL layer of `server.reports`."""
