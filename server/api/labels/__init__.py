"""The GraphQL layer of human labels: `labelTrial`, `reviewQueue`, labels and agreement."""
