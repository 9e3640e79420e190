"""The GraphQL layer of `server.verdicts`."""
