"""Output formats: each renders an AuditResult; none of them knows about libcst."""
