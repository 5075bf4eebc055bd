"""Admin registrations of the wagers app (none yet: there are no models)."""
