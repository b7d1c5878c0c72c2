"""Any other game, by its final scores: the generic scorer for games without an engine of their
own, and for plays of ours known by their final scores only."""

from scoring.engine.other.engine import ENGINE, OtherEngine
from scoring.engine.other.scores import score_result

__all__ = ["ENGINE", "OtherEngine", "score_result"]
