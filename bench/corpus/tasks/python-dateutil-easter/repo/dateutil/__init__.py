# -*- coding: utf-8 -*-
"""Extensions to the standard Python datetime module (the easter module only)."""

__version__ = "2.9.0"

__all__ = ["easter"]
