"""Stage 4: a safe abstract interpreter that runs pool constructors over the syntax tree."""
