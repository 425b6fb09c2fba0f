"""The one error type the CLI turns into a one-line message and exit status 2."""


class InputError(Exception):
    """Bad user input: a file, key or value the CLI cannot use."""
