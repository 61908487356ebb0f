"""What every verb of the command line shares: its exit codes and the error printed as one line."""

EXIT_BAD_INPUT, EXIT_NOT_FOUND, EXIT_SEVERAL, EXIT_NONE = 2, 1, 3, 4
EXIT_NO_WORKER = 5                  # enqueue --wait: still queued at --timeout, nobody consumes the queue
EXIT_UNREACHABLE = 6                # the store or the broker did not answer: try again later
EXIT_JOB_EXISTS = 7                 # enqueue: the job exists (its id printed) and was sent, but a later
                                    # step failed (asking the workers, following it): do not send it again
EXIT_INTERRUPTED = 130             # 128 + SIGINT, as shells report it


class UsageError(Exception):
    """Bad command-line input: printed as one line, exit 2."""


class MissingExtra(UsageError):
    """A verb needs an optional part of the install (pip install 'puzzlefleet[fleet]', ...)."""

    def __init__(self, extra: str, module: str) -> None:
        super().__init__(f"this needs the '{extra}' extra (missing module {module}): "
                         f"pip install 'puzzlefleet[{extra}]'")
