"""The GraphQL layer of `server.assets`."""
