'''
isodate: ISO 8601 date, time and duration handling (the Duration class only).
'''
from isodate.duration import Duration

__all__ = ['Duration']
