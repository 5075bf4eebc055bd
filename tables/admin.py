"""Admin registrations of the tables app (none yet: there are no models)."""
