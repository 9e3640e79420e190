"""The GraphQL layer of `server.webhooks`."""
