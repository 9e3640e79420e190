"""Real stand-ins for external services, served over HTTP for tests."""
