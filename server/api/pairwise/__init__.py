"""The GraphQL layer of `server.pairwise`."""
