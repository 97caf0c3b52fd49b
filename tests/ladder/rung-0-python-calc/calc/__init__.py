"""A tiny statistics helper library (slopguard ladder, rung 0)."""
