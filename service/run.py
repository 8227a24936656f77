"""``python -m service.run`` (``make run``): the supervisor, which lives in
``service.runtime.run``. The entry point operators type stays where it was."""
import sys

from service.runtime.run import main

if __name__ == "__main__":
    sys.exit(main())
