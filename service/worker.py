"""``python -m service.worker``: an RQ worker with its scheduler, which
lives in ``service.workers.__main__`` (``python -m service.workers`` too).
The entry point operators and compose files name stays where it was."""
from service.workers.__main__ import main

if __name__ == "__main__":
    main()
