"""The read API and the player page: a FastAPI app over read-only store sessions.

    from store.api import create_app
    app = create_app("sqlite:///puzzles.db")   # or None: PUZZLEFLEET_DB / puzzles.db

`puzzlefleet serve` runs it under uvicorn."""

from store.api.app import create_app

__all__ = ["create_app"]
