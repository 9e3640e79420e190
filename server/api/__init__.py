"""The GraphQL layer: schema, context, types, resolvers, loaders, subscriptions, the HTTP
plumbing and the fast read paths. Nothing below it imports it (docs/architecture.md)."""
