"""Device memory pools."""
