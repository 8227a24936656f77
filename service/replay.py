"""``python -m service.replay``: replay, verify and reindex logs, which lives
in ``service.runtime.replay``. The entry point operators type stays where it
was."""
import sys

from service.runtime.replay import main

if __name__ == "__main__":
    sys.exit(main())
