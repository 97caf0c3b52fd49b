from .itertoolz import *  # noqa

__version__ = '0.12.1'
