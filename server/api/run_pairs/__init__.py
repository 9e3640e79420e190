"""The GraphQL layer of `server.run_pairs`."""
