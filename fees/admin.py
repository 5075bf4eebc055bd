"""Admin registrations of the fees app (none yet: there are no models)."""
