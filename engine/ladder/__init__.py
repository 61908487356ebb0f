"""The technique ladder, written once for every game: the Step value, the technique table, and the
restart-at-the-cheapest loop with a cap. Games supply a state (apply / is_solved / is_contradiction)
and their table of techniques; grading and bands are per game."""

from engine.ladder.loop import NoProgress, SolveResult, State, run, summarize
from engine.ladder.step import Step
from engine.ladder.table import Ladder, Technique

__all__ = ["Ladder", "NoProgress", "SolveResult", "State", "Step", "Technique", "run", "summarize"]
