"""The GraphQL layer of `server.audit`."""
