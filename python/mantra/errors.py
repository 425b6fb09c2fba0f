"""The one error type the CLI turns into a one-line message and exit status 2."""


class InputError(Exception):
    """Bad user input: a file, key or value the CLI cannot use."""


class SpecKeyError(InputError):
    """A run spec refused: the key it is about ("flows[0].rate", "" for the whole spec) and
    what is wrong, apart, as mantra-sim's `--check --json` gives them."""

    def __init__(self, key: str, message: str):
        super().__init__(f"spec: {key}: {message}" if key else f"spec: {message}")
        self.key = key
        self.message = message

    @property
    def text(self) -> str:
        """The key and the message, as one line: 'flows[0].rate: ... is out of range (...)'."""
        return f"{self.key}: {self.message}" if self.key else self.message
