"""Stage 4, which host pool mirrors which device pool: construction sites, guards, declared data."""
