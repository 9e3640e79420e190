"""Command-line API clients: each talks to a shipwise server over GraphQL, never to the database."""
