"""SGLang HiCache fork: MLA token pool with an NSA indexer cache and a page-first host pool."""
