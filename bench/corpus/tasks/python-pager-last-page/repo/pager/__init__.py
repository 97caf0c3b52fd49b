"""Pagination arithmetic for list views: page counts, slices and page links."""
from .pages import Page, paginate, page_links

__all__ = ["Page", "paginate", "page_links"]
