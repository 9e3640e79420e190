"""The GraphQL layer of `server.workspaces`."""
