"""puzzlefleet: the command line over the engine and the store (`puzzlefleet.cli:console`)."""
