# Stored with every board; bump it when generation or grading changes what a board would carry.
ENGINE_VERSION = "0.14.0"
