"""The portal (web/): its built files, served at `/` by `shipwise serve`."""
