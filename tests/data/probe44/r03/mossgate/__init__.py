"""mossgate - fork of an open-source engine, MLA cache path."""
