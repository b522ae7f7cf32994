"""The two kinds of failure a user can cause, each carrying one sentence that says what to do.

Pages show `str(error)` in the page and the CLI prints it on stderr, so the message must stand on its own:
what went wrong and how to fix it, never a traceback.
"""


class BertvizLiteError(Exception):
    """Base class: anything raised on purpose by bertviz_lite, with a message meant for people."""


class LoadError(BertvizLiteError):
    """A model could not be loaded (unknown id, no network, unreadable directory, unsupported family...)."""


class InputError(BertvizLiteError):
    """The text or an argument cannot be traced (empty text, a layer that does not exist...)."""
