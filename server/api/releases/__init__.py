"""The GraphQL layer of `server.releases`."""
