"""What each serving engine contributes (its idioms and rule pack), one module per engine."""
