"""Device and host pools."""
