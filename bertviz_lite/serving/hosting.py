"""Hosted mode, as the app and the image see it. The rules themselves (no local directories, a parameter budget
checked from the config alone) belong to loading, which applies them: see `loading/limits.py`."""
from ..loading.limits import DEFAULT_MAX_PARAMETERS, Limits, count_parameters, is_hosted

__all__ = ["DEFAULT_MAX_PARAMETERS", "Limits", "count_parameters", "is_hosted"]
