"""The command line: `shipwise` (`app`), its API client, banner, demo and commands."""
