"""GraphiQL on `GET /graphql`, its files served by shipwise itself so it works offline."""
